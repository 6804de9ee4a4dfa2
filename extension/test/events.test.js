import { test } from 'node:test';
import assert from 'node:assert/strict';

import { broadcastToTabs, createTabRegistry, forwardHostEvent, settingsChangedMessage } from '../lib/events.js';
import { HostClient } from '../lib/host-client.js';
import { createClock, createRuntime, createStorageArea, createTabs, flush } from './helpers/fakes.js';

const EVENT = { event: 'settingsChanged', settings: { enabled: true, theme: 'auto' }, rules: { vocabulary: { blue: 'blauw' } } };

test('forwardHostEvent_settingsChanged_reachesEveryTabDespiteFailures', async () => {
  const tabs = createTabs([1, 2, 3], { failFor: [2] });
  const reached = await forwardHostEvent(tabs, EVENT);
  assert.equal(reached, 2);
  assert.deepEqual(tabs.sent.map((s) => s.tabId), [1, 3]);
  assert.deepEqual(tabs.sent[0].message, { type: 'settingsChanged', settings: EVENT.settings, rules: EVENT.rules });
});

test('forwardHostEvent_unknownEvent_isIgnored', async () => {
  const tabs = createTabs([1]);
  assert.equal(await forwardHostEvent(tabs, { event: 'somethingNew' }), 0);
  assert.deepEqual(tabs.sent, []);
});

test('settingsChangedMessage_withoutRules_omitsThem', () => {
  assert.deepEqual(settingsChangedMessage({ settings: { enabled: false } }), { type: 'settingsChanged', settings: { enabled: false } });
  assert.deepEqual(settingsChangedMessage(null), { type: 'settingsChanged' });
});

test('hostPushOnPort_endToEnd_reachesTabs', async () => {
  const clock = createClock();
  const runtime = createRuntime();
  const tabs = createTabs([7, 8]);
  const client = new HostClient({
    runtime,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    now: clock.now,
    onEvent: (frame) => forwardHostEvent(tabs, frame),
  });
  client.setKeepAlive(true);
  runtime.lastPort.answerHello();
  runtime.lastPort.reply(EVENT);
  await flush();
  assert.deepEqual(tabs.sent.map((s) => [s.tabId, s.message.rules.vocabulary.blue]), [[7, 'blauw'], [8, 'blauw']]);
  await broadcastToTabs(tabs, { type: 'settingsChanged' });
  assert.equal(tabs.sent.length, 4);
});

test('tabRegistry_keepsTabsInSessionStorageAndReportsSize', async () => {
  const area = createStorageArea();
  const sizes = [];
  const registry = createTabRegistry(area, (n) => sizes.push(n));
  await Promise.all([registry.add(1), registry.add(2), registry.add(1)]);
  assert.deepEqual(area.data.servedTabs, [1, 2]);
  await registry.remove(1);
  await registry.remove(2);
  assert.deepEqual(area.data.servedTabs, []);
  assert.deepEqual(sizes, [1, 2, 1, 0]);
});

test('tabRegistry_restore_afterWorkerRestart', async () => {
  const area = createStorageArea({ servedTabs: [5, 6] });
  const sizes = [];
  const registry = createTabRegistry(area, (n) => sizes.push(n));
  assert.equal(await registry.restore(), 2);
  assert.deepEqual(sizes, [2]);
  await registry.remove(5);
  assert.deepEqual(area.data.servedTabs, [6]);
});

test('tabRegistry_withoutStorage_stillWorks', async () => {
  const registry = createTabRegistry(undefined);
  assert.equal(await registry.add(1), 1);
  assert.equal(await registry.restore(), 1);
});
