// Save and transform from what the user points at: the context-menu entries
// (page, link, selection, "Transform selection with <app>"), the save-page
// shortcut, and undo. Pure: the host client, session storage, tabs API,
// clock and key source come in, so node tests drive every path.
//
// What is saved comes from the browser — the click's pageUrl / linkUrl and
// the tab — never from a URL the page supplies. The content script is only
// asked for the text (the exact selection, the page's text) and to put a
// transformed text in place; it has no message that saves or transforms.

import { COMMAND_SAVE_PAGE, Feature, MenuId, MessageType, SessionKey, UNDO_WINDOW_MS, hasFeature } from '../shared/constants.js';

/** The feature (app/app.js) each menu entry belongs to. */
export const FEATURE_OF_MENU = Object.freeze({
  [MenuId.SAVE_PAGE]: Feature.SAVING,
  [MenuId.SAVE_LINK]: Feature.SAVING,
  [MenuId.SAVE_SELECTION]: Feature.SAVING,
  [MenuId.TRANSFORM_SELECTION]: Feature.TRANSFORM,
  [MenuId.UNDO_SAVE]: Feature.SAVING,
});

/** Whether `features` needs any menu entry (and so the contextMenus permission). */
export function hasMenus(features = Object.values(Feature)) {
  return Object.values(FEATURE_OF_MENU).some((feature) => hasFeature(features, feature));
}

/**
 * The entries of the app's features, in menu order; titles from the locale (`t`), the app's name in the
 * transform entry.
 */
export function menuEntries(t, features = Object.values(Feature)) {
  const app = t('extensionName');
  return [
    { id: MenuId.SAVE_PAGE, title: t('menuSavePage'), contexts: ['page'] },
    { id: MenuId.SAVE_LINK, title: t('menuSaveLink'), contexts: ['link'] },
    { id: MenuId.SAVE_SELECTION, title: t('menuSaveSelection'), contexts: ['selection'] },
    { id: MenuId.TRANSFORM_SELECTION, title: t('menuTransformSelection', [app]), contexts: ['selection'] },
    { id: MenuId.UNDO_SAVE, title: t('menuUndoSave'), contexts: ['all'], visible: false },
  ].filter((entry) => hasFeature(features, FEATURE_OF_MENU[entry.id]));
}

function text(value) {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The saveContent request for a click, or {error} when there is nothing to
 * save. `info` is the browser's OnClickData ({pageUrl, linkUrl, linkText,
 * selectionText}), `tab` the browser's tab, `page` what the content script
 * collected ({content, selection}) or null.
 */
export function saveRequestFor(kind, { info = {}, tab = {}, page = null } = {}) {
  const pageUrl = text(info.pageUrl) ?? text(tab?.url);
  const pageTitle = text(tab?.title) ?? text(page?.title);
  if (kind === 'link') {
    const url = text(info.linkUrl);
    if (!url) return { error: 'no_url' };
    const title = text(info.linkText) ?? text(info.selectionText) ?? url;
    const request = { action: 'saveContent', kind, url, title, content: title };
    if (pageUrl) request.pageUrl = pageUrl;
    return request;
  }
  if (!pageUrl) return { error: 'no_url' };
  if (kind === 'selection') {
    // The content script's selection is exact (line breaks, textareas); the
    // browser's selectionText is the fallback.
    const content = text(page?.selection) ?? text(info.selectionText);
    if (!content) return { error: 'no_selection' };
    return { action: 'saveContent', kind, url: pageUrl, title: pageTitle ?? pageUrl, content, pageUrl };
  }
  return { action: 'saveContent', kind: 'page', url: pageUrl, title: pageTitle ?? pageUrl, content: page?.content ?? '' };
}

/** True while `last` (a LAST_SAVE record) may still be undone at `now`. */
export function canUndo(last, now, windowMs = UNDO_WINDOW_MS) {
  return Boolean(last?.itemId) && Number.isFinite(last.savedAt) && now - last.savedAt >= 0 && now - last.savedAt <= windowMs;
}

/**
 * Saves with an idempotency key and remembers the last save for undo.
 * A key belongs to one user action (a menu click, the shortcut, the popup's
 * button): every call of `save` takes a fresh one. The key only makes the
 * host client's resend of that same request after a lost reply safe; a new
 * action is a new save, even of the same kind, URL and text (a key reused
 * without end made a page saved again hours later, after the app had drained
 * it, add nothing). A reply with `duplicate: true` added nothing, so it offers
 * no undo: its `itemId` names an earlier item, which undo would remove.
 * @param {object} deps
 * @param {{request: Function}} deps.host
 * @param {{get: Function, set: Function, remove: Function}} [deps.storage] storage.session
 * @param {() => number} [deps.now]
 * @param {() => string} [deps.newKey]
 * @param {number} [deps.windowMs]
 * @param {(record: object) => void} [deps.onSaved] after every successful reply; `record.undoable` says
 *   whether undo is offered
 * @param {(reply: object) => void} [deps.onUndone]
 */
export function createSaver({
  host, storage = null, now = () => Date.now(), newKey = () => globalThis.crypto.randomUUID(),
  windowMs = UNDO_WINDOW_MS, onSaved = () => {}, onUndone = () => {},
}) {
  let memory = null; // when there is no storage.session
  async function read() {
    if (!storage) return memory;
    try {
      return (await storage.get(SessionKey.LAST_SAVE))?.[SessionKey.LAST_SAVE] ?? null;
    } catch {
      return memory;
    }
  }
  async function write(record) {
    memory = record;
    if (!storage) return;
    try {
      if (record === null) await storage.remove(SessionKey.LAST_SAVE);
      else await storage.set({ [SessionKey.LAST_SAVE]: record });
    } catch {
      // memory keeps it for this worker's life
    }
  }

  async function save(request) {
    const key = newKey(); // one action, one key; only the host client's resend reuses it
    const reply = await host.request({ ...request, key });
    if (reply?.status === 'success' && typeof reply.itemId === 'string') {
      const duplicate = reply.duplicate === true;
      // Nothing added: no undo, and the earlier save's undo is no longer "the last save".
      const record = {
        itemId: duplicate ? null : reply.itemId, key, savedAt: now(), kind: request.kind, url: request.url,
        duplicate, undoable: !duplicate,
      };
      if (duplicate) record.existingItemId = reply.itemId;
      await write(record);
      try {
        onSaved(record);
      } catch {
        // the badge is a courtesy
      }
    }
    return reply;
  }

  async function undo() {
    const last = await read();
    if (!last?.itemId) return { status: 'error', code: 'nothing_to_undo', message: 'There is no save to undo.' };
    if (!canUndo(last, now(), windowMs)) {
      return {
        status: 'error', code: 'undo_expired',
        message: `A save can be undone for ${Math.round(windowMs / 1000)} seconds; this one is older. Remove it with extension-bridge queue drain.`,
      };
    }
    const reply = await host.request({ action: 'removeItem', itemId: last.itemId });
    if (reply?.status === 'success' || reply?.code === 'item_not_found') await write(null);
    try {
      onUndone(reply);
    } catch {
      // the badge is a courtesy
    }
    return reply;
  }

  async function lastSave() {
    const last = await read();
    return { status: 'success', lastSave: last, canUndo: canUndo(last, now(), windowMs), windowMs };
  }

  return { save, undo, lastSave };
}

/**
 * The menu and shortcut handlers.
 * @param {object} deps
 * @param {ReturnType<typeof createSaver>} deps.saver
 * @param {{request: Function}} deps.host
 * @param {{sendMessage: Function, query?: Function}} deps.tabs the tabs API
 * @param {(tab: object, kind: string, detail?: object) => void} [deps.notify] tells the user (badge, title)
 * @param {readonly string[]} [deps.features] the app's features: an entry or the shortcut of another is refused
 */
export function createMenuHandlers({ saver, host, tabs, notify = () => {}, features = Object.values(Feature) }) {
  async function ask(tab, frameId, message) {
    if (typeof tab?.id !== 'number') return null;
    try {
      const options = Number.isInteger(frameId) && frameId >= 0 ? { frameId } : { frameId: 0 };
      return await tabs.sendMessage(tab.id, message, options);
    } catch {
      return null; // no content script here (not http/https, or loaded before the extension)
    }
  }

  async function save(kind, info, tab) {
    let page = null;
    if (kind === 'page') page = await ask(tab, 0, { type: MessageType.COLLECT_PAGE, wholePage: true });
    if (kind === 'selection') page = await ask(tab, info?.frameId, { type: MessageType.GET_SELECTION });
    const request = saveRequestFor(kind, { info, tab, page: page?.status === 'success' ? page : null });
    if (request.error) {
      const reply = { status: 'error', code: request.error, message: 'Nothing to save here.' };
      notify(tab, 'error', reply);
      return reply;
    }
    const reply = await saver.save(request);
    notify(tab, reply?.status === 'success' ? 'saved' : 'error', reply);
    return reply;
  }

  async function transform(info, tab) {
    const selection = await ask(tab, info?.frameId, { type: MessageType.GET_SELECTION });
    const original = selection?.status === 'success' ? text(selection.selection) : null;
    if (!original) {
      const reply = { status: 'error', code: 'no_selection', message: 'Select some text first.' };
      notify(tab, 'error', reply);
      return reply;
    }
    const reply = await host.request({ action: 'transform', text: original });
    if (reply?.status !== 'success' || typeof reply.text !== 'string') {
      notify(tab, 'error', reply);
      return reply;
    }
    const applied = await ask(tab, info?.frameId, {
      type: MessageType.REPLACE_SELECTION, original, text: reply.text,
    });
    const how = applied?.replaced ? 'replaced' : applied?.copied ? 'copied' : 'error';
    const result = { ...reply, replaced: applied?.replaced === true, copied: applied?.copied === true };
    notify(tab, how, how === 'error' ? { code: 'not_applied', message: 'The page did not take the text.' } : result);
    return result;
  }

  /** contextMenus.onClicked. */
  async function onClicked(info, tab) {
    const feature = FEATURE_OF_MENU[info?.menuItemId];
    if (feature && !hasFeature(features, feature)) {
      return { status: 'error', code: 'feature_off', message: `This extension was made without the "${feature}" feature.` };
    }
    switch (info?.menuItemId) {
      case MenuId.SAVE_PAGE: return save('page', info, tab);
      case MenuId.SAVE_LINK: return save('link', info, tab);
      case MenuId.SAVE_SELECTION: return save('selection', info, tab);
      case MenuId.TRANSFORM_SELECTION: return transform(info, tab);
      case MenuId.UNDO_SAVE: {
        const reply = await saver.undo();
        notify(tab, reply?.status === 'success' ? 'undone' : 'error', reply);
        return reply;
      }
      default: return { status: 'error', code: 'unknown_menu', message: `Unknown menu entry: ${info?.menuItemId}` };
    }
  }

  /** commands.onCommand: the save-page shortcut, for the tab the browser names (or the active one). */
  async function onCommand(command, tab) {
    if (command !== COMMAND_SAVE_PAGE || !hasFeature(features, Feature.SAVING)) {
      return { status: 'error', code: 'unknown_command', message: `Unknown command: ${command}` };
    }
    let target = tab;
    if (typeof target?.id !== 'number' && typeof tabs.query === 'function') {
      [target] = await tabs.query({ active: true, currentWindow: true });
    }
    return save('page', { pageUrl: target?.url }, target);
  }

  return { onClicked, onCommand };
}
