import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

// compat/page.js: the loader of a page `new --from-safari` generates beside an imported extension's
// own page: it reads the author's page (data-page) and writes it into the document unchanged while
// the parser waits. Here a fake document and XMLHttpRequest record what happens; real Chromium and
// Firefox run it in scripts/e2e/safari_corpus.py.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = readFileSync(join(ROOT, 'compat/page.js'), 'utf8');

function run({ page, files }) {
  const written = [];
  const requests = [];
  const errors = [];
  class XMLHttpRequest {
    open(method, url, async) {
      requests.push({ method, url, async });
      this.url = url;
    }
    overrideMimeType(type) {
      this.type = type;
    }
    send() {
      if (!(this.url in files)) throw new Error('NetworkError');
      this.responseText = files[this.url];
    }
  }
  const document = {
    currentScript: page === undefined ? null : { dataset: page === null ? {} : { page } },
    write: (html) => written.push(html),
  };
  const console = { error: (...args) => errors.push(args.map(String).join(' ')) };
  vm.runInContext(SOURCE, vm.createContext({ document, XMLHttpRequest, console }));
  return { written, requests, errors };
}

test('the author\'s page is read synchronously and written unchanged', () => {
  const html = '<!DOCTYPE html>\n<html lang="en"><head><script type="module" src="popup.js"></script></head><body>é</body></html>\n';
  const { written, requests, errors } = run({ page: 'popup.html', files: { 'popup.html': html } });
  assert.deepEqual(requests.map((r) => ({ ...r })), [{ method: 'GET', url: 'popup.html', async: false }]);
  assert.deepEqual(written, [html]);
  assert.deepEqual(errors, []);
});

test('no page named, or one that cannot be read, is said on the console and writes nothing', () => {
  for (const setup of [{ page: null, files: {} }, { page: 'gone.html', files: {} }, { page: 'empty.html', files: { 'empty.html': '' } }]) {
    const { written, errors } = run(setup);
    assert.deepEqual(written, []);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /\[ExtensionBridge\] page\.js/);
  }
});
