// A floor for page_probe.py load (as a variant's CONTENT, after engine.js): text-write.js, but
// each step's texts go to the background and are written when its answer comes back (the stub
// background echoes them), not at once. The least a tab pays if the page's words go to the
// vocabulary instead of the vocabulary to the tab: one message round trip per step, and writes
// that land after the text was laid out. No lookup anywhere.
// It changes the page's words: a probe, never loaded outside page_probe.py.
(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  api.runtime.sendMessage({ type: 'getPageState' }).catch(() => {});
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
  const step = () => {
    const nodes = [];
    const texts = [];
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.nodeValue;
      if (/[a-z]/.test(text)) {
        nodes.push(node);
        texts.push(text);
      }
    }
    if (nodes.length === 0) return;
    api.runtime.sendMessage({ type: 'echo', texts }).then((reply) => {
      const back = reply?.texts ?? [];
      for (let i = 0; i < nodes.length; i += 1) if (nodes[i].nodeValue === back[i]) nodes[i].nodeValue = `${back[i]}x`;
    }, () => {});
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
