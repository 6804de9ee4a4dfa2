// The app's own configuration: the one file of this extension that belongs to
// the app. `extension-bridge new` writes it (name, host name, the features
// asked for with --features); `extension-bridge upgrade` keeps everything under
// app/ as it is and replaces every other file from a newer ExtensionBridge.
// The background, the popup and the tests read it; the manifest's permissions
// are made from the same features (docs/GENERATOR.md).

export const APP = Object.freeze({
  name: 'ExtensionBridge',
  hostName: 'org.extensionbridge.host',
  features: Object.freeze(['vocabulary', 'saving', 'transform', 'secrets']),
  // The app's own host actions (its Swift actions), called with
  // runtime.sendMessage({type: 'appAction', action: 'name', payload: {...}}).
  // Each: name → {callers}; callers default to ['popup', 'background'];
  // add 'content' only for an action any web page may trigger (a page
  // controls what its content script sends). Undeclared actions are refused.
  // Example: greet: Object.freeze({ callers: Object.freeze(['popup', 'content']) }),
  actions: Object.freeze({
  }),
});
