// content/shadow-hook.js as a page script sees it (it must not be able to tell that it runs): run in a
// fresh vm context with a small fake DOM, the way the browser runs it in the
// page's world before the page's own scripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const source = readFileSync(new URL('../content/shadow-hook.js', import.meta.url), 'utf8');

/** A page world with EventTarget, Event, SubmitEvent, Element, ShadowRoot and a document; records every dispatch. */
function pageWorld() {
  const context = vm.createContext({});
  vm.runInContext(`
    globalThis.dispatched = [];
    class EventTarget {
      addEventListener(type, fn, capture) { (this.__l ??= []).push({ type, fn, capture: Boolean(capture) }); }
      removeEventListener(type, fn, capture) {
        this.__l = (this.__l ?? []).filter((l) => !(l.type === type && l.fn === fn && l.capture === Boolean(capture)));
      }
      dispatchEvent(event) {
        dispatched.push({ target: this, type: event.type });
        for (const l of [...(this.__l ?? [])]) if (l.type === event.type) l.fn.call(this, event);
        return true;
      }
    }
    class Event { constructor(type) { this.type = type; } }
    class SubmitEvent extends Event {
      #submitter;
      constructor(type, init = {}) { super(type); this.#submitter = init.submitter ?? null; }
      get submitter() { return this.#submitter; }
    }
    class ShadowRoot { #mode; constructor(mode, host) { this.#mode = mode; this.host = host; } get mode() { return this.#mode; } }
    class Element extends EventTarget { constructor(tag) { super(); this.nodeName = tag; this.nodeType = 1; this.isConnected = false; } }
    Object.defineProperty(Element.prototype, 'attachShadow', {
      value: function attachShadow(init) {
        if (init?.mode !== 'open' && init?.mode !== 'closed') throw new TypeError('mode must be open or closed');
        return new ShadowRoot(init.mode, this);
      },
      writable: true, enumerable: true, configurable: true,
    });
    class Document extends EventTarget { createElement(tag) { return new Element(tag); } }
    Object.assign(globalThis, { EventTarget, Event, SubmitEvent, ShadowRoot, Element, Document });
    globalThis.document = new Document();
    globalThis.nativeAttachShadow = Element.prototype.attachShadow;
    globalThis.nativeToString = Function.prototype.toString;
  `, context);
  return context;
}

function runHook(context) {
  vm.runInContext(source, context, { filename: 'chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/content/shadow-hook.js' });
}

/** The content script's side of the meeting, as content.js does it. */
function meetAsContentScript(context, on) {
  return vm.runInContext(`(() => {
    let channel = null;
    const onHook = (e) => { channel = e.submitter; document.removeEventListener('extension-bridge:hook', onHook, true); };
    document.addEventListener('extension-bridge:hook', onHook, true);
    if (!channel) document.dispatchEvent(new SubmitEvent('extension-bridge:content'));
    const hosts = [];
    channel.addEventListener('extension-bridge:shadow-root', (e) => hosts.push(e.submitter));
    channel.dispatchEvent(new Event(${on ? "'extension-bridge:on'" : "'extension-bridge:off'"}));
    return { channel, hosts };
  })()`, context);
}

test('shadowHook_attachShadow_readsAsTheNativeFunction', () => {
  const context = pageWorld();
  const before = vm.runInContext(`({
    text: Function.prototype.toString.call(nativeAttachShadow),
    toStringText: Function.prototype.toString.call(Function.prototype.toString),
    descriptor: JSON.stringify(Object.getOwnPropertyDescriptor(Element.prototype, 'attachShadow'), (k, v) => typeof v === 'function' ? 'fn' : v),
    toStringDescriptor: JSON.stringify(Object.getOwnPropertyDescriptor(Function.prototype, 'toString'), (k, v) => typeof v === 'function' ? 'fn' : v),
  })`, context);
  runHook(context);
  const after = vm.runInContext(`({
    changed: Element.prototype.attachShadow !== nativeAttachShadow,
    text: Function.prototype.toString.call(Element.prototype.attachShadow),
    viaMethod: Element.prototype.attachShadow.toString(),
    viaString: String(Element.prototype.attachShadow),
    toStringText: Function.prototype.toString.call(Function.prototype.toString),
    toStringOfToString: Function.prototype.toString.toString(),
    name: Element.prototype.attachShadow.name,
    length: Element.prototype.attachShadow.length,
    prototype: Element.prototype.attachShadow.prototype,
    ownKeys: Reflect.ownKeys(Element.prototype.attachShadow).join(),
    nativeOwnKeys: Reflect.ownKeys(nativeAttachShadow).join(),
    toStringName: Function.prototype.toString.name,
    descriptor: JSON.stringify(Object.getOwnPropertyDescriptor(Element.prototype, 'attachShadow'), (k, v) => typeof v === 'function' ? 'fn' : v),
    toStringDescriptor: JSON.stringify(Object.getOwnPropertyDescriptor(Function.prototype, 'toString'), (k, v) => typeof v === 'function' ? 'fn' : v),
    globals: Object.keys(globalThis).join(),
  })`, context);
  assert.equal(after.changed, true, 'the hook is installed');
  assert.equal(after.text, before.text, 'toString gives the native text');
  assert.equal(after.viaMethod, before.text);
  assert.equal(after.viaString, before.text);
  assert.doesNotMatch(after.text, /apply|dispatch|Reflect/);
  assert.equal(after.toStringText, before.toStringText);
  assert.equal(after.toStringOfToString, before.toStringText);
  assert.equal(after.name, 'attachShadow');
  assert.equal(after.length, 1);
  assert.equal(after.prototype, vm.runInContext('nativeAttachShadow.prototype', context));
  assert.equal(after.ownKeys, after.nativeOwnKeys);
  assert.equal(after.toStringName, 'toString');
  assert.equal(after.descriptor, before.descriptor, 'writable, enumerable, configurable as the native one');
  assert.equal(after.toStringDescriptor, before.toStringDescriptor);
  assert.equal(after.globals, 'dispatched,EventTarget,Event,SubmitEvent,ShadowRoot,Element,Document,document,nativeAttachShadow,nativeToString', 'no global added');
});

test('shadowHook_announcesOpenRootsOnlyOnTheChannel_andNothingWhileOff', () => {
  const context = pageWorld();
  runHook(context);
  // The page's own view: capture listeners on the document, the host itself.
  vm.runInContext(`
    globalThis.heard = [];
    for (const type of ['extension-bridge:shadow-root', 'extension-bridge:hook', 'extension-bridge:content', 'extension-bridge:on', 'extension-bridge:off']) {
      document.addEventListener(type, () => heard.push(type), true);
    }
  `, context);
  const side = meetAsContentScript(context, false);
  vm.runInContext('dispatched.length = 0; heard.length = 0', context);
  vm.runInContext(`
    const off = document.createElement('div');
    globalThis.offRoot = off.attachShadow({ mode: 'open' });
  `, context);
  assert.equal(vm.runInContext('dispatched.length', context), 0, 'while off: no event at all');
  assert.equal(side.hosts.length, 0);

  side.channel.dispatchEvent(new (vm.runInContext('Event', context))('extension-bridge:on'));
  vm.runInContext('dispatched.length = 0', context);
  vm.runInContext(`
    globalThis.host = document.createElement('div');
    host.addEventListener('extension-bridge:shadow-root', () => heard.push('on host'));
    host.attachShadow({ mode: 'open' });
    document.createElement('p').attachShadow({ mode: 'closed' });
  `, context);
  assert.equal(side.hosts.length, 1, 'the open root is announced');
  assert.equal(side.hosts[0], vm.runInContext('host', context));
  const targets = vm.runInContext('dispatched.map((d) => d.target)', context);
  assert.equal(targets.length, 1, 'one event');
  assert.equal(targets[0], side.channel, 'only on the channel');
  assert.equal(side.channel.isConnected, false);
  assert.equal(vm.runInContext('JSON.stringify(heard)', context), '[]', 'the page heard nothing');
  // After the meeting, a page that fires the content script's event gets no answer.
  vm.runInContext(`dispatched.length = 0; document.dispatchEvent(new SubmitEvent('extension-bridge:content'))`, context);
  assert.equal(vm.runInContext('JSON.stringify(dispatched.map((d) => d.type))', context), '["extension-bridge:content"]');
});

test('shadowHook_contentScriptFirst_stillMeets', () => {
  const context = pageWorld();
  // content.js ran first: its event found nobody; the hook's own announcement then reaches it.
  const box = vm.runInContext(`(() => {
    const box = { channel: null };
    document.addEventListener('extension-bridge:hook', (e) => { box.channel = e.submitter; }, true);
    document.dispatchEvent(new SubmitEvent('extension-bridge:content'));
    return box;
  })()`, context);
  assert.equal(box.channel, null);
  runHook(context);
  assert.notEqual(box.channel, null);
  assert.equal(box.channel.nodeType, 1);
});

test('shadowHook_errorsOfTheNativeFunction_doNotNameTheExtension', () => {
  const context = pageWorld();
  runHook(context);
  const result = vm.runInContext(`(() => {
    try { document.createElement('div').attachShadow({ mode: 'bad' }); } catch (error) {
      return { name: error.name, message: error.message, stack: String(error.stack) };
    }
    return null;
  })()`, context);
  assert.equal(result.name, 'TypeError');
  assert.equal(result.message, 'mode must be open or closed');
  assert.doesNotMatch(result.stack, /content\/shadow-hook\.js|chrome-extension/);
  const toStringError = vm.runInContext(`(() => {
    try { Function.prototype.toString.call({}); } catch (error) { return String(error.stack); }
    return '';
  })()`, context);
  assert.match(toStringError, /TypeError/);
  assert.doesNotMatch(toStringError, /content\/shadow-hook\.js|chrome-extension/);
});
