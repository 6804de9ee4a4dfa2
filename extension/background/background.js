// The background service worker (Chromium) / background script (Firefox).
// The only part of the extension that speaks native messaging. It starts the
// wiring in start.js for the app (app/app.js: its host name and features) at
// the top level, so every listener is registered synchronously and a
// restarted worker receives the event that woke it.

import { APP } from '../app/app.js';
import { startBackground } from './start.js';

startBackground(globalThis.browser ?? globalThis.chrome, APP);
