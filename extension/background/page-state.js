// The page state content scripts need — {enabled, entries, rulesVersion} —
// held by the background so a page asks once, at document_start, and gets
// it from memory while the port that would announce changes is connected.
// Fetched with the host's getPageState (never reads the queue); rules too big
// for one frame come in pages that are put back together here. Pure: the
// host client and its connection state are passed in.

import { HostProblemError, problemReply } from './problems.js';

const MAX_ATTEMPTS = 3;

/**
 * @param {object} deps
 * @param {{request: Function}} deps.host a HostClient
 * @param {() => boolean} deps.isConnected true while the port (which delivers change events) is connected
 */
export function createPageState({ host, isConnected }) {
  let cache = null; // the last complete state, with the epoch it was fetched in
  let epoch = 0; // moves on with every change of the connection
  let inflight = null;
  let summary = { entries: 0, undeliverable: 0, problem: null };

  async function fetchOnce() {
    const first = await host.request({ action: 'getPageState' });
    if (first?.status !== 'success') return { reply: first };
    const pages = Number.isInteger(first.pages) && first.pages > 0 ? first.pages : 1;
    const parts = [first.rules?.vocabulary];
    for (let page = 1; page < pages; page += 1) {
      const reply = await host.request({ action: 'getPageState', page });
      if (reply?.status !== 'success') return { reply };
      if (reply.rulesVersion !== first.rulesVersion) return { changed: true };
      parts.push(reply.rules?.vocabulary);
    }
    // Switched off: no rules leave the background, whatever the host sent
    // (a host from before issue 28 sends them with enabled false).
    const enabled = first.enabled === true;
    const entries = [];
    for (const part of enabled ? parts : []) {
      if (part && typeof part === 'object' && !Array.isArray(part)) {
        for (const pair of Object.entries(part)) if (typeof pair[1] === 'string') entries.push(pair);
      }
    }
    return {
      state: {
        status: 'success',
        enabled,
        entries,
        rulesVersion: enabled && typeof first.rulesVersion === 'string' ? first.rulesVersion : '',
        pages,
        undeliverable: Number.isInteger(first.undeliverable) ? first.undeliverable : 0,
      },
    };
  }

  async function fetchAll() {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const result = await fetchOnce();
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
  function refresh() {
    if (inflight) return inflight;
    const started = epoch;
    const connected = isConnected();
    inflight = fetchAll()
      .catch((error) => {
        if (error instanceof HostProblemError) return problemReply(error.problem);
        throw error;
      })
      .then((state) => {
        inflight = null;
        if (state?.status === 'success') {
          cache = { state, epoch: connected && started === epoch ? started : -1 };
          summary = { entries: state.entries.length, undeliverable: state.undeliverable, problem: null };
        } else {
          summary = { ...summary, problem: { code: state?.code ?? 'unknown', message: state?.message ?? '' } };
        }
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
      return refresh();
    },
    refresh,
    /** The connection changed: what is in memory may have missed a change event. */
    connectionChanged() {
      epoch += 1;
    },
    /** For the popup: how many entries arrived, how many could not, and the last problem. */
    summary() {
      return { ...summary };
    },
  };
}

/**
 * What a tab or frame is sent of a page state (the `pageState` broadcast and
 * the `getPageState` reply): the rules only while the extension is on. Off,
 * no entry and no rules version reaches a content script.
 */
export function contentPageState(state) {
  const enabled = state?.enabled === true;
  return {
    enabled,
    entries: enabled && Array.isArray(state.entries) ? state.entries : [],
    rulesVersion: enabled && typeof state.rulesVersion === 'string' ? state.rulesVersion : '',
  };
}

/** The tabs.sendMessage payload carrying a complete page state. */
export function pageStateMessage(type, state) {
  return { type, ...contentPageState(state) };
}
