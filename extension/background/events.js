// Forwarding host events to content scripts, and remembering which tabs have
// a content script to serve (so the port, which keeps the worker alive, stays
// open only while it is useful). Pure: the tabs API and the storage area are
// passed in.

import { MessageType, SessionKey } from './constants.js';

/** The tabs.sendMessage payload for a host `settingsChanged` event (or a local save). */
export function settingsChangedMessage(frame) {
  const message = { type: MessageType.SETTINGS_CHANGED };
  if (frame && typeof frame.settings === 'object' && frame.settings !== null) message.settings = frame.settings;
  if (frame && typeof frame.rules === 'object' && frame.rules !== null) message.rules = frame.rules;
  return message;
}

/**
 * Sends `message` to every tab's content script. Tabs without one reject;
 * that is expected and ignored. Resolves with the number of tabs reached.
 */
export async function broadcastToTabs(tabs, message) {
  const all = await tabs.query({});
  const results = await Promise.allSettled(
    all.filter((tab) => typeof tab.id === 'number').map((tab) => tabs.sendMessage(tab.id, message)),
  );
  return results.filter((result) => result.status === 'fulfilled').length;
}

/**
 * Handles one host event frame. Only `settingsChanged` is known; others are
 * ignored (the protocol may add events).
 */
export async function forwardHostEvent(tabs, frame) {
  if (frame?.event !== 'settingsChanged') return 0;
  return broadcastToTabs(tabs, settingsChangedMessage(frame));
}

/**
 * The set of tab ids with a content script, kept in storage.session so a
 * restarted worker knows it still has tabs to serve.
 * @param {{get: Function, set: Function}} [area] storage.session (may be missing)
 * @param {(count: number) => void} onChange called with the new size
 */
export function createTabRegistry(area, onChange = () => {}) {
  let ids = null; // cache of the stored set; null until loaded
  let chain = Promise.resolve();

  async function load() {
    if (ids) return ids;
    let stored = [];
    try {
      stored = (await area?.get(SessionKey.SERVED_TABS))?.[SessionKey.SERVED_TABS] ?? [];
    } catch {
      stored = [];
    }
    ids = new Set(Array.isArray(stored) ? stored.filter((id) => typeof id === 'number') : []);
    return ids;
  }

  function update(mutate) {
    chain = chain.then(async () => {
      const set = await load();
      const before = set.size;
      const changed = mutate(set);
      if (changed) {
        try {
          await area?.set({ [SessionKey.SERVED_TABS]: [...set] });
        } catch {
          // storage.session unavailable: the in-memory set still works
        }
      }
      if (changed || before !== set.size) onChange(set.size);
      return set.size;
    });
    return chain;
  }

  return {
    add: (tabId) => update((set) => (set.has(tabId) ? false : (set.add(tabId), true))),
    remove: (tabId) => update((set) => set.delete(tabId)),
    /** Loads the stored set and reports its size (call once at worker start). */
    restore: () => update(() => false).then((size) => (onChange(size), size)),
  };
}
