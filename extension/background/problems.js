// Classifies why the native host cannot be reached, so the popup can say
// exactly what is wrong and the client knows whether retrying can help.

import { DOCTOR_COMMAND } from '../shared/constants.js';

/** Stable problem codes shown by the popup (each has a `problem_<code>` locale message). */
export const ProblemCode = Object.freeze({
  NOT_FOUND: 'not_found',
  FORBIDDEN: 'forbidden',
  CALLER_NOT_ALLOWED: 'caller_not_allowed',
  START_FAILED: 'start_failed',
  PORT_CLOSED: 'port_closed',
  PROTOCOL_MISMATCH: 'protocol_mismatch',
  UNAVAILABLE: 'unavailable',
  EXITED: 'exited',
  TIMEOUT: 'timeout',
  COMMUNICATION: 'communication_error',
  UNKNOWN: 'unknown',
});

/** The hint attached to every problem. */
export const DOCTOR_HINT = `Run: ${DOCTOR_COMMAND}`;

const TRANSIENT = new Set([
  ProblemCode.EXITED,
  ProblemCode.TIMEOUT,
  ProblemCode.COMMUNICATION,
  ProblemCode.UNKNOWN,
]);

// Order matters: the first matching rule wins.
const RULES = [
  // Chromium: "Specified native messaging host not found."
  // Firefox: "No such native application org.extensionbridge.host"
  [ProblemCode.NOT_FOUND, /host not found|no such native application|not found/i],
  // Chromium: "Access to the specified native messaging host is forbidden."
  // Firefox: "... does not have permission to use native application ..."
  [ProblemCode.FORBIDDEN, /forbidden|does not have permission|not allowed/i],
  // Chromium: "Invalid native messaging host name specified." / "Failed to start native messaging host."
  [ProblemCode.START_FAILED, /invalid native messaging host name|failed to start/i],
  // Firefox: "Attempt to postMessage on disconnected port"
  [ProblemCode.PORT_CLOSED, /disconnected port/i],
  // Chromium: "Native host has exited." Firefox: "native messaging host ... exited"
  [ProblemCode.EXITED, /exited/i],
  // Chromium: "Error when communicating with the native messaging host."
  // Firefox: "Native application tried to send a message of N bytes ..."
  [ProblemCode.COMMUNICATION, /error when communicating|tried to send a message|message of \d+ bytes/i],
  [ProblemCode.TIMEOUT, /timed out|timeout/i],
];

/**
 * Builds a problem record.
 * @param {string} code one of ProblemCode
 * @param {string} message the browser's or host's own words
 * @returns {{code: string, message: string, transient: boolean, hint: string}}
 */
export function makeProblem(code, message = '') {
  return { code, message: String(message), transient: TRANSIENT.has(code), hint: DOCTOR_HINT };
}

/**
 * Classifies a browser error text (runtime.lastError, port.error, a rejected
 * sendNativeMessage). An empty text means the host closed the port itself.
 */
export function classifyNativeError(text) {
  const message = String(text ?? '').trim();
  if (message === '') return makeProblem(ProblemCode.EXITED, 'Native host has exited.');
  for (const [code, pattern] of RULES) {
    if (pattern.test(message)) return makeProblem(code, message);
  }
  return makeProblem(ProblemCode.UNKNOWN, message);
}

/**
 * A host reply that means the connection as a whole is refused, or null.
 * The host sends `caller_not_allowed` (without an id) and exits 3.
 */
export function problemFromHostReply(reply) {
  if (reply && typeof reply === 'object' && reply.status === 'error' && reply.code === ProblemCode.CALLER_NOT_ALLOWED) {
    return makeProblem(ProblemCode.CALLER_NOT_ALLOWED, reply.message ?? 'caller_not_allowed');
  }
  return null;
}

/** An Error that carries a problem record. */
export class HostProblemError extends Error {
  constructor(problem) {
    super(problem.message || problem.code);
    this.name = 'HostProblemError';
    this.problem = problem;
  }
}

/** The error reply the router sends for a problem. */
export function problemReply(problem) {
  return {
    status: 'error',
    code: problem.code,
    message: problem.message,
    transient: problem.transient,
    hint: problem.hint,
  };
}
