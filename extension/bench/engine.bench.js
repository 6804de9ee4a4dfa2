// Node benchmark of the replacement engine (content/engine.js), not a test:
// `node extension/bench/engine.bench.js [--quick] [--json]` (scripts/bench runs it).
//
// One ~200 KB text, vocabularies of 300, 3,000, 20,000 and 150,000 entries
// drawn from the same pool of words, each timed side by side with a plain
// token-and-map reference (split into words, look each up in a Map: no
// phrases, no case keeping). What matters is the ratio between sizes: the
// engine's cost must not grow with the vocabulary (target: 20,000 entries at
// most 1.5× the cost of 300).
//
// The compiled form: at 100, 20,000 and 150,000 entries the background's
// compile time, the form's size (characters; bytes as V8 holds it and as JSON
// carries it) against the vocabulary's JSON, and the heap it retains (after
// full garbage collections) as compiled and as a tab receives it (JSON.parse
// of its JSON, what Chromium's messaging does).

import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { seeded } from '../test/helpers/seeded.js';

const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');

// In this realm (vm.runInThisContext), not a fresh vm context: a vm context's
// globals are reached through interceptors and would slow `Math` and friends.
vm.runInThisContext(readFileSync(new URL('../content/engine.js', import.meta.url), 'utf8'), { filename: 'engine.js' });
const T = globalThis.ExtensionBridgeText;
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const rand = seeded(14);
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
  const compileMs = performance.now() - t0;
  return { size, compiled, compileMs, reference: referenceEngine(pairs), ours: [], refs: [], out: '' };
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
setups.length = 0; // the compiled forms above are not part of the heap measured below

/** Heap bytes that `make()`'s result keeps alive, after full collections (the least of three tries). */
function retained(make) {
  let least = Infinity;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    globalThis.benchKept = make();
    gc();
    gc();
    least = Math.min(least, process.memoryUsage().heapUsed - before);
    globalThis.benchKept = null;
  }
  return Math.max(0, least);
}

/** Bytes of a string as V8 holds it: one per character when all are Latin-1, else two. */
const heldBytes = (string) => string.length * (/[^\x00-\xff]/.test(string) ? 2 : 1);
const compact = [100, 20_000, 150_000].map((size) => {
  const pairs = vocabulary(size);
  const jsonBytes = Buffer.byteLength(JSON.stringify(Object.fromEntries(pairs)));
  const times = [];
  let compiled = null;
  for (let r = 0; r < (quick ? 1 : 5); r += 1) {
    const t0 = performance.now();
    compiled = T.compileVocabulary(pairs);
    times.push(performance.now() - t0);
  }
  const sent = JSON.stringify(compiled);
  const row = {
    entries: size, jsonBytes, compileMs: median(times),
    tableChars: compiled.table.length, dataChars: compiled.data.length,
    formBytes: heldBytes(compiled.table) + heldBytes(compiled.data), sentBytes: Buffer.byteLength(sent),
    // Heap kept by the form as the background compiled it, and as a tab gets it.
    heapCompiled: retained(() => T.compileVocabulary(pairs)),
    heapReceived: retained(() => T.compiledFrom(JSON.parse(sent))),
  };
  row.receivedVsJson = row.heapReceived / jsonBytes;
  return row;
});
const result = {
  textBytes: text.length, rounds, rows, compact,
  target: '20,000 entries <= 1.5x the cost of 300', pass: rows[2].vs300 <= 1.5,
};
if (asJson) {
  console.log(JSON.stringify(result));
} else {
  console.log(`engine on a ${(text.length / 1000).toFixed(0)} KB text, median of ${rounds}:`);
  console.log('entries   compile ms   replace ms   vs 300   token+map ref ms   replacements');
  for (const r of rows) {
    console.log(`${String(r.entries).padStart(7)}   ${r.compileMs.toFixed(1).padStart(10)}   ${r.replaceMs.toFixed(1).padStart(10)}   ${r.vs300.toFixed(2).padStart(6)}   ${r.referenceMs.toFixed(1).padStart(16)}   ${String(r.replaced).padStart(12)}`);
  }
  console.log(`target: ${result.target}: ${result.pass ? 'PASS' : 'MISS'} (${rows[2].vs300.toFixed(2)}x)`);
  const mb = (bytes) => (bytes / 1e6).toFixed(3);
  console.log('\nthe compact form (compiled once per state in the background; MB = 10^6 bytes):');
  console.log('entries   vocabulary JSON MB   compile ms   table chars   data chars   held MB   as JSON MB   heap: compiled / received MB   received / JSON');
  for (const r of compact) {
    console.log(`${String(r.entries).padStart(7)}   ${mb(r.jsonBytes).padStart(18)}   ${r.compileMs.toFixed(1).padStart(10)}   ${String(r.tableChars).padStart(11)}   ${String(r.dataChars).padStart(10)}   ${mb(r.formBytes).padStart(7)}   ${mb(r.sentBytes).padStart(10)}   ${`${mb(r.heapCompiled)} / ${mb(r.heapReceived)}`.padStart(28)}   ${r.receivedVsJson.toFixed(2).padStart(15)}`);
  }
}
