// The client for the native host: one runtime.connectNative port with request
// ids, per-request timeouts, a hello handshake, reconnection with backoff, and
// runtime.sendNativeMessage as the fallback when the port cannot be used.
//
// Everything it touches comes in through the constructor (runtime, timers,
// clock, randomness), so node tests drive it with fakes. It keeps only
// connection state that a service-worker restart may lose: a new worker starts
// with a fresh client, which opens a port again on first use.

import { HOST_NAME, PROTOCOL_VERSION } from '../shared/constants.js';
import { backoffDelay } from './backoff.js';
import {
  HostProblemError,
  ProblemCode,
  classifyNativeError,
  makeProblem,
  problemFromHostReply,
} from './problems.js';

/**
 * The client's states. The client is always in exactly one, held as
 * `{kind, ...data}`: what a state owns (the port, a timer) is data of that
 * state and goes away with it — leaving a state cancels its timers.
 *
 *   idle       {}                          no port; one opens on the next request (or keep-alive)
 *   connecting {port}                      hello sent, not answered; requests wait for it
 *   connected  {port, hello, idleTimer}    idleTimer closes an unneeded port
 *   backoff    {retryTimer}                the port dropped; requests go one-shot meanwhile
 *   oneShot    {}                          ports are unusable here; every request one-shot
 *   failed     {problem}                   retrying cannot help until retry()
 */
export const ConnectionState = Object.freeze({
  IDLE: 'idle', // no port; one is opened on the next request
  CONNECTING: 'connecting', // port open, hello not answered yet
  CONNECTED: 'connected', // hello answered
  BACKOFF: 'backoff', // the port dropped; waiting to reconnect (requests go one-shot)
  ONE_SHOT: 'oneShot', // the port API is unusable here; every request goes one-shot
  FAILED: 'failed', // a problem retrying cannot fix (not found, forbidden, …)
});

/**
 * The actions a host's hello says may be sent again after the port dropped
 * with them in flight (`resendSafe`: each host action declares it), as a Set.
 * A hello without the list (a host from before it) names none.
 */
export function resendSafeActions(hello) {
  const names = Array.isArray(hello?.resendSafe) ? hello.resendSafe : [];
  return new Set(names.filter((name) => typeof name === 'string'));
}

/**
 * True when `message` may be sent again after a lost reply: an action the
 * host declared resend-safe (`resendSafe`, from its hello), a saveContent
 * with an idempotency key (the host queues it once however often it comes),
 * or the legacy enabled-status question (a read).
 */
export function isRetrySafe(message, resendSafe) {
  if (message.action === 'saveContent') return typeof message.key === 'string' && message.key !== '';
  if (typeof message.action === 'string') return resendSafe.has(message.action);
  return message.message === 'request:enabled_status';
}

function describe(message) {
  return typeof message.action === 'string' ? message.action : String(message.message ?? 'request');
}

export class HostClient {
  #runtime;
  #hostName;
  #setTimeout;
  #clearTimeout;
  #now;
  #random;
  #requestTimeoutMs;
  #helloTimeoutMs;
  #idleCloseMs;
  #backoff;
  #onEvent;
  #onStatus;
  #log;

  /** The one current state: {kind: ConnectionState, ...its data}. */
  #conn = { kind: ConnectionState.IDLE };
  #pending = new Map(); // id → {message, resolve, reject, timer, internal}
  #waiting = []; // requests made while hello is unanswered: {message, timeoutMs, resolve, reject}
  #resendSafe = new Set(); // from the last successful hello: the host's word, never a list of our own
  #nextId = 1;
  #attempt = 0;
  #problem = null; // the last problem seen (for the popup)
  #keepAlive = false;

  /**
   * @param {object} deps
   * @param {object} deps.runtime `browser.runtime` / `chrome.runtime` (or a fake)
   * @param {string} [deps.hostName]
   * @param {(fn: Function, ms: number) => any} [deps.setTimeout]
   * @param {(handle: any) => void} [deps.clearTimeout]
   * @param {() => number} [deps.now] milliseconds
   * @param {() => number} [deps.random] [0, 1), for backoff jitter
   * @param {number} [deps.requestTimeoutMs]
   * @param {number} [deps.helloTimeoutMs]
   * @param {number} [deps.idleCloseMs] close an unneeded idle port after this long
   * @param {object} [deps.backoff] options for backoffDelay
   * @param {(frame: object) => void} [deps.onEvent] host events (frames with `event`, no `id`)
   * @param {(snapshot: object) => void} [deps.onStatus] every state change
   * @param {(...args: any[]) => void} [deps.log]
   */
  constructor({
    runtime,
    hostName = HOST_NAME,
    setTimeout = (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout = (handle) => globalThis.clearTimeout(handle),
    now = () => Date.now(),
    random = Math.random,
    requestTimeoutMs = 10_000,
    helloTimeoutMs = 5_000,
    idleCloseMs = 30_000,
    backoff = {},
    onEvent = () => {},
    onStatus = () => {},
    log = () => {},
  }) {
    if (!runtime) throw new TypeError('HostClient needs a runtime');
    this.#runtime = runtime;
    this.#hostName = hostName;
    this.#setTimeout = setTimeout;
    this.#clearTimeout = clearTimeout;
    this.#now = now;
    this.#random = random;
    this.#requestTimeoutMs = requestTimeoutMs;
    this.#helloTimeoutMs = helloTimeoutMs;
    this.#idleCloseMs = idleCloseMs;
    this.#backoff = backoff;
    this.#onEvent = onEvent;
    this.#onStatus = onStatus;
    this.#log = log;
  }

  /** The current state as plain data (what goes to storage.session). */
  snapshot() {
    return {
      state: this.#conn.kind,
      problem: this.#problem,
      hostVersion: this.#conn.hello?.hostVersion ?? null,
      protocolVersion: this.#conn.hello?.protocolVersion ?? null,
      attempt: this.#attempt,
      keepAlive: this.#keepAlive,
      updatedAt: this.#now(),
    };
  }

  get state() {
    return this.#conn.kind;
  }

  /**
   * Keep a port open (and reconnect it when it drops) while there is someone
   * to push events to; otherwise let an idle port close.
   */
  setKeepAlive(on) {
    this.#keepAlive = Boolean(on);
    if (this.#keepAlive) {
      this.#cancelIdleClose();
      if (this.#conn.kind === ConnectionState.IDLE && this.#portAllowed()) this.#openPort();
    } else {
      this.#maybeIdleClose();
    }
  }

  /** Forget a permanent problem (after the user ran the doctor) so the next request tries again. */
  retry() {
    this.#attempt = 0;
    this.#problem = null;
    const { kind } = this.#conn;
    if (kind === ConnectionState.FAILED || kind === ConnectionState.ONE_SHOT || kind === ConnectionState.BACKOFF) {
      this.#enter(ConnectionState.IDLE);
    } else if (kind === ConnectionState.IDLE) {
      this.#emit();
    }
    if (this.#keepAlive && this.#conn.kind === ConnectionState.IDLE) this.#openPort();
  }

  /** Close the port and stop reconnecting. Pending requests fail. */
  close() {
    const port = this.#port;
    this.#enter(ConnectionState.IDLE);
    this.#rejectAll(makeProblem(ProblemCode.EXITED, 'Closed by the extension.'));
    disconnect(port);
  }

  /**
   * Sends one request and resolves with the host's reply object (which may be
   * `status: "error"`). Rejects with HostProblemError when the host cannot be
   * reached.
   */
  async request(message, options = {}) {
    const { reply } = await this.#send(message, options);
    return reply;
  }

  /** A hello round trip: host version and round-trip time in ms. */
  async ping(options = {}) {
    const start = this.#now();
    const { reply, transport } = await this.#send({ action: 'hello' }, options);
    const rttMs = Math.max(0, this.#now() - start);
    if (reply?.status !== 'success' || reply.protocolVersion !== PROTOCOL_VERSION) {
      throw new HostProblemError(this.#mismatch(reply));
    }
    return {
      connected: true,
      transport,
      rttMs,
      hostVersion: reply.hostVersion ?? null,
      protocolVersion: reply.protocolVersion,
      // The host's action names (hello lists them): the router compares the app's declared actions.
      actions: Array.isArray(reply.actions) ? reply.actions : null,
    };
  }

  // ---- the state machine ----

  /** The port of the current state (connecting, connected), else null. */
  get #port() {
    return this.#conn.port ?? null;
  }

  /** Leaves the current state (cancelling its timers) for `kind` with `data`, and reports it. */
  #enter(kind, data = {}) {
    const old = this.#conn;
    if (old.retryTimer != null) this.#clearTimeout(old.retryTimer);
    if (old.idleTimer != null) this.#clearTimeout(old.idleTimer);
    this.#conn = { kind, ...data };
    this.#emit();
  }

  #emit() {
    try {
      this.#onStatus(this.snapshot());
    } catch (error) {
      this.#log('status handler failed:', error);
    }
  }

  // ---- sending ----

  #portAllowed() {
    const { kind } = this.#conn;
    return kind !== ConnectionState.FAILED && kind !== ConnectionState.ONE_SHOT && typeof this.#runtime.connectNative === 'function';
  }

  async #send(message, { timeoutMs = this.#requestTimeoutMs } = {}) {
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      throw new TypeError('A host request is an object');
    }
    if (this.#conn.kind === ConnectionState.FAILED) throw new HostProblemError(this.#conn.problem);
    if (!this.#portAllowed() || this.#conn.kind === ConnectionState.BACKOFF) {
      return this.#oneShot(message, timeoutMs);
    }
    if (!this.#port && !this.#openPort()) {
      if (this.#conn.kind === ConnectionState.FAILED) throw new HostProblemError(this.#conn.problem);
      return this.#oneShot(message, timeoutMs);
    }
    if (this.#conn.kind === ConnectionState.CONNECTING) {
      // Nothing goes on a port before its hello is answered: until then the
      // host has not said what may be resent if the port drops.
      return new Promise((resolve, reject) => this.#waiting.push({ message, timeoutMs, resolve, reject }));
    }
    return this.#postOnPort(this.#port, message, timeoutMs, false);
  }

  /** Hello answered: the requests that waited for it go on the port, in order. */
  #sendWaiting(port) {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const entry of waiting) this.#postOnPort(port, entry.message, entry.timeoutMs, false).then(entry.resolve, entry.reject);
  }

  /** The port was lost before hello: the waiting requests were never sent, so any may go one-shot. */
  #releaseWaiting(problem) {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const entry of waiting) {
      if (problem) entry.reject(new HostProblemError(problem));
      else this.#oneShot(entry.message, entry.timeoutMs).then(entry.resolve, entry.reject);
    }
  }

  #postOnPort(port, message, timeoutMs, internal) {
    this.#cancelIdleClose();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = this.#setTimeout(() => {
        if (!this.#pending.has(id)) return;
        this.#pending.delete(id);
        reject(new HostProblemError(makeProblem(
          ProblemCode.TIMEOUT,
          `No reply to ${describe(message)} within ${timeoutMs} ms.`,
        )));
        this.#maybeIdleClose();
      }, timeoutMs);
      this.#pending.set(id, { message, resolve, reject, timer, internal });
      try {
        port.postMessage({ ...message, id });
      } catch (error) {
        // The port cannot be used (Firefox: "Attempt to postMessage on
        // disconnected port"). This request was not delivered, so it is safe
        // to send it one-shot whatever it is.
        this.#pending.delete(id);
        this.#clearTimeout(timer);
        const problem = classifyNativeError(error?.message ?? error);
        this.#log('postMessage failed:', problem.message);
        this.#lose(port, problem);
        if (internal) {
          reject(new HostProblemError(problem));
        } else if (this.#conn.kind === ConnectionState.FAILED) {
          reject(new HostProblemError(this.#conn.problem));
        } else {
          this.#oneShot(message, timeoutMs).then(resolve, reject);
        }
      }
    });
  }

  async #oneShot(message, timeoutMs) {
    if (typeof this.#runtime.sendNativeMessage !== 'function') {
      const problem = makeProblem(ProblemCode.UNAVAILABLE, 'runtime.sendNativeMessage is not available.');
      if (typeof this.#runtime.connectNative !== 'function') this.#fail(problem);
      throw new HostProblemError(problem);
    }
    let timer = null;
    const timeout = new Promise((_, reject) => {
      timer = this.#setTimeout(() => reject(new HostProblemError(makeProblem(
        ProblemCode.TIMEOUT,
        `No reply to ${describe(message)} within ${timeoutMs} ms.`,
      ))), timeoutMs);
    });
    try {
      const reply = await Promise.race([
        Promise.resolve().then(() => this.#runtime.sendNativeMessage(this.#hostName, message)),
        timeout,
      ]);
      const refusal = problemFromHostReply(reply);
      if (refusal) {
        this.#fail(refusal);
        throw new HostProblemError(refusal);
      }
      return { reply, transport: 'oneShot' };
    } catch (error) {
      if (error instanceof HostProblemError) throw error;
      const problem = classifyNativeError(error?.message ?? error);
      if (!problem.transient && problem.code !== ProblemCode.PORT_CLOSED) this.#fail(problem);
      throw new HostProblemError(problem);
    } finally {
      this.#clearTimeout(timer);
    }
  }

  // ---- the port ----

  /** idle/backoff → connecting: opens the port and sends hello. False if connectNative itself failed. */
  #openPort() {
    let port;
    try {
      port = this.#runtime.connectNative(this.#hostName);
    } catch (error) {
      const problem = classifyNativeError(error?.message ?? error);
      this.#log('connectNative failed:', problem.message);
      this.#lose(null, problem);
      return false;
    }
    port.onMessage.addListener((frame) => this.#onFrame(port, frame));
    port.onDisconnect.addListener((p) => this.#onDisconnect(port, p));
    this.#enter(ConnectionState.CONNECTING, { port });
    this.#postOnPort(port, { action: 'hello' }, this.#helloTimeoutMs, true).then(
      ({ reply }) => {
        if (port !== this.#port) return;
        if (reply?.status === 'success' && reply.protocolVersion === PROTOCOL_VERSION) {
          // connecting → connected
          this.#attempt = 0;
          this.#problem = null;
          this.#resendSafe = resendSafeActions(reply);
          this.#enter(ConnectionState.CONNECTED, { port, hello: reply, idleTimer: null });
          this.#sendWaiting(port);
          this.#maybeIdleClose();
        } else {
          this.#fail(this.#mismatch(reply));
        }
      },
      (error) => {
        // A disconnect was handled already; a timeout means a silent host:
        // drop the port and try again later.
        if (port !== this.#port) return;
        this.#lose(port, error?.problem ?? classifyNativeError(error?.message));
      },
    );
    return true;
  }

  #mismatch(reply) {
    const version = reply?.protocolVersion;
    return makeProblem(
      ProblemCode.PROTOCOL_MISMATCH,
      reply?.status === 'success'
        ? `The host speaks protocol ${version}; this extension speaks ${PROTOCOL_VERSION}.`
        : `The host refused hello: ${reply?.code ?? 'no status'} ${reply?.message ?? ''}`.trim(),
    );
  }

  #onFrame(port, frame) {
    if (port !== this.#port || !frame || typeof frame !== 'object') return;
    const hasId = Object.prototype.hasOwnProperty.call(frame, 'id');
    if (!hasId && typeof frame.event === 'string') {
      try {
        this.#onEvent(frame);
      } catch (error) {
        this.#log('event handler failed:', error);
      }
      return;
    }
    const refusal = problemFromHostReply(frame);
    if (refusal) {
      // caller_not_allowed: the host exits next. Nothing on this port can succeed.
      this.#fail(refusal);
      return;
    }
    if (!hasId) {
      this.#log('frame without id ignored:', frame);
      return;
    }
    const entry = this.#pending.get(frame.id);
    if (!entry) {
      this.#log('reply for unknown or timed-out id ignored:', frame.id);
      return;
    }
    this.#pending.delete(frame.id);
    this.#clearTimeout(entry.timer);
    entry.resolve({ reply: frame, transport: 'port' });
    this.#maybeIdleClose();
  }

  #onDisconnect(port, disconnected) {
    if (port !== this.#port) return;
    // Firefox reports the reason on the port; Chromium in runtime.lastError
    // (read it here so Chromium does not log it as unchecked).
    const text = disconnected?.error?.message ?? port.error?.message ?? this.#runtime.lastError?.message ?? '';
    this.#lose(null, classifyNativeError(text));
  }

  /**
   * The port (if any) is gone because of `problem`: settle in-flight requests
   * and leave for backoff, oneShot or failed (none of which has a port).
   */
  #lose(port, problem) {
    if (port && port === this.#port) disconnect(port);
    this.#problem = problem;
    if (!problem.transient && problem.code !== ProblemCode.PORT_CLOSED) {
      this.#fail(problem);
      return;
    }
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of entries) {
      this.#clearTimeout(entry.timer);
      if (!entry.internal && isRetrySafe(entry.message, this.#resendSafe)) {
        this.#oneShot(entry.message, this.#requestTimeoutMs).then(entry.resolve, entry.reject);
      } else {
        entry.reject(new HostProblemError(problem));
      }
    }
    this.#releaseWaiting(null);
    if (problem.code === ProblemCode.PORT_CLOSED) {
      // Not worth retrying the port; one-shot messages may still work.
      this.#enter(ConnectionState.ONE_SHOT);
      return;
    }
    this.#scheduleReconnect();
  }

  /** → backoff, with the timer that ends it. */
  #scheduleReconnect() {
    const delay = backoffDelay(this.#attempt, this.#backoff, this.#random);
    this.#attempt += 1;
    const retryTimer = this.#setTimeout(() => {
      if (this.#conn.retryTimer !== retryTimer) return;
      this.#conn.retryTimer = null;
      if (this.#keepAlive) {
        this.#openPort();
      } else {
        this.#enter(ConnectionState.IDLE);
      }
    }, delay);
    this.#enter(ConnectionState.BACKOFF, { retryTimer });
  }

  /** A problem retrying cannot fix: → failed; everything pending fails; wait for retry(). */
  #fail(problem) {
    this.#problem = problem;
    const port = this.#port;
    this.#rejectAll(problem);
    disconnect(port);
    this.#enter(ConnectionState.FAILED, { problem });
  }

  #rejectAll(problem) {
    this.#releaseWaiting(problem);
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of entries) {
      this.#clearTimeout(entry.timer);
      entry.reject(new HostProblemError(problem));
    }
  }

  /** In connected, with nothing pending and no one to serve: close the port after idleCloseMs. */
  #maybeIdleClose() {
    const conn = this.#conn;
    if (this.#keepAlive || conn.kind !== ConnectionState.CONNECTED || this.#pending.size > 0 || conn.idleTimer != null) return;
    const idleTimer = this.#setTimeout(() => {
      if (this.#conn.idleTimer !== idleTimer) return;
      this.#conn.idleTimer = null;
      if (this.#keepAlive || this.#pending.size > 0) return;
      const port = this.#port;
      this.#enter(ConnectionState.IDLE);
      disconnect(port);
    }, this.#idleCloseMs);
    conn.idleTimer = idleTimer;
  }

  #cancelIdleClose() {
    if (this.#conn.idleTimer != null) {
      this.#clearTimeout(this.#conn.idleTimer);
      this.#conn.idleTimer = null;
    }
  }
}

function disconnect(port) {
  if (!port) return;
  try {
    port.disconnect();
  } catch {
    // already gone
  }
}
