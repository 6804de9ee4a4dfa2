import { test } from 'node:test';
import assert from 'node:assert/strict';

import { contentPageState, createPageState, pageStateMessage } from '../background/page-state.js';
import { HostProblemError, makeProblem } from '../background/problems.js';

/** A host that serves `vocabulary` in pages of `perPage` entries, like getPageState. */
function pagedHost(vocabulary, { perPage = 2, enabled = true, version = 'v1', changeAt = null } = {}) {
  const requests = [];
  let current = version;
  const host = {
    requests,
    async request(message) {
      requests.push(message);
      assert.equal(message.action, 'getPageState');
      assert.equal(message.url, undefined, 'no URL: the queue is not read');
      const page = message.page ?? 0;
      if (changeAt !== null && requests.length === changeAt) current = `${current}+`;
      const keys = Object.keys(vocabulary);
      const pages = Math.max(1, Math.ceil(keys.length / perPage));
      const slice = Object.fromEntries(keys.slice(page * perPage, page * perPage + perPage).map((k) => [k, vocabulary[k]]));
      return { status: 'success', enabled, page, pages, rulesVersion: current, undeliverable: 0, rules: { vocabulary: slice } };
    },
  };
  return host;
}

test('get_reassemblesPagedRules_inOneState', async () => {
  const vocabulary = JSON.parse('{"a":"1","b":"2","c":"3","__proto__":"p","constructor":"k"}');
  const host = pagedHost(vocabulary);
  const source = createPageState({ host, isConnected: () => true });
  const state = await source.get();
  assert.equal(state.status, 'success');
  assert.equal(state.enabled, true);
  assert.equal(state.pages, 3);
  assert.deepEqual(new Map(state.entries), new Map(Object.entries(vocabulary)));
  assert.deepEqual(host.requests.map((r) => r.page ?? 0), [0, 1, 2]);
  assert.deepEqual(source.summary(), { entries: 5, undeliverable: 0, problem: null });
});

test('get_whileConnected_isServedFromMemory_untilTheConnectionChanges', async () => {
  const host = pagedHost({ a: '1' });
  let connected = true;
  const source = createPageState({ host, isConnected: () => connected });
  await source.get();
  await source.get();
  assert.equal(host.requests.length, 1, 'one host request for two pages');
  source.connectionChanged();
  await source.get();
  assert.equal(host.requests.length, 2, 'a new connection may have missed an event');
  connected = false;
  await source.get();
  await source.get();
  assert.equal(host.requests.length, 4, 'without a port nothing announces changes: ask every time');
});

test('get_fetchedWhileThePortOpens_isKept_onceThatPortConnects', async () => {
  // A request made while the port is being opened waits for its hello and goes on it: the state
  // it brings is current, and the next page load is served from memory.
  let state = 'connecting';
  let source;
  const inner = pagedHost({ a: '1', b: '2', c: '3' });
  const host = {
    requests: inner.requests,
    async request(message) {
      if (state === 'connecting') {
        await Promise.resolve();
        state = 'connected';
        source.connectionChanged();
      }
      return inner.request(message);
    },
  };
  source = createPageState({ host, isConnected: () => state === 'connected', isConnecting: () => state === 'connecting' });
  await source.get();
  assert.equal(host.requests.length, 2, 'two pages');
  await source.get();
  assert.equal(host.requests.length, 2, 'served from memory: the port that announces changes carried the fetch');
});

test('get_fetchedOneShot_whileThePortOpensLater_isAskedAgain', async () => {
  // A one-shot answer may predate the port's first announcement: not kept as current.
  let state = 'idle';
  let source;
  const inner = pagedHost({ a: '1' });
  const host = {
    requests: inner.requests,
    async request(message) {
      const reply = inner.request(message); // one-shot: not on a port
      if (state === 'idle') {
        await Promise.resolve();
        state = 'connected'; // a port opened meanwhile (another request, the keep-alive)
        source.connectionChanged();
      }
      return reply;
    },
  };
  source = createPageState({ host, isConnected: () => state === 'connected', isConnecting: () => false });
  await source.get();
  await source.get();
  assert.equal(host.requests.length, 2, 'asked again');
});

test('get_concurrentCallers_shareOneFetch', async () => {
  const host = pagedHost({ a: '1', b: '2', c: '3' });
  const source = createPageState({ host, isConnected: () => false });
  const [x, y] = await Promise.all([source.get(), source.get()]);
  assert.equal(x, y);
  assert.equal(host.requests.length, 2);
});

test('get_rulesChangingBetweenPages_startsAgain', async () => {
  const host = pagedHost({ a: '1', b: '2', c: '3' }, { changeAt: 2 });
  const source = createPageState({ host, isConnected: () => true });
  const state = await source.get();
  assert.equal(state.status, 'success');
  assert.equal(state.rulesVersion, 'v1+');
  assert.equal(state.entries.length, 3);
  assert.deepEqual(host.requests.map((r) => r.page ?? 0), [0, 1, 0, 1]);
});

test('get_hostProblem_isAnErrorReply_andTheSummarySaysSo', async () => {
  const host = {
    async request() {
      throw new HostProblemError(makeProblem('not_found', 'Specified native messaging host not found.'));
    },
  };
  const source = createPageState({ host, isConnected: () => false });
  const state = await source.get();
  assert.equal(state.status, 'error');
  assert.equal(state.code, 'not_found');
  assert.equal(source.summary().problem.code, 'not_found');
});

test('summary_reportsUndeliverableEntries', async () => {
  const host = {
    async request() {
      return { status: 'success', enabled: true, page: 0, pages: 1, rulesVersion: 'x', undeliverable: 2, rules: { vocabulary: { a: 'b' } } };
    },
  };
  const source = createPageState({ host, isConnected: () => true });
  await source.get();
  assert.deepEqual(source.summary(), { entries: 1, undeliverable: 2, problem: null });
});

// Issue 28, finding 15: while the extension is off no vocabulary reaches a
// tab or frame — neither the getPageState reply nor the pageState broadcast.
test('disabledState_carriesNoRules_toContentScripts', async () => {
  // A host from before issue 28 still sends the rules with enabled false.
  const host = pagedHost({ blue: 'blauw', secret: 'geheim', c: '3' }, { enabled: false });
  const source = createPageState({ host, isConnected: () => true });
  const state = await source.get();
  assert.equal(state.status, 'success');
  assert.equal(state.enabled, false);
  assert.deepEqual(state.entries, [], 'no entries kept while off');
  assert.equal(state.rulesVersion, '', 'not even a hash of the rules');
  const message = pageStateMessage('pageState', { enabled: false, entries: [['blue', 'blauw']], rulesVersion: 'v9' });
  assert.deepEqual(message, { type: 'pageState', enabled: false, packed: '', count: 0, rulesVersion: '' });
  assert.deepEqual(contentPageState({ enabled: true, entries: [['blue', 'blauw']], rulesVersion: 'v9' }),
    { enabled: true, packed: '1:4:blue5:blauw', count: 1, rulesVersion: 'v9' });
  assert.doesNotMatch(JSON.stringify(contentPageState({ status: 'success', enabled: false, entries: [['blue', 'blauw']], rulesVersion: 'v9' })), /blauw|v9/);
});

test('accept_aPushWithTheWholeRules_isTheState_withoutAnyRequest', async () => {
  const host = pagedHost({ a: '1' });
  const heard = [];
  const source = createPageState({ host, isConnected: () => true, onChange: (state) => heard.push(state.rulesVersion) });
  const push = { event: 'settingsChanged', settings: { enabled: true, theme: 'auto' }, enabled: true, page: 0, pages: 1, rulesVersion: 'p1', undeliverable: 0, rules: { vocabulary: { blue: 'blauw', n: 3 } } };
  const state = await source.accept(push);
  assert.deepEqual(state.entries, [['blue', 'blauw']]);
  assert.equal(host.requests.length, 0, 'no second round trip');
  assert.equal((await source.get()).rulesVersion, 'p1', 'served from memory');
  assert.equal(host.requests.length, 0);
  await source.accept({ ...push, settings: { enabled: true, theme: 'dark' } });
  assert.deepEqual(heard, ['p1'], 'the same state twice is heard once');
  assert.equal(await source.accept({ event: 'somethingElse' }), null);
});

test('accept_switchedOff_carriesNoRulesToPages', async () => {
  const source = createPageState({ host: pagedHost({}), isConnected: () => true });
  const state = await source.accept({ event: 'settingsChanged', enabled: false, page: 0, pages: 1, rulesVersion: 'x', undeliverable: 0, rules: { vocabulary: { a: 'b' } } });
  assert.deepEqual([state.enabled, state.entries, state.rulesVersion], [false, [], '']);
});

test('accept_rulesOfMorePages_areFetched_unlessTheyAreTheRulesHeld', async () => {
  const host = pagedHost({ a: '1', b: '2', c: '3' });
  const source = createPageState({ host, isConnected: () => true });
  const announce = { event: 'rulesChanged', enabled: true, page: 0, pages: 2, rulesVersion: 'v1', undeliverable: 0, rulesBytes: 9 };
  const state = await source.accept(announce);
  assert.equal(state.entries.length, 3);
  assert.equal(host.requests.length, 2);
  await source.accept({ ...announce, settings: { theme: 'dark' } });
  assert.equal(host.requests.length, 2, 'the version held: nothing to fetch');
});

test('accept_aPushDuringAFetch_winsOverTheFetchsAnswer', async () => {
  let answer;
  const host = { request: () => new Promise((resolve) => { answer = resolve; }) };
  const source = createPageState({ host, isConnected: () => true });
  const fetching = source.refresh();
  await source.accept({ event: 'settingsChanged', enabled: true, page: 0, pages: 1, rulesVersion: 'new', undeliverable: 0, rules: { vocabulary: { a: 'new' } } });
  answer({ status: 'success', enabled: true, page: 0, pages: 1, rulesVersion: 'old', undeliverable: 0, rules: { vocabulary: { a: 'old' } } });
  assert.equal((await fetching).rulesVersion, 'new');
  assert.equal((await source.get()).rulesVersion, 'new');
});

test('accept_anAnnouncementDuringItsOwnFetch_doesNotThrowTheFetchAway', async () => {
  let answer;
  const host = { request: () => new Promise((resolve) => { answer = resolve; }) };
  const source = createPageState({ host, isConnected: () => true });
  await source.accept({ event: 'settingsChanged', enabled: true, page: 0, pages: 1, rulesVersion: 'v4', undeliverable: 0, rules: { vocabulary: { a: 'old' } } });
  const announce = { event: 'rulesChanged', enabled: true, page: 0, pages: 2, rulesVersion: 'v5', undeliverable: 0, rulesBytes: 9 };
  const first = source.accept(announce);
  const second = source.accept({ ...announce, settings: { theme: 'dark' } }); // only the theme changed meanwhile
  answer({ status: 'success', enabled: true, page: 0, pages: 1, rulesVersion: 'v5', undeliverable: 0, rules: { vocabulary: { a: 'b' } } });
  assert.equal((await first).rulesVersion, 'v5', 'an announcement is not a newer state than the fetch it started');
  assert.equal((await second).rulesVersion, 'v5');
  assert.equal((await source.get()).rulesVersion, 'v5');
});
