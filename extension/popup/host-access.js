// Whether the extension may run on web pages: in MV3, Firefox treats the
// content scripts' http and https matches as optional host permissions that the
// user can withdraw (about:addons → Permissions); then no content script runs and
// nothing else tells the user. Pure: the permissions API is passed in.

/** The origins the content scripts match (manifest.json content_scripts[].matches). */
export const WEB_ORIGINS = Object.freeze(['http://*/*', 'https://*/*']);

/**
 * True when `permissions` (chrome.permissions / browser.permissions) reports access
 * to every web origin. An API that is missing or throws counts as granted: the notice
 * is for a known withdrawal, never a guess.
 */
export async function hasWebAccess(permissions) {
  if (typeof permissions?.contains !== 'function') return true;
  try {
    return (await permissions.contains({ origins: [...WEB_ORIGINS] })) !== false;
  } catch {
    return true;
  }
}

/**
 * Asks for web access; must run inside the click handler (a user gesture).
 * Returns true when granted.
 */
export async function requestWebAccess(permissions) {
  if (typeof permissions?.request !== 'function') return false;
  try {
    return (await permissions.request({ origins: [...WEB_ORIGINS] })) === true;
  } catch {
    return false;
  }
}
