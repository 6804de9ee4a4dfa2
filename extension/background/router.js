// The one router for runtime.onMessage: named message types, one switch,
// sender rules, unknown types answered with an error. Pure: the host client
// and the extension's identity are passed in.

import { ENABLED_RESPONSE_KEY, Feature, MessageType, hasFeature } from '../shared/constants.js';
import { HostProblemError, problemReply } from './problems.js';
import { contentPageState } from './page-state.js';
import { AppCaller, createAppActions, missingFromHost } from './app-actions.js';

/** Who sent a runtime message. */
export const SenderKind = Object.freeze({
  CONTENT_SCRIPT: 'contentScript',
  EXTENSION_PAGE: 'extensionPage',
  OTHER: 'other',
});

/** Which sender kinds may send which message type. */
export const ALLOWED_SENDERS = Object.freeze({
  [MessageType.GET_PAGE_STATE]: [SenderKind.CONTENT_SCRIPT],
  [MessageType.CONTENT_ENABLED]: [SenderKind.CONTENT_SCRIPT, SenderKind.EXTENSION_PAGE],
  [MessageType.GET_SETTINGS]: [SenderKind.CONTENT_SCRIPT, SenderKind.EXTENSION_PAGE],
  [MessageType.GET_CONTENT]: [SenderKind.CONTENT_SCRIPT, SenderKind.EXTENSION_PAGE],
  [MessageType.SET_SETTINGS]: [SenderKind.EXTENSION_PAGE],
  [MessageType.SAVE_CONTENT]: [SenderKind.EXTENSION_PAGE],
  [MessageType.QUEUE_COUNT]: [SenderKind.EXTENSION_PAGE],
  [MessageType.HOST_STATUS]: [SenderKind.EXTENSION_PAGE],
  [MessageType.APP_INFO]: [SenderKind.EXTENSION_PAGE],
  [MessageType.LAST_SAVE]: [SenderKind.EXTENSION_PAGE],
  [MessageType.UNDO_SAVE]: [SenderKind.EXTENSION_PAGE],
  [MessageType.GET_SECRET]: [SenderKind.EXTENSION_PAGE],
  // Each action's own callers are in app/app.js (app-actions.js checks them).
  [MessageType.APP_ACTION]: [SenderKind.CONTENT_SCRIPT, SenderKind.EXTENSION_PAGE],
});

/** The feature (app/app.js) a message type belongs to; types not listed are always there. */
export const FEATURE_OF_TYPE = Object.freeze({
  [MessageType.SAVE_CONTENT]: Feature.SAVING,
  [MessageType.LAST_SAVE]: Feature.SAVING,
  [MessageType.UNDO_SAVE]: Feature.SAVING,
  [MessageType.GET_SECRET]: Feature.SECRETS,
});

/** The page state a content script gets when the extension has no vocabulary feature: nothing to rewrite. */
export const NO_VOCABULARY_STATE = Object.freeze({ status: 'success', enabled: false, compiled: null, count: 0, rulesVersion: '' });

/** Settings a content script may read. */
const PUBLIC_SETTINGS = ['enabled', 'theme'];

/**
 * Classifies a runtime.onMessage sender.
 * An extension page has a URL under our own origin: the toolbar popup (no
 * `tab`) or the same page opened in a tab (browsers then set `tab` too, in
 * Chromium and Firefox alike). A content script is any other sender with
 * `tab` from our own extension (its URL is the web page's; content scripts
 * never run in our own pages). Anything else is refused.
 */
export function classifySender(sender, { extensionId, extensionOrigin }) {
  if (!sender || typeof sender !== 'object' || sender.id !== extensionId) return SenderKind.OTHER;
  const url = typeof sender.url === 'string' ? sender.url : '';
  if (extensionOrigin && url.startsWith(extensionOrigin)) return SenderKind.EXTENSION_PAGE;
  if (sender.tab) return SenderKind.CONTENT_SCRIPT;
  return SenderKind.OTHER;
}

/** The page URL of a content-script sender: never taken from the message. */
export function senderPageUrl(sender) {
  if (typeof sender?.url === 'string' && sender.url !== '') return sender.url;
  if (typeof sender?.tab?.url === 'string' && sender.tab.url !== '') return sender.tab.url;
  return null;
}

function forbidden(type, kind) {
  return {
    status: 'error',
    code: 'forbidden_sender',
    message: `A ${kind} sender may not send ${JSON.stringify(type)}.`,
  };
}

function invalid(message) {
  return { status: 'error', code: 'invalid_message', message };
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Creates the router.
 * @param {object} deps
 * @param {{request: Function, ping: Function, retry?: Function}} deps.host a HostClient
 * @param {{get: Function, summary: Function}} [deps.pageState] the page state source (page-state.js)
 * @param {{save: Function, undo: Function, lastSave: Function}} [deps.saver] keyed saves and undo (menus.js)
 * @param {readonly string[]} [deps.features] the app's features (app/app.js); a type of a feature not listed
 *   answers `feature_off`, and without `vocabulary` getPageState answers "nothing to rewrite" without the host
 * @param {unknown} [deps.appActions] the app's own actions (APP.actions in app/app.js): name → {callers?}
 * @param {string} deps.extensionId runtime.id
 * @param {string} deps.extensionOrigin runtime.getURL('')
 * @param {(tabId: number) => void} [deps.onContentScript] called for each content-script message (keeps the port alive for that tab)
 * @param {(settings: object) => void} [deps.onSettingsSaved] called after a successful setSettings
 * @param {(...args: any[]) => void} [deps.log]
 */
export function createRouter({ host, pageState = null, saver = null, features = Object.values(Feature), appActions = undefined, extensionId, extensionOrigin, onContentScript = () => {}, onSettingsSaved = () => {}, log = () => {} }) {
  const apps = createAppActions({ host, actions: appActions, log });

  async function ask(request) {
    try {
      return await host.request(request);
    } catch (error) {
      if (error instanceof HostProblemError) return problemReply(error.problem);
      throw error;
    }
  }

  function rethrowUnlessProblem(error) {
    if (error instanceof HostProblemError) return problemReply(error.problem);
    throw error;
  }

  /** Routes one message; resolves with the reply object. */
  async function route(message, sender) {
    if (!isPlainObject(message) || typeof message.type !== 'string') {
      return invalid('A message is an object with a string "type".');
    }
    const { type } = message;
    const allowed = ALLOWED_SENDERS[type];
    if (!allowed) {
      return { status: 'error', code: 'unknown_type', message: `Unknown message type: ${type}` };
    }
    const kind = classifySender(sender, { extensionId, extensionOrigin });
    if (!allowed.includes(kind)) return forbidden(type, kind);
    const feature = FEATURE_OF_TYPE[type];
    if (feature && !hasFeature(features, feature)) {
      return { status: 'error', code: 'feature_off', message: `This extension was made without the "${feature}" feature.` };
    }
    const rewrites = hasFeature(features, Feature.VOCABULARY);

    let pageUrl = null;
    if (kind === SenderKind.CONTENT_SCRIPT) {
      pageUrl = senderPageUrl(sender);
      if (!pageUrl) return forbidden(type, kind);
      // A tab is served page states (and keeps the port open) only where pages are rewritten.
      if (typeof sender.tab.id === 'number' && rewrites) onContentScript(sender.tab.id);
    }

    switch (type) {
      case MessageType.GET_PAGE_STATE: {
        // Without the vocabulary feature the content script is there only to collect and replace text for
        // the menus: it is told there is nothing to rewrite, and the host is not asked.
        if (!rewrites) return { ...NO_VOCABULARY_STATE };
        if (!pageState) return { status: 'error', code: 'internal_error', message: 'No page state source.' };
        const state = await pageState.get();
        if (state?.status !== 'success') return state;
        return { status: 'success', ...contentPageState(state) };
      }

      case MessageType.CONTENT_ENABLED: {
        const reply = await ask({ message: 'request:enabled_status' });
        const enabled = reply?.['delivery:enabled_status'] === true;
        if (reply?.status === 'error') return { [ENABLED_RESPONSE_KEY]: false, ...reply };
        return { [ENABLED_RESPONSE_KEY]: enabled };
      }

      case MessageType.GET_SETTINGS: {
        const reply = await ask({ action: 'getSettings' });
        if (reply?.status !== 'success' || kind !== SenderKind.CONTENT_SCRIPT) return reply;
        const settings = {};
        for (const key of PUBLIC_SETTINGS) {
          if (isPlainObject(reply.settings) && key in reply.settings) settings[key] = reply.settings[key];
        }
        return { status: 'success', settings };
      }

      case MessageType.GET_CONTENT: {
        let url;
        if (kind === SenderKind.CONTENT_SCRIPT) {
          // Only the sender's own page; a different URL in the message is refused.
          if (message.url !== undefined && message.url !== pageUrl) return forbidden(type, kind);
          url = pageUrl;
        } else {
          if (typeof message.url !== 'string' || message.url === '') return invalid('getContent needs a "url" string.');
          url = message.url;
        }
        const reply = await ask({ action: 'getContent', url });
        if (kind !== SenderKind.CONTENT_SCRIPT || !isPlainObject(reply)) return reply;
        // A content script gets its page's items, never the rules: those
        // reach a tab only through getPageState, and only while switched on.
        const { rules: _rules, ...rest } = reply;
        return rest;
      }

      case MessageType.SET_SETTINGS: {
        if (!isPlainObject(message.settings)) return invalid('setSettings needs a "settings" object.');
        const reply = await ask({ action: 'setSettings', settings: message.settings });
        if (reply?.status === 'success') {
          try {
            onSettingsSaved(reply.settings);
          } catch (error) {
            log('onSettingsSaved failed:', error);
          }
        }
        return reply;
      }

      case MessageType.SAVE_CONTENT: {
        const { url, title, content } = message;
        const request = { action: 'saveContent', url, content };
        if (typeof title === 'string') request.title = title;
        if (message.kind === 'selection') request.kind = 'selection';
        // Type errors are the host's to report (missing_field), as documented.
        // Through the saver: an idempotency key, and undo afterwards.
        if (saver) return saver.save(request).catch(rethrowUnlessProblem);
        return ask(request);
      }

      case MessageType.LAST_SAVE:
        if (!saver) return { status: 'error', code: 'internal_error', message: 'No saver.' };
        return saver.lastSave();

      case MessageType.UNDO_SAVE:
        if (!saver) return { status: 'error', code: 'internal_error', message: 'No saver.' };
        return saver.undo().catch(rethrowUnlessProblem);

      case MessageType.GET_SECRET:
        if (typeof message.name !== 'string' || message.name === '') return invalid('getSecret needs a "name" string.');
        return ask({ action: 'getSecret', name: message.name });

      case MessageType.APP_ACTION: {
        const caller = kind === SenderKind.CONTENT_SCRIPT ? AppCaller.CONTENT : AppCaller.POPUP;
        try {
          return await apps.call(message.action, message.payload, caller);
        } catch (error) {
          return rethrowUnlessProblem(error);
        }
      }

      case MessageType.QUEUE_COUNT:
        return ask({ action: 'queueCount' });

      case MessageType.APP_INFO:
        // Answered by hosts that have the action (generated bridges); the
        // built-in host says unknown_action and the popup shows nothing.
        return ask({ action: 'appInfo' });

      case MessageType.HOST_STATUS: {
        // Opening the popup is the user's "try again" after running the doctor.
        if (message.retry === true && typeof host.retry === 'function') host.retry();
        try {
          const status = await host.ping();
          const reply = { status: 'success', ...status };
          if (pageState) reply.rules = pageState.summary();
          // Declared app actions the host does not have: it was built before they were added.
          reply.missingAppActions = missingFromHost(apps.declared, status.actions);
          return reply;
        } catch (error) {
          if (error instanceof HostProblemError) {
            return { ...problemReply(error.problem), connected: false, problem: error.problem };
          }
          throw error;
        }
      }

      default:
        // Unreachable while ALLOWED_SENDERS and this switch agree; kept so a
        // type added to one and not the other fails loudly.
        return { status: 'error', code: 'unknown_type', message: `Unknown message type: ${type}` };
    }
  }

  /**
   * The runtime.onMessage listener: answers through sendResponse and returns
   * true so the channel stays open for the asynchronous reply.
   */
  function listener(message, sender, sendResponse) {
    route(message, sender).then(sendResponse, (error) => {
      log('router failed:', error);
      sendResponse({ status: 'error', code: 'internal_error', message: String(error?.message ?? error) });
    });
    return true;
  }

  /** The background's own call of an app action (declared with the `background` caller). */
  function appAction(action, payload) {
    return apps.call(action, payload, AppCaller.BACKGROUND).catch(rethrowUnlessProblem);
  }

  return { route, listener, appAction };
}
