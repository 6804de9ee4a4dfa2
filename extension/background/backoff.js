// Exponential backoff with a cap and jitter, pure.

export const DEFAULT_BACKOFF = Object.freeze({
  baseMs: 500,
  factor: 2,
  // Under the MV3 worker's 30 s idle limit, so a waiting reconnect is not lost
  // to a worker shutdown more often than necessary.
  maxMs: 20_000,
  // ±25 % around the nominal delay.
  jitter: 0.25,
});

/**
 * The delay before reconnect attempt `attempt` (0 for the first retry).
 * @param {number} attempt
 * @param {object} [options] baseMs, factor, maxMs, jitter (0..1)
 * @param {() => number} [random] returns [0, 1)
 * @returns {number} whole milliseconds in [0, maxMs]
 */
export function backoffDelay(attempt, options = {}, random = Math.random) {
  const { baseMs, factor, maxMs, jitter } = { ...DEFAULT_BACKOFF, ...options };
  const n = Math.max(0, Math.floor(Number.isFinite(attempt) ? attempt : 0));
  // Cap before multiplying further so huge attempts do not overflow to Infinity.
  const nominal = Math.min(maxMs, baseMs * Math.pow(factor, Math.min(n, 64)));
  const spread = nominal * jitter * (2 * random() - 1);
  return Math.round(Math.min(maxMs, Math.max(0, nominal + spread)));
}
