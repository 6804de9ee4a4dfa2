// ExtensionBridge: what Chromium's service worker can stand in for of a background page's
// globals, loaded before an imported Safari extension's background scripts when they use them
// (`extension-bridge new --from-safari`; the import reports each use, with its file and line).
// Safari's and Firefox's background is a page; Chromium's is a service worker, which has no
// `window` and no screen.
//
// - `window`: the worker's own global (`self`), which has the timers, `fetch`, `navigator`,
//   `location`, `addEventListener` and the extension APIs code reaches through `window.`.
// - `matchMedia(query)`: a list that never matches (a worker has no viewport, no pointer and no
//   colour scheme), with the listener methods as no-ops, so code that reads a media query at
//   start-up goes on with its default.
//
// Nothing else (no `document`, no `localStorage`): what has no honest stand-in is left
// undefined, and the import names each use. Only in a worker, and only what is missing.
(function standInForPageGlobals(root) {
  'use strict';
  if (typeof ServiceWorkerGlobalScope === 'undefined' || !(root instanceof ServiceWorkerGlobalScope)) return;
  if (typeof root.window === 'undefined') {
    Object.defineProperty(root, 'window', { value: root, configurable: true, writable: true });
  }
  if (typeof root.matchMedia === 'undefined') {
    const noop = () => {};
    root.matchMedia = function matchMedia(query) {
      return {
        matches: false,
        media: String(query),
        onchange: null,
        addListener: noop,
        removeListener: noop,
        addEventListener: noop,
        removeEventListener: noop,
        dispatchEvent: () => false,
      };
    };
  }
})(globalThis);
