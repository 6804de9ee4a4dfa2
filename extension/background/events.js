// Sending page states to content scripts, and remembering which tabs have
// a content script that asked for one (so the port, which keeps the worker alive, stays
// open only while it is useful). Pure: the tabs API and the storage area are
// passed in.

import { MessageType, SessionKey } from '../shared/constants.js';
import { pageStateMessage } from './page-state.js';

/**
 * Sends `message` to the content scripts (every frame) of the given tabs.
 * Tabs without one reject; that is expected and ignored. Resolves with the
 * number of tabs reached.
 */
export async function sendToTabs(tabs, tabIds, message) {
  const results = await Promise.allSettled(
    [...tabIds].filter((id) => typeof id === 'number').map((id) => tabs.sendMessage(id, message)),
  );
  return results.filter((result) => result.status === 'fulfilled').length;
}

/**
 * Broadcasts a complete page state to the tabs that asked for one. Whether it
 * is new is the page state's business (page-state.js calls this only for a
 * state that differs from the last one).
 */
export function createBroadcaster(tabs, registry) {
  return async function broadcast(state) {
    if (state?.status !== 'success') return 0;
    return sendToTabs(tabs, await registry.list(), pageStateMessage(MessageType.PAGE_STATE, state));
  };
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
    /** The tab ids, once the stored set is loaded. */
    list: () => chain.then(() => load()).then((set) => [...set]),
    /** Loads the stored set and reports its size (call once at worker start). */
    restore: () => update(() => false).then((size) => (onChange(size), size)),
  };
}
