import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createBroadcaster, createTabRegistry, sendToTabs } from '../background/events.js';
import { isPageStateEvent } from '../background/page-state.js';

const { compileVocabulary } = globalThis.ExtensionBridgeText; // loaded by page-state.js
import { createStorageArea, createTabs } from './helpers/fakes.js';

const STATE = { status: 'success', enabled: true, count: 1, compiled: compileVocabulary([['blue', 'blauw']], 'v1'), rulesVersion: 'v1' };

test('sendToTabs_reachesTheGivenTabsDespiteFailures', async () => {
  const tabs = createTabs([1, 2, 3], { failFor: [2] });
  assert.equal(await sendToTabs(tabs, [1, 2], { type: 'x' }), 1);
  assert.deepEqual(tabs.sent.map((s) => s.tabId), [1]);
});

test('isPageStateEvent_knowsThePageStateEvent', () => {
  assert.equal(isPageStateEvent({ event: 'pageState' }), true);
  assert.equal(isPageStateEvent({ event: 'settingsChanged' }), false, 'the name before: nothing the host sends now');
  assert.equal(isPageStateEvent({ event: 'somethingNew' }), false);
  assert.equal(isPageStateEvent(null), false);
});

test('broadcaster_sendsCompleteStateOnlyToTabsThatAsked', async () => {
  const tabs = createTabs([1, 2, 3]);
  const registry = createTabRegistry(createStorageArea());
  await registry.add(2);
  await registry.add(3);
  const broadcast = createBroadcaster(tabs, registry);
  assert.equal(await broadcast(STATE), 2);
  assert.deepEqual(tabs.sent.map((s) => s.tabId), [2, 3], 'tab 1 never asked');
  assert.deepEqual(tabs.sent[0].message, { type: 'pageState', enabled: true, compiled: STATE.compiled, count: 1, rulesVersion: 'v1' });
  assert.equal(await broadcast({ ...STATE, enabled: false }), 2);
  assert.equal(tabs.sent.at(-1).message.enabled, false);
  assert.equal(await broadcast({ status: 'error', code: 'timeout' }), 0, 'errors are not broadcast');
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
