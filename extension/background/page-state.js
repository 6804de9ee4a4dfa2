// The page state content scripts need — {enabled, compiled, rulesVersion} —
// and its only owner in the extension. Everything the host says about it goes
// in through one door (`enter`): a push on the port (`settingsChanged`, which
// is page 0 of getPageState with the settings, or `rulesChanged` when the
// rules take more than one page) and the replies of getPageState (never reads
// the queue; rules too big for one frame come in pages that are put back
// together here). A push with the whole rules is applied as it is: no second
// round trip. The one "is this the same state?" check of the background is
// here too: `onChange` hears only a state that differs from the last one.
// Pure: the host client and its connection state are passed in.

import { HostEvent } from '../shared/constants.js';
import { HostProblemError, problemReply } from './problems.js';
// The engine (a classic script: defines globalThis.ExtensionBridgeText) owns the compiled form
// of the rules that tabs are sent (issue 27 item 2); the background compiles them once per state
// and keeps only that form, not the entries.
import '../content/engine.js';

const { compileVocabulary } = globalThis.ExtensionBridgeText;

const MAX_ATTEMPTS = 3;

/** True for a host event frame that carries or announces a new page state. */
export function isPageStateEvent(frame) {
  return frame?.event === HostEvent.SETTINGS_CHANGED || frame?.event === HostEvent.RULES_CHANGED;
}

/**
 * The state of page 0 (a getPageState reply or a push) and the vocabularies of
 * all pages. Switched off, no rules leave the background, whatever the host
 * sent (a host from before issue 28 sends them with enabled false). The
 * extension's one rule for which entries count: string values (the engine
 * skips empty words). The rules are compiled here (engine.compileVocabulary),
 * once per state: page 0 of the state held (same rules version) is not made
 * into a new state (heldIfSame). The state keeps the form and the count, not
 * the entries.
 */
function stateOf(first, parts) {
  const enabled = first.enabled === true;
  const rulesVersion = enabled && typeof first.rulesVersion === 'string' ? first.rulesVersion : '';
  const entries = [];
  for (const part of enabled ? parts : []) {
    if (part && typeof part === 'object' && !Array.isArray(part)) {
      for (const pair of Object.entries(part)) if (typeof pair[1] === 'string') entries.push(pair);
    }
  }
  return {
    status: 'success',
    enabled,
    count: entries.length,
    compiled: compileVocabulary(entries, rulesVersion || undefined),
    rulesVersion,
    pages: Number.isInteger(first.pages) && first.pages > 0 ? first.pages : 1,
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

  async function fetchOnce(sent) {
    const request = host.request({ action: 'getPageState' });
    sent.isCurrent = sending();
    const first = await request;
    if (first?.status !== 'success') return { reply: first };
    const held = heldIfSame(first);
    if (held) return { state: held }; // e.g. a new port's fetch after a host restart: no pages 1…N again
    const pages = Number.isInteger(first.pages) && first.pages > 0 ? first.pages : 1;
    const parts = [first.rules?.vocabulary];
    for (let page = 1; page < pages; page += 1) {
      const reply = await host.request({ action: 'getPageState', page });
      if (reply?.status !== 'success') return { reply };
      if (reply.rulesVersion !== first.rulesVersion) return { changed: true };
      parts.push(reply.rules?.vocabulary);
    }
    return { state: stateOf(first, parts, cache?.state) };
  }

  async function fetchAll(sent) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const result = await fetchOnce(sent);
      if (result.state) return result.state;
      if ('reply' in result) return result.reply ?? { status: 'error', code: 'no_reply', message: 'The host sent no reply.' };
    }
    return {
      status: 'error',
      code: 'rules_unstable',
      message: `The rules changed while their pages were being fetched, ${MAX_ATTEMPTS} times in a row.`,
    };
  }

  /** Fetches the state from the host (one fetch at a time); resolves with it or an error reply. */
  function refresh({ announce = true } = {}) {
    if (inflight) return inflight;
    const appliedBefore = applied;
    const sent = { isCurrent: () => false };
    inflight = fetchAll(sent)
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
        enter(state, { current: sent.isCurrent(), announce });
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
     * A frame the host pushed on the port. A page-state push with the whole
     * rules (one page) is the state: entered as it is, no request. One that
     * announces rules of more pages is fetched, unless it is the state held.
     * Resolves with the state (or null for another event).
     */
    accept(frame) {
      if (!isPageStateEvent(frame)) return Promise.resolve(null);
      const whole = frame.pages === 1 && frame.rules && typeof frame.rules === 'object' && 'rulesVersion' in frame;
      // Only the settings changed: the rules held are the rules (not compiled again).
      const held = heldIfSame(frame);
      if (!held && !whole) return refresh();
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
