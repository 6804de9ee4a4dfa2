// ExtensionBridge's Safari compatibility shim, loaded before an imported
// Safari Web Extension's background scripts (`extension-bridge new
// --from-safari`, docs/GENERATOR.md "Porting a Safari Web Extension").
//
// Safari's `runtime.sendNativeMessage` takes the message alone (its
// application argument is optional and ignored); Chromium and Firefox need
// the native-messaging host's name. This shim accepts every Safari form and
// always sends to this bridge's host:
//
//   browser.runtime.sendNativeMessage(message)                 → a promise
//   browser.runtime.sendNativeMessage(message, callback)
//   browser.runtime.sendNativeMessage(anyAppId, message)       → a promise
//   browser.runtime.sendNativeMessage(anyAppId, message, callback)
//
// on `browser` and on `chrome`; in a Chromium-family browser without the
// `browser` namespace (Chromium 156 has it), `browser` is defined as `chrome`.
// `runtime.connectNative(anyAppId)` opens this bridge's host too.
//
// Where the extension runs as Manifest V3 but was written for Manifest V2
// (Chromium), `browserAction`, `pageAction`, `tabs.executeScript`,
// `tabs.insertCSS`/`removeCSS` and `extension.getURL` are given on what
// replaced them (below); a browser that has them keeps its own.
//
// When the host is missing or fails: a promise rejects with an Error (as
// Safari's does); a callback is called with no argument (`undefined`) and
// `runtime.lastError` set while it runs, as Chromium and Safari do for a
// failed callback-style call. A reply the host sends with `status: "error"`
// (it refused the request) is passed on as it is. Either way the failure is
// logged with console.warn, and an exception thrown by the callback is caught
// and logged with console.error: nothing is thrown into the caller's code.
//
// Plain script, no import/export: it runs as a classic script (importScripts,
// Firefox's background.scripts) and as a module.
(function installExtensionBridgeSafariShim(root) {
  'use strict';

  // The generator writes this bridge's host name here.
  const HOST_NAME = 'org.extensionbridge.host';
  const TAG = '[ExtensionBridge]';
  const INSTALLED = Symbol.for('extensionBridge.safariShim');

  if (root[INSTALLED]) return;
  root[INSTALLED] = true;

  const chromeNS = root.chrome && root.chrome.runtime ? root.chrome : undefined;
  const browserNS = root.browser && root.browser.runtime ? root.browser : undefined;
  const base = browserNS ?? chromeNS;
  if (!base) {
    console.error(TAG, 'no browser or chrome namespace here: the Safari shim cannot work');
    return;
  }
  const runtime = base.runtime;
  const originalSend = runtime.sendNativeMessage;
  const originalConnect = runtime.connectNative;
  // Firefox's `browser` answers with a promise; Chromium's `chrome` with a callback and lastError.
  const promiseStyle = base === browserNS;

  /** The error of the call whose callback is running, shown as `runtime.lastError`. */
  let currentError;

  function callHost(message) {
    if (typeof originalSend !== 'function') {
      return Promise.reject(new Error('runtime.sendNativeMessage is not available here (no nativeMessaging permission?)'));
    }
    if (promiseStyle) {
      try {
        return Promise.resolve(originalSend.call(runtime, HOST_NAME, message));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => {
      try {
        originalSend.call(runtime, HOST_NAME, message, (response) => {
          const error = runtime.lastError;
          if (error) reject(new Error(error.message ?? String(error)));
          else resolve(response);
        });
      } catch (error) {
        reject(error);
      }
    });
  }

  function warnFailure(error) {
    console.warn(
      TAG,
      `sendNativeMessage to the host ${HOST_NAME} failed: ${error && error.message ? error.message : error}.`,
      'Is the host installed and is this extension allowed? Run: extension-bridge doctor --config bridge.json',
    );
  }

  function runCallback(callback, args, error) {
    currentError = error ? { message: error.message ?? String(error) } : undefined;
    try {
      callback(...args);
    } catch (thrown) {
      console.error(TAG, 'the sendNativeMessage callback threw (caught, not rethrown):', thrown);
    } finally {
      currentError = undefined;
    }
  }

  /** Safari's forms: (message), (message, callback), (appId, message), (appId, message, callback). */
  function sendNativeMessage(...args) {
    let callback;
    if (args.length > 1 && typeof args[args.length - 1] === 'function') callback = args.pop();
    const message = args.length >= 2 ? args[1] : args[0];
    const reply = callHost(message).then(
      (response) => {
        if (response && typeof response === 'object' && response.status === 'error') {
          console.warn(
            TAG,
            `the host ${HOST_NAME} refused the message: ${response.code ?? 'error'}: ${response.message ?? ''}`,
          );
        }
        return response;
      },
      (error) => {
        warnFailure(error);
        throw error instanceof Error ? error : new Error(String(error));
      },
    );
    if (!callback) return reply;
    reply.then(
      (response) => runCallback(callback, [response]),
      (error) => runCallback(callback, [], error),
    );
    return undefined;
  }

  /** Safari's `connectNative(anyAppId)`: a port to this bridge's host. */
  function connectNative() {
    return originalConnect.call(runtime, HOST_NAME);
  }

  function patch(target) {
    try {
      Object.defineProperty(target, 'sendNativeMessage', { value: sendNativeMessage, configurable: true, writable: true });
      if (typeof originalConnect === 'function') {
        Object.defineProperty(target, 'connectNative', { value: connectNative, configurable: true, writable: true });
      }
      // lastError: the shim's error while the author's callback runs, else the browser's own.
      const own = Object.getOwnPropertyDescriptor(target, 'lastError');
      const inherited = own ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(target) ?? {}, 'lastError');
      const browserLastError = inherited?.get ? () => inherited.get.call(target) : () => inherited?.value;
      Object.defineProperty(target, 'lastError', {
        get: () => currentError ?? browserLastError(),
        configurable: true,
      });
    } catch {
      // a browser that does not let its API object change: the proxy below
    }
    return target.sendNativeMessage === sendNativeMessage;
  }

  /** A namespace whose runtime answers with the shim, for a browser whose runtime cannot be patched. */
  function proxied(namespace) {
    const inner = namespace.runtime;
    // Empty targets: a frozen API object's own values could not be answered otherwise (proxy invariants).
    const shimmedRuntime = new Proxy(Object.create(null), {
      get(_, property) {
        const target = inner;
        if (property === 'sendNativeMessage') return sendNativeMessage;
        if (property === 'connectNative' && typeof originalConnect === 'function') return connectNative;
        if (property === 'lastError' && currentError) return currentError;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return new Proxy(Object.create(null), {
      get(_, property) {
        if (property === 'runtime') return shimmedRuntime;
        return Reflect.get(namespace, property, namespace);
      },
    });
  }

  for (const [name, namespace] of [
    ['browser', browserNS],
    ['chrome', chromeNS],
  ]) {
    if (!namespace) continue;
    // Firefox's chrome.runtime is another object than browser.runtime: the same shim serves both.
    if (!patch(namespace.runtime)) {
      try {
        root[name] = proxied(namespace);
      } catch (error) {
        console.error(TAG, `cannot install the Safari shim on ${name}.runtime:`, error);
      }
    }
  }
  if (!browserNS && chromeNS) {
    // A Chromium-family browser without `browser`: Safari code written for it finds chrome (with the shim) there.
    root.browser = root.chrome;
  }

  // A service worker's importScripts, where the background is a page (Firefox): the import lists what
  // the worker imports before it in background.scripts, so each has run; one that has not is an error.
  if (typeof root.importScripts === 'undefined' && typeof root.document !== 'undefined') {
    root.importScripts = function importScripts(...urls) {
      const loaded = [...root.document.scripts].map((script) => script.src);
      for (const url of urls) {
        const name = String(url).replace(/^(\.\/|\/)+/, '');
        if (!loaded.some((source) => source.endsWith('/' + name))) {
          console.error(TAG, `importScripts(${url}): a background page cannot import a script; list it in background.scripts`);
        }
      }
    };
  }

  // ---- Manifest V2's APIs where the browser runs the extension as Manifest V3 (Chromium) ----
  // Safari and Firefox still run a Manifest V2 extension; Chromium runs the Manifest V3 manifest
  // derived from it, which has no browserAction, pageAction or tabs.executeScript. Each is given
  // on what replaced it, where it is missing and the semantics allow; nothing is replaced.

  /** Runs `work` (a promise) and answers as a callback when the caller passed one, else as a promise. */
  function answer(work, callback) {
    if (!callback) return work;
    work.then(
      (value) => runCallback(callback, [value]),
      (error) => runCallback(callback, [], error),
    );
    return undefined;
  }

  /** Manifest V2's `(tabId?, details, callback?)`: the tab (the active one when omitted) and the rest. */
  function tabArguments(namespace, args) {
    const list = [...args];
    const callback = typeof list[list.length - 1] === 'function' ? list.pop() : undefined;
    const tabId = typeof list[0] === 'number' ? list.shift() : undefined;
    const details = list[0] ?? {};
    const tab = tabId !== undefined
      ? Promise.resolve(tabId)
      : Promise.resolve(namespace.tabs.query({ active: true, currentWindow: true })).then((tabs) => {
          if (!tabs || !tabs[0]) throw new Error('no active tab to inject into');
          return tabs[0].id;
        });
    return { tab, details, callback };
  }

  function injectionTarget(tabId, details) {
    const target = { tabId };
    if (details.allFrames) target.allFrames = true;
    else if (details.frameId !== undefined) target.frameIds = [details.frameId];
    return target;
  }

  function executeScript(namespace) {
    return function executeScript(...args) {
      const { tab, details, callback } = tabArguments(namespace, args);
      const work = tab.then((tabId) => {
        if (details.code !== undefined || !details.file) {
          throw new Error('tabs.executeScript: only {file} has a Manifest V3 equivalent here (scripting.executeScript runs no code strings)');
        }
        const injection = { target: injectionTarget(tabId, details), files: [details.file] };
        if (details.runAt === 'document_start') injection.injectImmediately = true;
        return namespace.scripting.executeScript(injection);
      }).then((results) => (results || []).map((result) => result.result));
      return answer(work, callback);
    };
  }

  function styleSheet(namespace, method) {
    return function cssInjection(...args) {
      const { tab, details, callback } = tabArguments(namespace, args);
      const work = tab.then((tabId) => {
        const injection = { target: injectionTarget(tabId, details) };
        if (details.file) injection.files = [details.file];
        else injection.css = String(details.code ?? '');
        if (details.cssOrigin) injection.origin = details.cssOrigin.toUpperCase();
        return namespace.scripting[method](injection);
      }).then(() => undefined);
      return answer(work, callback);
    };
  }

  /** pageAction as action: show and hide are enable and disable (the button is on every tab). */
  function pageAction(action) {
    return new Proxy(action, {
      get(target, property) {
        if (property === 'show') return (tabId, callback) => answer(Promise.resolve(target.enable(tabId)), callback);
        if (property === 'hide') return (tabId, callback) => answer(Promise.resolve(target.disable(tabId)), callback);
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  function define(target, name, value) {
    if (!target || target[name] !== undefined) return;
    try {
      Object.defineProperty(target, name, { value, configurable: true, writable: true });
    } catch (error) {
      console.warn(TAG, `cannot give ${name} here:`, error);
    }
  }

  // Safari (and Firefox) show SVG toolbar icons; Chromium cannot decode one for action.setIcon and
  // rejects. There the SVG paths are left out (the icon stays as it is) with a warning, instead of a
  // rejection the extension's code never expected; the import reports each SVG icon it found.
  const svgIcons = new WeakSet();
  function withoutSvgIcons(action) {
    if (!action || typeof action.setIcon !== 'function' || svgIcons.has(action)) return;
    if (runtime && typeof runtime.getBrowserInfo === 'function') return; // Firefox decodes SVG
    svgIcons.add(action);
    const setIcon = action.setIcon;
    const isSvg = (path) => typeof path === 'string' && /\.svg(?:[?#].*)?$/i.test(path);
    let warned = false;
    Object.defineProperty(action, 'setIcon', {
      configurable: true,
      writable: true,
      value: function setIconWithoutSvg(details, callback) {
        let call = details;
        if (details && typeof details === 'object' && details.path !== undefined && !details.imageData) {
          const paths = typeof details.path === 'string' ? { '': details.path } : details.path;
          const kept = Object.entries(paths ?? {}).filter(([, path]) => !isSvg(path));
          if (kept.length !== Object.keys(paths ?? {}).length) {
            if (!warned) console.warn(TAG, 'Chromium cannot show an SVG toolbar icon; left out:', details.path);
            warned = true;
            if (kept.length === 0) return answer(Promise.resolve(), callback);
            call = { ...details, path: typeof details.path === 'string' ? kept[0][1] : Object.fromEntries(kept) };
          }
        }
        return callback ? setIcon.call(this, call, callback) : setIcon.call(this, call);
      },
    });
  }

  for (const namespace of [root.browser, root.chrome]) {
    if (!namespace || typeof namespace !== 'object') continue;
    withoutSvgIcons(namespace.action);
    if (namespace.action) {
      define(namespace, 'browserAction', namespace.action);
      define(namespace, 'pageAction', pageAction(namespace.action));
    }
    if (namespace.tabs && namespace.scripting) {
      define(namespace.tabs, 'executeScript', executeScript(namespace));
      define(namespace.tabs, 'insertCSS', styleSheet(namespace, 'insertCSS'));
      define(namespace.tabs, 'removeCSS', styleSheet(namespace, 'removeCSS'));
    }
    if (namespace.extension && namespace.runtime && typeof namespace.runtime.getURL === 'function') {
      define(namespace.extension, 'getURL', (path) => namespace.runtime.getURL(path));
    }
  }
})(globalThis);
