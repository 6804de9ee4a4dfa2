import BrowserSupport

/// `extension/README.md` of a generated project: about that project's extension (its ids, its
/// host, which files are the app's, how it gets into a browser), in place of ExtensionBridge's own
/// `extension/README.md`, which is about developing ExtensionBridge.
enum ExtensionReadme {
    static func text(_ spec: ProjectSpec, chromiumID: String) -> String {
        let features = spec.features.map { "`\($0.rawValue)`" }.joined(separator: ", ")
        return """
            # \(spec.name)'s extension (Manifest V3)

            One extension for Chromium-family browsers and Firefox: ExtensionBridge's
            extension made \(spec.name)'s own by `extension-bridge new` (its key and ids, its
            name in every locale, its host name, its version, and only the permissions its
            features need: \(features)). `background/` talks to the native host
            `\(spec.hostName)` (built from this project's `Sources/\(spec.hostProduct)`);
            the content scripts and the popup talk to the background.

            | browser | id | from |
            |---|---|---|
            | Chromium, Edge, Brave, Vivaldi | `\(chromiumID)` | the `key` in `manifest.json` (its private half: `../keys/`) |
            | Firefox | `\(spec.firefoxID)` | `browser_specific_settings.gecko.id` |

            ## Whose files

            - `app/app.js` is \(spec.name)'s: its name, host name, features, and the app's own
              host actions the extension may call (`actions`, with who may call each).
              `extension-bridge upgrade` keeps everything under `app/`.
            - `manifest.json`: its `version` is \(spec.name)'s (bump it for each release); the
              rest, like every other file here, is ExtensionBridge's: `upgrade` replaces it from
              a newer version and makes it \(spec.name)'s again. It refuses while one was edited,
              so put your changes under `app/` or in files of your own.
            - `test/`: the extension's node tests (`node --test test/`, or the project's
              `scripts/test.sh`), which check this extension's ids and host name. `bench/` and
              `tools/`: ExtensionBridge's development tools. Neither goes into a package:
              `extension-bridge pack` leaves out `test/`, `tools/`, `bench/`, `package.json`,
              this README and `extension-id.json`.

            ## Into a browser

            The host first (`../scripts/install.sh`), then the extension, for good:
            `../scripts/package-deb.sh` makes a Debian package that gives it to every user of
            Debian's chromium and firefox-esr at their next start; `../scripts/install.sh --crx`
            gives it to your Chromium-family browsers at their next start. Firefox installs an
            add-on for one user only when Mozilla signed it (`extension-bridge pack --config
            bridge.json` writes the `.xpi`). The project's README.md has the table.

            For development only: Chromium's "Load unpacked" of this folder (Developer mode),
            or Firefox's `about:debugging`, "Load Temporary Add-on…": a temporary add-on is
            gone when Firefox restarts. `extension-bridge doctor --config bridge.json` (in
            the project) says, per browser and profile, whether the extension is there and on.

            """
    }
}
