// Content script (classic script, isolated world; content/engine.js runs
// before it and provides ExtensionBridgeText). Runs at document_start in
// every frame (all_frames, match_about_blank): asks the background once for
// the page state ({enabled, compiled, count, rulesVersion}), takes the rules as
// the background compiled them (no compiling here), rewrites nodes as the
// parser adds them (a document-order cursor behind the parser, moved on
// before each frame by a requestAnimationFrame callback of its own, so what
// the parser added is rewritten before it is painted; no MutationObserver
// while the document parses), follows later
// changes once the document is parsed (a MutationObserver) — also
// inside open shadow roots, those attached later included — and undoes
// everything when switched off. It talks only to its own extension and
// never to the page: no window.postMessage, no globals of its own, no markup
// changes. (content/shadow-hook.js, in the page's world, only passes the
// host of each new open shadow root on a private channel; the roots
// themselves are read here.) What the page makes editable is the page's: a
// document in designMode is never rewritten, a region made editable gets its
// own text back (the engine decides; this script tells it when to look).

(() => {
  'use strict';

  const api = globalThis.browser ?? globalThis.chrome;
  const engine = globalThis.ExtensionBridgeText;
  if (!api?.runtime?.id || !engine) return;

  // Must equal MessageType / events in shared/constants.js (checked by test/manifest.test.js).
  const GET_PAGE_STATE = 'getPageState';
  const PAGE_STATE = 'pageState';
  const COLLECT_PAGE = 'collectPage';
  const GET_SELECTION = 'getSelection';
  const REPLACE_SELECTION = 'replaceSelection';
  const SHADOW_ROOT_EVENT = 'extension-bridge:shadow-root';
  // The meeting with content/shadow-hook.js (page world), once, at document_start.
  const HOOK_EVENT = 'extension-bridge:hook';
  const CONTENT_EVENT = 'extension-bridge:content';
  const ON_EVENT = 'extension-bridge:on';
  const OFF_EVENT = 'extension-bridge:off';

  const SLICE_MS = 8;
  // Before each frame while the document loads: what the parser added since
  // the last frame is rewritten before the frame's style, layout and paint.
  // Bounded: a frame's catch-up runs no longer than this, but once before the
  // first paint (the frame's own layout and paint come on top); what is left
  // goes on in slices of SLICE_MS right after, and that part may be painted
  // once with its old words.
  const FRAME_MS = 24;
  // Once, before the page's first contentful paint: a frame's catch-up may take this long. Nobody
  // can use the page before it is painted, and a catch-up cut at FRAME_MS leaves text to be laid
  // out in that frame and again after our writes (Firefox lays out most of a large page in its
  // first big frame; cut there, DOMContentLoaded came later, and the first paint showed old words).
  const FIRST_PAINT_FRAME_MS = 70;
  let longCatchUpLeft = true;
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  // Between frames, and in tabs that draw none (hidden, in the background):
  // the cursor is moved on by a timer as well, so that what the parser adds
  // before a frame — a page's first frame can come after 100 ms of parsing —
  // is mostly rewritten already when the frame begins (browsers slow this
  // timer down in hidden tabs; the end of parsing finishes the walk anyway).
  const BETWEEN_FRAMES_MS = 10;
  // The pass over the whole document after parsing waits for the load event, at most this long.
  const AFTER_PARSING_MS = 1000;

  // The page state is asked for first thing: no setup of ours stands before
  // the request (its round trip is what stands between the page and its first
  // rewritten frame). Its answer is handled at the end of this
  // script (apply and what it uses are set up below), also when sending
  // failed at once (an extension reloaded under the page throws right away).
  let firstReply = requestPageState();

  /**
   * Runs `run` as a new task, soon: not idle time (the page should change
   * while it loads). While the parser runs, at the parser's own priority (it
   * and our slices take turns); once it is done, ahead of other tasks, so the
   * last words change before the first full layout and paint.
   */
  const schedule = (() => {
    const postTask = globalThis.scheduler?.postTask;
    if (typeof postTask === 'function') {
      return (run) => {
        const priority = document.readyState === 'loading' ? 'user-visible' : 'user-blocking';
        postTask.call(globalThis.scheduler, run, { priority }).catch(() => {});
      };
    }
    return (run) => setTimeout(run, 0);
  })();

  const observers = new Map(); // Document or ShadowRoot → MutationObserver
  let answered = false; // a page state has come (until then, frames are watched: the rules may come)

  const rewriter = engine.createRewriter({
    // What the page makes editable is the engine's to judge (a document in designMode, an
    // editable region): this script only tells it when to look (watchEditing, below).
    document,
    onEditable: () => {
      stopObserving();
      tellHook();
    },
    schedule,
    maxNodesPerSlice: 50_000,
    maxSliceMs: SLICE_MS,
    now: () => performance.now(),
    // Our own nodeValue writes produce records too; drop them. Only ours can
    // be queued here: a slice is a task of its own, and records of the
    // page's changes were delivered (and deferred) before it began.
    afterSlice: () => {
      for (const observer of observers.values()) observer.takeRecords();
    },
    onShadowRoot: (shadowRoot) => {
      observe(shadowRoot);
      watchEditing(shadowRoot);
    },
  });

  // A region the page makes editable (`element.contentEditable = 'true'`, or the attribute set
  // on mousedown, as inline editors do) gets the page's own text back at once, before the user
  // or the editor reads it: the page saves what is edited there. Only this attribute is watched,
  // also while the document parses (the parser sets attributes without mutation records; only a
  // script's change makes one). The events below are the net for what no attribute announces.
  const editingObserver = new MutationObserver((records) => {
    for (const record of records) rewriter.editing(record.target, { again: true });
  });

  function watchEditing(target) {
    editingObserver.observe(target, { attributes: true, attributeFilter: ['contenteditable'], subtree: true });
  }

  function onMutations(records) {
    rewriter.deferRecords(records);
  }

  function observe(target) {
    if (observers.has(target)) return;
    const observer = new MutationObserver(onMutations);
    observer.observe(target, { childList: true, subtree: true, characterData: true });
    observers.set(target, observer);
  }

  function stopObserving() {
    for (const observer of observers.values()) observer.disconnect();
    observers.clear();
    editingObserver.disconnect();
    stopFollowingParser();
  }

  // ---- following the parser ----
  // While the document loads, a requestAnimationFrame callback of this
  // (isolated) world, first asked for at document_start — before any page
  // script can ask for one, so it runs before the page's own callbacks —
  // moves the cursor on before each frame is styled, laid out and painted.
  // No MutationObserver watches the parser: it made a record for every node
  // the parser inserted, never read. A 10 ms timer does the same between
  // frames and in tabs that draw none, and the end of parsing
  // (readystatechange) finishes the walk.
  let frameRequest = 0;
  let betweenFramesTimer = 0;

  // Frames are watched while the document loads (until a state says off), and after that while
  // the walk is not finished: when parsing ends between two frames, the readystatechange task
  // that finishes it can come after the next frame, which would paint the last text parsed with
  // its old words (seen in Firefox: e2e check 16).
  const watchingFrames = () => (document.readyState === 'loading' && (rewriter.active || !answered)) || rewriter.following;

  function onFrame() {
    frameRequest = 0;
    if (rewriter.following) {
      const long = longCatchUpLeft && !painted();
      const start = performance.now();
      rewriter.catchUp(long ? FIRST_PAINT_FRAME_MS : FRAME_MS);
      if (long && performance.now() - start > FRAME_MS) longCatchUpLeft = false; // used: one such task
    }
    if (watchingFrames()) frameRequest = requestAnimationFrame(onFrame);
  }

  function watchFrames() {
    if (frameRequest === 0 && watchingFrames() && typeof requestAnimationFrame === 'function') {
      frameRequest = requestAnimationFrame(onFrame);
    }
  }

  function onBetweenFramesTimer() {
    betweenFramesTimer = 0;
    if (!rewriter.following || document.readyState !== 'loading') return;
    rewriter.catchUp(SLICE_MS);
    betweenFramesTimer = setTimeout(onBetweenFramesTimer, BETWEEN_FRAMES_MS);
  }

  function stopFollowingParser() {
    if (frameRequest !== 0) cancelAnimationFrame(frameRequest);
    frameRequest = 0;
    clearTimeout(betweenFramesTimer);
    betweenFramesTimer = 0;
  }

  /** Rewrites the loading document behind the parser, each node once, before it is painted. */
  function followParser() {
    // Not stopFollowingParser(): a frame callback already asked for stays where it is in the
    // frame's list, ahead of the page's (asked for again, it would come after them).
    clearTimeout(betweenFramesTimer);
    rewriter.follow(document, () => document.readyState === 'loading', () => {
      stopFollowingParser();
      observe(document);
      afterLoad(() => {
        if (rewriter.active) rewriter.enqueue(document); // whatever scripts changed behind the cursor
      });
    });
    watchFrames();
    betweenFramesTimer = setTimeout(onBetweenFramesTimer, BETWEEN_FRAMES_MS);
    rewriter.catchUp(SLICE_MS); // what is parsed already, now (the rest goes on in slices if it is behind)
  }

  /**
   * Runs `run` once the page has loaded (its load event, or AFTER_PARSING_MS
   * after parsing ended, whichever comes first): the pass over the whole
   * document for what the page's scripts changed behind the cursor while it
   * parsed. Run at once, it tokenized every text node again before the
   * browser's DOMContentLoaded and load tasks and held both back. Text the
   * parser added is rewritten already; what scripts added after parsing, the
   * MutationObserver follows.
   */
  function afterLoad(run) {
    if (document.readyState === 'complete') {
      schedule(run);
      return;
    }
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      window.removeEventListener('load', onLoad, true);
      clearTimeout(timer);
      schedule(run);
    };
    const onLoad = () => setTimeout(once, 0); // after the page's own load handlers
    const timer = setTimeout(once, AFTER_PARSING_MS);
    window.addEventListener('load', onLoad, true);
  }

  // The parser is done: the walk is finished in a task of its own (not in the
  // parser's last task, where the page's DOMContentLoaded handlers run).
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'loading' && rewriter.following) schedule(() => rewriter.catchUp());
  });

  /**
   * A new open shadow root, announced by shadow-hook.js on the channel (an
   * element never in the page; `submitter` is the host, only a hint: its
   * shadowRoot is read here).
   */
  function onShadowRootEvent(event) {
    if (!rewriter.active) return;
    const host = event.submitter;
    const shadowRoot = host && host.nodeType === 1 ? host.shadowRoot : null;
    if (!shadowRoot) return; // closed roots stay out of reach
    observe(shadowRoot);
    watchEditing(shadowRoot);
    rewriter.enqueue(shadowRoot);
  }

  /**
   * Applies a page state: takes its compiled rules as they arrive (engine.compileVocabulary
   * compiled them once per state in the background; compiledFrom only checks their shape), and
   * rewrites from the document down when they are new to the rewriter, whose setCompiled says
   * whether they are (the same state may come twice: this tab's own request and a broadcast).
   */
  function apply(state) {
    answered = true;
    const outcome = rewriter.setCompiled(state?.enabled === true ? engine.compiledFrom(state.compiled) : null);
    if (outcome === 'same') return;
    tellHook();
    if (outcome === 'off') {
      stopObserving();
      return;
    }
    watchEditing(document);
    if (document.readyState === 'loading' && !observers.has(document)) {
      followParser(); // behind the parser, in document order: each node once, before it is painted
    } else {
      observe(document);
      rewriter.enqueue(document);
    }
  }

  async function requestPageState() {
    try {
      return await api.runtime.sendMessage({ type: GET_PAGE_STATE });
    } catch {
      return null; // background unavailable (e.g. the extension was reloaded)
    }
  }

  /** The answer to a getPageState of ours (the first one, and after a return from the back/forward cache). */
  function onReply(reply) {
    if (reply?.status === 'success') {
      apply(reply);
    } else if (!rewriter.active) {
      answered = true; // no state (yet): no frames watched until one comes (a push applies it)
      stopFollowingParser();
    }
  }

  /** The page's URL, title and text: its selection instead when there is one, unless `wholePage`. */
  function collectPage(wholePage) {
    const selection = wholePage ? '' : String(globalThis.getSelection?.() ?? '');
    const hasSelection = selection.trim() !== '';
    return {
      status: 'success',
      url: location.href,
      title: document.title,
      kind: hasSelection ? 'selection' : 'page',
      content: hasSelection ? selection : (document.body?.innerText ?? document.documentElement?.textContent ?? ''),
    };
  }

  /** The focused element, inside open shadow roots too. */
  function activeElement() {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return element;
  }

  const TEXT_INPUT_TYPES = new Set(['text', 'search', 'url', 'tel', 'email', '']);

  /** A textarea or a text input whose selection can be read and replaced. */
  function textField(element) {
    if (!element || element.disabled || element.readOnly) return null;
    if (element.nodeName === 'TEXTAREA') return element;
    if (element.nodeName === 'INPUT' && TEXT_INPUT_TYPES.has(String(element.getAttribute('type') ?? '').toLowerCase())) {
      return element;
    }
    return null;
  }

  function editableSelection() {
    const selection = globalThis.getSelection?.();
    const node = selection?.rangeCount ? selection.getRangeAt(0).commonAncestorContainer : null;
    const element = node?.nodeType === 1 ? node : node?.parentElement;
    return element?.isContentEditable ? selection : null;
  }

  /** The exact selection of this frame: in a text field, its selected value. */
  function readSelection() {
    const field = textField(activeElement());
    if (field && field.selectionStart !== field.selectionEnd) {
      return { status: 'success', selection: field.value.slice(field.selectionStart, field.selectionEnd), where: 'field' };
    }
    const editable = editableSelection();
    const text = String(globalThis.getSelection?.() ?? '');
    return { status: 'success', selection: text, where: editable ? 'editable' : 'page' };
  }

  /** Copies through a copy event of our own: no element is added to the page. */
  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Chromium content scripts: the clipboardWrite permission allows execCommand('copy').
    }
    let wrote = false;
    const onCopy = (event) => {
      event.clipboardData.setData('text/plain', text);
      event.preventDefault();
      event.stopImmediatePropagation();
      wrote = true;
    };
    document.addEventListener('copy', onCopy, true);
    try {
      document.execCommand('copy');
    } finally {
      document.removeEventListener('copy', onCopy, true);
    }
    return wrote;
  }

  /**
   * Puts `text` in place of the selection if it still is `original`: in a
   * text field or an editable region through execCommand('insertText'), so
   * the page's own undo (Ctrl+Z) restores it; elsewhere on the clipboard.
   */
  async function replaceSelection(original, text) {
    const field = textField(activeElement());
    if (field && field.value.slice(field.selectionStart, field.selectionEnd) === original) {
      field.focus();
      if (document.execCommand('insertText', false, text)) return { status: 'success', replaced: true, copied: false };
    } else if (!field && editableSelection() && String(globalThis.getSelection()) === original) {
      if (document.execCommand('insertText', false, text)) return { status: 'success', replaced: true, copied: false };
    }
    return { status: 'success', replaced: false, copied: await copy(text) };
  }

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    // Only our own background or extension pages (tabs.sendMessage). A sender
    // with `tab` is accepted only if it is one of our pages, e.g. popup.html
    // opened in a tab (the browser sets `tab` for it); never a web page.
    if (!sender || sender.id !== api.runtime.id) return false;
    if (sender.tab && !(typeof sender.url === 'string' && sender.url.startsWith(api.runtime.getURL('')))) return false;
    switch (message?.type) {
      case PAGE_STATE:
        // The complete state: enabled, compiled (the rules), count, rulesVersion.
        apply(message);
        return false;
      case COLLECT_PAGE:
        // Only the top frame answers; frames are part of the page it saves.
        if (window.top !== window.self) return false;
        sendResponse(collectPage(message.wholePage === true));
        return false;
      case GET_SELECTION:
        // The background sends it to the clicked frame only.
        sendResponse(readSelection());
        return false;
      case REPLACE_SELECTION:
        if (typeof message.original !== 'string' || typeof message.text !== 'string') return false;
        replaceSelection(message.original, message.text).then(sendResponse, () => sendResponse({ status: 'error' }));
        return true;
      default:
        return false;
    }
  });

  // designMode switched on after load has no event of its own, and a region can become editable
  // without its attribute changing (moved into an editor, made editable by style): look when the
  // user comes to edit (mousedown, focus, keydown, beforeinput: all before the text changes), as
  // well as before every slice (the rewriter does), so that what was written is undone before the
  // user's edit lands in it. Listeners of this isolated world are invisible to the page.
  const checkEditor = (event) => {
    if (rewriter.active) rewriter.editing(event.composedPath()[0] ?? event.target);
  };
  for (const type of ['mousedown', 'focusin', 'keydown', 'beforeinput']) document.addEventListener(type, checkEditor, true);
  // The channel to shadow-hook.js: a detached element it created, handed
  // over once, at document_start, before any page script runs (whichever of
  // the two runs second completes the meeting). From then on the page hears
  // nothing: every event is on the channel. It is told on/off, so that while
  // the extension is off the hook only calls the native attachShadow.
  let channel = null;
  const tellHook = () => {
    if (channel) channel.dispatchEvent(new Event(rewriter.active ? ON_EVENT : OFF_EVENT));
  };
  const onHook = (event) => {
    const candidate = event.submitter;
    if (channel || !candidate || candidate.nodeType !== 1 || candidate.isConnected) return;
    channel = candidate;
    document.removeEventListener(HOOK_EVENT, onHook, true);
    channel.addEventListener(SHADOW_ROOT_EVENT, onShadowRootEvent);
    tellHook();
  };
  document.addEventListener(HOOK_EVENT, onHook, true);
  if (!channel && typeof SubmitEvent === 'function') document.dispatchEvent(new SubmitEvent(CONTENT_EVENT));
  // The back/forward cache: a page kept there (to be shown again on Back) holds no copy of the
  // rules (the compiled form is about the vocabulary's size: tabs must not each keep paying for
  // it). What was written stays: the page comes back showing its new words, takes
  // the rules again (getPageState: they may have changed meanwhile, and no pageState reached it),
  // and looks over the document once more.
  // Only the browser's own events count (isTrusted): a page that dispatches its own must not
  // make this tab ask the background again and again (each answer carries the rules).
  let cached = false;
  window.addEventListener('pagehide', (event) => {
    if (!event.isTrusted || !event.persisted) return;
    cached = true;
    if (!rewriter.active) return;
    stopObserving();
    rewriter.suspend(); // the state it is given again is new to it: applied, the document looked over
  });
  window.addEventListener('pageshow', (event) => {
    if (!event.isTrusted || !event.persisted || !cached) return;
    cached = false;
    if (answered && !rewriter.editorDocument) requestPageState().then(onReply); // switched on meanwhile too
  });

  watchFrames(); // the first frame callback of the document, before the page's own
  firstReply.then(onReply);
  firstReply = null; // the reply (with the rules) is not kept past its handling
})();
