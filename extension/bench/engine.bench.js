// Node benchmark of the replacement engine (content/engine.js), not a test:
// `node extension/bench/engine.bench.js [--quick] [--json]` (scripts/bench runs it).
//
// One ~200 KB text, vocabularies of 300, 3,000, 20,000 and 150,000 entries
// drawn from the same pool of words, each timed side by side with a plain
// token-and-map reference (split into words, look each up in a Map: no
// phrases, no case keeping). What matters is the ratio between sizes: the
// engine's cost must not grow with the vocabulary (target: 20,000 entries at
// most 1.5× the cost of 300).

import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');

// In this realm (vm.runInThisContext), not a fresh vm context: a vm context's
// globals are reached through interceptors and would slow `Math` and friends.
vm.runInThisContext(readFileSync(new URL('../content/engine.js', import.meta.url), 'utf8'), { filename: 'engine.js' });
const T = globalThis.ExtensionBridgeText;

// Deterministic pseudo-random numbers (mulberry32).
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(14);
const SYLLABLES = ['ka', 'to', 'ri', 'ne', 'mo', 'sa', 'lu', 'pe', 'di', 'fo', 'gra', 'ste', 'bli', 'qua', 'zen', 'or', 'an', 'el', 'ix', 'um'];
const pool = new Set();
while (pool.size < 200_000) {
  let word = '';
  const n = 2 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i += 1) word += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
  pool.add(word);
}
const words = [...pool];

// The text: words of the first 20,000 of the pool, Zipf-like, with capitals and punctuation.
function makeText(bytes) {
  const parts = [];
  let length = 0;
  while (length < bytes) {
    const rank = Math.floor(Math.pow(20_000, rand()));
    let word = words[Math.min(rank, 19_999)];
    if (rand() < 0.1) word = word[0].toUpperCase() + word.slice(1);
    const sep = rand() < 0.08 ? '. ' : rand() < 0.05 ? ', ' : ' ';
    parts.push(word, sep);
    length += word.length + sep.length;
  }
  return parts.join('');
}
const text = makeText(200_000);

// Vocabulary of n entries: every 7th word of the pool (so each size reaches
// both frequent and rare words), with 5 % two-word phrases.
function vocabulary(n) {
  const pairs = [];
  for (let i = 0; pairs.length < n; i += 1) {
    const word = words[(i * 7) % words.length];
    if (i % 20 === 19) pairs.push([`${word} ${words[(i * 7 + 1) % words.length]}`, `phrase${i}`]);
    else pairs.push([word, `r${i}`]);
  }
  return pairs;
}

function referenceEngine(pairs) {
  const map = new Map(pairs.map(([k, v]) => [k.toLowerCase(), v]));
  return (input) => input.replace(/[\p{L}\p{M}\p{N}]+/gu, (w) => map.get(w.toLowerCase()) ?? w);
}

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const sizes = [300, 3_000, 20_000, 150_000];
const rounds = quick ? 3 : 51;
// Compile every vocabulary first, then time the sizes round-robin, each
// beside the reference: a garbage collection or a busy neighbour then lands
// on every size alike instead of on whichever ran last.
const setups = sizes.map((size) => {
  const pairs = vocabulary(size);
  const t0 = performance.now();
  const compiled = T.compileVocabulary(pairs);
  return { size, compiled, compileMs: performance.now() - t0, reference: referenceEngine(pairs), ours: [], refs: [], out: '' };
});
for (let r = 0; r < rounds + 1; r += 1) {
  for (const setup of setups) {
    let t0 = performance.now();
    setup.out = T.replaceText(text, setup.compiled);
    const ours = performance.now() - t0;
    t0 = performance.now();
    setup.reference(text);
    const ref = performance.now() - t0;
    if (r > 0) {
      // round 0 warms the code up and is not counted
      setup.ours.push(ours);
      setup.refs.push(ref);
    }
  }
}
const rows = setups.map((setup) => {
  let replaced = 0;
  for (const token of setup.out.matchAll(/\b(?:r|phrase)\d+\b/g)) replaced += token ? 1 : 0;
  return { entries: setup.size, compileMs: setup.compileMs, replaceMs: median(setup.ours), referenceMs: median(setup.refs), replaced };
});
const base = rows[0].replaceMs;
for (const row of rows) row.vs300 = row.replaceMs / base;
const result = { textBytes: text.length, rounds, rows, target: '20,000 entries <= 1.5x the cost of 300', pass: rows[2].vs300 <= 1.5 };
if (asJson) {
  console.log(JSON.stringify(result));
} else {
  console.log(`engine on a ${(text.length / 1000).toFixed(0)} KB text, median of ${rounds}:`);
  console.log('entries   compile ms   replace ms   vs 300   token+map ref ms   replacements');
  for (const r of rows) {
    console.log(`${String(r.entries).padStart(7)}   ${r.compileMs.toFixed(1).padStart(10)}   ${r.replaceMs.toFixed(1).padStart(10)}   ${r.vs300.toFixed(2).padStart(6)}   ${r.referenceMs.toFixed(1).padStart(16)}   ${String(r.replaced).padStart(12)}`);
  }
  console.log(`target: ${result.target}: ${result.pass ? 'PASS' : 'MISS'} (${rows[2].vs300.toFixed(2)}x)`);
}
