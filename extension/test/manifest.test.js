import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

import { COMMAND_SAVE_PAGE, Feature, HOST_NAME, MessageType, SHADOW_ROOT_EVENT } from '../shared/constants.js';
import { APP } from '../app/app.js';
import { ProblemCode } from '../background/problems.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const manifest = JSON.parse(read('manifest.json'));
const ids = JSON.parse(read('extension-id.json'));
const popupHtml = read('popup/popup.html');

/** Every file under the extension, relative paths, skipping tests and tooling. */
function shippedFiles(dir = ROOT) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = relative(ROOT, path);
    // compat/: the Safari shim, written into imported extensions only (new --from-safari), never shipped here.
    if (['test', 'tools', 'bench', 'compat', 'node_modules'].includes(rel)) continue;
    if (statSync(path).isDirectory()) out.push(...shippedFiles(path));
    else out.push(rel);
  }
  return out;
}

const jsFiles = shippedFiles().filter((f) => f.endsWith('.js'));

/** Chromium's extension ID for a base64 DER SubjectPublicKeyInfo. */
function chromiumId(base64Key) {
  const hex = createHash('sha256').update(Buffer.from(base64Key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

const has = (feature) => APP.features.includes(feature);
const saving = has(Feature.SAVING);
const transform = has(Feature.TRANSFORM);
const vocabulary = has(Feature.VOCABULARY);

test('app_isTheAppsConfiguration_withKnownFeaturesOnce', () => {
  assert.ok(Object.isFrozen(APP) && Object.isFrozen(APP.features));
  // `actions` (the app's own host actions, test/app-actions.test.js) is optional: older app files lack it.
  assert.deepEqual(Object.keys(APP).filter((k) => k !== 'actions').sort(), ['features', 'hostName', 'name']);
  if (APP.actions !== undefined) assert.ok(Object.isFrozen(APP.actions));
  assert.match(APP.name, /^[A-Za-z][A-Za-z0-9_]*$/);
  assert.equal(APP.hostName, HOST_NAME);
  assert.equal(new Set(APP.features).size, APP.features.length, 'no feature twice');
  for (const feature of APP.features) assert.ok(Object.values(Feature).includes(feature), feature);
  // The app's file imports nothing: upgrade replaces everything else around it.
  assert.doesNotMatch(read('app/app.js'), /^\s*import\s/m);
});

test('manifest_isMv3WithMinimalPermissions', () => {
  assert.equal(manifest.manifest_version, 3);
  // Only what the app's features need (docs/GENERATOR.md): contextMenus for the save and transform entries;
  // activeTab for the clicked tab's URL and title after the user's gesture on a save menu or the shortcut;
  // clipboardWrite for a transformed text where it cannot be edited.
  const expected = ['nativeMessaging', 'storage'];
  if (saving || transform) expected.push('contextMenus');
  if (saving) expected.push('activeTab');
  if (transform) expected.push('clipboardWrite');
  assert.deepEqual([...manifest.permissions].sort(), expected.sort());
  assert.equal(manifest.host_permissions, undefined);
  assert.equal(manifest.optional_permissions, undefined);
  assert.equal(manifest.default_locale, 'en');
  assert.match(manifest.version, /^\d+(\.\d+){0,3}$/);
});

test('manifest_saveShortcutIsTheCommandTheBackgroundHandles', () => {
  if (!saving) {
    assert.equal(manifest.commands, undefined, 'no shortcut without saving');
    return;
  }
  assert.deepEqual(Object.keys(manifest.commands), [COMMAND_SAVE_PAGE]);
  assert.equal(manifest.commands[COMMAND_SAVE_PAGE].suggested_key.default, 'Alt+Shift+S');
  assert.match(manifest.commands[COMMAND_SAVE_PAGE].description, /^__MSG_\w+__$/);
});

test('manifest_backgroundServesBothBrowsers', () => {
  assert.deepEqual(manifest.background, { service_worker: 'background/background.js', scripts: ['background/background.js'], type: 'module' });
});

test('manifest_contentScriptsEveryFrameFromDocumentStart_engineFirst', () => {
  // The isolated script rewrites (vocabulary) and collects or replaces text for the menus (saving, transform);
  // the page-world hook serves only rewriting.
  if (!vocabulary && !saving && !transform) {
    assert.equal(manifest.content_scripts, undefined);
    return;
  }
  if (!vocabulary) {
    assert.equal(manifest.content_scripts.length, 1);
    assert.deepEqual(manifest.content_scripts[0].js, ['content/engine.js', 'content/content.js']);
    assert.equal(manifest.content_scripts[0].world, undefined);
    return;
  }
  assert.equal(manifest.content_scripts.length, 2);
  const [hook, cs] = manifest.content_scripts;
  for (const script of [hook, cs]) {
    assert.deepEqual([...script.matches].sort(), ['http://*/*', 'https://*/*']);
    assert.equal(script.run_at, 'document_start');
    assert.equal(script.all_frames, true);
    assert.equal(script.match_about_blank, true);
  }
  // The page-world hook only announces open shadow roots; everything else is isolated.
  assert.deepEqual(hook.js, ['content/shadow-hook.js']);
  assert.equal(hook.world, 'MAIN');
  assert.deepEqual(cs.js, ['content/engine.js', 'content/content.js']);
  assert.equal(cs.world, undefined);
});

test('extensionIsArrangedByWhereCodeRuns', () => {
  for (const file of jsFiles) {
    assert.match(file, /^(app|background|content|popup|shared|test|bench|tools)\//, `${file} lives in a folder named for where it runs`);
  }
  for (const file of jsFiles.filter((f) => f.startsWith('content/'))) {
    assert.doesNotMatch(read(file), /^\s*import\s/m, `${file}: content scripts are classic scripts`);
  }
  for (const file of jsFiles.filter((f) => f.startsWith('popup/') || f.startsWith('shared/') || f.startsWith('app/'))) {
    assert.doesNotMatch(read(file), /from '\.\.\/background\//, `${file} must not import background code`);
  }
});

test('manifest_geckoSettingsAcceptedByEsr128', () => {
  const gecko = manifest.browser_specific_settings.gecko;
  assert.equal(gecko.id, 'extension-bridge@extensionbridge.org');
  assert.equal(gecko.id, ids.firefox);
  const major = Number.parseInt(gecko.strict_min_version, 10);
  assert.ok(major >= 115 && major <= 128, gecko.strict_min_version);
  // addons.mozilla.org requires it of new add-ons (Firefox 140+ reads it; older ones warn and go on).
  assert.deepEqual(gecko.data_collection_permissions, { required: ['none'] });
});

test('key_derivedChromiumIdMatchesExtensionIdJson', () => {
  assert.match(manifest.key, /^[A-Za-z0-9+/]+=*$/);
  const der = Buffer.from(manifest.key, 'base64');
  // DER SEQUENCE holding rsaEncryption (1.2.840.113549.1.1.1) and a 2048-bit modulus
  assert.equal(der[0], 0x30);
  assert.ok(der.includes(Buffer.from('2a864886f70d010101', 'hex')), 'rsaEncryption OID');
  assert.equal(der.length, 294, '2048-bit RSA SubjectPublicKeyInfo');
  assert.match(ids.chromium, /^[a-p]{32}$/);
  assert.equal(chromiumId(manifest.key), ids.chromium);
  assert.match(read('README.md'), new RegExp(ids.chromium));
});

test('extensionIdJson_hostNameMatchesCode', () => {
  assert.deepEqual(Object.keys(ids).sort(), ['chromium', 'firefox', 'hostName']);
  assert.equal(ids.hostName, HOST_NAME);
  assert.equal(ids.hostName, 'org.extensionbridge.host');
});

test('noPrivateKeyMaterialAnywhere', () => {
  const all = [...shippedFiles(), ...readdirSync(join(ROOT, 'tools')).map((f) => join('tools', f))];
  for (const file of all) {
    const text = readFileSync(join(ROOT, file)).toString('latin1');
    assert.doesNotMatch(text, /PRIVATE KEY/, file);
    assert.ok(!/\.(pem|key|der|p8)$/.test(file), file);
  }
});

function referencedFiles() {
  const refs = new Set([
    manifest.background.service_worker,
    ...manifest.background.scripts,
    ...(manifest.content_scripts ?? []).flatMap((cs) => [...(cs.js ?? []), ...(cs.css ?? [])]),
    manifest.action.default_popup,
    ...Object.values(manifest.action.default_icon),
    ...Object.values(manifest.icons),
  ]);
  for (const [, src] of popupHtml.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)) refs.add(join('popup', src));
  // ES module imports, followed from every shipped .js file
  for (const file of jsFiles) {
    for (const [, spec] of read(file).matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)) {
      refs.add(relative(ROOT, resolve(ROOT, dirname(file), spec)));
    }
  }
  return [...refs];
}

test('everyReferencedFileExists', () => {
  const refs = referencedFiles();
  assert.ok(refs.includes('background/router.js') && refs.includes('popup/popup.css'), refs.join(', '));
  for (const ref of refs) {
    assert.ok(!/^[a-z]+:/i.test(ref), `remote or absolute reference: ${ref}`);
    assert.ok(existsSync(join(ROOT, ref)), `missing: ${ref}`);
  }
});

function readPng(path) {
  const bytes = readFileSync(join(ROOT, path));
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${path}: PNG signature`);
  let offset = 8;
  const chunks = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('latin1');
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    chunks.push({ type, data });
    offset += 12 + length;
  }
  assert.equal(chunks[0].type, 'IHDR', `${path}: IHDR first`);
  assert.equal(chunks.at(-1).type, 'IEND', `${path}: IEND last`);
  const ihdr = chunks[0].data;
  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  return {
    width: ihdr.readUInt32BE(0),
    height: ihdr.readUInt32BE(4),
    bitDepth: ihdr[8],
    colourType: ihdr[9],
    raw: inflateSync(idat),
  };
}

test('icons_arePngsOfTheStatedSize', () => {
  const declared = [...Object.entries(manifest.icons), ...Object.entries(manifest.action.default_icon)];
  assert.deepEqual(Object.keys(manifest.icons), ['16', '32', '48', '128']);
  for (const [size, path] of declared) {
    const png = readPng(path);
    assert.equal(png.width, Number(size), `${path} width`);
    assert.equal(png.height, Number(size), `${path} height`);
    assert.equal(png.bitDepth, 8);
    assert.equal(png.colourType, 6, 'RGBA');
    assert.equal(png.raw.length, (1 + 4 * png.width) * png.height, `${path}: image data size`);
    // Not blank: both transparent corners and opaque pixels exist.
    const alphas = new Set();
    for (let y = 0; y < png.height; y += 1) {
      for (let x = 0; x < png.width; x += 1) alphas.add(png.raw[y * (1 + 4 * png.width) + 1 + 4 * x + 3]);
    }
    assert.ok(alphas.has(0) && alphas.has(255), `${path}: drawn`);
  }
});

const LOCALES = readdirSync(join(ROOT, '_locales'));
const messages = Object.fromEntries(LOCALES.map((l) => [l, JSON.parse(read(`_locales/${l}/messages.json`))]));

test('locales_enNlSvWithIdenticalKeys', () => {
  assert.deepEqual([...LOCALES].sort(), ['en', 'nl', 'sv']);
  const enKeys = Object.keys(messages.en).sort();
  for (const locale of LOCALES) {
    assert.deepEqual(Object.keys(messages[locale]).sort(), enKeys, locale);
    for (const [key, entry] of Object.entries(messages[locale])) {
      assert.match(key, /^[A-Za-z0-9_]+$/, `${locale}.${key}`);
      assert.equal(typeof entry.message, 'string', `${locale}.${key}`);
      assert.notEqual(entry.message.trim(), '', `${locale}.${key}`);
      for (const [, name] of entry.message.matchAll(/\$([A-Za-z0-9_]+)\$/g)) {
        assert.ok(entry.placeholders?.[name.toLowerCase()], `${locale}.${key}: placeholder ${name}`);
      }
    }
  }
  const lower = enKeys.map((k) => k.toLowerCase());
  assert.equal(new Set(lower).size, lower.length, 'message names are case-insensitive in Chromium');
});

test('locales_everyUsedKeyExists', () => {
  const used = new Set();
  for (const [, key] of JSON.stringify(manifest).matchAll(/__MSG_([A-Za-z0-9_]+)__/g)) used.add(key);
  for (const [, key] of popupHtml.matchAll(/data-i18n="([^"]+)"/g)) used.add(key);
  for (const file of jsFiles) {
    for (const [, key] of read(file).matchAll(/\b(?:t|getMessage)\('([A-Za-z0-9_]+)'/g)) used.add(key);
  }
  for (const code of Object.values(ProblemCode)) used.add(`problem_${code}`);
  for (const transport of ['port', 'oneShot']) used.add(`transport_${transport}`);
  assert.ok(used.has('extensionName') && used.has('saveButton') && used.has('rttValue'), [...used].join(','));
  for (const locale of LOCALES) {
    for (const key of used) assert.ok(key in messages[locale], `${locale} lacks ${key}`);
  }
});

test('popup_isCspCleanAndBuiltFromTemplates', () => {
  const scripts = [...popupHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.ok(scripts.length >= 1);
  for (const [, attributes, body] of scripts) {
    assert.match(attributes, /\bsrc="[^"]+"/, 'no inline script');
    assert.equal(body.trim(), '');
  }
  assert.doesNotMatch(popupHtml, /<style\b/i, 'no inline <style>');
  assert.doesNotMatch(popupHtml, /\sstyle="/i, 'no style attributes');
  assert.doesNotMatch(popupHtml, /\son[a-z]+=/i, 'no inline event handlers');
  assert.doesNotMatch(popupHtml, /(src|href)="(https?:)?\/\//i, 'no remote resources');
  assert.match(popupHtml, /<template id="tpl-host-problem">/);
  assert.match(read('popup/popup.css'), /prefers-color-scheme:\s*dark/);
  assert.match(read('popup/popup.css'), /:focus-visible/);
});

test('javascript_noHtmlInjectionEvalOrRemoteCode', () => {
  for (const file of jsFiles) {
    const code = read(file).replace(/^\s*\/\/.*$/gm, '');
    for (const banned of [/\.innerHTML\b/, /\.outerHTML\b/, /insertAdjacentHTML/, /document\.write/, /\beval\(/, /new Function\(/, /importScripts\(/, /https?:\/\/[^\s'"`]*\.js\b/]) {
      assert.doesNotMatch(code, banned, `${file}: ${banned}`);
    }
  }
});

test('contentScript_neverTouchesWindowMessagingAndUsesTheSameTypes', () => {
  const content = read('content/content.js').replace(/^\s*\/\/.*$/gm, '');
  for (const code of [content, read('content/shadow-hook.js').replace(/^\s*\/\/.*$/gm, '')]) {
    assert.doesNotMatch(code, /postMessage/);
    assert.doesNotMatch(code, /addEventListener\(\s*['"]message['"]/);
    assert.doesNotMatch(code, /\bonmessage\b/);
    assert.doesNotMatch(code, /^\s*(import|export)\s/m, 'classic script');
  }
  const constant = (name) => content.match(new RegExp(`const ${name} = '([^']+)'`))?.[1];
  assert.equal(constant('GET_PAGE_STATE'), MessageType.GET_PAGE_STATE);
  assert.equal(constant('PAGE_STATE'), MessageType.PAGE_STATE);
  assert.equal(constant('COLLECT_PAGE'), MessageType.COLLECT_PAGE);
  assert.equal(constant('GET_SELECTION'), MessageType.GET_SELECTION);
  assert.equal(constant('REPLACE_SELECTION'), MessageType.REPLACE_SELECTION);
  // A page can trigger no save or transform: the content script only answers the background.
  assert.doesNotMatch(content, /sendMessage\(\s*\{\s*type:\s*(SAVE|UNDO|'saveContent'|'undoSave'|'transform')/);
  assert.doesNotMatch(content, /saveContent|undoSave|removeItem|'transform'/);
  assert.equal(constant('SHADOW_ROOT_EVENT'), SHADOW_ROOT_EVENT);
  assert.match(read('content/shadow-hook.js'), new RegExp(`'${SHADOW_ROOT_EVENT}'`));
  // Ours no longer asks the legacy question; the background still answers it (router).
  assert.doesNotMatch(content, /content_request:enabled|getContent/);
});

test('onlyBackgroundSpeaksNativeMessaging', () => {
  for (const file of jsFiles) {
    const code = read(file);
    const speaks = /connectNative|sendNativeMessage/.test(code.replace(/^\s*\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, ''));
    if (speaks) assert.ok(['background/host-client.js'].includes(file), `${file} uses native messaging`);
  }
  assert.match(read('background/start.js'), /new HostClient\(/);
});
