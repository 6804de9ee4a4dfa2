import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createClock, createRuntime, createStorageArea, createTabs, flush } from './helpers/fakes.js';

function createEvent() {
  const listeners = [];
  return { listeners, addListener: (fn) => listeners.push(fn) };
}

test('background_wiresRouterPortAndForwarding', async () => {
  const runtime = createRuntime();
  runtime.onMessage = createEvent();
  runtime.getURL = (path) => `chrome-extension://${runtime.id}/${path}`;
  const tabs = { ...createTabs([11, 12]), onRemoved: createEvent() };
  const session = createStorageArea();
  globalThis.chrome = { runtime, tabs, storage: { session } };
  const warn = console.warn;
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  // The client's default timers look up globalThis.setTimeout when called:
  // a manual clock here means nothing it schedules can keep this test alive.
  const clock = createClock();
  globalThis.setTimeout = clock.setTimeout;
  globalThis.clearTimeout = clock.clearTimeout;
  console.warn = () => {};
  try {
    await import('../background.js');
    assert.equal(runtime.onMessage.listeners.length, 1, 'one router listener, registered at top level');
    assert.equal(tabs.onRemoved.listeners.length, 1);
    await flush();
    assert.equal(runtime.ports.length, 0, 'no port until needed');

    // A content script asks for its page's content.
    const replies = [];
    const keep = runtime.onMessage.listeners[0](
      { type: 'getContent', url: 'https://elsewhere.example/' },
      { id: runtime.id, url: 'https://a.example/', tab: { id: 11 } },
      (r) => replies.push(r),
    );
    assert.equal(keep, true);
    await flush();
    assert.equal(replies[0].code, 'forbidden_sender');

    runtime.onMessage.listeners[0]({ type: 'getContent' }, { id: runtime.id, url: 'https://a.example/', tab: { id: 11 } }, (r) => replies.push(r));
    await flush();
    const port = runtime.lastPort;
    assert.ok(port, 'port opened');
    assert.equal(port.sent[0].action, 'hello');
    const request = port.sent.find((m) => m.action === 'getContent');
    assert.equal(request.url, 'https://a.example/');
    port.answerHello();
    port.reply({ status: 'success', id: request.id, url: request.url, rules: { vocabulary: { blue: 'blauw' } } });
    await flush();
    assert.equal(replies[1].rules.vocabulary.blue, 'blauw');
    assert.deepEqual(session.data.servedTabs, [11]);
    assert.equal(session.data.hostStatus.state, 'connected');

    // A host event reaches every tab.
    port.reply({ event: 'settingsChanged', settings: { enabled: false, theme: 'auto' }, rules: { vocabulary: {} } });
    await flush();
    assert.deepEqual(tabs.sent.map((s) => [s.tabId, s.message.type, s.message.settings.enabled]), [[11, 'settingsChanged', false], [12, 'settingsChanged', false]]);
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
    console.warn = warn;
    delete globalThis.chrome;
  }
});
