import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { WEB_ORIGINS, hasWebAccess, requestWebAccess } from '../popup/host-access.js';
import { APP } from '../app/app.js';

test('WEB_ORIGINS are exactly what the content scripts match', () => {
  const manifest = JSON.parse(readFileSync(new URL('../manifest.json', import.meta.url)));
  if (manifest.content_scripts === undefined) {
    // An extension made with only `secrets` runs on no page; the popup shows no web-access notice.
    assert.ok(!APP.features.some((f) => ['vocabulary', 'saving', 'transform'].includes(f)), APP.features.join());
    return;
  }
  const matches = new Set(manifest.content_scripts.flatMap((script) => script.matches));
  assert.deepEqual([...matches].sort(), [...WEB_ORIGINS].sort());
});

test('hasWebAccess: asks for both origins and reports a withdrawal', async () => {
  const asked = [];
  const granted = { contains: async (query) => { asked.push(query); return true; } };
  assert.equal(await hasWebAccess(granted), true);
  assert.deepEqual(asked, [{ origins: ['http://*/*', 'https://*/*'] }]);
  assert.equal(await hasWebAccess({ contains: async () => false }), false);
});

test('hasWebAccess: a missing or failing API shows no notice', async () => {
  assert.equal(await hasWebAccess(undefined), true);
  assert.equal(await hasWebAccess({}), true);
  assert.equal(await hasWebAccess({ contains: async () => { throw new Error('nope'); } }), true);
});

test('requestWebAccess: true only when the browser grants', async () => {
  assert.equal(await requestWebAccess({ request: async () => true }), true);
  assert.equal(await requestWebAccess({ request: async () => false }), false);
  assert.equal(await requestWebAccess({ request: async () => { throw new Error('not a user gesture'); } }), false);
  assert.equal(await requestWebAccess(undefined), false);
});
