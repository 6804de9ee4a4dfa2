// ExtensionBridge: loaded before an imported Safari Web Extension's content
// scripts (`extension-bridge new --from-safari`). Chromium has no `browser`
// namespace; its `chrome` answers with promises in Manifest V3, so Safari code
// that calls `browser.runtime.sendMessage(…).then(…)` runs unchanged.
if (typeof globalThis.browser === 'undefined' && typeof globalThis.chrome !== 'undefined') {
  globalThis.browser = globalThis.chrome;
}
