// Runs in the page's own world (manifest: "world": "MAIN", document_start,
// before the page's scripts) and does one thing: after the page attaches an
// OPEN shadow root, it tells the content script (isolated world) which
// element is the host; the content script reads `host.shadowRoot` itself.
// Closed roots are not announced: they stay out of reach. No globals.
//
// A page must not be able to tell that this runs (a page that can, can fingerprint or target its users).
//   * attachShadow is a Proxy of the browser's own function (so name,
//     length, properties, `prototype`, "not a constructor" are the native
//     ones), put back with the native property descriptor; and
//     Function.prototype.toString (itself a Proxy of the native one) answers
//     for it exactly what it answers for the native function, and for
//     itself its own native text.
//   * Nothing is announced on the page's DOM. The content script and this
//     hook meet once, at document_start, before any page script runs: each
//     fires a SubmitEvent on `document` (the first to arrive waits for the
//     other), this hook's event carrying a detached element, the channel,
//     as `submitter`. After that every message is an event on the channel,
//     which no page script can reach; the host travels as `submitter`
//     (not retargeted, unlike `relatedTarget`, so hosts inside shadow roots
//     arrive as themselves).
//   * While the extension is off (the content script says so on the
//     channel) the wrapper only calls the native function.
//   * Errors the native function throws are re-thrown with this file's
//     frame cut from the stack where the engine allows it (V8's
//     Error.captureStackTrace); in Firefox the frame stays (docs/SECURITY.md).
// What remains detectable is listed in docs/SECURITY.md, threat model.

(() => {
  'use strict';

  const proto = globalThis.Element?.prototype;
  const descriptor = proto && Object.getOwnPropertyDescriptor(proto, 'attachShadow');
  const original = descriptor?.value;
  const SubmitEventCtor = globalThis.SubmitEvent;
  if (typeof original !== 'function' || typeof SubmitEventCtor !== 'function') return;

  const HOOK_EVENT = 'extension-bridge:hook';
  const CONTENT_EVENT = 'extension-bridge:content';
  const SHADOW_ROOT_EVENT = 'extension-bridge:shadow-root';
  const ON_EVENT = 'extension-bridge:on';
  const OFF_EVENT = 'extension-bridge:off';

  // Everything used later is taken now, before any page script can replace it.
  const apply = Reflect.apply;
  const ProxyCtor = Proxy;
  const nativeToString = Function.prototype.toString;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const listen = EventTarget.prototype.addEventListener;
  const unlisten = EventTarget.prototype.removeEventListener;
  const createElement = Document.prototype.createElement;
  const submitterOf = Object.getOwnPropertyDescriptor(SubmitEventCtor.prototype, 'submitter')?.get;
  const modeOf = Object.getOwnPropertyDescriptor(globalThis.ShadowRoot?.prototype ?? {}, 'mode')?.get;
  const captureStackTrace = typeof Error.captureStackTrace === 'function' ? Error.captureStackTrace : null;
  const doc = document;
  if (typeof submitterOf !== 'function' || typeof modeOf !== 'function') return;

  /** Cuts this file's frames from an error's stack (V8 only), so it does not name the extension. */
  function hideFrames(error, below) {
    if (captureStackTrace && error !== null && typeof error === 'object') {
      try {
        captureStackTrace(error, below);
      } catch {
        // leave the stack as it is
      }
    }
    return error;
  }

  const channel = apply(createElement, doc, ['span']); // never inserted; only the content script gets it
  let on = false;
  let met = false;

  const wrapped = new ProxyCtor(original, {
    apply: function attachShadow(target, thisArg, args) {
      let shadowRoot;
      try {
        shadowRoot = apply(target, thisArg, args);
      } catch (error) {
        throw hideFrames(error, attachShadow);
      }
      if (on) {
        try {
          if (apply(modeOf, shadowRoot, []) === 'open') {
            apply(dispatch, channel, [new SubmitEventCtor(SHADOW_ROOT_EVENT, { submitter: thisArg })]);
          }
        } catch {
          // never break the page's own call
        }
      }
      return shadowRoot;
    },
  });

  const toStringProxy = new ProxyCtor(nativeToString, {
    apply: function toString(target, thisArg, args) {
      let self = thisArg;
      if (self === wrapped) self = original;
      else if (self === toStringProxy) self = nativeToString;
      try {
        return apply(target, self, args);
      } catch (error) {
        throw hideFrames(error, toString);
      }
    },
  });

  // The meeting: whichever side runs second completes it (the manifest lists
  // this file first, but neither browser promises an order across worlds).
  function announce() {
    apply(dispatch, doc, [new SubmitEventCtor(HOOK_EVENT, { submitter: channel })]);
  }
  function onContent() {
    if (!met) announce();
  }
  function onChannel(event) {
    const type = event.type;
    if (type === ON_EVENT || type === OFF_EVENT) {
      on = type === ON_EVENT;
      if (!met) {
        met = true;
        apply(unlisten, doc, [CONTENT_EVENT, onContent, true]);
      }
    }
  }
  apply(listen, channel, [ON_EVENT, onChannel]);
  apply(listen, channel, [OFF_EVENT, onChannel]);
  apply(listen, doc, [CONTENT_EVENT, onContent, true]);
  announce();

  Object.defineProperty(proto, 'attachShadow', { ...descriptor, value: wrapped });
  const toStringDescriptor = Object.getOwnPropertyDescriptor(Function.prototype, 'toString');
  Object.defineProperty(Function.prototype, 'toString', { ...toStringDescriptor, value: toStringProxy });
})();
