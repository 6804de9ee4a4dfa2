import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createClock, createRuntime, createStorageArea, createTabs, flush } from './helpers/fakes.js';
import { APP } from '../app/app.js';
import { Feature } from '../shared/constants.js';
import '../content/engine.js'; // a classic script: defines globalThis.ExtensionBridgeText

const { compileVocabulary } = globalThis.ExtensionBridgeText;

// The wiring with every feature, whatever this extension's app/app.js lists (a generated one may list fewer).
const EVERY_FEATURE = { ...APP, features: Object.values(Feature) };

function createEvent() {
  const listeners = [];
  return { listeners, addListener: (fn) => listeners.push(fn) };
}

test('background_wiresRouterPortPageStateAndBroadcasts', async () => {
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
    (await import('../background/start.js')).startBackground(globalThis.chrome, EVERY_FEATURE);
    assert.equal(runtime.onMessage.listeners.length, 1, 'one router listener, registered at top level');
    assert.equal(tabs.onRemoved.listeners.length, 1);
    await flush();
    assert.equal(runtime.ports.length, 0, 'no port until needed');

    // A content script asks for its page state: one getPageState, no URL.
    const replies = [];
    const keep = runtime.onMessage.listeners[0](
      { type: 'getPageState' },
      { id: runtime.id, url: 'https://a.example/', tab: { id: 11 } },
      (r) => replies.push(r),
    );
    assert.equal(keep, true);
    await flush();
    const port = runtime.lastPort;
    assert.ok(port, 'port opened');
    assert.equal(port.sent[0].action, 'hello');
    port.answerHello();
    await flush();
    const request = port.sent.find((m) => m.action === 'getPageState');
    assert.ok(request, 'getPageState sent');
    assert.equal(request.url, undefined);
    port.reply({ status: 'success', id: request.id, enabled: true, page: 0, pages: 1, rulesVersion: 'v1', undeliverable: 0, rules: { vocabulary: { blue: 'blauw' } } });
    await flush();
    assert.deepEqual(replies[0], { status: 'success', enabled: true, compiled: compileVocabulary([['blue', 'blauw']], 'v1'), count: 1, rulesVersion: 'v1' });
    assert.deepEqual(session.data.servedTabs, [11]);
    assert.equal(session.data.hostStatus.state, 'connected');
    assert.equal(port.sent.filter((m) => m.action !== 'hello').length, 1, 'one host request per page load');

    // The first request waited for the port's hello and went on it, so its answer is
    // current: the next page loads are served from memory.
    const ask = () => runtime.onMessage.listeners[0]({ type: 'getPageState' }, { id: runtime.id, url: 'https://a.example/', tab: { id: 11 } }, (r) => replies.push(r));
    ask();
    await flush();
    ask();
    await flush();
    assert.equal(replies[1].rulesVersion, 'v1');
    assert.equal(replies[2].rulesVersion, 'v1');
    assert.equal(port.sent.filter((m) => m.action === 'getPageState').length, 1, 'later pages are served from memory');

    // A host event: the background fetches the complete state and sends it to the tab that asked (11), not 12.
    port.reply({ event: 'pageState', settings: { enabled: false, theme: 'auto' }, rules: { vocabulary: {} } });
    await flush();
    const refetch = port.sent.filter((m) => m.action === 'getPageState').at(-1);
    assert.notEqual(refetch.id, request.id);
    port.reply({ status: 'success', id: refetch.id, enabled: false, page: 0, pages: 1, rulesVersion: 'v2', undeliverable: 0, rules: { vocabulary: {} } });
    await flush();
    assert.deepEqual(tabs.sent.map((s) => [s.tabId, s.message.type, s.message.enabled]), [[11, 'pageState', false]]);

    // A push from this host is page 0 of getPageState: applied as it is, with no request
    // to the host (no second round trip), sent to the tab, and served from memory after.
    const requestsBefore = port.sent.length;
    const oneShotsBefore = runtime.oneShotCalls.length;
    port.reply({
      event: 'pageState', settings: { enabled: true, theme: 'auto' },
      enabled: true, page: 0, pages: 1, rulesVersion: 'v3', undeliverable: 0, rules: { vocabulary: { red: 'rood' } },
    });
    await flush();
    assert.equal(port.sent.length, requestsBefore, 'no request to the host for a push that carries the state');
    assert.equal(runtime.oneShotCalls.length, oneShotsBefore);
    assert.deepEqual(tabs.sent.at(-1), { tabId: 11, message: { type: 'pageState', enabled: true, compiled: compileVocabulary([['red', 'rood']], 'v3'), count: 1, rulesVersion: 'v3' } });
    ask();
    await flush();
    assert.equal(replies.at(-1).rulesVersion, 'v3');
    assert.equal(port.sent.length, requestsBefore, 'the pushed state is the state a page gets');
    // The same state pushed again (only the theme changed) reaches no tab.
    const sentToTabs = tabs.sent.length;
    port.reply({
      event: 'pageState', settings: { enabled: true, theme: 'dark' },
      enabled: true, page: 0, pages: 1, rulesVersion: 'v3', undeliverable: 0, rules: { vocabulary: { red: 'rood' } },
    });
    await flush();
    assert.equal(tabs.sent.length, sentToTabs);
    // Rules of more pages are pushed as their page 0: only the pages after it are fetched, then the state is sent.
    const before = port.sent.length;
    port.reply({ event: 'pageState', settings: { enabled: true, theme: 'dark' }, enabled: true, page: 0, pages: 2, rulesVersion: 'v4', undeliverable: 0, rules: { vocabulary: { a: '1' } } });
    await flush();
    assert.deepEqual(port.sent.slice(before).map((m) => [m.action, m.page]), [['getPageState', 1]], 'page 1 only: page 0 came with the push');
    const page1 = port.sent.at(-1);
    port.reply({ status: 'success', id: page1.id, enabled: true, page: 1, pages: 2, rulesVersion: 'v4', undeliverable: 0, rules: { vocabulary: { b: '2' } } });
    await flush();
    assert.deepEqual(tabs.sent.at(-1).message, { type: 'pageState', enabled: true, compiled: compileVocabulary([['a', '1'], ['b', '2']], 'v4'), count: 2, rulesVersion: 'v4' });
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
    console.warn = warn;
    delete globalThis.chrome;
  }
});

test('background_createsTheMenusOnInstall_andListensToMenusAndTheShortcut', async () => {
  const runtime = createRuntime();
  runtime.onMessage = createEvent();
  runtime.onInstalled = createEvent();
  runtime.onStartup = createEvent();
  runtime.getURL = (path) => `chrome-extension://${runtime.id}/${path}`;
  const created = [];
  let removed = 0;
  const contextMenus = {
    onClicked: createEvent(),
    removeAll: async () => { removed += 1; },
    create: (entry, done) => { created.push(entry); done?.(); },
    update: async () => {},
  };
  const commands = { onCommand: createEvent() };
  const tabs = { ...createTabs([11]), onRemoved: createEvent() };
  globalThis.chrome = {
    runtime, tabs, contextMenus, commands, storage: { session: createStorageArea() },
    i18n: { getMessage: (key, subs) => (subs ? `${key}:${subs.join(',')}` : key) },
  };
  const clock = createClock();
  const [realSetTimeout, realClearTimeout, warn] = [globalThis.setTimeout, globalThis.clearTimeout, console.warn];
  globalThis.setTimeout = clock.setTimeout;
  globalThis.clearTimeout = clock.clearTimeout;
  console.warn = () => {};
  try {
    (await import('../background/start.js')).startBackground(globalThis.chrome, EVERY_FEATURE);
    assert.equal(contextMenus.onClicked.listeners.length, 1, 'registered at top level');
    assert.equal(commands.onCommand.listeners.length, 1);
    assert.equal(typeof globalThis.extensionBridgeMenus?.onClicked, 'function');
    runtime.onInstalled.listeners[0]({ reason: 'install' });
    await flush();
    assert.equal(removed, 1);
    assert.deepEqual(created.map((e) => e.id), ['save-page', 'save-link', 'save-selection', 'transform-selection', 'undo-save']);
    assert.equal(created[3].title, 'menuTransformSelection:extensionName');
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
    console.warn = warn;
    delete globalThis.chrome;
    delete globalThis.extensionBridgeMenus;
  }
});

/** A fake browser API with menus and commands, recording what the background registers. */
function createMenuApi() {
  const runtime = createRuntime();
  runtime.onMessage = createEvent();
  runtime.onInstalled = createEvent();
  runtime.onStartup = createEvent();
  runtime.getURL = (path) => `chrome-extension://${runtime.id}/${path}`;
  const created = [];
  const contextMenus = {
    onClicked: createEvent(),
    removeAll: async () => {},
    create: (entry, done) => { created.push(entry); done?.(); },
    update: async () => {},
  };
  const commands = { onCommand: createEvent() };
  const tabs = { ...createTabs([11]), onRemoved: createEvent() };
  const api = {
    runtime, tabs, contextMenus, commands, storage: { session: createStorageArea() },
    i18n: { getMessage: (key) => key },
  };
  return { api, runtime, contextMenus, commands, created };
}

async function startWith(features) {
  const { startBackground } = await import('../background/start.js');
  const fake = createMenuApi();
  const warn = console.warn;
  console.warn = () => {};
  try {
    startBackground(fake.api, { name: 'ReadLater', hostName: 'com.example.readlater', features });
    for (const listener of fake.runtime.onInstalled.listeners) listener({ reason: 'install' });
    await flush();
  } finally {
    console.warn = warn;
  }
  return fake;
}

test('background_withVocabularyOnly_registersNoMenusAndNoShortcut_andStillServesPages', async () => {
  try {
    const fake = await startWith(['vocabulary']);
    assert.equal(fake.contextMenus.onClicked.listeners.length, 0, 'no menu listener');
    assert.equal(fake.commands.onCommand.listeners.length, 0, 'no command handler');
    assert.equal(fake.runtime.onInstalled.listeners.length, 0, 'nothing to create on install');
    assert.deepEqual(fake.created, []);
    assert.equal(globalThis.extensionBridgeMenus, undefined);
    assert.equal(fake.runtime.onMessage.listeners.length, 1, 'the router is there');
    // Saving is not there for the popup either.
    const replies = [];
    fake.runtime.onMessage.listeners[0](
      { type: 'saveContent', url: 'https://a.example/', content: 'x' },
      { id: fake.runtime.id, url: fake.runtime.getURL('popup/popup.html') },
      (r) => replies.push(r),
    );
    await flush();
    assert.equal(replies[0].code, 'feature_off');
  } finally {
    delete globalThis.extensionBridgeMenus;
  }
});

test('background_withEveryFeature_registersEveryMenuAndTheShortcut', async () => {
  try {
    const fake = await startWith(['vocabulary', 'saving', 'transform', 'secrets']);
    assert.equal(fake.contextMenus.onClicked.listeners.length, 1);
    assert.equal(fake.commands.onCommand.listeners.length, 1);
    assert.deepEqual(fake.created.map((e) => e.id), ['save-page', 'save-link', 'save-selection', 'transform-selection', 'undo-save']);
    assert.equal(typeof globalThis.extensionBridgeMenus?.onClicked, 'function');
  } finally {
    delete globalThis.extensionBridgeMenus;
  }
});

test('background_withTransformOnly_hasItsMenuAlone_andNoShortcut', async () => {
  try {
    const fake = await startWith(['transform']);
    assert.deepEqual(fake.created.map((e) => e.id), ['transform-selection']);
    assert.equal(fake.commands.onCommand.listeners.length, 0);
    // A click on an entry of a feature it lacks (a stale menu from before) does nothing.
    const reply = await globalThis.extensionBridgeMenus.onClicked({ menuItemId: 'save-page' }, { id: 11 });
    assert.equal(reply.code, 'feature_off');
    const shortcut = await globalThis.extensionBridgeMenus.onCommand('save-page', { id: 11 });
    assert.equal(shortcut.code, 'unknown_command');
  } finally {
    delete globalThis.extensionBridgeMenus;
  }
});

test('backgroundJs_startsTheWiringForThisExtensionsApp', async () => {
  const fake = createMenuApi();
  globalThis.chrome = fake.api;
  const warn = console.warn;
  console.warn = () => {};
  try {
    await import('../background/background.js');
    const has = (feature) => APP.features.includes(feature);
    assert.equal(fake.runtime.onMessage.listeners.length, 1, 'the router, at top level');
    assert.equal(fake.contextMenus.onClicked.listeners.length, has(Feature.SAVING) || has(Feature.TRANSFORM) ? 1 : 0);
    assert.equal(fake.commands.onCommand.listeners.length, has(Feature.SAVING) ? 1 : 0);
  } finally {
    console.warn = warn;
    delete globalThis.chrome;
    delete globalThis.extensionBridgeMenus;
  }
});
