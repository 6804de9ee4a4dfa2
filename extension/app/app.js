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
});
