// The background's wiring: browser APIs to the pure modules beside it —
// HostClient (the port), the page state (what content scripts apply), the
// router (runtime.onMessage), the broadcasts — and, for the app's features
// only (app/app.js), the menus, the save-page shortcut and undo.
// `startBackground` runs synchronously when background.js is evaluated, so
// every listener is registered at the top level of the worker's first turn and
// a restarted worker receives the event that woke it. Nothing here survives a
// restart except through storage.session; the port is re-opened lazily and the
// page state fetched again.

import { Feature, MenuId, SessionKey, UNDO_WINDOW_MS, hasFeature } from '../shared/constants.js';
import { ConnectionState, HostClient } from './host-client.js';
import { createRouter } from './router.js';
import { createBroadcaster, createTabRegistry } from './events.js';
import { createPageState } from './page-state.js';
import { createMenuHandlers, createSaver, hasMenus, menuEntries } from './menus.js';

/**
 * Wires the background for `app` ({hostName, features, actions}: app/app.js).
 * @param {object} api `browser` (Firefox) or `chrome`
 * @param {{hostName: string, features: readonly string[], actions?: object}} app
 * @returns {{appAction: (action: string, payload?: object) => Promise<object>}} the background's own
 *   way to call a declared app action (caller `background`)
 */
export function startBackground(api, app) {
  const features = app.features;
  const saving = hasFeature(features, Feature.SAVING);
  const session = api.storage?.session;
  const log = (...args) => console.warn('[extension-bridge]', ...args);

  let pageState = null;

  /** Fetches the page state again; the page state sends it to the tabs that asked if it changed. */
  function refresh() {
    pageState.refresh().catch((error) => log('page state refresh failed:', error));
  }

  const client = new HostClient({
    runtime: api.runtime,
    hostName: app.hostName,
    log,
    onEvent: (frame) => {
      // A pageState push: the page state takes it (and its one door, enter, decides what is new).
      pageState.accept(frame).catch((error) => log('page state push failed:', error));
    },
    onStatus: (snapshot) => {
      pageState?.connectionChanged();
      session?.set({ [SessionKey.HOST_STATUS]: snapshot }).catch(() => {});
    },
  });

  // Keep the port (and with it this worker) alive while a tab has a content
  // script to send page states to.
  const tabs = createTabRegistry(session, (count) => client.setKeepAlive(count > 0));
  const broadcast = createBroadcaster(api.tabs, tabs);
  pageState = createPageState({
    host: client,
    isConnected: () => client.state === ConnectionState.CONNECTED,
    isConnecting: () => client.state === ConnectionState.CONNECTING,
    onChange: (state) => {
      broadcast(state).catch((error) => log('page state broadcast failed:', error));
    },
  });

  // ---- save and transform: menus, shortcut, undo (only the app's features) ----

  // Without a feature that has menu entries the manifest asks no contextMenus permission (the API is absent)
  // and nothing is registered.
  const menus = hasMenus(features) ? (api.contextMenus ?? api.menus) : undefined;
  const t = (key, substitutions) => api.i18n.getMessage(key, substitutions) || key;
  let undoTimer = null;
  let undoBadgeTab;

  /** Tells the user what a menu entry or the shortcut did: the badge and the button's title on that tab. */
  function notify(tab, what, detail = {}) {
    const tabId = typeof tab?.id === 'number' ? tab.id : undefined;
    const badge = { saved: '✓', undone: '↶', replaced: '✓', copied: '⧉', error: '!' }[what] ?? '';
    const titles = {
      saved: t(detail.duplicate ? 'notifyAlreadySaved' : 'notifySaved', [String(Math.round(UNDO_WINDOW_MS / 1000))]),
      undone: t('notifyUndone'),
      replaced: t('notifyReplaced'),
      copied: t('notifyCopied'),
      error: `${t('notifyError')} ${detail.message ?? detail.code ?? ''}`.trim(),
    };
    api.action?.setBadgeText?.({ text: badge, tabId })?.catch?.(() => {});
    api.action?.setTitle?.({ title: titles[what] ?? t('actionTitle'), tabId })?.catch?.(() => {});
    if (what === 'saved') {
      undoBadgeTab = tabId;
    }
  }

  /** The undo entry is there while the last save can be undone (UNDO_WINDOW_MS). */
  function showUndo(visible) {
    menus?.update(MenuId.UNDO_SAVE, { visible })?.catch?.(() => {});
    if (undoTimer !== null) clearTimeout(undoTimer);
    undoTimer = null;
    if (!visible) return;
    undoTimer = setTimeout(() => {
      undoTimer = null;
      menus?.update(MenuId.UNDO_SAVE, { visible: false })?.catch?.(() => {});
      if (undoBadgeTab !== undefined) api.action?.setBadgeText?.({ text: '', tabId: undoBadgeTab })?.catch?.(() => {});
    }, UNDO_WINDOW_MS);
  }

  const saver = createSaver({
    host: client, storage: session, onSaved: (record) => showUndo(record.undoable === true), onUndone: () => showUndo(false),
  });
  const menuHandlers = createMenuHandlers({ saver, host: client, tabs: api.tabs, notify, features });

  function createMenus() {
    if (!menus) return;
    Promise.resolve(menus.removeAll()).catch(() => {}).then(() => {
      for (const entry of menuEntries(t, features)) {
        menus.create(entry, () => {
          const error = api.runtime.lastError; // read, so Chromium does not log it as unchecked
          if (error) log('menu entry not created:', entry.id, error.message);
        });
      }
    });
  }

  if (menus) {
    menus.onClicked.addListener((info, tab) => {
      menuHandlers.onClicked(info, tab).catch((error) => log('menu action failed:', error));
    });
    api.runtime.onInstalled?.addListener(createMenus);
    api.runtime.onStartup?.addListener(createMenus);
    // The real-browser tests call the handlers the menus call, for a real tab
    // (a driver cannot click a context menu). Only extension code can reach it.
    globalThis.extensionBridgeMenus = { ...menuHandlers, undo: saver.undo, lastSave: saver.lastSave };
  }
  // The save-page shortcut: the manifest has the `commands` entry only with saving.
  if (saving) {
    api.commands?.onCommand.addListener((command, tab) => {
      menuHandlers.onCommand(command, tab).catch((error) => log('shortcut failed:', error));
    });
  }

  const router = createRouter({
    host: client,
    pageState,
    saver,
    features,
    appActions: app.actions,
    extensionId: api.runtime.id,
    extensionOrigin: api.runtime.getURL(''),
    onContentScript: (tabId) => {
      tabs.add(tabId);
    },
    onSettingsSaved: () => {
      // Pages update at once, even when the host's own event comes later or
      // not at all (one-shot fallback).
      refresh();
    },
    log,
  });

  api.runtime.onMessage.addListener(router.listener);
  api.tabs.onRemoved.addListener((tabId) => {
    tabs.remove(tabId);
  });

  tabs.restore();
  // The background's own code calls the app's actions through this (app/app.js declares them).
  return { appAction: router.appAction };
}
