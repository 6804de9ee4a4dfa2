// The background service worker (Chromium) / background script (Firefox).
// The only part of the extension that speaks native messaging. It wires the
// browser APIs to the pure modules in lib/: HostClient (the port), the router
// (runtime.onMessage) and the event forwarding. Listeners are registered
// synchronously at the top level so a restarted worker receives the event
// that woke it. Nothing here survives a restart except through
// storage.session; the port is re-opened lazily.

import { HOST_NAME, SessionKey } from './lib/constants.js';
import { HostClient } from './lib/host-client.js';
import { createRouter } from './lib/router.js';
import { broadcastToTabs, createTabRegistry, forwardHostEvent, settingsChangedMessage } from './lib/events.js';

const api = globalThis.browser ?? globalThis.chrome;
const session = api.storage?.session;
const log = (...args) => console.warn('[extension-bridge]', ...args);

const client = new HostClient({
  runtime: api.runtime,
  hostName: HOST_NAME,
  log,
  onEvent: (frame) => {
    forwardHostEvent(api.tabs, frame).catch((error) => log('forwarding failed:', error));
  },
  onStatus: (snapshot) => {
    session?.set({ [SessionKey.HOST_STATUS]: snapshot }).catch(() => {});
  },
});

// Keep the port (and with it this worker) alive while a tab has a content
// script to push settingsChanged to.
const tabs = createTabRegistry(session, (count) => client.setKeepAlive(count > 0));

const router = createRouter({
  host: client,
  extensionId: api.runtime.id,
  extensionOrigin: api.runtime.getURL(''),
  onContentScript: (tabId) => {
    tabs.add(tabId);
  },
  onSettingsSaved: (settings) => {
    // Pages update at once, even when the host's own event comes later or
    // not at all (one-shot fallback). Content scripts fetch the rules again.
    broadcastToTabs(api.tabs, settingsChangedMessage({ settings })).catch((error) => log('broadcast failed:', error));
  },
  log,
});

api.runtime.onMessage.addListener(router.listener);
api.tabs.onRemoved.addListener((tabId) => {
  tabs.remove(tabId);
});

tabs.restore();
