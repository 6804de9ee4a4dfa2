// A floor for page_probe.py load (as a variant's CONTENT, after engine.js): state-only.js, and
// every text node visited once behind the parser, before each frame (requestAnimationFrame) and
// on a 10 ms timer, as ours follows the parser; its text is read and nothing is written, no
// element is looked at (no skip test, no shadow roots). The least any content script that
// rewrites text before it is painted must do while the page loads.
(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  api.runtime.sendMessage({ type: 'getPageState' }).catch(() => {});
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
  let characters = 0;
  const step = () => {
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) characters += node.nodeValue.length;
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
