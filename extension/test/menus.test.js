import { test } from 'node:test';
import assert from 'node:assert/strict';

import { canUndo, createMenuHandlers, createSaver, menuEntries, saveRequestFor } from '../background/menus.js';
import { createRouter } from '../background/router.js';
import { MenuId, MessageType, SessionKey, UNDO_WINDOW_MS } from '../shared/constants.js';

/** A host that queues like the real one: a key seen before answers the first item. */
function fakeHost() {
  const items = new Map(); // id → request
  const keys = new Map(); // key → id
  const requests = [];
  let next = 0;
  return {
    items, requests,
    async request(message) {
      requests.push(message);
      switch (message.action) {
        case 'saveContent': {
          if (message.key && keys.has(message.key)) return { status: 'success', itemId: keys.get(message.key), duplicate: true };
          next += 1;
          const id = `item-${next}`;
          items.set(id, message);
          if (message.key) keys.set(message.key, id);
          return { status: 'success', itemId: id, duplicate: false, kind: message.kind ?? 'page' };
        }
        case 'removeItem': {
          if (!items.delete(message.itemId)) return { status: 'error', code: 'item_not_found', message: 'gone' };
          for (const [key, id] of keys) if (id === message.itemId) keys.delete(key);
          return { status: 'success', itemId: message.itemId };
        }
        case 'transform':
          return { status: 'success', text: message.text.replace(/blue/g, 'blauw'), changed: true };
        default:
          return { status: 'error', code: 'unknown_action' };
      }
    },
  };
}

function fakeStorage() {
  const data = {};
  return {
    data,
    get: async (key) => (key in data ? { [key]: data[key] } : {}),
    set: async (values) => Object.assign(data, values),
    remove: async (key) => { delete data[key]; },
  };
}

function fakeTabs(replies) {
  const sent = [];
  return {
    sent,
    async sendMessage(tabId, message, options) {
      sent.push({ tabId, message, options });
      const reply = replies[message.type];
      if (reply instanceof Error) throw reply;
      return typeof reply === 'function' ? reply(message) : reply;
    },
    query: async () => [{ id: 9, url: 'https://active.example/', title: 'Active' }],
  };
}

function setup({ tabs = {}, now = { t: 1000 } } = {}) {
  const host = fakeHost();
  const storage = fakeStorage();
  let keys = 0;
  const notes = [];
  const saver = createSaver({ host, storage, now: () => now.t, newKey: () => `key-${(keys += 1)}` });
  const fakeTabsApi = fakeTabs(tabs);
  const handlers = createMenuHandlers({ saver, host, tabs: fakeTabsApi, notify: (tab, what, detail) => notes.push({ what, detail }) });
  return { host, storage, saver, handlers, tabs: fakeTabsApi, notes, now };
}

const TAB = { id: 4, url: 'https://page.example/a', title: 'Page A' };

test('menuEntries_pageLinkSelectionTransformAndAHiddenUndo', () => {
  const entries = menuEntries((key, subs) => (subs ? `${key}(${subs.join(',')})` : key));
  assert.deepEqual(entries.map((e) => [e.id, e.contexts.join(',')]), [
    [MenuId.SAVE_PAGE, 'page'], [MenuId.SAVE_LINK, 'link'], [MenuId.SAVE_SELECTION, 'selection'],
    [MenuId.TRANSFORM_SELECTION, 'selection'], [MenuId.UNDO_SAVE, 'all'],
  ]);
  assert.equal(entries[3].title, 'menuTransformSelection(extensionName)');
  assert.equal(entries[4].visible, false);
});

test('saveRequestFor_urlsComeFromTheBrowserNeverFromThePage', () => {
  // The content script's collected page may claim any URL: it is not used.
  const page = { url: 'https://evil.example/', content: 'text', selection: 'picked\nlines' };
  const info = { pageUrl: 'https://page.example/a', linkUrl: 'https://b.example/x', linkText: 'B', selectionText: 'picked lines' };
  assert.deepEqual(saveRequestFor('page', { info, tab: TAB, page }), {
    action: 'saveContent', kind: 'page', url: 'https://page.example/a', title: 'Page A', content: 'text',
  });
  assert.deepEqual(saveRequestFor('link', { info, tab: TAB, page }), {
    action: 'saveContent', kind: 'link', url: 'https://b.example/x', title: 'B', content: 'B', pageUrl: 'https://page.example/a',
  });
  assert.deepEqual(saveRequestFor('selection', { info, tab: TAB, page }), {
    action: 'saveContent', kind: 'selection', url: 'https://page.example/a', title: 'Page A', content: 'picked\nlines',
    pageUrl: 'https://page.example/a',
  });
  // Without the content script's exact selection, the browser's selectionText.
  assert.equal(saveRequestFor('selection', { info, tab: TAB }).content, 'picked lines');
  assert.deepEqual(saveRequestFor('page', { info: {}, tab: {} }), { error: 'no_url' });
  assert.deepEqual(saveRequestFor('link', { info: { pageUrl: 'https://a/' }, tab: TAB }), { error: 'no_url' });
  assert.deepEqual(saveRequestFor('selection', { info: { pageUrl: 'https://a/' }, tab: TAB }), { error: 'no_selection' });
});

test('menuClicks_saveEachKindWithAFreshKey_andTheSameSelectionTwiceIsTwoSaves', async () => {
  const { host, handlers, notes, tabs } = setup({
    tabs: {
      [MessageType.COLLECT_PAGE]: { status: 'success', url: 'https://ignored/', content: 'Whole page' },
      [MessageType.GET_SELECTION]: { status: 'success', selection: 'blue words' },
    },
  });
  const info = { pageUrl: TAB.url, frameId: 3 };
  await handlers.onClicked({ ...info, menuItemId: MenuId.SAVE_PAGE }, TAB);
  await handlers.onClicked({ ...info, menuItemId: MenuId.SAVE_LINK, linkUrl: 'https://b.example/', linkText: 'B' }, TAB);
  const first = await handlers.onClicked({ ...info, menuItemId: MenuId.SAVE_SELECTION }, TAB);
  const again = await handlers.onClicked({ ...info, menuItemId: MenuId.SAVE_SELECTION }, TAB);
  // Two clicks are two actions: each its own key, so two items (a save is never taken for a resend).
  assert.notEqual(again.itemId, first.itemId);
  assert.equal(again.duplicate, false);
  assert.deepEqual([...host.items.values()].map((r) => r.kind), ['page', 'link', 'selection', 'selection']);
  const keys = host.requests.map((r) => r.key);
  assert.deepEqual(keys, ['key-1', 'key-2', 'key-3', 'key-4']);
  // The selection is asked of the clicked frame; the page text of the top frame.
  assert.equal(tabs.sent[0].message.wholePage, true, 'a page save is the whole page, even with a selection');
  assert.deepEqual(tabs.sent.map((s) => [s.message.type, s.options.frameId]), [
    [MessageType.COLLECT_PAGE, 0], [MessageType.GET_SELECTION, 3], [MessageType.GET_SELECTION, 3],
  ]);
  assert.deepEqual(notes.map((n) => n.what), ['saved', 'saved', 'saved', 'saved']);
});

test('shortcut_savesTheTabTheBrowserNames_orTheActiveOne', async () => {
  const { host, handlers } = setup({ tabs: { [MessageType.COLLECT_PAGE]: { status: 'success', content: 'text' } } });
  await handlers.onCommand('save-page', TAB);
  await handlers.onCommand('save-page', undefined);
  assert.deepEqual([...host.items.values()].map((r) => r.url), ['https://page.example/a', 'https://active.example/']);
  assert.equal((await handlers.onCommand('other', TAB)).code, 'unknown_command');
});

test('undo_withinTheWindowRemovesTheItem_afterItSaysTooLate', async () => {
  const now = { t: 1000 };
  const { host, saver, storage } = setup({ now });
  const saved = await saver.save({ action: 'saveContent', kind: 'page', url: 'https://a/', content: 'x' });
  assert.equal(storage.data[SessionKey.LAST_SAVE].itemId, saved.itemId);
  now.t += UNDO_WINDOW_MS;
  assert.equal((await saver.lastSave()).canUndo, true);
  const undone = await saver.undo();
  assert.equal(undone.status, 'success');
  assert.equal(host.items.size, 0);
  assert.equal((await saver.undo()).code, 'nothing_to_undo');

  await saver.save({ action: 'saveContent', kind: 'page', url: 'https://a/', content: 'y' });
  now.t += UNDO_WINDOW_MS + 1;
  assert.equal((await saver.lastSave()).canUndo, false);
  const late = await saver.undo();
  assert.equal(late.code, 'undo_expired');
  assert.match(late.message, /30 seconds/);
  assert.equal(host.items.size, 1);
});

test('undo_afterTheAppDrainedTheItem_saysSo', async () => {
  const { host, saver } = setup();
  const saved = await saver.save({ action: 'saveContent', kind: 'page', url: 'https://a/', content: 'x' });
  host.items.delete(saved.itemId); // queue drain
  const reply = await saver.undo();
  assert.equal(reply.code, 'item_not_found');
  assert.equal((await saver.lastSave()).lastSave, null);
});

test('undo_thenTheSameSelectionAgain_isANewItemWithANewKey', async () => {
  const { host, saver } = setup();
  const request = { action: 'saveContent', kind: 'selection', url: 'https://a/', content: 'same' };
  const first = await saver.save(request);
  await saver.undo();
  const second = await saver.save(request);
  assert.notEqual(second.itemId, first.itemId);
  assert.equal(second.duplicate, false);
  assert.deepEqual(host.requests.filter((r) => r.action === 'saveContent').map((r) => r.key), ['key-1', 'key-2']);
});

test('canUndo_isFalseForNothingAClockGoingBackOrAfterTheWindow', () => {
  assert.equal(canUndo(null, 0), false);
  assert.equal(canUndo({ itemId: 'a', savedAt: 100 }, 99), false);
  assert.equal(canUndo({ itemId: 'a', savedAt: 100 }, 100 + UNDO_WINDOW_MS), true);
  assert.equal(canUndo({ itemId: 'a', savedAt: 100 }, 101 + UNDO_WINDOW_MS), false);
});

test('transform_inAFieldIsReplaced_elsewhereCopied_andTheUserIsTold', async () => {
  let where = 'field';
  const { handlers, host, notes, tabs } = setup({
    tabs: {
      [MessageType.GET_SELECTION]: { status: 'success', selection: 'a blue sky' },
      [MessageType.REPLACE_SELECTION]: () => (where === 'field' ? { replaced: true, copied: false } : { replaced: false, copied: true }),
    },
  });
  const info = { menuItemId: MenuId.TRANSFORM_SELECTION, frameId: 2 };
  const inField = await handlers.onClicked(info, TAB);
  assert.equal(inField.replaced, true);
  assert.deepEqual(host.requests.at(-1), { action: 'transform', text: 'a blue sky' });
  assert.deepEqual(tabs.sent.at(-1).message, { type: MessageType.REPLACE_SELECTION, original: 'a blue sky', text: 'a blauw sky' });
  assert.equal(tabs.sent.at(-1).options.frameId, 2);
  where = 'paragraph';
  const elsewhere = await handlers.onClicked(info, TAB);
  assert.equal(elsewhere.copied, true);
  assert.deepEqual(notes.map((n) => n.what), ['replaced', 'copied']);
  assert.equal(host.items.size, 0, 'a transform saves nothing');
});

test('transform_withoutASelectionOrAHostError_tellsTheUserAndChangesNothing', async () => {
  const { handlers, notes, tabs } = setup({ tabs: { [MessageType.GET_SELECTION]: new Error('no content script') } });
  assert.equal((await handlers.onClicked({ menuItemId: MenuId.TRANSFORM_SELECTION }, TAB)).code, 'no_selection');
  assert.equal(notes[0].what, 'error');
  assert.equal(tabs.sent.filter((s) => s.message.type === MessageType.REPLACE_SELECTION).length, 0);
});

test('router_undoAndLastSave_onlyFromExtensionPages', async () => {
  const { saver } = setup();
  const router = createRouter({ host: fakeHost(), saver, extensionId: 'me', extensionOrigin: 'chrome-extension://me/' });
  const contentScript = { id: 'me', url: 'https://page.example/', tab: { id: 1, url: 'https://page.example/' } };
  for (const type of [MessageType.UNDO_SAVE, MessageType.LAST_SAVE, MessageType.SAVE_CONTENT]) {
    assert.equal((await router.route({ type }, contentScript)).code, 'forbidden_sender', type);
  }
  const popup = { id: 'me', url: 'chrome-extension://me/popup/popup.html' };
  const saved = await router.route({ type: MessageType.SAVE_CONTENT, url: 'https://a/', content: 'x' }, popup);
  assert.equal(saved.status, 'success');
  assert.equal((await router.route({ type: MessageType.LAST_SAVE }, popup)).canUndo, true);
  assert.equal((await router.route({ type: MessageType.UNDO_SAVE }, popup)).status, 'success');
});

// A key is for resending one action after a lost
// reply, not for remembering what was saved. The same page saved again —
// a second later or hours after the app drained the first — is a new save.
test('save_theSameThingAgain_getsAFreshKey_evenHoursLaterAfterADrain', async () => {
  const now = { t: 1000 };
  const { host, saver } = setup({ now });
  const request = { action: 'saveContent', kind: 'page', url: 'https://a/', content: 'same text' };
  const first = await saver.save(request);
  host.items.delete(first.itemId); // the app drained it
  now.t += 3 * 60 * 60 * 1000;
  const again = await saver.save(request);
  assert.equal(again.duplicate, false, 'the second save adds an item');
  assert.notEqual(again.itemId, first.itemId);
  assert.equal(host.items.size, 1);
  const keys = host.requests.filter((r) => r.action === 'saveContent').map((r) => r.key);
  assert.deepEqual(keys, ['key-1', 'key-2']);
});

// A reply that added nothing names an earlier item;
// undo must not be offered for it (it would remove that earlier save).
test('save_answeredDuplicate_offersNoUndo_andUndoRemovesNothing', async () => {
  const host = {
    requests: [],
    async request(message) {
      this.requests.push(message);
      if (message.action === 'saveContent') return { status: 'success', itemId: 'earlier-item', duplicate: true };
      return { status: 'success' };
    },
  };
  const storage = fakeStorage();
  const records = [];
  const saver = createSaver({ host, storage, now: () => 5000, newKey: () => 'k', onSaved: (r) => records.push(r) });
  const reply = await saver.save({ action: 'saveContent', kind: 'page', url: 'https://a/', content: 'x' });
  assert.equal(reply.duplicate, true);
  assert.equal(records.length, 1);
  assert.equal(records[0].undoable, false, 'the menu entry and the popup button stay hidden');
  const last = await saver.lastSave();
  assert.equal(last.canUndo, false);
  assert.equal(last.lastSave.itemId, null);
  assert.equal(last.lastSave.existingItemId, 'earlier-item');
  const undo = await saver.undo();
  assert.equal(undo.code, 'nothing_to_undo');
  assert.deepEqual(host.requests.filter((r) => r.action === 'removeItem'), [], 'the earlier item is never removed');
});
