// Deterministic pseudo-random numbers (mulberry32), for the engine's random
// tests and its node benchmark: the same seed gives the same vocabularies and
// texts on every run.

/** A function returning numbers in [0, 1), the same sequence for the same seed. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
