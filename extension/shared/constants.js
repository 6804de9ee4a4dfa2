// Names shared by the background, the popup and the tests.
// The content script is a classic script and cannot import this module; it
// repeats the strings it uses, and test/manifest.test.js checks that they
// match these constants.

import { APP } from '../app/app.js';

/** Native messaging host name: the app's (app/app.js; extension-id.json, docs/PROTOCOL.md). */
export const HOST_NAME = APP.hostName;

/**
 * The features an extension can be made with (`extension-bridge new --features`):
 * app/app.js lists those this one has.
 * - vocabulary: pages rewritten from the suite's vocabulary (the content scripts)
 * - saving: the save menus, the save-page shortcut, undo, the popup's Save
 * - transform: the "Transform selection with …" menu
 * - secrets: getSecret through the background, for extension pages
 */
export const Feature = Object.freeze({
  VOCABULARY: 'vocabulary',
  SAVING: 'saving',
  TRANSFORM: 'transform',
  SECRETS: 'secrets',
});

/** Whether `features` (a list such as APP.features) has `feature`. */
export function hasFeature(features, feature) {
  return Array.isArray(features) && features.includes(feature);
}

/** The protocol version this extension speaks (docs/PROTOCOL.md). */
export const PROTOCOL_VERSION = 1;

/** The command every host problem points people to. */
export const DOCTOR_COMMAND = 'extension-bridge doctor';

/** runtime.sendMessage / tabs.sendMessage types, handled by lib/router.js. */
export const MessageType = Object.freeze({
  // content script → background (seed 002's message; answered with
  // {"background_response:enabled": <bool>})
  CONTENT_ENABLED: 'content_request:enabled',
  // content script → background: {enabled, entries, rulesVersion} from one
  // host request (getPageState) that never reads the queue
  GET_PAGE_STATE: 'getPageState',
  // content script or popup → background
  GET_SETTINGS: 'getSettings',
  GET_CONTENT: 'getContent',
  // popup → background only
  SET_SETTINGS: 'setSettings',
  SAVE_CONTENT: 'saveContent',
  QUEUE_COUNT: 'queueCount',
  HOST_STATUS: 'hostStatus',
  // the host's appInfo (bridges made by `extension-bridge new` have it)
  APP_INFO: 'appInfo',
  // background → content scripts of tabs that asked (tabs.sendMessage): the
  // complete page state, after any change
  PAGE_STATE: 'pageState',
  // popup → content script of the active tab (tabs.sendMessage)
  COLLECT_PAGE: 'collectPage',
  // popup → background only: the last save, and its undo (removeItem)
  LAST_SAVE: 'lastSave',
  UNDO_SAVE: 'undoSave',
  // background → content script of the clicked frame, after a menu click
  // (tabs.sendMessage): the exact selection, then the transformed text to put
  // in its place. Never sent by a content script.
  GET_SELECTION: 'getSelection',
  REPLACE_SELECTION: 'replaceSelection',
  // popup → background only: a secret the app shared (host getSecret; the secrets feature)
  GET_SECRET: 'getSecret',
  // {type, action, payload?}: one of the app's own host actions, declared in
  // app/app.js (APP.actions) with who may call it (background/app-actions.js)
  APP_ACTION: 'appAction',
});

/** Context-menu entry ids (background/menus.js). */
export const MenuId = Object.freeze({
  SAVE_PAGE: 'save-page',
  SAVE_LINK: 'save-link',
  SAVE_SELECTION: 'save-selection',
  TRANSFORM_SELECTION: 'transform-selection',
  UNDO_SAVE: 'undo-save',
});

/** The `commands` entry (manifest.json) that saves the page. */
export const COMMAND_SAVE_PAGE = 'save-page';

/** How long after a save it can be undone (docs: extension/README.md). */
export const UNDO_WINDOW_MS = 30_000;

/** The seed's reply key for CONTENT_ENABLED. */
export const ENABLED_RESPONSE_KEY = 'background_response:enabled';

/** Keys in storage.session. */
export const SessionKey = Object.freeze({
  HOST_STATUS: 'hostStatus',
  SERVED_TABS: 'servedTabs',
  // {itemId (null when nothing was added), key, savedAt, kind, url, duplicate, undoable}: what undo removes, and the
  // key a save of the same thing again reuses
  LAST_SAVE: 'lastSave',
});

/** Host events (frames with `event` and no `id`) the background acts on. */
export const HostEvent = Object.freeze({
  // the page state changed: page 0 of getPageState (its rules, unless they had no room) and the settings
  PAGE_STATE: 'pageState',
});

/** The DOM event content/shadow-hook.js fires on a host after attachShadow({mode: 'open'}). */
export const SHADOW_ROOT_EVENT = 'extension-bridge:shadow-root';
