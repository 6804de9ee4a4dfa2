import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createRouter, classifySender, SenderKind, ALLOWED_SENDERS } from '../background/router.js';
import { MessageType } from '../shared/constants.js';
import { HostProblemError, makeProblem } from '../background/problems.js';

const ID = 'honlgoealnaplikdeeidpcknncfcnfmo';
const ORIGIN = `chrome-extension://${ID}/`;
const PAGE = 'https://news.example/article?id=1';

const contentSender = (url = PAGE, extra = {}) => ({ id: ID, url, tab: { id: 42, url }, frameId: 0, ...extra });
const popupSender = { id: ID, url: `${ORIGIN}popup.html` };

/** A fake host client that records requests and answers from a table. */
function fakeHost(answers = {}) {
  const requests = [];
  return {
    requests,
    retried: 0,
    async request(message) {
      requests.push(message);
      const key = message.action ?? message.message;
      const answer = answers[key];
      if (answer instanceof Error) throw answer;
      if (typeof answer === 'function') return answer(message);
      return answer ?? { status: 'success' };
    },
    async ping() {
      const answer = answers.ping;
      if (answer instanceof Error) throw answer;
      return answer ?? { connected: true, transport: 'port', rttMs: 2, hostVersion: '0.1.0', protocolVersion: 1 };
    },
    retry() {
      this.retried += 1;
    },
  };
}

function setup(answers) {
  const host = fakeHost(answers);
  const served = [];
  const saved = [];
  const router = createRouter({
    host,
    extensionId: ID,
    extensionOrigin: ORIGIN,
    onContentScript: (tabId) => served.push(tabId),
    onSettingsSaved: (settings) => saved.push(settings),
  });
  return { router, host, served, saved };
}

const FORBIDDEN = { status: 'error', code: 'forbidden_sender' };

test('classifySender_tabFromOurId_isContentScript', () => {
  const ids = { extensionId: ID, extensionOrigin: ORIGIN };
  assert.equal(classifySender(contentSender(), ids), SenderKind.CONTENT_SCRIPT);
  assert.equal(classifySender(popupSender, ids), SenderKind.EXTENSION_PAGE);
  assert.equal(classifySender({ ...contentSender(), id: 'someone-else' }, ids), SenderKind.OTHER);
  assert.equal(classifySender({ id: ID, url: 'https://evil.example/popup.html' }, ids), SenderKind.OTHER);
  assert.equal(classifySender({ id: ID, url: `chrome-extension://${'a'.repeat(32)}/popup.html` }, ids), SenderKind.OTHER);
  assert.equal(classifySender(undefined, ids), SenderKind.OTHER);
});

test('classifySender_ourPageOpenedInATab_isExtensionPage', () => {
  // popup.html opened as a tab: browsers set `tab` for it as for a content script.
  const ids = { extensionId: ID, extensionOrigin: ORIGIN };
  const popupInTab = { ...popupSender, tab: { id: 7, url: popupSender.url } };
  assert.equal(classifySender(popupInTab, ids), SenderKind.EXTENSION_PAGE);
  // A web page cannot pose as one: its content script's URL is the page's.
  assert.equal(classifySender({ id: ID, url: 'https://evil.example/x', tab: { id: 8 } }, ids), SenderKind.CONTENT_SCRIPT);
});

test('contentEnabled_usesLegacyHostMessage_andSeedReplyShape', async () => {
  const { router, host, served } = setup({ 'request:enabled_status': { 'delivery:enabled_status': true } });
  const reply = await router.route({ type: MessageType.CONTENT_ENABLED }, contentSender());
  assert.deepEqual(reply, { 'background_response:enabled': true });
  assert.deepEqual(host.requests, [{ message: 'request:enabled_status' }]);
  assert.deepEqual(served, [42]);
});

test('contentEnabled_hostUnreachable_answersFalseWithProblem', async () => {
  const { router } = setup({ 'request:enabled_status': new HostProblemError(makeProblem('not_found', 'Specified native messaging host not found.')) });
  const reply = await router.route({ type: MessageType.CONTENT_ENABLED }, contentSender());
  assert.equal(reply['background_response:enabled'], false);
  assert.equal(reply.code, 'not_found');
  assert.equal(reply.hint, 'Run: extension-bridge doctor');
});

test('getContent_fromContentScript_usesSenderUrlNotMessage', async () => {
  const { router, host } = setup({ getContent: (m) => ({ status: 'success', url: m.url, rules: { vocabulary: {} } }) });
  const reply = await router.route({ type: MessageType.GET_CONTENT }, contentSender());
  assert.equal(reply.url, PAGE);
  assert.deepEqual(host.requests, [{ action: 'getContent', url: PAGE }]);
});

test('getContent_contentScriptAsksForAnotherUrl_isRefused', async () => {
  const { router, host } = setup();
  const reply = await router.route({ type: MessageType.GET_CONTENT, url: 'https://bank.example/statement' }, contentSender());
  assert.deepEqual(reply, { ...FORBIDDEN, message: reply.message });
  assert.equal(host.requests.length, 0);
});

test('getContent_firefoxSenderWithoutTabUrl_usesSenderUrl', async () => {
  const { router, host } = setup();
  await router.route({ type: MessageType.GET_CONTENT }, { id: ID, url: PAGE, tab: { id: 3 } });
  assert.deepEqual(host.requests, [{ action: 'getContent', url: PAGE }]);
});

test('getContent_contentScriptWithoutAnyUrl_isRefused', async () => {
  const { router, host } = setup();
  const reply = await router.route({ type: MessageType.GET_CONTENT }, { id: ID, tab: { id: 3 } });
  assert.equal(reply.code, 'forbidden_sender');
  assert.equal(host.requests.length, 0);
});

test('getContent_fromPopup_takesUrlFromMessage', async () => {
  const { router, host } = setup();
  await router.route({ type: MessageType.GET_CONTENT, url: 'https://a.example/' }, popupSender);
  assert.deepEqual(host.requests, [{ action: 'getContent', url: 'https://a.example/' }]);
  const missing = await router.route({ type: MessageType.GET_CONTENT }, popupSender);
  assert.equal(missing.code, 'invalid_message');
});

for (const type of [
  MessageType.SAVE_CONTENT, MessageType.SET_SETTINGS, MessageType.QUEUE_COUNT, MessageType.HOST_STATUS,
  MessageType.APP_INFO,
]) {
  test(`${type}_fromContentScript_isForbidden`, async () => {
    const { router, host } = setup();
    const reply = await router.route(
      { type, url: PAGE, title: 't', content: 'c', settings: { enabled: true } },
      contentSender(),
    );
    assert.equal(reply.status, 'error');
    assert.equal(reply.code, 'forbidden_sender');
    assert.equal(host.requests.length, 0, 'nothing reached the host');
  });
}

test('anyType_fromForeignExtensionOrWebPage_isForbidden', async () => {
  const { router, host } = setup();
  for (const type of Object.keys(ALLOWED_SENDERS)) {
    const fromOther = await router.route({ type }, { id: 'other-extension', url: 'chrome-extension://other/popup.html' });
    assert.equal(fromOther.code, 'forbidden_sender', type);
    const fromPageWithoutTab = await router.route({ type }, { id: ID, url: PAGE });
    assert.equal(fromPageWithoutTab.code, 'forbidden_sender', type);
  }
  assert.equal(host.requests.length, 0);
});

test('saveContent_fromPopup_reachesHost', async () => {
  const { router, host } = setup({ saveContent: { status: 'success', message: 'Content saved', itemId: 'i1' } });
  const reply = await router.route({ type: MessageType.SAVE_CONTENT, url: PAGE, title: 'T', content: 'body' }, popupSender);
  assert.equal(reply.itemId, 'i1');
  assert.deepEqual(host.requests, [{ action: 'saveContent', url: PAGE, content: 'body', title: 'T' }]);
});

test('setSettings_fromPopup_reachesHostAndNotifies', async () => {
  const { router, host, saved } = setup({ setSettings: (m) => ({ status: 'success', settings: { theme: 'auto', ...m.settings } }) });
  const reply = await router.route({ type: MessageType.SET_SETTINGS, settings: { enabled: true } }, popupSender);
  assert.deepEqual(reply.settings, { enabled: true, theme: 'auto' });
  assert.deepEqual(host.requests, [{ action: 'setSettings', settings: { enabled: true } }]);
  assert.deepEqual(saved, [{ enabled: true, theme: 'auto' }]);
  const bad = await router.route({ type: MessageType.SET_SETTINGS, settings: 'on' }, popupSender);
  assert.equal(bad.code, 'invalid_message');
  assert.equal(host.requests.length, 1);
});

test('setSettings_hostError_passesThroughWithoutNotifying', async () => {
  const { router, saved } = setup({ setSettings: { status: 'error', code: 'invalid_request', message: 'bad key' } });
  const reply = await router.route({ type: MessageType.SET_SETTINGS, settings: { colour: 'red' } }, popupSender);
  assert.equal(reply.code, 'invalid_request');
  assert.deepEqual(saved, []);
});

test('getSettings_fromContentScript_returnsPublicKeysOnly', async () => {
  const { router } = setup({ getSettings: { status: 'success', settings: { enabled: true, theme: 'dark', secret: 'x' } } });
  assert.deepEqual(await router.route({ type: MessageType.GET_SETTINGS }, contentSender()), {
    status: 'success',
    settings: { enabled: true, theme: 'dark' },
  });
});

test('queueCount_fromPopup_reachesHost', async () => {
  const { router } = setup({ queueCount: { status: 'success', count: 4 } });
  assert.equal((await router.route({ type: MessageType.QUEUE_COUNT }, popupSender)).count, 4);
});

test('appInfo_fromPopup_asksTheHostsAppInfoAction', async () => {
  const answer = { status: 'success', name: 'ReadLater', hostName: 'com.example.readlater', group: 'g', version: '1.0.0' };
  const { router, host } = setup({ appInfo: answer });
  assert.deepEqual(await router.route({ type: MessageType.APP_INFO }, popupSender), answer);
  assert.deepEqual(host.requests, [{ action: 'appInfo' }]);
});

test('hostStatus_connected_andProblemWithDoctorHint', async () => {
  const ok = setup();
  const reply = await ok.router.route({ type: MessageType.HOST_STATUS, retry: true }, popupSender);
  assert.equal(reply.status, 'success');
  assert.equal(reply.hostVersion, '0.1.0');
  assert.equal(ok.host.retried, 1);
  const bad = setup({ ping: new HostProblemError(makeProblem('forbidden', 'Access to the specified native messaging host is forbidden.')) });
  const problem = await bad.router.route({ type: MessageType.HOST_STATUS }, popupSender);
  assert.equal(problem.status, 'error');
  assert.equal(problem.connected, false);
  assert.equal(problem.code, 'forbidden');
  assert.equal(problem.problem.hint, 'Run: extension-bridge doctor');
  assert.equal(bad.host.retried, 0);
});

test('unknownOrMalformed_answeredWithError', async () => {
  const { router } = setup();
  assert.equal((await router.route({ type: 'frobnicate' }, popupSender)).code, 'unknown_type');
  assert.equal((await router.route({ type: MessageType.PAGE_STATE }, popupSender)).code, 'unknown_type');
  assert.equal((await router.route('hello', popupSender)).code, 'invalid_message');
  assert.equal((await router.route(null, popupSender)).code, 'invalid_message');
  assert.equal((await router.route({ action: 'queueCount' }, popupSender)).code, 'invalid_message');
});

test('listener_returnsTrueAndRepliesThroughSendResponse', async () => {
  const { router } = setup({ queueCount: { status: 'success', count: 9 } });
  const replies = [];
  const keepOpen = router.listener({ type: MessageType.QUEUE_COUNT }, popupSender, (r) => replies.push(r));
  assert.equal(keepOpen, true);
  assert.deepEqual(replies, [], 'asynchronous');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(replies, [{ status: 'success', count: 9 }]);
});

test('listener_unexpectedThrow_repliesInternalError', async () => {
  const { router } = setup({ queueCount: new TypeError('boom') });
  const replies = [];
  router.listener({ type: MessageType.QUEUE_COUNT }, popupSender, (r) => replies.push(r));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(replies[0].code, 'internal_error');
});

// Rules reach a content script only through
// getPageState, and only while the extension is on.
test('getPageState_whileOff_givesTheContentScriptNoRules_andGetContentNeverDoes', async () => {
  const host = fakeHost({ getContent: () => ({ status: 'success', items: [], rules: { vocabulary: { blue: 'blauw' } } }) });
  const off = { status: 'success', enabled: false, count: 1, compiled: { format: 2, data: 'blauw' }, rulesVersion: 'v9' };
  const router = createRouter({
    host, extensionId: ID, extensionOrigin: ORIGIN, pageState: { get: async () => off },
  });
  const state = await router.route({ type: MessageType.GET_PAGE_STATE }, contentSender());
  assert.deepEqual(state, { status: 'success', enabled: false, compiled: null, count: 0, rulesVersion: '' });
  const content = await router.route({ type: MessageType.GET_CONTENT }, contentSender());
  assert.equal(content.status, 'success');
  assert.equal(content.rules, undefined, 'no rules to a content script');
  const popup = await router.route({ type: MessageType.GET_CONTENT, url: PAGE }, popupSender);
  assert.deepEqual(popup.rules, { vocabulary: { blue: 'blauw' } }, 'the popup (an extension page) still gets them');
});

function setupWith(features, answers) {
  const host = fakeHost(answers);
  const served = [];
  const pageState = { async get() { host.requests.push({ action: 'getPageState' }); return { status: 'success', enabled: true, count: 1, compiled: { format: 2, data: 'blauw' }, rulesVersion: 'v1' }; }, summary: () => ({}) };
  const router = createRouter({
    host, pageState, features, extensionId: ID, extensionOrigin: ORIGIN, onContentScript: (tabId) => served.push(tabId),
  });
  return { host, router, served };
}

test('getPageState_withoutVocabulary_tellsTheContentScriptNothingToRewrite_withoutTheHost', async () => {
  const { host, router, served } = setupWith(['saving', 'transform']);
  const reply = await router.route({ type: MessageType.GET_PAGE_STATE }, contentSender());
  assert.deepEqual(reply, { status: 'success', enabled: false, compiled: null, count: 0, rulesVersion: '' });
  assert.deepEqual(host.requests, [], 'the host is not asked');
  assert.deepEqual(served, [], 'the tab is not served page states (no keep-alive)');
  const on = setupWith(['vocabulary']);
  assert.equal((await on.router.route({ type: MessageType.GET_PAGE_STATE }, contentSender())).enabled, true);
  assert.deepEqual(on.served, [42]);
});

test('featureOff_typesAnswerFeatureOff_andReachNoHost', async () => {
  const { host, router } = setupWith(['vocabulary']);
  for (const message of [
    { type: MessageType.SAVE_CONTENT, url: PAGE, content: 'x' }, { type: MessageType.LAST_SAVE },
    { type: MessageType.UNDO_SAVE }, { type: MessageType.GET_SECRET, name: 'api-token' },
  ]) {
    const reply = await router.route(message, popupSender);
    assert.equal(reply.code, 'feature_off', message.type);
  }
  assert.deepEqual(host.requests, []);
});

test('getSecret_fromPopupOnly_asksTheHost', async () => {
  const { host, router } = setupWith(['secrets'], { getSecret: { status: 'success', name: 'api-token', value: 'v' } });
  assert.equal((await router.route({ type: MessageType.GET_SECRET, name: 'api-token' }, popupSender)).value, 'v');
  assert.deepEqual(host.requests, [{ action: 'getSecret', name: 'api-token' }]);
  assert.equal((await router.route({ type: MessageType.GET_SECRET, name: 'api-token' }, contentSender())).code, 'forbidden_sender');
  assert.equal((await router.route({ type: MessageType.GET_SECRET }, popupSender)).code, 'invalid_message');
  assert.equal(host.requests.length, 1);
});
