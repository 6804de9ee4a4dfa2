// Test doubles: a manual clock, a fake runtime with native ports, a fake
// tabs API. No test in this folder touches real timers or a real browser.

/** A manual clock: setTimeout/clearTimeout that only fire on advance(). */
export function createClock() {
  let now = 0;
  let nextHandle = 1;
  const timers = new Map(); // handle → {at, fn}
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      const handle = nextHandle++;
      timers.set(handle, { at: now + Math.max(0, ms), fn });
      return handle;
    },
    clearTimeout: (handle) => {
      timers.delete(handle);
    },
    /** Runs every timer due within `ms`, in time order, letting promises settle between them. */
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        await flush();
        let due = null;
        for (const [handle, timer] of timers) {
          if (timer.at <= end && (due === null || timer.at < due[1].at)) due = [handle, timer];
        }
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
      await flush();
    },
    /** Delays of pending timers, relative to now. */
    pendingDelays: () => [...timers.values()].map((timer) => timer.at - now).sort((a, b) => a - b),
  };
}

/** Lets queued promise callbacks run. */
export async function flush(rounds = 10) {
  for (let i = 0; i < rounds; i += 1) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

function createEvent() {
  const listeners = new Set();
  return {
    addListener: (fn) => listeners.add(fn),
    removeListener: (fn) => listeners.delete(fn),
    hasListener: (fn) => listeners.has(fn),
    emit: (...args) => {
      for (const fn of [...listeners]) fn(...args);
    },
    get size() {
      return listeners.size;
    },
  };
}

/** A fake native port. Tests read `sent` and call reply()/drop(). */
export class FakePort {
  constructor(runtime, name) {
    this.runtime = runtime;
    this.name = name;
    this.sent = [];
    this.onMessage = createEvent();
    this.onDisconnect = createEvent();
    this.connected = true;
    this.disconnectedByUs = false;
    this.error = null;
    this.throwOnPost = null;
  }

  postMessage(message) {
    if (this.throwOnPost) throw new Error(this.throwOnPost);
    if (!this.connected) throw new Error('Attempt to postMessage on disconnected port');
    // Structured clone, as the browser does.
    this.sent.push(JSON.parse(JSON.stringify(message)));
    this.runtime.onPost?.(this, message);
  }

  disconnect() {
    this.connected = false;
    this.disconnectedByUs = true;
  }

  /** The host writes a frame. */
  reply(frame) {
    if (!this.connected) throw new Error('reply on a closed port');
    this.onMessage.emit(JSON.parse(JSON.stringify(frame)), this);
  }

  /** Answer hello (the first frame with action hello). */
  answerHello(extra = {}) {
    const hello = this.sent.find((m) => m.action === 'hello');
    this.reply({ status: 'success', id: hello.id, protocolVersion: 1, hostVersion: '0.1.0', ...extra });
  }

  /**
   * The port closes from the host's side. `style` "chrome" puts the text in
   * runtime.lastError during the callback; "firefox" puts it in port.error.
   */
  drop(text = '', style = 'chrome') {
    this.connected = false;
    if (style === 'firefox') {
      this.error = text ? { message: text } : null;
      this.onDisconnect.emit(this);
    } else {
      this.runtime.lastError = text ? { message: text } : undefined;
      this.onDisconnect.emit(this);
      this.runtime.lastError = undefined;
    }
  }
}

/** A fake browser.runtime with connectNative and sendNativeMessage. */
export function createRuntime({ connectThrows = null, oneShot = null } = {}) {
  const runtime = {
    id: 'honlgoealnaplikdeeidpcknncfcnfmo',
    lastError: undefined,
    ports: [],
    oneShotCalls: [],
    connectThrows,
    oneShot: oneShot ?? (async (name, message) => ({ status: 'success', via: 'oneShot', echo: message })),
    connectNative(name) {
      if (runtime.connectThrows) throw new Error(runtime.connectThrows);
      const port = new FakePort(runtime, name);
      runtime.ports.push(port);
      return port;
    },
    sendNativeMessage(name, message) {
      runtime.oneShotCalls.push({ name, message });
      return runtime.oneShot(name, message);
    },
    get lastPort() {
      return runtime.ports[runtime.ports.length - 1];
    },
  };
  return runtime;
}

/** A fake tabs API. */
export function createTabs(tabIds = [], { failFor = [] } = {}) {
  const sent = [];
  return {
    sent,
    async query() {
      return tabIds.map((id) => ({ id }));
    },
    async sendMessage(tabId, message) {
      if (failFor.includes(tabId)) throw new Error('Could not establish connection. Receiving end does not exist.');
      sent.push({ tabId, message });
      return undefined;
    },
  };
}

/** A fake storage area (storage.session). */
export function createStorageArea(initial = {}) {
  const data = { ...initial };
  return {
    data,
    async get(key) {
      return key in data ? { [key]: structuredClone(data[key]) } : {};
    },
    async set(items) {
      Object.assign(data, structuredClone(items));
    },
  };
}
