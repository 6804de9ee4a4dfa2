// A floor for page_probe.py load (as a variant's CONTENT, after engine.js): the content script is
// injected and asks for the page state, as ours does first thing; nothing else. What any
// extension with a content script on every page costs a page load.
(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  api.runtime.sendMessage({ type: 'getPageState' }).catch(() => {});
})();
