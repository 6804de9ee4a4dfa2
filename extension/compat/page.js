// ExtensionBridge: the loader of a page that `extension-bridge new --from-safari` generated
// beside one of an imported Safari extension's pages (docs/GENERATOR.md, "Porting a Safari Web
// Extension"). The generated page loads the Safari shim, then this script, which writes the
// author's page (`data-page`, a URL relative to the generated page, so in the same folder) into
// the document while the parser still waits on it: the author's page arrives unchanged, its
// scripts run after the shim, and every relative URL in it resolves as it does for the page
// itself. The read is synchronous on purpose: document.write must happen before parsing ends.
(function loadAuthorsPage() {
  'use strict';
  const TAG = '[ExtensionBridge]';
  const script = document.currentScript;
  const page = script && script.dataset.page;
  if (!page) {
    console.error(TAG, 'page.js: the generated page names no page to load (data-page)');
    return;
  }
  const request = new XMLHttpRequest();
  try {
    request.open('GET', page, false);
    request.overrideMimeType('text/html; charset=utf-8');
    request.send();
  } catch (error) {
    console.error(TAG, `page.js: cannot read ${page}:`, error);
    return;
  }
  if (!request.responseText) {
    console.error(TAG, `page.js: ${page} is empty or missing`);
    return;
  }
  document.write(request.responseText);
})();
