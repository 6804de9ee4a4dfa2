// The popup: host status, the enabled switch, "Save this page" and the queue
// count. Every dynamic piece is a <template> clone filled with textContent;
// nothing from the host, the suite or the page is ever parsed as markup.

import { DOCTOR_COMMAND, Feature, MessageType, hasFeature } from '../shared/constants.js';
import { APP } from '../app/app.js';
import { hasWebAccess, requestWebAccess } from './host-access.js';

const api = globalThis.browser ?? globalThis.chrome;
// What this extension was made with (app/app.js): no Save without saving, no web-access notice without content scripts.
const saving = hasFeature(APP.features, Feature.SAVING);
const onPages = [Feature.VOCABULARY, Feature.SAVING, Feature.TRANSFORM].some((f) => hasFeature(APP.features, f));

function t(key, substitutions) {
  try {
    return api.i18n.getMessage(key, substitutions) || '';
  } catch {
    return '';
  }
}

/** Fills every [data-i18n] element under `root` with its localized message. */
function localize(root) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    const message = t(element.dataset.i18n);
    if (message) element.textContent = message;
  }
}

function fromTemplate(id) {
  const fragment = document.getElementById(id).content.cloneNode(true);
  localize(fragment);
  return fragment;
}

async function send(message) {
  try {
    return (await api.runtime.sendMessage(message)) ?? { status: 'error', code: 'no_reply', message: '' };
  } catch (error) {
    return { status: 'error', code: 'no_background', message: String(error?.message ?? error) };
  }
}

function showResult(container, ok, text, code = '') {
  const fragment = fromTemplate('tpl-result');
  fragment.querySelector('.result-text').textContent = text;
  fragment.querySelector('.result-code').textContent = code;
  container.classList.toggle('success', ok);
  container.classList.toggle('error', !ok);
  container.replaceChildren(fragment);
}

function errorText(reply) {
  const known = reply?.code ? t(`error_${reply.code}`) || t(`problem_${reply.code}`) : '';
  return known || reply?.message || t('error_generic');
}

// ---- host status ----

function renderHost(reply) {
  const container = document.getElementById('host-status');
  if (reply?.status === 'success' && reply.connected) {
    const fragment = fromTemplate('tpl-host-connected');
    fragment.querySelector('.host-version').textContent = String(reply.hostVersion ?? '?');
    fragment.querySelector('.rtt').textContent = t('rttValue', [String(Math.round(reply.rttMs))]) || `${Math.round(reply.rttMs)} ms`;
    fragment.querySelector('.transport').textContent = t(`transport_${reply.transport}`) || String(reply.transport);
    renderRules(fragment, reply.rules);
    container.replaceChildren(fragment);
    return;
  }
  const problem = reply?.problem ?? { code: reply?.code ?? 'unknown', message: reply?.message ?? '' };
  const fragment = fromTemplate('tpl-host-problem');
  fragment.querySelector('.problem-title').textContent = t(`problem_${problem.code}`) || t('problem_unknown');
  fragment.querySelector('.problem-detail').textContent = [problem.code, problem.message].filter(Boolean).join(': ');
  fragment.querySelector('.command').textContent = DOCTOR_COMMAND;
  fragment.querySelector('.retry').addEventListener('click', () => refreshAll(true));
  container.replaceChildren(fragment);
}

/** How many vocabulary entries reached the extension, and what could not. */
function renderRules(fragment, rules) {
  const entries = Number.isInteger(rules?.entries) ? rules.entries : 0;
  fragment.querySelector('.rules').textContent = t('rulesEntries', [entries.toLocaleString()]) || String(entries);
  const problem = fragment.querySelector('.rules-problem');
  if (Number.isInteger(rules?.undeliverable) && rules.undeliverable > 0) {
    problem.textContent = t('rulesUndeliverable', [String(rules.undeliverable)]);
  } else if (rules?.problem?.code) {
    problem.textContent = t('rulesProblem', [String(rules.problem.code)]);
  }
}

/** The popup follows extensionTheme: light, dark, or auto (the system's). */
function applyTheme(theme) {
  document.documentElement.dataset.theme = theme === 'light' || theme === 'dark' ? theme : 'auto';
}

/**
 * The app's declared actions (app/app.js) that the host does not have: a host built before they were
 * added. Said here, with the fix, instead of each call failing later.
 */
function renderStaleHost(reply) {
  const box = document.getElementById('stale-host');
  const missing = Array.isArray(reply?.missingAppActions) ? reply.missingAppActions.filter((a) => typeof a === 'string') : [];
  box.hidden = missing.length === 0;
  if (missing.length === 0) return;
  const names = missing.join(', ');
  box.querySelector('.stale-host-actions').textContent =
    t('staleHostActions', [names]) || `The host does not know this extension's action: ${names}.`;
}

async function refreshHost(retry) {
  const reply = await send({ type: MessageType.HOST_STATUS, retry });
  renderHost(reply);
  renderStaleHost(reply);
  if (reply?.status === 'success' && reply.connected) renderAppInfo(await send({ type: MessageType.APP_INFO }));
}

/** Who the bridge is, from its host's appInfo action (text only: the host's strings). */
function renderAppInfo(reply) {
  const line = document.getElementById('app-info');
  if (reply?.status !== 'success' || typeof reply.name !== 'string') {
    line.hidden = true;
    return;
  }
  const version = typeof reply.version === 'string' ? ` ${reply.version}` : '';
  const group = typeof reply.group === 'string' ? ` · ${reply.group}` : '';
  line.textContent = `${reply.name}${version}${group}`;
  line.hidden = false;
}

// ---- settings ----

const enabledBox = document.getElementById('enabled');
const settingsResult = document.getElementById('settings-result');

async function refreshSettings() {
  const reply = await send({ type: MessageType.GET_SETTINGS });
  if (reply?.status === 'success') {
    applyTheme(reply.settings?.theme);
    enabledBox.checked = reply.settings?.enabled === true;
    enabledBox.disabled = false;
    settingsResult.replaceChildren();
  } else {
    enabledBox.disabled = true;
    showResult(settingsResult, false, errorText(reply), reply?.code ?? '');
  }
}

enabledBox.addEventListener('change', async () => {
  const wanted = enabledBox.checked;
  enabledBox.disabled = true;
  const reply = await send({ type: MessageType.SET_SETTINGS, settings: { enabled: wanted } });
  enabledBox.disabled = false;
  if (reply?.status === 'success') {
    enabledBox.checked = reply.settings?.enabled === true;
    showResult(settingsResult, true, t(enabledBox.checked ? 'settingsOn' : 'settingsOff'));
  } else {
    enabledBox.checked = !wanted;
    showResult(settingsResult, false, errorText(reply), reply?.code ?? '');
  }
});

// ---- queue ----

async function refreshQueue() {
  const reply = await send({ type: MessageType.QUEUE_COUNT });
  document.getElementById('queue-count').textContent =
    reply?.status === 'success' && Number.isInteger(reply.count) ? String(reply.count) : '–';
}

// ---- save this page ----

const saveButton = document.getElementById('save');
const saveResult = document.getElementById('save-result');

/** Asks the active tab's content script for URL, title and selection or text (no extra permission needed). */
async function collectActivePage() {
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  if (typeof tab?.id !== 'number') return null;
  try {
    const page = await api.tabs.sendMessage(tab.id, { type: MessageType.COLLECT_PAGE });
    return page?.status === 'success' ? page : null;
  } catch {
    return null; // no content script: not an http(s) page, or opened before the extension loaded
  }
}

saveButton.addEventListener('click', async () => {
  saveButton.disabled = true;
  try {
    const page = await collectActivePage();
    if (!page) {
      showResult(saveResult, false, t('saveUnavailable'));
      return;
    }
    const reply = await send({
      type: MessageType.SAVE_CONTENT, url: page.url, title: page.title, content: page.content, kind: page.kind,
    });
    if (reply?.status === 'success') {
      showResult(saveResult, true, t(page.kind === 'selection' ? 'savedSelection' : 'savedPage'), page.url);
      refreshQueue();
      refreshUndo();
    } else {
      showResult(saveResult, false, errorText(reply), reply?.code ?? '');
    }
  } finally {
    saveButton.disabled = false;
  }
});

// ---- undo the last save (within UNDO_WINDOW_MS; the background checks the time) ----

const undoButton = document.getElementById('undo');
let undoHide = null;

async function refreshUndo() {
  const reply = await send({ type: MessageType.LAST_SAVE });
  const show = reply?.status === 'success' && reply.canUndo === true;
  undoButton.hidden = !show;
  clearTimeout(undoHide);
  if (show) {
    const left = reply.windowMs - (Date.now() - reply.lastSave.savedAt);
    undoHide = setTimeout(() => { undoButton.hidden = true; }, Math.max(0, left));
  }
}

undoButton.addEventListener('click', async () => {
  undoButton.disabled = true;
  try {
    const reply = await send({ type: MessageType.UNDO_SAVE });
    showResult(saveResult, reply?.status === 'success', reply?.status === 'success' ? t('undone') : errorText(reply), reply?.code ?? '');
    undoButton.hidden = true;
    refreshQueue();
  } finally {
    undoButton.disabled = false;
  }
});

// ---- host access (Firefox MV3 lets the user withdraw it) ----

async function refreshHostAccess() {
  document.getElementById('host-access').hidden = !onPages || await hasWebAccess(api.permissions);
}

document.getElementById('host-access-allow').addEventListener('click', async () => {
  // permissions.request must be called from the click itself (a user gesture).
  if (await requestWebAccess(api.permissions)) document.getElementById('host-access').hidden = true;
});

async function refreshAll(retry) {
  // Host status first: with retry it clears a remembered failure for the others.
  await refreshHost(retry);
  await Promise.all([refreshSettings(), refreshQueue(), saving ? refreshUndo() : null, refreshHostAccess()]);
}

try {
  document.documentElement.lang = api.i18n.getUILanguage();
} catch {
  // keep "en"
}
localize(document);
saveButton.closest('section').hidden = !saving;
refreshAll(true);
