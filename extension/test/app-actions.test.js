import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createRouter } from '../background/router.js';
import {
  AppCaller, DEFAULT_CALLERS, RESERVED_ACTIONS, createAppActions, missingFromHost, readDeclarations,
} from '../background/app-actions.js';
import { MessageType } from '../shared/constants.js';
import { HostProblemError, makeProblem } from '../background/problems.js';
import { APP } from '../app/app.js';

const ID = 'honlgoealnaplikdeeidpcknncfcnfmo';
const ORIGIN = `chrome-extension://${ID}/`;
const PAGE = 'https://news.example/article?id=1';
const contentSender = { id: ID, url: PAGE, tab: { id: 42, url: PAGE }, frameId: 0 };
const popupSender = { id: ID, url: `${ORIGIN}popup/popup.html` };

/** What an app declares in app/app.js. */
const ACTIONS = Object.freeze({
  shout: { callers: ['popup', 'background', 'content'] },
  whisper: {},
  backgroundOnly: { callers: ['background'] },
});

function fakeHost(answers = {}) {
  const requests = [];
  return {
    requests,
    async request(message) {
      requests.push(message);
      const answer = answers[message.action];
      if (answer instanceof Error) throw answer;
      return answer ?? { status: 'success', echo: message, id: 99 };
    },
    async ping() {
      return { connected: true, transport: 'port', rttMs: 1, hostVersion: '1.0.0', protocolVersion: 1, actions: answers.helloActions ?? null };
    },
  };
}

function setup(answers, actions = ACTIONS) {
  const host = fakeHost(answers);
  const logs = [];
  const router = createRouter({
    host, appActions: actions, extensionId: ID, extensionOrigin: ORIGIN, log: (...args) => logs.push(args.join(' ')),
  });
  return { router, host, logs };
}

const call = (action, payload) => ({ type: MessageType.APP_ACTION, action, payload });

test('appAction_declared_fromThePopup_reachesTheHostWithItsPayload', async () => {
  const { router, host } = setup();
  const reply = await router.route(call('whisper', { text: 'hi', n: 2 }), popupSender);
  assert.deepEqual(reply, { status: 'success', echo: { text: 'hi', n: 2, action: 'whisper' } }); // no host request id
  assert.deepEqual(host.requests, [{ text: 'hi', n: 2, action: 'whisper' }]);
  // No payload: the action alone.
  await router.route(call('shout'), popupSender);
  assert.deepEqual(host.requests[1], { action: 'shout' });
});

test('appAction_undeclared_isRefused_andTheHostIsNotAsked', async () => {
  const { router, host } = setup();
  for (const name of ['deleteEverything', 'toString', '__proto__', 'constructor']) {
    const reply = await router.route(call(name, {}), popupSender);
    assert.equal(reply.code, 'undeclared_action', name);
    assert.match(reply.message, /app\/app\.js/);
  }
  assert.deepEqual(host.requests, []);
});

test('appAction_contentScript_refusedUnlessDeclared', async () => {
  const { router, host } = setup();
  const refused = await router.route(call('whisper', { text: 'x' }), contentSender);
  assert.equal(refused.code, 'forbidden_sender');
  assert.match(refused.message, /popup, background/);
  assert.deepEqual(host.requests, []);
  const allowed = await router.route(call('shout', { text: 'x' }), contentSender);
  assert.equal(allowed.status, 'success');
  assert.deepEqual(host.requests, [{ text: 'x', action: 'shout' }]);
});

test('appAction_backgroundOnly_refusedToThePopup_allowedToTheBackground', async () => {
  const { router, host } = setup();
  assert.equal((await router.route(call('backgroundOnly'), popupSender)).code, 'forbidden_sender');
  assert.equal((await router.appAction('backgroundOnly', { a: 1 })).status, 'success');
  assert.equal((await router.appAction('whisper')).status, 'success'); // background is a default caller
  assert.equal((await router.appAction('undeclared')).code, 'undeclared_action');
  assert.deepEqual(host.requests.map((r) => r.action), ['backgroundOnly', 'whisper']);
});

test('appAction_otherSenders_areRefused', async () => {
  const { router, host } = setup();
  const reply = await router.route(call('shout'), { id: 'another-extension', url: 'https://evil.example/' });
  assert.equal(reply.code, 'forbidden_sender');
  assert.deepEqual(host.requests, []);
});

test('appAction_payloadCannotPickAnotherAction_orTheRequestId', async () => {
  const { router, host } = setup();
  for (const payload of [{ action: 'setSettings', settings: { enabled: false } }, { id: 7 }, { message: 'request:enabled_status' }]) {
    const reply = await router.route(call('shout', payload), contentSender);
    assert.equal(reply.code, 'invalid_message', JSON.stringify(payload));
  }
  for (const payload of [[1, 2], 'text', 3, null]) {
    assert.equal((await router.route(call('shout', payload), popupSender)).code, 'invalid_message', JSON.stringify(payload));
  }
  assert.equal((await router.route({ type: MessageType.APP_ACTION }, popupSender)).code, 'invalid_message');
  assert.deepEqual(host.requests, []);
});

test('appAction_hostSaysUnknownAction_isAStaleHost_withTheFix', async () => {
  const { router } = setup({ whisper: { status: 'error', code: 'unknown_action', message: 'Unknown action: whisper' } });
  const reply = await router.route(call('whisper'), popupSender);
  assert.equal(reply.code, 'stale_host');
  assert.equal(reply.action, 'whisper');
  assert.match(reply.message, /Rebuild and reinstall the host: scripts\/install.sh in the project/);
});

test('appAction_hostUnreachable_isAProblemReply_notAThrow', async () => {
  const { router } = setup({ whisper: new HostProblemError(makeProblem('not_found', 'Specified native messaging host not found.')) });
  const reply = await router.route(call('whisper'), popupSender);
  assert.equal(reply.status, 'error');
  assert.equal(reply.code, 'not_found');
  assert.equal((await router.appAction('whisper')).code, 'not_found');
});

test('hostStatus_listsDeclaredActionsTheHostLacks', async () => {
  const { router } = setup({ helloActions: ['hello', 'getSettings', 'shout'] });
  const reply = await router.route({ type: MessageType.HOST_STATUS }, popupSender);
  assert.deepEqual(reply.missingAppActions, ['whisper', 'backgroundOnly']);
  const current = setup({ helloActions: ['hello', 'shout', 'whisper', 'backgroundOnly'] });
  assert.deepEqual((await current.router.route({ type: MessageType.HOST_STATUS }, popupSender)).missingAppActions, []);
  // A host whose hello has no action list: nothing is claimed.
  assert.deepEqual(missingFromHost(readDeclarations(ACTIONS).declared, undefined), []);
});

test('declarations_reservedMalformedOrUnknownCallers_areLeftOut_andLogged', async () => {
  const { declared, problems } = readDeclarations({
    setSettings: { callers: ['content'] }, getSecret: {}, 'bad name': {}, typo: { callers: ['contentScript'] },
    notAnObject: true, ok: {}, everyone: { callers: ['content', 'popup'] },
  });
  assert.deepEqual([...declared.keys()], ['ok', 'everyone']);
  assert.deepEqual([...declared.get('ok')], [...DEFAULT_CALLERS]);
  assert.equal(problems.length, 5);
  // A reserved name never reaches the host as an app action, whatever the declaration says.
  const { router, host, logs } = setup({}, { setSettings: { callers: ['content'] } });
  assert.equal((await router.route(call('setSettings', { settings: { enabled: false } }), contentSender)).code, 'undeclared_action');
  assert.deepEqual(host.requests, []);
  assert.match(logs.join('\n'), /setSettings/);
  assert.deepEqual(readDeclarations(undefined).declared.size, 0);
  assert.deepEqual(readDeclarations([]).problems, ['APP.actions is not an object']);
  assert.deepEqual(Object.values(AppCaller).sort(), ['background', 'content', 'popup']);
});

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// In ExtensionBridge's own checkout (a generated project has no Sources/BridgeHost).
test('reservedActions_matchTheHostsBuiltInActions', { skip: !existsSync(join(ROOT, 'Sources/BridgeHost')) }, () => {
  // Every action the host has of its own (Sources/BridgeHost) and the generated appInfo is reserved.
  const root = ROOT;
  const names = new Set(['appInfo']);
  for (const dir of ['Sources/BridgeHost/Actions', 'Sources/BridgeHost/Endpoint']) {
    for (const file of readdirSync(join(root, dir))) {
      for (const match of readFileSync(join(root, dir, file), 'utf8').matchAll(/let name = "([A-Za-z]+)"/g)) names.add(match[1]);
    }
  }
  assert.deepEqual([...names].sort(), [...RESERVED_ACTIONS].sort());
});

test('thisApp_declaresItsActionsWithoutMistakes', () => {
  // app/app.js: every declaration is used as written (a typo would leave an action out).
  assert.deepEqual(readDeclarations(APP.actions).problems, []);
});
