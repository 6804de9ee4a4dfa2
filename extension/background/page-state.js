// The page state content scripts need — {enabled, compiled, count, rulesVersion} —
// and its only owner in the extension. Everything the host says about it goes
// in through one door (`enter`): a push on the port (the `pageState` event:
// page 0 of getPageState with the settings) and the replies of getPageState
// (never reads the queue; rules too big for one frame come in pages that are
// put back together here). A push whose rules fit one page is applied as it
// is: no round trip; of rules of more pages only the pages after page 0 are
// asked for. The background's one "is this the same state?" check is here too
// (`identity`): `onChange` hears only a state that differs from the last one,
// and rules of the version held are neither fetched nor compiled again.
// Pure: the host client and its connection state are passed in.

import { HostEvent } from '../shared/constants.js';
import { HostProblemError, problemReply } from './problems.js';
// The engine (a classic script: defines globalThis.ExtensionBridgeText) owns the compiled form
// of the rules that tabs are sent, and the rule for which entries count; the background
// compiles the rules once per state and keeps only that form, not the entries.
import '../content/engine.js';

const { compileVocabulary } = globalThis.ExtensionBridgeText;

const MAX_ATTEMPTS = 3;

/** True for a host event frame that carries a page state (the `pageState` event). */
export function isPageStateEvent(frame) {
  return frame?.event === HostEvent.PAGE_STATE;
}

/** The page count page 0 (a reply or a push) gives. */
function pagesOf(first) {
  return Number.isInteger(first.pages) && first.pages > 0 ? first.pages : 1;
}

/** True when a push is page 0 of a state with its rules (it had room for them, and names their version). */
function carriesPageZero(frame) {
  return !!frame.rules && typeof frame.rules === 'object' && typeof frame.rulesVersion === 'string';
}

/**
 * The state of page 0 (a getPageState reply or a push) and the vocabularies of
 * all pages. Switched off, no rules leave the background, whatever the host
 * sent. Which entries count is the engine's to say (compileVocabulary skips
 * non-string values and words without a token; `count` is what it kept): the
 * entries go to it as they came. Compiled once per state: page 0 of the state
 * held is not made into a new state (heldIfSame). The state keeps the form and
 * the count, not the entries.
 */
function stateOf(first, parts) {
  const enabled = first.enabled === true;
  const rulesVersion = enabled && typeof first.rulesVersion === 'string' ? first.rulesVersion : '';
  const entries = [];
  for (const part of enabled ? parts : []) {
    if (part && typeof part === 'object' && !Array.isArray(part)) entries.push(...Object.entries(part));
  }
  const compiled = compileVocabulary(entries, rulesVersion || undefined);
  return {
    status: 'success',
    enabled,
    count: compiled?.size ?? 0,
    compiled,
    rulesVersion,
    pages: pagesOf(first),
    undeliverable: Number.isInteger(first.undeliverable) ? first.undeliverable : 0,
  };
}

/**
 * What makes two states the same for a page: on or off, and the rules' version. Also of page 0
 * as the host sends it (a reply or a push): off, its version does not count.
 */
function identity(state) {
  const enabled = state.enabled === true;
  return `${enabled}|${enabled && typeof state.rulesVersion === 'string' ? state.rulesVersion : ''}`;
}

/**
 * @param {object} deps
 * @param {{request: Function}} deps.host a HostClient
 * @param {() => boolean} deps.isConnected true while the port (which delivers change events) is connected
 * @param {() => boolean} [deps.isConnecting] true while a port is being opened: a request made then
 *   waits for its hello and goes on that port (host-client.js), so it is answered after the
 *   host started announcing changes
 * @param {(state: object) => void} [deps.onChange] a state different from the last one came in (push or fetch)
 */
export function createPageState({ host, isConnected, isConnecting = () => false, onChange = () => {} }) {
  let cache = null; // the last complete state, with the epoch it arrived in
  let epoch = 0; // moves on with every change of the connection
  let applied = 0; // counts pushes applied as they came: a fetch that saw one meanwhile is older than it
  let inflight = null;
  let connectFetchFailed = false; // the fetch a new port made failed (see connectionChanged)
  let last = null; // identity of the last state onChange heard
  let summary = { entries: 0, undeliverable: 0, problem: null };

  /**
   * The one door: a complete state from the host, pushed or fetched.
   * `announce` false for the first state a content script's own request
   * brought: it has it already, and the others have theirs.
   */
  function enter(state, { current, announce = true }) {
    connectFetchFailed = false;
    cache = { state, epoch: current ? epoch : -1 };
    summary = { entries: state.count, undeliverable: state.undeliverable, problem: null };
    const key = identity(state);
    if (key === last) return;
    last = key;
    if (!announce) return;
    try {
      onChange(state);
    } catch {
      // a broadcast that failed must not lose the state
    }
  }

  /**
   * Whether a state fetched now is current: announced changes will reach it.
   * Sampled as the first request leaves (host.request decides synchronously
   * whether it goes on the connected port, waits for the hello of a port being
   * opened, or goes one-shot), and checked again when the state is complete.
   */
  function sending() {
    const at = epoch;
    const onPort = isConnected();
    const waitsForHello = !onPort && isConnecting();
    // A port being opened moves on once, to connected, with the request sent on it.
    return () => isConnected() && (onPort ? epoch === at : waitsForHello && epoch === at + 1);
  }

  /**
   * The state held, if page 0 (a reply or a push) says it is that state: off, or the same rules
   * version (a version names its rules). Then the rules are not fetched or compiled again.
   */
  function heldIfSame(first) {
    const held = cache?.state;
    if (!held || identity(held) !== identity(first)) return null;
    return held.enabled !== true || held.rulesVersion !== '' ? held : null;
  }

  /** One request; `sent.isCurrent` is sampled as the first one leaves. */
  function ask(sent, message) {
    const request = host.request(message);
    if (sent.isCurrent === null) sent.isCurrent = sending();
    return request;
  }

  /** The state, from page 0 on — or from page 1 on when `pushed` (a push's page 0 with its rules) is given. */
  async function fetchOnce(sent, pushed) {
    const first = pushed ?? await ask(sent, { action: 'getPageState' });
    if (!pushed && first?.status !== 'success') return { reply: first }; // a push has no status
    const held = heldIfSame(first);
    if (held) return { state: held }; // e.g. a new port's fetch after a host restart: no pages 1…N again
    const parts = [first.rules?.vocabulary];
    for (let page = 1; page < pagesOf(first); page += 1) {
      const reply = await ask(sent, { action: 'getPageState', page });
      if (reply?.status !== 'success') return { reply };
      if (reply.rulesVersion !== first.rulesVersion) return { changed: true };
      parts.push(reply.rules?.vocabulary);
    }
    return { state: stateOf(first, parts) };
  }

  async function fetchAll(sent, pushed) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      // A push's page 0 serves the first attempt; rules that changed meanwhile are fetched whole.
      const result = await fetchOnce(sent, attempt === 0 ? pushed : null);
      if (result.state) return result.state;
      if ('reply' in result) return result.reply ?? { status: 'error', code: 'no_reply', message: 'The host sent no reply.' };
    }
    return {
      status: 'error',
      code: 'rules_unstable',
      message: `The rules changed while their pages were being fetched, ${MAX_ATTEMPTS} times in a row.`,
    };
  }

  /**
   * Fetches the state from the host (one fetch at a time); resolves with it or an error reply.
   * `pushed`: a push's page 0, rules included, of rules of more pages (only the pages after it
   * are asked for); a push that comes during another fetch is fetched after it.
   */
  function refresh({ announce = true, pushed = null } = {}) {
    if (inflight) return pushed === null ? inflight : inflight.then(() => refresh({ pushed }), () => refresh({ pushed }));
    const appliedBefore = applied;
    // A push's page 0 came on the connected port: current, unless the port changes before the rest.
    const sent = { isCurrent: pushed === null ? null : sending() };
    inflight = fetchAll(sent, pushed)
      .catch((error) => {
        if (error instanceof HostProblemError) return problemReply(error.problem);
        throw error;
      })
      .then((state) => {
        inflight = null;
        if (state?.status !== 'success') {
          summary = { ...summary, problem: { code: state?.code ?? 'unknown', message: state?.message ?? '' } };
          return state;
        }
        // A push that came in meanwhile is the newer state: the host pushes every change it sees.
        if (applied !== appliedBefore && cache) return cache.state;
        enter(state, { current: sent.isCurrent?.() === true, announce });
        return state;
      }, (error) => {
        inflight = null;
        throw error;
      });
    return inflight;
  }

  return {
    /** The state: from memory while the port that announces changes is still the one it came through. */
    get() {
      if (cache && cache.epoch === epoch && isConnected()) return Promise.resolve(cache.state);
      return refresh({ announce: cache !== null });
    },
    /** Fetches the state again (after the popup changed a setting: the push may not come, one-shot). */
    refresh: () => refresh(),
    /**
     * A frame the host pushed on the port. A `pageState` push whose rules are
     * one page is the state: entered as it is, no request. Of rules of more
     * pages, the pages after page 0 are fetched (all of them if the push had
     * no room for page 0's rules), unless they are the rules held. Resolves
     * with the state (or null for another event).
     */
    accept(frame) {
      if (!isPageStateEvent(frame)) return Promise.resolve(null);
      // Only the settings changed: the rules held are the rules (not compiled again).
      const held = heldIfSame(frame);
      const pushed = carriesPageZero(frame) ? frame : null;
      if (!held && (pushed === null || pagesOf(frame) > 1)) return refresh({ pushed });
      const state = held ?? stateOf(frame, [frame.rules.vocabulary]);
      applied += 1;
      enter(state, { current: isConnected() });
      return Promise.resolve(state);
    },
    /**
     * The connection changed: what is in memory may have missed a change event. Once a new port
     * is connected, a state handed out before is fetched again on it: the host pushes only what
     * changes after its hello, so a change made while no port was there (the host restarting,
     * the backoff) would otherwise reach no open tab until it navigates. onChange hears it only
     * if it differs.
     */
    connectionChanged() {
      epoch += 1;
      if (cache === null || connectFetchFailed || !isConnected()) return;
      // A failure is in summary(), and the next get() asks again. Until a state comes in some
      // other way, new ports fetch nothing: a host that ends on every getPageState would
      // otherwise be started again and again (a port, its fetch, its end, the backoff, a port).
      const again = () => refresh().then((state) => {
        if (state?.status !== 'success') connectFetchFailed = true;
      }, () => {
        connectFetchFailed = true;
      });
      if (inflight) inflight.then(again, again); // that fetch may have left before this port
      else again();
    },
    /** For the popup: how many entries arrived, how many could not, and the last problem. */
    summary() {
      return { ...summary };
    },
  };
}

/**
 * What a tab or frame is sent of a page state (the `pageState` broadcast and
 * the `getPageState` reply): the rules only while the extension is on, as the
 * engine's compiled form (`compiled`, the same object for every tab: compiled
 * once per state, not per tab or navigation; null for no rules) and `count`,
 * the entries it was compiled from. Off, no entry and no rules version
 * reaches a content script.
 */
export function contentPageState(state) {
  const enabled = state?.enabled === true;
  const compiled = enabled && state.compiled && typeof state.compiled === 'object' ? state.compiled : null;
  return {
    enabled,
    compiled,
    count: compiled !== null && Number.isInteger(state.count) ? state.count : 0,
    rulesVersion: enabled && typeof state.rulesVersion === 'string' ? state.rulesVersion : '',
  };
}

/** The tabs.sendMessage payload carrying a complete page state. */
export function pageStateMessage(type, state) {
  return { type, ...contentPageState(state) };
}
