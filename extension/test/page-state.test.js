import { test } from 'node:test';
import assert from 'node:assert/strict';

import { contentPageState, createPageState, pageStateMessage } from '../background/page-state.js';
import { HostProblemError, makeProblem } from '../background/problems.js';

const { compileVocabulary, replaceText } = globalThis.ExtensionBridgeText; // loaded by page-state.js
/** What a state's compiled rules make of `text`. */
const rewrite = (state, text) => (state.compiled ? replaceText(text, state.compiled) : text);

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
  assert.equal(state.count, 5);
  assert.equal(rewrite(state, 'a b c __proto__ constructor'), '1 2 3 p k', 'every page\'s entries, compiled once');
  assert.equal(state.entries, undefined, 'the entries are not kept, only their compiled form');
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

test('connectionChanged_aChangeMadeWhileNoPortWasThere_reachesTheTabs_onceAPortConnects', async () => {
  // The host pushes only what changes after its hello. A state handed out one-shot (no port) and
  // changed before the next port's hello would reach no open tab: the new port fetches it again.
  let vocabulary = { blue: 'blauw', skies: 'luchten' };
  let version = 'v1';
  const requests = [];
  const host = {
    async request(message) {
      requests.push(message);
      return { status: 'success', enabled: true, page: 0, pages: 1, rulesVersion: version, rules: { vocabulary } };
    },
  };
  let connected = false;
  const heard = [];
  const source = createPageState({ host, isConnected: () => connected, onChange: (state) => heard.push(state) });
  const first = await source.get();
  assert.equal(rewrite(first, 'blue skies'), 'blauw luchten');
  vocabulary = { blue: 'blauw' }; // changed while the port was down: no push will tell of it
  version = 'v2';
  connected = true;
  source.connectionChanged();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(requests.length, 2, 'fetched again on the new port');
  assert.equal(heard.length, 1, 'the tabs hear the changed state');
  assert.equal(rewrite(heard[0], 'blue skies'), 'blauw skies');
  await source.get();
  assert.equal(requests.length, 2, 'and the next page load is served from memory: the port carried it');
  source.connectionChanged(); // the same state on the next connection: fetched, not announced
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(requests.length, 3);
  assert.equal(heard.length, 1, 'an unchanged state is not broadcast');
});

test('connectionChanged_beforeAStateWasHandedOut_orWithoutAPort_asksNothing', async () => {
  const host = pagedHost({ a: '1' });
  let connected = true;
  const source = createPageState({ host, isConnected: () => connected });
  source.connectionChanged();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(host.requests.length, 0, 'no tab has a state: nothing to bring up to date');
  await source.get();
  connected = false;
  source.connectionChanged(); // the port dropped: nothing to fetch it on
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(host.requests.length, 1);
});

test('connectionChanged_aFetchThatFailedOnANewPort_isNotRepeatedOnEveryNextPort', async () => {
  // A host that ends on every getPageState: each new port would start it again, fetch, lose it,
  // back off and connect again. After one failure new ports fetch nothing until a state comes in
  // another way (a tab's own request here).
  let healthy = true;
  const requests = [];
  const host = {
    async request(message) {
      requests.push(message);
      if (!healthy) return { status: 'error', code: 'exited', message: 'Native host has exited.' };
      return { status: 'success', enabled: true, page: 0, pages: 1, rulesVersion: 'v1', rules: { vocabulary: { a: '1' } } };
    },
  };
  const source = createPageState({ host, isConnected: () => true });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  await source.get();
  healthy = false;
  source.connectionChanged();
  await tick();
  assert.equal(requests.length, 2, 'the new port fetched once');
  source.connectionChanged();
  source.connectionChanged();
  await tick();
  assert.equal(requests.length, 2, 'and the ports after it fetched nothing');
  assert.equal(source.summary().problem.code, 'exited', 'the popup can say why');
  healthy = true;
  await source.get(); // a tab asks: it gets the state, and new ports fetch again
  source.connectionChanged();
  await tick();
  assert.equal(requests.length, 4);
});

test('get_theSameRulesVersionFetchedAgain_isNotFetchedInFullOrCompiledAgain', async () => {
  // A new connection refetches the state: page 0 says which rules version it is; the version
  // held is not fetched again page by page, nor compiled again (compiling 150,000 entries is the
  // background's one costly step per change; their pages are 4 MB from the host).
  const host = pagedHost({ blue: 'blauw', red: 'rood', green: 'groen' }, { perPage: 1 });
  const source = createPageState({ host, isConnected: () => true });
  const first = await source.get();
  assert.equal(host.requests.length, 3, 'three pages');
  source.connectionChanged();
  const second = await source.get();
  assert.deepEqual(host.requests.slice(3).map((r) => r.page ?? 0), [0], 'page 0 only');
  assert.equal(second, first, 'the state held');
  assert.equal(rewrite(second, 'blue red green'), 'blauw rood groen');
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
  assert.equal(state.count, 3);
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

// While the extension is off no vocabulary reaches a
// tab or frame — neither the getPageState reply nor the pageState broadcast.
test('disabledState_carriesNoRules_toContentScripts', async () => {
  // A host that sends the rules with enabled false (older hosts did): they stay in the background.
  const host = pagedHost({ blue: 'blauw', secret: 'geheim', c: '3' }, { enabled: false });
  const source = createPageState({ host, isConnected: () => true });
  const state = await source.get();
  assert.equal(state.status, 'success');
  assert.equal(state.enabled, false);
  assert.deepEqual([state.count, state.compiled], [0, null], 'no rules kept while off');
  assert.equal(state.rulesVersion, '', 'not even a hash of the rules');
  const compiled = compileVocabulary([['blue', 'blauw']], 'v9');
  const message = pageStateMessage('pageState', { enabled: false, count: 1, compiled, rulesVersion: 'v9' });
  assert.deepEqual(message, { type: 'pageState', enabled: false, compiled: null, count: 0, rulesVersion: '' });
  const on = contentPageState({ enabled: true, count: 1, compiled, rulesVersion: 'v9' });
  assert.deepEqual(on, { enabled: true, compiled, count: 1, rulesVersion: 'v9' });
  assert.equal(on.compiled, compiled, 'the same compiled form for every tab, not a copy per tab');
  assert.doesNotMatch(JSON.stringify(contentPageState({ status: 'success', enabled: false, count: 1, compiled, rulesVersion: 'v9' })), /blauw|v9/);
});

test('accept_aPushWithTheWholeRules_isTheState_withoutAnyRequest', async () => {
  const host = pagedHost({ a: '1' });
  const heard = [];
  const source = createPageState({ host, isConnected: () => true, onChange: (state) => heard.push(state.rulesVersion) });
  const push = { event: 'pageState', settings: { enabled: true, theme: 'auto' }, enabled: true, page: 0, pages: 1, rulesVersion: 'p1', undeliverable: 0, rules: { vocabulary: { blue: 'blauw', n: 3 } } };
  const state = await source.accept(push);
  assert.deepEqual([state.count, rewrite(state, 'blue n')], [1, 'blauw n'], 'string values count (the engine says which)');
  assert.equal(host.requests.length, 0, 'no second round trip');
  assert.equal((await source.get()).rulesVersion, 'p1', 'served from memory');
  assert.equal(host.requests.length, 0);
  const again = await source.accept({ ...push, settings: { enabled: true, theme: 'dark' } });
  assert.equal(again, state, 'only the settings changed: the state held, not compiled again');
  assert.deepEqual(heard, ['p1'], 'the same state twice is heard once');
  assert.equal(await source.accept({ event: 'somethingElse' }), null);
});

test('accept_switchedOff_carriesNoRulesToPages', async () => {
  const source = createPageState({ host: pagedHost({}), isConnected: () => true });
  const state = await source.accept({ event: 'pageState', enabled: false, page: 0, pages: 1, rulesVersion: 'x', undeliverable: 0, rules: { vocabulary: { a: 'b' } } });
  assert.deepEqual([state.enabled, state.count, state.compiled, state.rulesVersion], [false, 0, null, '']);
});

test('accept_rulesOfMorePages_pageZeroComesWithThePush_theOthersAreFetched_unlessTheyAreTheRulesHeld', async () => {
  const host = pagedHost({ a: '1', b: '2', c: '3' });
  const source = createPageState({ host, isConnected: () => true });
  const push = { event: 'pageState', enabled: true, page: 0, pages: 2, rulesVersion: 'v1', undeliverable: 0, rules: { vocabulary: { a: '1', b: '2' } } };
  const state = await source.accept(push);
  assert.equal(state.count, 3);
  assert.equal(rewrite(state, 'a b c'), '1 2 3');
  assert.deepEqual(host.requests.map((r) => r.page ?? 0), [1], 'page 0 is not asked for again');
  await source.accept({ ...push, settings: { theme: 'dark' } });
  assert.equal(host.requests.length, 1, 'the version held: nothing to fetch');
  // No room for page 0's rules beside the settings: the push names the state, every page is fetched.
  const bare = { event: 'pageState', enabled: true, page: 0, pages: 2, rulesVersion: 'v1+', undeliverable: 0 };
  const other = createPageState({ host: pagedHost({ a: '1', b: '2', c: '3' }, { version: 'v1+' }), isConnected: () => true });
  assert.equal((await other.accept(bare)).count, 3);
});

test('accept_thePushedRulesChangeBeforeTheirLastPage_areFetchedWhole', async () => {
  const host = pagedHost({ a: '1', b: '2', c: '3' }, { version: 'v2' });
  const source = createPageState({ host, isConnected: () => true });
  const push = { event: 'pageState', enabled: true, page: 0, pages: 2, rulesVersion: 'v1', undeliverable: 0, rules: { vocabulary: { a: 'old' } } };
  const state = await source.accept(push);
  assert.equal(state.rulesVersion, 'v2');
  assert.equal(rewrite(state, 'a b c'), '1 2 3');
  assert.deepEqual(host.requests.map((r) => r.page ?? 0), [1, 0, 1]);
});

test('entries_whichCount_isTheEnginesRule_theCountIsWhatItKept', async () => {
  // Non-string values, a word with no token, two words that differ only in case: the count the
  // popup shows is what the engine compiled, not what arrived.
  const vocabulary = { blue: 'blauw', Blue: 'WRONG', ' ': 'space', '': 'empty', n: 3, no: null, red: 'rood' };
  const source = createPageState({ host: pagedHost(vocabulary, { perPage: 3 }), isConnected: () => true });
  const state = await source.get();
  assert.equal(state.count, compileVocabulary(Object.entries(vocabulary)).size);
  assert.equal(state.count, 2);
  assert.equal(rewrite(state, 'Blue red n'), 'Blauw rood n');
  assert.deepEqual(source.summary().entries, 2);
});

test('accept_aPushDuringAFetch_winsOverTheFetchsAnswer', async () => {
  let answer;
  const host = { request: () => new Promise((resolve) => { answer = resolve; }) };
  const source = createPageState({ host, isConnected: () => true });
  const fetching = source.refresh();
  await source.accept({ event: 'pageState', enabled: true, page: 0, pages: 1, rulesVersion: 'new', undeliverable: 0, rules: { vocabulary: { a: 'new' } } });
  answer({ status: 'success', enabled: true, page: 0, pages: 1, rulesVersion: 'old', undeliverable: 0, rules: { vocabulary: { a: 'old' } } });
  assert.equal((await fetching).rulesVersion, 'new');
  assert.equal((await source.get()).rulesVersion, 'new');
});

test('accept_anAnnouncementDuringItsOwnFetch_doesNotThrowTheFetchAway', async () => {
  let answer;
  const host = { request: () => new Promise((resolve) => { answer = resolve; }) };
  const source = createPageState({ host, isConnected: () => true });
  await source.accept({ event: 'pageState', enabled: true, page: 0, pages: 1, rulesVersion: 'v4', undeliverable: 0, rules: { vocabulary: { a: 'old' } } });
  const announce = { event: 'pageState', enabled: true, page: 0, pages: 2, rulesVersion: 'v5', undeliverable: 0 };
  const first = source.accept(announce);
  const second = source.accept({ ...announce, settings: { theme: 'dark' } }); // only the theme changed meanwhile
  answer({ status: 'success', enabled: true, page: 0, pages: 1, rulesVersion: 'v5', undeliverable: 0, rules: { vocabulary: { a: 'b' } } });
  assert.equal((await first).rulesVersion, 'v5', 'an announcement is not a newer state than the fetch it started');
  assert.equal((await second).rulesVersion, 'v5');
  assert.equal((await source.get()).rulesVersion, 'v5');
});
