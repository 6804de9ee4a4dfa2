// Runs in the page's own world (manifest: "world": "MAIN", document_start,
// before the page's scripts) and does one thing: after the page attaches an
// OPEN shadow root, it fires the event `extension-bridge:shadow-root` on the
// host element (composed, so it reaches the document from inside other
// shadow roots). The content script, in its isolated world, hears it and
// reads `host.shadowRoot` itself — the event carries no data, so a page that
// fires it by hand gains nothing. Closed roots are not announced: they stay
// out of reach. No globals; the wrapper keeps attachShadow's name and length.

(() => {
  'use strict';

  const proto = globalThis.Element?.prototype;
  const original = proto?.attachShadow;
  if (typeof original !== 'function') return;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const EventCtor = Event;
  const wrapped = {
    attachShadow(init) {
      const shadowRoot = Reflect.apply(original, this, [init]);
      if (shadowRoot.mode === 'open') {
        try {
          Reflect.apply(dispatch, this, [new EventCtor('extension-bridge:shadow-root', { composed: true })]);
        } catch {
          // never break the page's own call
        }
      }
      return shadowRoot;
    },
  }.attachShadow;
  Object.defineProperty(proto, 'attachShadow', { value: wrapped, writable: true, configurable: true, enumerable: false });
})();
