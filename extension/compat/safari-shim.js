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
// on `browser` and on `chrome`; in Chromium, where `browser` does not exist,
// `browser` is defined as `chrome`. `runtime.connectNative(anyAppId)` opens
// this bridge's host too.
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
    // Chromium has no `browser`: Safari code written for it finds chrome (with the shim) there.
    root.browser = root.chrome;
  }
})(globalThis);
