// The background service worker (Chromium) / background script (Firefox).
// The only part of the extension that speaks native messaging. It wires the
// browser APIs to the pure modules beside it: HostClient (the port), the
// page state (what content scripts apply), the router (runtime.onMessage)
// and the broadcasts. Listeners are registered synchronously at the top
// level so a restarted worker receives the event that woke it. Nothing here
// survives a restart except through storage.session; the port is re-opened
// lazily and the page state fetched again.

import { HOST_NAME, SessionKey } from '../shared/constants.js';
import { ConnectionState, HostClient } from './host-client.js';
import { createRouter } from './router.js';
import { createBroadcaster, createTabRegistry, isPageStateEvent } from './events.js';
import { createPageState } from './page-state.js';

const api = globalThis.browser ?? globalThis.chrome;
const session = api.storage?.session;
const log = (...args) => console.warn('[extension-bridge]', ...args);

let pageState = null;
let broadcast = async () => 0;

/** Fetches the page state again and sends it to the tabs that asked, if it changed. */
function refreshAndBroadcast() {
  pageState.refresh().then(broadcast).catch((error) => log('page state refresh failed:', error));
}

const client = new HostClient({
  runtime: api.runtime,
  hostName: HOST_NAME,
  log,
  onEvent: (frame) => {
    // settingsChanged or rulesChanged: one getPageState (paged when large)
    // gives the complete state, with the host's rulesVersion.
    if (isPageStateEvent(frame)) refreshAndBroadcast();
  },
  onStatus: (snapshot) => {
    pageState?.connectionChanged();
    session?.set({ [SessionKey.HOST_STATUS]: snapshot }).catch(() => {});
  },
});

pageState = createPageState({ host: client, isConnected: () => client.state === ConnectionState.CONNECTED });

// Keep the port (and with it this worker) alive while a tab has a content
// script to send page states to.
const tabs = createTabRegistry(session, (count) => client.setKeepAlive(count > 0));
broadcast = createBroadcaster(api.tabs, tabs);

const router = createRouter({
  host: client,
  pageState,
  extensionId: api.runtime.id,
  extensionOrigin: api.runtime.getURL(''),
  onContentScript: (tabId) => {
    tabs.add(tabId);
  },
  onSettingsSaved: () => {
    // Pages update at once, even when the host's own event comes later or
    // not at all (one-shot fallback).
    refreshAndBroadcast();
  },
  log,
});

api.runtime.onMessage.addListener(router.listener);
api.tabs.onRemoved.addListener((tabId) => {
  tabs.remove(tabId);
});

tabs.restore();
