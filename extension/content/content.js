// Content script (classic script; lib/text-replace.js runs before it and
// provides ExtensionBridgeText). Asks the background whether the extension is
// enabled and for this page's rules, replaces vocabulary words in text nodes,
// follows later changes, and undoes everything when switched off. It talks
// only to its own extension (runtime messaging) and never to the page: no
// window.postMessage, no globals of its own, no markup changes.

(() => {
  'use strict';

  const api = globalThis.browser ?? globalThis.chrome;
  const engine = globalThis.ExtensionBridgeText;
  if (!api?.runtime?.id || !engine) return;

  // Must equal MessageType in lib/constants.js (checked by test/manifest.test.js).
  const CONTENT_ENABLED = 'content_request:enabled';
  const GET_CONTENT = 'getContent';
  const SETTINGS_CHANGED = 'settingsChanged';
  const COLLECT_PAGE = 'collectPage';
  const ENABLED_RESPONSE_KEY = 'background_response:enabled';

  const schedule = typeof globalThis.requestIdleCallback === 'function'
    ? (run) => globalThis.requestIdleCallback(() => run(), { timeout: 250 })
    : (run) => globalThis.setTimeout(run, 16);

  let observer = null;
  const rewriter = engine.createRewriter({
    schedule,
    maxNodesPerSlice: 400,
    maxSliceMs: 8,
    now: () => performance.now(),
    // Our own nodeValue writes produce records too; drop them (the rewriter
    // would skip them anyway, this just saves the work).
    afterSlice: () => observer?.takeRecords(),
  });

  function pageRoot() {
    return document.body ?? document.documentElement;
  }

  function onMutations(records) {
    for (const record of records) {
      if (record.type === 'childList') {
        for (const node of record.addedNodes) rewriter.enqueue(node);
      } else if (record.type === 'characterData') {
        rewriter.enqueue(record.target);
      }
    }
  }

  function startObserving() {
    const rootNode = pageRoot();
    if (observer || !rootNode) return;
    observer = new MutationObserver(onMutations);
    observer.observe(rootNode, { childList: true, subtree: true, characterData: true });
  }

  function stopObserving() {
    observer?.disconnect();
    observer = null;
  }

  /** Applies (or, when disabled or empty, removes) a vocabulary. */
  function apply(enabled, vocabulary) {
    const active = enabled === true && rewriter.setVocabulary(vocabulary ?? null, pageRoot());
    if (active) {
      startObserving();
    } else {
      rewriter.setVocabulary(null);
      stopObserving();
    }
  }

  async function ask(message) {
    try {
      return await api.runtime.sendMessage(message);
    } catch {
      return null; // background unavailable (e.g. the extension was reloaded)
    }
  }

  async function load() {
    const [enabledReply, contentReply] = await Promise.all([
      ask({ type: CONTENT_ENABLED }),
      ask({ type: GET_CONTENT }),
    ]);
    const enabled = enabledReply?.[ENABLED_RESPONSE_KEY] === true;
    const vocabulary = contentReply?.status === 'success' ? contentReply.rules?.vocabulary : null;
    apply(enabled, vocabulary);
  }

  function collectPage() {
    const selection = String(globalThis.getSelection?.() ?? '');
    const hasSelection = selection.trim() !== '';
    return {
      status: 'success',
      url: location.href,
      title: document.title,
      kind: hasSelection ? 'selection' : 'page',
      content: hasSelection ? selection : (document.body?.innerText ?? document.documentElement?.textContent ?? ''),
    };
  }

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    // Only our own background or extension pages (tabs.sendMessage). A sender
    // with `tab` is accepted only if it is one of our pages, e.g. popup.html
    // opened in a tab (the browser sets `tab` for it); never a web page.
    if (!sender || sender.id !== api.runtime.id) return false;
    if (sender.tab && !(typeof sender.url === 'string' && sender.url.startsWith(api.runtime.getURL('')))) return false;
    switch (message?.type) {
      case SETTINGS_CHANGED: {
        const enabled = message.settings?.enabled;
        const vocabulary = message.rules?.vocabulary;
        if (typeof enabled === 'boolean' && vocabulary && typeof vocabulary === 'object') {
          apply(enabled, vocabulary);
        } else if (enabled === false) {
          apply(false, null);
        } else {
          load();
        }
        return false;
      }
      case COLLECT_PAGE:
        sendResponse(collectPage());
        return false;
      default:
        return false;
    }
  });

  load();
})();
