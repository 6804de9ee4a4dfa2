import { test } from 'node:test';
import assert from 'node:assert/strict';

import { backoffDelay } from '../background/backoff.js';
import { classifyNativeError, problemFromHostReply, DOCTOR_HINT } from '../background/problems.js';

test('backoffDelay_growsExponentiallyToTheCap', () => {
  const mid = () => 0.5;
  const opts = { baseMs: 500, factor: 2, maxMs: 20_000, jitter: 0.25 };
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 10, 1000].map((n) => backoffDelay(n, opts, mid)), [500, 1000, 2000, 4000, 8000, 16000, 20000, 20000, 20000]);
});

test('backoffDelay_jitterWithinBoundsAndNeverOverCap', () => {
  const opts = { baseMs: 1000, factor: 2, maxMs: 8000, jitter: 0.25 };
  assert.equal(backoffDelay(0, opts, () => 0), 750);
  assert.equal(backoffDelay(0, opts, () => 0.999999), 1250);
  assert.equal(backoffDelay(10, opts, () => 0.999999), 8000, 'cap holds with jitter');
  assert.equal(backoffDelay(10, opts, () => 0), 6000);
  assert.equal(backoffDelay(-3, opts, () => 0.5), 1000);
  assert.equal(backoffDelay(Number.NaN, opts, () => 0.5), 1000);
});

test('classifyNativeError_browserMessages', () => {
  const cases = [
    ['Specified native messaging host not found.', 'not_found', false],
    ['No such native application org.extensionbridge.host', 'not_found', false],
    ['Access to the specified native messaging host is forbidden.', 'forbidden', false],
    ['Attempt to postMessage on disconnected port', 'port_closed', false],
    ['Invalid native messaging host name specified.', 'start_failed', false],
    ['Native host has exited.', 'exited', true],
    ['native messaging host org.extensionbridge.host exited', 'exited', true],
    ['', 'exited', true],
    ['Error when communicating with the native messaging host.', 'communication_error', true],
    ['something odd', 'unknown', true],
  ];
  for (const [text, code, transient] of cases) {
    const problem = classifyNativeError(text);
    assert.equal(problem.code, code, text);
    assert.equal(problem.transient, transient, text);
    assert.equal(problem.hint, 'Run: extension-bridge doctor');
  }
  assert.equal(DOCTOR_HINT, 'Run: extension-bridge doctor');
});

test('problemFromHostReply_onlyCallerNotAllowed', () => {
  assert.equal(problemFromHostReply({ status: 'error', code: 'caller_not_allowed', message: 'm' }).code, 'caller_not_allowed');
  assert.equal(problemFromHostReply({ status: 'error', code: 'caller_not_allowed' }).transient, false);
  assert.equal(problemFromHostReply({ status: 'error', code: 'queue_full' }), null);
  assert.equal(problemFromHostReply({ status: 'success' }), null);
  assert.equal(problemFromHostReply(null), null);
});
