// A floor for page_probe.py load (as a variant's CONTENT, after engine.js): text-walk.js, and
// every text node that holds a lower-case ASCII letter is written at once, one character longer
// (its text and an "x"). Writes right behind the parser, before the text is laid out: what
// writing costs a content script that keeps up with the parser.
// It changes the page's words: a probe, never loaded outside page_probe.py.
(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  api.runtime.sendMessage({ type: 'getPageState' }).catch(() => {});
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
  const step = () => {
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.nodeValue;
      if (/[a-z]/.test(text)) node.nodeValue = `${text}x`;
    }
  };
  const loading = () => document.readyState === 'loading';
  const frame = () => {
    step();
    if (loading()) requestAnimationFrame(frame);
  };
  const timer = () => {
    step();
    if (loading()) setTimeout(timer, 10);
  };
  requestAnimationFrame(frame);
  setTimeout(timer, 10);
  document.addEventListener('readystatechange', step);
})();
