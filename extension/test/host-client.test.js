import { test } from 'node:test';
import assert from 'node:assert/strict';

import { HostClient, ConnectionState } from '../background/host-client.js';
import { HostProblemError } from '../background/problems.js';
import { createClock, createRuntime, flush } from './helpers/fakes.js';

function setup({ runtime = createRuntime(), keepAlive = false, ...options } = {}) {
  const clock = createClock();
  const events = [];
  const statuses = [];
  const client = new HostClient({
    runtime,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    now: clock.now,
    random: () => 0.5, // no jitter: delays are exactly nominal
    requestTimeoutMs: 1000,
    helloTimeoutMs: 500,
    idleCloseMs: 5000,
    backoff: { baseMs: 100, factor: 2, maxMs: 1000, jitter: 0.25 },
    onEvent: (frame) => events.push(frame),
    onStatus: (snapshot) => statuses.push(snapshot),
    ...options,
  });
  if (keepAlive) client.setKeepAlive(true);
  return { client, runtime, clock, events, statuses };
}

async function rejectsWith(promise, code) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof HostProblemError, `expected HostProblemError, got ${error}`);
    assert.equal(error.problem.code, code);
    return true;
  });
}

test('request_firstUse_opensPortSendsHelloThenRequest', async () => {
  const { client, runtime } = setup();
  const pending = client.request({ action: 'queueCount' });
  assert.equal(runtime.ports.length, 1);
  const port = runtime.lastPort;
  assert.equal(port.name, 'org.extensionbridge.host');
  assert.equal(port.sent[0].action, 'hello');
  assert.equal(port.sent.length, 1, 'the request waits for hello: until then the host has not said what may be resent');
  assert.equal(client.state, ConnectionState.CONNECTING);
  port.answerHello();
  await flush();
  assert.equal(port.sent[1].action, 'queueCount');
  assert.notEqual(port.sent[0].id, port.sent[1].id);
  port.reply({ status: 'success', id: port.sent[1].id, count: 3 });
  assert.deepEqual(await pending, { status: 'success', id: port.sent[1].id, count: 3 });
  assert.equal(client.state, ConnectionState.CONNECTED);
  assert.equal(client.snapshot().hostVersion, '0.1.0');
  // a second request reuses the port
  client.request({ action: 'getSettings' });
  assert.equal(runtime.ports.length, 1);
});

test('request_outOfOrderReplies_matchById', async () => {
  const { client, runtime } = setup();
  const a = client.request({ action: 'getContent', url: 'https://a.example/' });
  const b = client.request({ action: 'getContent', url: 'https://b.example/' });
  const c = client.request({ action: 'queueCount' });
  const port = runtime.lastPort;
  port.answerHello();
  await flush();
  const byUrl = (url) => port.sent.find((m) => m.url === url).id;
  port.reply({ status: 'success', id: port.sent.find((m) => m.action === 'queueCount').id, count: 7 });
  port.reply({ status: 'success', id: byUrl('https://b.example/'), url: 'https://b.example/' });
  port.reply({ status: 'success', id: byUrl('https://a.example/'), url: 'https://a.example/' });
  assert.equal((await a).url, 'https://a.example/');
  assert.equal((await b).url, 'https://b.example/');
  assert.equal((await c).count, 7);
});

test('request_noReply_timesOutAloneAndLateReplyIsIgnored', async () => {
  const { client, runtime, clock } = setup();
  const slow = client.request({ action: 'queueCount' });
  const port = runtime.lastPort;
  port.answerHello();
  await flush();
  const slowId = port.sent[1].id;
  const other = client.request({ action: 'getSettings' });
  const check = rejectsWith(slow, 'timeout');
  await clock.advance(999);
  port.reply({ status: 'success', id: port.sent[2].id, settings: { enabled: true } });
  assert.equal((await other).settings.enabled, true);
  await clock.advance(1);
  await check;
  port.reply({ status: 'success', id: slowId, count: 1 }); // late: no throw, no effect
  assert.equal(client.state, ConnectionState.CONNECTED);
  assert.equal(runtime.ports.length, 1);
});

test('disconnect_transient_reconnectsWithGrowingCappedBackoff', async () => {
  const { client, runtime, clock } = setup({ keepAlive: true });
  assert.equal(runtime.ports.length, 1, 'keepAlive opens the port at once');
  runtime.lastPort.answerHello();
  await flush();
  runtime.lastPort.drop('Native host has exited.');
  assert.equal(client.state, ConnectionState.BACKOFF);
  assert.equal(client.snapshot().problem.code, 'exited');
  assert.deepEqual(clock.pendingDelays(), [100]);
  await clock.advance(99);
  assert.equal(runtime.ports.length, 1);
  await clock.advance(1);
  assert.equal(runtime.ports.length, 2, 'reconnected after the first delay');
  assert.equal(runtime.lastPort.sent[0].action, 'hello');
  // Each failure before a successful hello doubles the delay, up to the cap.
  const seen = [];
  for (let i = 0; i < 6; i += 1) {
    runtime.lastPort.drop('Native host has exited.');
    const [delay] = clock.pendingDelays();
    seen.push(delay);
    await clock.advance(delay);
  }
  assert.deepEqual(seen, [200, 400, 800, 1000, 1000, 1000]);
  // A successful hello resets the backoff.
  runtime.lastPort.answerHello();
  await flush();
  assert.equal(client.state, ConnectionState.CONNECTED);
  runtime.lastPort.drop('Native host has exited.');
  assert.deepEqual(clock.pendingDelays(), [100]);
});

test('disconnect_jitter_staysWithinBounds', async () => {
  for (const r of [0, 0.999]) {
    const { runtime, clock } = setup({ keepAlive: true, random: () => r });
    runtime.lastPort.drop('Native host has exited.');
    const [delay] = clock.pendingDelays();
    assert.ok(delay >= 75 && delay <= 125, `delay ${delay} for random ${r}`);
    assert.notEqual(delay, 100);
  }
});

for (const [label, text, style, code] of [
  ['chromium not found', 'Specified native messaging host not found.', 'chrome', 'not_found'],
  ['firefox not found', 'No such native application org.extensionbridge.host', 'firefox', 'not_found'],
  ['chromium forbidden', 'Access to the specified native messaging host is forbidden.', 'chrome', 'forbidden'],
]) {
  test(`disconnect_${label}_failsWithoutRetryOrFallback`, async () => {
    const { client, runtime, clock } = setup({ keepAlive: true });
    const pending = client.request({ action: 'queueCount' });
    runtime.lastPort.drop(text, style);
    await rejectsWith(pending, code);
    assert.equal(client.state, ConnectionState.FAILED);
    const { problem } = client.snapshot();
    assert.equal(problem.transient, false);
    assert.equal(problem.hint, 'Run: extension-bridge doctor');
    assert.equal(problem.message, text);
    await clock.advance(60_000);
    assert.equal(runtime.ports.length, 1, 'no reconnect');
    await rejectsWith(client.request({ action: 'getSettings' }), code);
    assert.equal(runtime.ports.length, 1);
    assert.equal(runtime.oneShotCalls.length, 0, 'no one-shot either: it would fail the same way');
    // After the doctor, retry() makes the next request try again.
    client.retry();
    assert.equal(runtime.ports.length, 2);
  });
}

test('frame_callerNotAllowedWithoutId_failsAsCallerNotAllowed', async () => {
  const { client, runtime, clock } = setup({ keepAlive: true });
  const pending = client.request({ action: 'getSettings' });
  runtime.lastPort.reply({ status: 'error', code: 'caller_not_allowed', message: 'caller chrome-extension://x/ is not allowed' });
  await rejectsWith(pending, 'caller_not_allowed');
  assert.equal(client.state, ConnectionState.FAILED);
  assert.equal(runtime.lastPort.disconnectedByUs, true);
  await clock.advance(60_000);
  assert.equal(runtime.ports.length, 1);
});

test('oneShot_callerNotAllowedReply_failsAsCallerNotAllowed', async () => {
  const runtime = createRuntime({ oneShot: async () => ({ status: 'error', code: 'caller_not_allowed', message: 'no' }) });
  delete runtime.connectNative;
  const { client } = setup({ runtime });
  await rejectsWith(client.request({ action: 'getSettings' }), 'caller_not_allowed');
  assert.equal(client.state, ConnectionState.FAILED);
});

test('hello_otherProtocolVersion_failsAsProtocolMismatch', async () => {
  const { client, runtime } = setup();
  const pending = client.request({ action: 'queueCount' });
  runtime.lastPort.answerHello({ protocolVersion: 2 });
  await rejectsWith(pending, 'protocol_mismatch');
  assert.equal(client.state, ConnectionState.FAILED);
});

test('hello_timeout_dropsPortAndBacksOff', async () => {
  const { client, runtime, clock } = setup({ keepAlive: true });
  await clock.advance(500);
  assert.equal(client.state, ConnectionState.BACKOFF);
  assert.equal(runtime.ports[0].disconnectedByUs, true);
  await clock.advance(100);
  assert.equal(runtime.ports.length, 2);
});

test('fallback_noConnectNative_usesSendNativeMessage', async () => {
  const runtime = createRuntime();
  delete runtime.connectNative;
  const { client } = setup({ runtime });
  const reply = await client.request({ action: 'queueCount' });
  assert.equal(reply.via, 'oneShot');
  assert.deepEqual(runtime.oneShotCalls, [{ name: 'org.extensionbridge.host', message: { action: 'queueCount' } }]);
});

test('fallback_connectNativeThrows_usesSendNativeMessage', async () => {
  const runtime = createRuntime({ connectThrows: 'Error when communicating with the native messaging host.' });
  const { client } = setup({ runtime });
  const reply = await client.request({ action: 'getSettings' });
  assert.equal(reply.via, 'oneShot');
  assert.equal(client.state, ConnectionState.BACKOFF);
});

test('fallback_duringBackoff_usesSendNativeMessage', async () => {
  const { client, runtime } = setup({ keepAlive: true });
  runtime.lastPort.answerHello();
  await flush();
  runtime.lastPort.drop('Native host has exited.');
  const reply = await client.request({ action: 'queueCount' });
  assert.equal(reply.via, 'oneShot');
  assert.equal(runtime.ports.length, 1);
});

test('fallback_postMessageOnDisconnectedPort_goesOneShotAndStopsUsingPorts', async () => {
  const { client, runtime, clock } = setup();
  const first = client.request({ action: 'getSettings' });
  runtime.lastPort.answerHello();
  await flush();
  runtime.lastPort.reply({ status: 'success', id: runtime.lastPort.sent[1].id, settings: {} });
  await first;
  runtime.lastPort.throwOnPost = 'Attempt to postMessage on disconnected port';
  const reply = await client.request({ action: 'saveContent', url: 'https://a/', content: 'x' });
  assert.equal(reply.via, 'oneShot');
  assert.equal(client.state, ConnectionState.ONE_SHOT);
  assert.equal(client.snapshot().problem.code, 'port_closed');
  await clock.advance(60_000);
  assert.equal(runtime.ports.length, 1, 'port_closed is not retried');
  assert.equal((await client.request({ action: 'queueCount' })).via, 'oneShot');
});

test('disconnect_transientWithRequestsInFlight_resendsWhatHelloListsOnly', async () => {
  const { client, runtime } = setup();
  const read = client.request({ action: 'getContent', url: 'https://a/' });
  const page = client.request({ action: 'getPageState' });
  const save = client.request({ action: 'saveContent', url: 'https://a/', content: 'x' });
  const other = client.request({ action: 'queueCount' });
  runtime.lastPort.answerHello({ resendSafe: ['getContent', 'getPageState', 'hello'] });
  await flush();
  assert.equal(runtime.lastPort.sent.length, 5, 'all four on the port');
  runtime.lastPort.drop('Native host has exited.');
  assert.equal((await read).via, 'oneShot');
  assert.equal((await page).via, 'oneShot', 'getPageState: the tab still gets its rules');
  await rejectsWith(save, 'exited');
  await rejectsWith(other, 'exited', 'queueCount: not in this hello\'s list, so not resent');
  assert.deepEqual(runtime.oneShotCalls.map((c) => c.message.action), ['getContent', 'getPageState']);
});

test('disconnect_beforeHello_nothingWasSent_soEveryRequestGoesOneShot', async () => {
  const { client, runtime } = setup();
  const save = client.request({ action: 'saveContent', url: 'https://a/', content: 'x' });
  const page = client.request({ action: 'getPageState' });
  assert.deepEqual(runtime.lastPort.sent.map((m) => m.action), ['hello']);
  runtime.lastPort.drop('Native host has exited.');
  assert.equal((await save).via, 'oneShot');
  assert.equal((await page).via, 'oneShot');
  assert.deepEqual(runtime.oneShotCalls.map((c) => c.message.action), ['saveContent', 'getPageState']);
});

test('resendSafe_isTheLastHellosList_aHostWithoutOneNamesNone', async () => {
  const { client, runtime, clock } = setup({ keepAlive: true });
  runtime.lastPort.answerHello();
  await flush();
  const read = client.request({ action: 'getSettings' });
  runtime.lastPort.drop('Native host has exited.');
  await rejectsWith(read, 'exited');
  assert.equal(runtime.oneShotCalls.length, 0);
  await clock.advance(100);
  runtime.lastPort.answerHello({ resendSafe: ['getSettings'] });
  await flush();
  const again = client.request({ action: 'getSettings' });
  runtime.lastPort.drop('Native host has exited.');
  assert.equal((await again).via, 'oneShot');
});

test('disconnect_keyedSaveInFlight_isResentWithTheSameKey', async () => {
  const { client, runtime } = setup();
  const save = client.request({ action: 'saveContent', url: 'https://a/', content: 'x', key: 'k-1' });
  runtime.lastPort.drop('Native host has exited.');
  assert.equal((await save).via, 'oneShot');
  assert.deepEqual(runtime.oneShotCalls.map((c) => [c.message.action, c.message.key]), [['saveContent', 'k-1']]);
});

test('oneShot_notFound_failsHard', async () => {
  const runtime = createRuntime({ oneShot: async () => { throw new Error('Specified native messaging host not found.'); } });
  delete runtime.connectNative;
  const { client } = setup({ runtime });
  await rejectsWith(client.request({ action: 'queueCount' }), 'not_found');
  await rejectsWith(client.request({ action: 'queueCount' }), 'not_found');
  assert.equal(runtime.oneShotCalls.length, 1);
});

test('frame_eventWithoutId_goesToOnEventNotToRequests', async () => {
  const { client, runtime, events } = setup({ keepAlive: true });
  const port = runtime.lastPort;
  port.answerHello();
  await flush();
  const pending = client.request({ action: 'queueCount' });
  const event = { event: 'pageState', settings: { enabled: true, theme: 'auto' }, rules: { vocabulary: { blue: 'blauw' } } };
  port.reply(event);
  assert.deepEqual(events, [event]);
  port.reply({ status: 'success', id: port.sent.at(-1).id, count: 0 });
  assert.equal((await pending).count, 0);
});

test('keepAliveOff_idlePortClosesAfterIdleTime', async () => {
  const { client, runtime, clock } = setup();
  const pending = client.request({ action: 'queueCount' });
  const port = runtime.lastPort;
  port.answerHello();
  await flush();
  port.reply({ status: 'success', id: port.sent[1].id, count: 0 });
  await pending;
  await clock.advance(4999);
  assert.equal(port.disconnectedByUs, false);
  await clock.advance(1);
  assert.equal(port.disconnectedByUs, true);
  assert.equal(client.state, ConnectionState.IDLE);
  client.request({ action: 'queueCount' });
  assert.equal(runtime.ports.length, 2, 'reopened lazily');
});

test('ping_reportsVersionAndRoundTrip', async () => {
  const { client, runtime, clock } = setup();
  const pending = client.ping();
  const port = runtime.lastPort;
  port.answerHello();
  await clock.advance(12);
  const second = port.sent[1];
  assert.equal(second.action, 'hello');
  port.reply({ status: 'success', id: second.id, protocolVersion: 1, hostVersion: '0.1.0', actions: ['hello', 'greet'] });
  assert.deepEqual(await pending, {
    connected: true, transport: 'port', rttMs: 12, hostVersion: '0.1.0', protocolVersion: 1, actions: ['hello', 'greet'],
  });
});

test('statusUpdates_reportEveryStateChange', async () => {
  const { runtime, statuses } = setup({ keepAlive: true });
  runtime.lastPort.answerHello();
  await flush();
  runtime.lastPort.drop('Specified native messaging host not found.');
  assert.deepEqual(statuses.map((s) => s.state), ['connecting', 'connected', 'failed']);
  assert.equal(statuses.at(-1).problem.code, 'not_found');
});

test('stateMachine_sixStates_andLeavingAStateCancelsItsTimers', async () => {
  assert.deepEqual(Object.values(ConnectionState).sort(), ['backoff', 'connected', 'connecting', 'failed', 'idle', 'oneShot']);
  const clock = createClock();
  const runtime = createRuntime();
  const client = new HostClient({ runtime, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout, now: clock.now, random: () => 0.5 });
  client.setKeepAlive(true);
  assert.equal(client.state, ConnectionState.CONNECTING);
  runtime.lastPort.answerHello();
  await flush();
  assert.equal(client.state, ConnectionState.CONNECTED);
  runtime.lastPort.drop('Native host has exited.');
  await flush();
  assert.equal(client.state, ConnectionState.BACKOFF);
  assert.deepEqual(clock.pendingDelays(), [500], 'backoff owns one timer');
  client.retry();
  assert.equal(client.state, ConnectionState.CONNECTING, 'retry leaves backoff at once');
  assert.deepEqual(clock.pendingDelays(), [5000], 'the backoff timer went with its state; only the hello timeout is left');
  const ports = runtime.ports.length;
  await clock.advance(600);
  assert.equal(runtime.ports.length, ports, 'no second port from the cancelled timer');
});
