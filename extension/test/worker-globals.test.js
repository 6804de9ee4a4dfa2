import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

// compat/worker-globals.js: what Chromium's service worker stands in for of a background page's
// globals, before an imported Safari extension's background scripts run.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = readFileSync(join(ROOT, 'compat/worker-globals.js'), 'utf8');

/** A global that is a ServiceWorkerGlobalScope (its class in its own realm), or a page's. */
function realm({ worker }) {
  const context = vm.createContext({});
  vm.runInContext(
    worker
      ? 'class ServiceWorkerGlobalScope {}; Object.setPrototypeOf(globalThis, ServiceWorkerGlobalScope.prototype);'
      : '',
    context,
  );
  return context;
}

test('in a service worker: window is the worker global, matchMedia never matches', () => {
  const context = realm({ worker: true });
  vm.runInContext(SOURCE, context);
  assert.equal(vm.runInContext('window === globalThis && window.window === window', context), true);
  const list = vm.runInContext("matchMedia('(prefers-color-scheme: dark)')", context);
  assert.equal(list.matches, false);
  assert.equal(list.media, '(prefers-color-scheme: dark)');
  list.addEventListener('change', () => {});
  list.addListener(() => {});
  // utils.js of a real extension, at module evaluation: it reads a media query through window.
  assert.equal(vm.runInContext("window.matchMedia('(hover: hover) and (pointer: fine)').matches", context), false);
});

test('outside a service worker, and where the globals exist, nothing changes', () => {
  const page = realm({ worker: false });
  vm.runInContext(SOURCE, page);
  assert.equal(vm.runInContext('typeof window', page), 'undefined', 'not a worker: left alone');
  const worker = realm({ worker: true });
  const own = () => ({ matches: true });
  worker.matchMedia = own;
  vm.runInContext(SOURCE, worker);
  assert.equal(worker.matchMedia, own);
});
