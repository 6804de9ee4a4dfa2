// The app's own host actions, called from the extension with one message:
// {type: "appAction", action, payload}. They are declared once, in app/app.js
// (APP.actions), with who may call each; the router and the background's own
// code go through here. Pure: the host client is passed in.

/** Who may call an app action (app/app.js: `callers`). */
export const AppCaller = Object.freeze({
  // the extension's own pages: the popup (and an options page, the popup opened in a tab)
  POPUP: 'popup',
  // the background's own code (startBackground's appAction)
  BACKGROUND: 'background',
  // a content script: only when declared, because a page controls what its content script sends
  CONTENT: 'content',
});

/** Who may call an action declared without `callers`. */
export const DEFAULT_CALLERS = Object.freeze([AppCaller.POPUP, AppCaller.BACKGROUND]);

/**
 * Host actions an app action may not be named after: the bridge's own, which the
 * extension calls with their own message types and sender rules (a declaration
 * must not open setSettings or getSecret to content scripts). The host's
 * BuiltInActions, hello, and the generated appInfo; test/app-actions.test.js
 * checks the list against Sources/BridgeHost.
 */
export const RESERVED_ACTIONS = Object.freeze([
  'hello', 'getSettings', 'getContent', 'saveContent', 'setSettings', 'queueCount', 'getPageState',
  'removeItem', 'transform', 'getSecret', 'appInfo',
]);

/** Request members the extension sets itself: a payload may not carry them. */
const RESERVED_MEMBERS = Object.freeze(['action', 'id', 'message']);

/** An action name as the host reads one: 1 to 64 of letters, digits, '.', '_', '-'. */
const ACTION_NAME = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads APP.actions into name → Set of callers. A declaration that cannot be
 * used (a reserved or malformed name, an unknown caller, not an object) is left
 * out and reported through `problems`, so one typo never opens anything.
 * @param {unknown} actions APP.actions
 * @returns {{declared: Map<string, Set<string>>, problems: string[]}}
 */
export function readDeclarations(actions) {
  const declared = new Map();
  const problems = [];
  if (actions === undefined) return { declared, problems };
  if (!isPlainObject(actions)) return { declared, problems: ['APP.actions is not an object'] };
  const known = Object.values(AppCaller);
  for (const [name, declaration] of Object.entries(actions)) {
    if (!ACTION_NAME.test(name)) {
      problems.push(`app action ${JSON.stringify(name)}: not a valid action name`);
      continue;
    }
    if (RESERVED_ACTIONS.includes(name)) {
      problems.push(`app action ${JSON.stringify(name)}: the bridge's own action, called with its own message type`);
      continue;
    }
    if (!isPlainObject(declaration)) {
      problems.push(`app action ${JSON.stringify(name)}: the declaration is not an object`);
      continue;
    }
    const callers = declaration.callers ?? DEFAULT_CALLERS;
    if (!Array.isArray(callers) || callers.some((c) => !known.includes(c))) {
      problems.push(`app action ${JSON.stringify(name)}: callers must be a list of ${known.join(', ')}`);
      continue;
    }
    declared.set(name, new Set(callers));
  }
  return { declared, problems };
}

/** The declared actions a host's hello does not list (a host built before they were added). */
export function missingFromHost(declared, helloActions) {
  if (!Array.isArray(helloActions)) return [];
  return [...declared.keys()].filter((name) => !helloActions.includes(name));
}

/** What the popup shows for a stale host: the one fix. */
export const STALE_HOST_FIX = 'Rebuild and reinstall the host: scripts/install.sh in the project (it builds the host and runs extension-bridge install --config bridge.json).';

function refused(code, message) {
  return { status: 'error', code, message };
}

/**
 * Creates the app-action caller.
 * @param {object} deps
 * @param {{request: Function}} deps.host a HostClient (its request rejects with HostProblemError)
 * @param {unknown} deps.actions APP.actions
 * @param {(...args: any[]) => void} [deps.log]
 */
export function createAppActions({ host, actions, log = () => {} }) {
  const { declared, problems } = readDeclarations(actions);
  for (const problem of problems) log('app/app.js:', problem, '(left out)');

  /**
   * Calls `action` with `payload` for `caller` (an AppCaller). Resolves with the host's
   * reply, or an error reply: invalid_message, undeclared_action, forbidden_sender,
   * stale_host (declared here, unknown to the host). Rejects only as host.request does.
   */
  async function call(action, payload, caller) {
    if (typeof action !== 'string' || action === '') return refused('invalid_message', 'appAction needs an "action" string.');
    const callers = declared.get(action);
    if (!callers) {
      return refused('undeclared_action',
        `${JSON.stringify(action)} is not an app action of this extension: declare it in app/app.js (APP.actions).`);
    }
    if (!callers.has(caller)) {
      return refused('forbidden_sender',
        `A ${caller} may not call the app action ${JSON.stringify(action)} (app/app.js allows: ${[...callers].join(', ')}).`);
    }
    if (payload !== undefined && !isPlainObject(payload)) return refused('invalid_message', 'appAction\'s "payload" is an object.');
    const members = payload ?? {};
    const clash = RESERVED_MEMBERS.find((key) => Object.hasOwn(members, key));
    if (clash) return refused('invalid_message', `appAction's payload may not set ${JSON.stringify(clash)}.`);
    // Not in the host client's list of requests safe to send again: a lost
    // connection fails the call rather than running the app's action twice.
    const reply = await host.request({ ...members, action });
    if (reply?.status === 'error' && reply.code === 'unknown_action') {
      return {
        status: 'error',
        code: 'stale_host',
        action,
        message: `The host does not know the app action ${JSON.stringify(action)}: it was built before the action was added. ${STALE_HOST_FIX}`,
      };
    }
    // The request id is the host client's own correlation, not part of the app's answer.
    if (isPlainObject(reply) && 'id' in reply) {
      const { id: _id, ...answer } = reply;
      return answer;
    }
    return reply;
  }

  return { call, declared, problems };
}
