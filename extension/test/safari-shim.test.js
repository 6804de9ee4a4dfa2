import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

// The Safari compatibility shim (compat/safari-shim.js), run as a browser runs it: a classic
// script in a fresh global, with a fake `chrome` (Chromium: callback + lastError) or a fake
// `browser` (Firefox: promises) whose sendNativeMessage records where each message went.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHIM = readFileSync(join(ROOT, 'compat/safari-shim.js'), 'utf8');
const NAMESPACE = readFileSync(join(ROOT, 'compat/browser-namespace.js'), 'utf8');
const HOST = 'org.extensionbridge.host';

/** `reply(host, message)` → a value, or throws an Error (the host is missing). */
function chromium(reply) {
  const calls = [];
  // Chromium sets lastError itself (an accessor on the API object), not by assignment from JS.
  let lastError;
  const runtime = {
    get lastError() {
      return lastError;
    },
    sendNativeMessage(host, message, callback) {
      calls.push({ host, message });
      assert.equal(typeof callback, 'function', 'the shim uses the chrome callback form');
      setTimeout(() => {
        try {
          const response = reply(host, message);
          callback(response);
        } catch (error) {
          lastError = { message: error.message };
          callback();
          lastError = undefined;
        }
      }, 0);
    },
    connectNative(host) {
      calls.push({ connect: host });
      return { name: host };
    },
  };
  return { globals: { chrome: { runtime } }, calls };
}

function firefox(reply) {
  const calls = [];
  const runtime = {
    sendNativeMessage(host, message) {
      calls.push({ host, message });
      return new Promise((resolve, reject) => {
        setTimeout(() => {
          try {
            resolve(reply(host, message));
          } catch (error) {
            reject(error);
          }
        }, 0);
      });
    },
    connectNative(host) {
      calls.push({ connect: host });
      return { name: host };
    },
  };
  return { globals: { browser: { runtime }, chrome: { runtime: { ...runtime } } }, calls };
}

function load({ globals, calls }) {
  const logs = { warn: [], error: [] };
  const console = {
    warn: (...args) => logs.warn.push(args.join(' ')),
    error: (...args) => logs.error.push(args.map(String).join(' ')),
    log() {},
  };
  const context = vm.createContext({ ...globals, console, setTimeout, Promise, Symbol, Error });
  vm.runInContext(SHIM, context, { filename: 'safari-shim.js' });
  return { context, calls, logs };
}

const enabled = () => ({ 'delivery:enabled_status': true });
const missing = () => {
  throw new Error('Specified native messaging host not found.');
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

for (const [browserName, make] of [
  ['chromium', chromium],
  ['firefox', firefox],
]) {
  test(`${browserName}: sendNativeMessage(message, callback), Safari's form, goes to the bridge's host`, async () => {
    const { context, calls } = load(make(enabled));
    const response = await new Promise((resolve) => {
      context.browser.runtime.sendNativeMessage({ message: 'request:enabled_status' }, resolve);
    });
    assert.deepEqual(calls, [{ host: HOST, message: { message: 'request:enabled_status' } }]);
    assert.equal(response['delivery:enabled_status'], true);
  });

  test(`${browserName}: sendNativeMessage(message) answers with a promise`, async () => {
    const { context, calls } = load(make(enabled));
    const response = await context.browser.runtime.sendNativeMessage({ message: 'request:enabled_status' });
    assert.equal(response['delivery:enabled_status'], true);
    assert.equal(calls[0].host, HOST);
  });

  test(`${browserName}: sendNativeMessage(anyAppId, message[, callback]) ignores the app id, as Safari does`, async () => {
    const { context, calls } = load(make(enabled));
    const viaPromise = await context.browser.runtime.sendNativeMessage('application.id', { action: 'hello' });
    const viaCallback = await new Promise((resolve) => {
      context.browser.runtime.sendNativeMessage('com.example.App.Extension', { action: 'ping' }, resolve);
    });
    assert.deepEqual(calls, [
      { host: HOST, message: { action: 'hello' } },
      { host: HOST, message: { action: 'ping' } },
    ]);
    assert.equal(viaPromise['delivery:enabled_status'], true);
    assert.equal(viaCallback['delivery:enabled_status'], true);
  });

  test(`${browserName}: the chrome namespace takes Safari's forms too`, async () => {
    const { context, calls } = load(make(enabled));
    const response = await new Promise((resolve) => {
      context.chrome.runtime.sendNativeMessage({ message: 'request:enabled_status' }, resolve);
    });
    assert.equal(response['delivery:enabled_status'], true);
    assert.equal(await context.chrome.runtime.sendNativeMessage({ a: 1 }).then(() => calls.length), 2);
    assert.ok(calls.every((call) => call.host === HOST));
  });

  test(`${browserName}: a missing host calls back with undefined and lastError, logs, never throws`, async () => {
    const { context, logs } = load(make(missing));
    let seen;
    let lastErrorInside;
    // The seed's callback: response["delivery:enabled_status"] throws on undefined, as it would in Safari.
    context.browser.runtime.sendNativeMessage({ message: 'request:enabled_status' }, function (response) {
      seen = { called: true, args: arguments.length, response };
      lastErrorInside = context.browser.runtime.lastError;
      return response['delivery:enabled_status'];
    });
    await tick();
    assert.deepEqual(seen, { called: true, args: 0, response: undefined });
    assert.match(lastErrorInside.message, /not found/);
    assert.equal(context.browser.runtime.lastError, undefined, 'lastError only while the callback runs');
    assert.ok(logs.warn.some((line) => line.includes(HOST) && line.includes('not found')), logs.warn.join('\n'));
    assert.ok(logs.error.some((line) => line.includes('callback threw')), 'the TypeError is caught and logged');
  });

  test(`${browserName}: a missing host rejects the promise form with an Error`, async () => {
    const { context, logs } = load(make(missing));
    await assert.rejects(context.browser.runtime.sendNativeMessage({ message: 'request:enabled_status' }), (error) => {
      assert.match(error.message, /not found/);
      return true;
    });
    assert.equal(logs.warn.length, 1);
  });

  test(`${browserName}: a refused request reaches the callback as the host sent it, and is logged`, async () => {
    const refusal = { status: 'error', code: 'caller_not_allowed', message: 'this extension may not call' };
    const { context, logs } = load(make(() => refusal));
    const response = await new Promise((resolve) => {
      context.browser.runtime.sendNativeMessage({ message: 'request:enabled_status' }, resolve);
    });
    assert.deepEqual({ ...response }, refusal);
    // The seed's callback reads a missing key: undefined, not a throw; its page stays unchanged.
    assert.equal(response['delivery:enabled_status'], undefined);
    assert.ok(logs.warn.some((line) => line.includes('caller_not_allowed')), logs.warn.join('\n'));
  });

  test(`${browserName}: connectNative(anyAppId) opens the bridge's host`, () => {
    const { context, calls } = load(make(enabled));
    const port = context.browser.runtime.connectNative('application.id');
    assert.equal(port.name, HOST);
    assert.deepEqual(calls, [{ connect: HOST }]);
  });
}

test('chromium: browser is defined as chrome when absent; loading twice changes nothing', async () => {
  const setup = chromium(enabled);
  const { context, calls } = load(setup);
  assert.equal(context.browser, context.chrome);
  vm.runInContext(SHIM, context);
  await context.browser.runtime.sendNativeMessage({ once: true });
  assert.equal(calls.length, 1, 'one call, not wrapped twice');
});

test('chromium: an API object that refuses changes gets a proxy namespace instead', async () => {
  const setup = chromium(enabled);
  Object.freeze(setup.globals.chrome.runtime);
  const { context, calls } = load(setup);
  const response = await context.browser.runtime.sendNativeMessage({ message: 'request:enabled_status' });
  assert.equal(response['delivery:enabled_status'], true);
  assert.equal(calls[0].host, HOST);
});

test('content scripts: browser-namespace.js defines browser as chrome in Chromium, leaves Firefox alone', () => {
  const chromeOnly = vm.createContext({ chrome: { runtime: {} } });
  vm.runInContext(NAMESPACE, chromeOnly);
  assert.equal(chromeOnly.browser, chromeOnly.chrome);
  const ownBrowser = { runtime: {} };
  const both = vm.createContext({ chrome: { runtime: {} }, browser: ownBrowser });
  vm.runInContext(NAMESPACE, both);
  assert.equal(both.browser, ownBrowser);
});

test('the host name sits on one line the generator replaces', () => {
  const lines = SHIM.split('\n').filter((line) => line.includes(`'${HOST}'`));
  assert.deepEqual(lines, [`  const HOST_NAME = '${HOST}';`]);
});

// ---- Manifest V2's APIs where the browser runs Manifest V3 (Chromium), and SVG toolbar icons ----

/** Values made in the shim's realm, as plain data (their prototypes are another realm's). */
const plain = (value) => JSON.parse(JSON.stringify(value));

/** Chromium 156 as a Manifest V3 extension sees it: `browser` and `chrome` (distinct objects sharing their
 * APIs), action and scripting, no browserAction, no tabs.executeScript, no runtime.getBrowserInfo. */
function chromiumManifestV3() {
  const record = [];
  const action = {
    enable: async (tabId) => record.push(['enable', tabId]),
    disable: async (tabId) => record.push(['disable', tabId]),
    setIcon: async (details) => record.push(['setIcon', details]),
    setBadgeText: async (details) => record.push(['setBadgeText', details]),
  };
  const scripting = {
    executeScript: async (injection) => {
      record.push(['executeScript', injection]);
      return [{ frameId: 0, result: 'ran' }, { frameId: 3, result: 42 }];
    },
    insertCSS: async (injection) => record.push(['insertCSS', injection]),
    removeCSS: async (injection) => record.push(['removeCSS', injection]),
  };
  const tabs = { query: async () => [{ id: 77 }] };
  const runtime = { sendNativeMessage: async () => ({}), getURL: (path) => `chrome-extension://id/${path}` };
  const extension = {};
  const apis = { runtime, action, scripting, tabs, extension };
  return { globals: { chrome: { ...apis }, browser: { ...apis } }, calls: [], record };
}

test('chromium: browserAction and pageAction are action, pageAction.show/hide enable/disable', async () => {
  const setup = chromiumManifestV3();
  const { context } = load(setup);
  assert.equal(context.browser.browserAction, context.browser.action);
  assert.equal(context.chrome.browserAction, context.chrome.action);
  await context.chrome.browserAction.setBadgeText({ text: '1' });
  await context.browser.pageAction.show(5);
  await new Promise((resolve) => context.chrome.pageAction.hide(6, resolve));
  assert.deepEqual(setup.record, [['setBadgeText', { text: '1' }], ['enable', 5], ['disable', 6]]);
});

test('chromium: tabs.executeScript runs scripting.executeScript with a file, answering each frame\'s result', async () => {
  const setup = chromiumManifestV3();
  const { context } = load(setup);
  const results = await context.browser.tabs.executeScript(9, { file: 'inject.js', allFrames: true });
  assert.deepEqual(results, ['ran', 42]);
  const byCallback = await new Promise((resolve) => {
    context.chrome.tabs.executeScript({ file: '/inject.js', frameId: 3, runAt: 'document_start' }, resolve);
  });
  assert.deepEqual(byCallback, ['ran', 42]);
  assert.deepEqual(plain(setup.record), [
    ['executeScript', { target: { tabId: 9, allFrames: true }, files: ['inject.js'] }],
    ['executeScript', { target: { tabId: 77, frameIds: [3] }, files: ['/inject.js'], injectImmediately: true }],
  ]);
});

test('chromium: tabs.executeScript with a code string rejects (no Manifest V3 equivalent), and calls back with lastError', async () => {
  const setup = chromiumManifestV3();
  const { context, logs } = load(setup);
  await assert.rejects(context.browser.tabs.executeScript({ code: 'alert(1)' }), /only \{file\}/);
  const seen = await new Promise((resolve) => {
    context.chrome.tabs.executeScript({ code: 'alert(1)' }, (result) => {
      resolve({ result, lastError: context.chrome.runtime.lastError?.message });
    });
  });
  assert.equal(seen.result, undefined);
  assert.match(seen.lastError, /only \{file\}/);
  assert.deepEqual(setup.record, [], 'nothing injected');
  assert.deepEqual(logs.error, []);
});

test('chromium: tabs.insertCSS / removeCSS run scripting\'s, code as css, cssOrigin as origin', async () => {
  const setup = chromiumManifestV3();
  const { context } = load(setup);
  await context.browser.tabs.insertCSS(4, { code: 'p{color:red}', cssOrigin: 'user' });
  await context.browser.tabs.removeCSS({ file: 'a.css' });
  assert.deepEqual(plain(setup.record), [
    ['insertCSS', { target: { tabId: 4 }, css: 'p{color:red}', origin: 'USER' }],
    ['removeCSS', { target: { tabId: 77 }, files: ['a.css'] }],
  ]);
  assert.equal(context.browser.extension.getURL('x.png'), 'chrome-extension://id/x.png');
});

test('chromium: action.setIcon leaves SVG paths out (Chromium cannot decode them), with one warning', async () => {
  const setup = chromiumManifestV3();
  const { context, logs } = load(setup);
  await context.browser.action.setIcon({ path: 'images/off.svg' });
  await context.chrome.browserAction.setIcon({ path: { 16: 'images/a.svg', 32: 'images/b.png' }, tabId: 2 });
  await context.chrome.action.setIcon({ path: 'images/on.png' });
  assert.deepEqual(plain(setup.record), [
    ['setIcon', { path: { 32: 'images/b.png' }, tabId: 2 }],
    ['setIcon', { path: 'images/on.png' }],
  ]);
  assert.equal(logs.warn.length, 1);
  assert.match(logs.warn[0], /SVG/);
});

test('firefox: its own browserAction, tabs.executeScript and SVG icons are left alone', async () => {
  const own = { setIcon: async () => 'own' };
  const executeScript = async () => 'own';
  const runtime = { sendNativeMessage: async () => ({}), getBrowserInfo: async () => ({ name: 'Firefox' }) };
  const browser = {
    runtime, browserAction: own, action: { setIcon: own.setIcon }, tabs: { executeScript }, scripting: {},
  };
  const { context } = load({ globals: { browser }, calls: [] });
  assert.equal(context.browser.browserAction, own);
  assert.equal(context.browser.tabs.executeScript, executeScript);
  assert.equal(context.browser.action.setIcon, own.setIcon, 'Firefox decodes SVG');
});

test('a page without importScripts (Firefox\'s background page) gets one that checks the scripts already listed', () => {
  const document = { scripts: [{ src: 'moz-extension://u/bridge-compat/safari-shim.js' }, { src: 'moz-extension://u/js/lib.js' }] };
  const setup = firefox(enabled);
  setup.globals.document = document;
  const { context, logs } = load(setup);
  context.importScripts('lib.js', './lib.js');
  assert.deepEqual(logs.error, [], 'listed before the worker: nothing to do');
  context.importScripts('missing.js');
  assert.equal(logs.error.length, 1);
  assert.match(logs.error[0], /importScripts\(missing\.js\)/);
  const worker = chromiumManifestV3();
  worker.globals.importScripts = () => 'own';
  assert.equal(load(worker).context.importScripts(), 'own', 'a worker keeps its own');
});
