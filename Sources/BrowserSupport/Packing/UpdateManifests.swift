import BridgeJSON

/// The update manifests a self-hosted extension is served with: the file a
/// browser fetches from the manifest's `update_url` to learn of a newer
/// version and where its package is.
public enum UpdateManifests {
    /// Chromium's gupdate XML (`updates.xml`): one app, one version, the CRX's URL.
    /// - Parameters:
    ///   - appID: the Chromium id (the CRX signing key's).
    ///   - version: the extension's version.
    ///   - codebase: the CRX's https URL.
    /// - Returns: the file's bytes, values XML-escaped.
    public static func chromium(appID: String, version: String, codebase: String) -> [UInt8] {
        let text = """
            <?xml version='1.0' encoding='UTF-8'?>
            <gupdate xmlns='http://www.google.com/update2/response' protocol='2.0'>
              <app appid='\(xmlEscaped(appID))'>
                <updatecheck codebase='\(xmlEscaped(codebase))' version='\(xmlEscaped(version))'/>
              </app>
            </gupdate>

            """
        return Array(text.utf8)
    }

    /// Firefox's update manifest (`updates.json`): one add-on, one version, the XPI's URL.
    /// - Parameters:
    ///   - addonID: `browser_specific_settings.gecko.id`.
    ///   - version: the extension's version.
    ///   - updateLink: the XPI's https URL.
    /// - Returns: the file's bytes (pretty JSON, keys sorted, a final newline).
    public static func firefox(addonID: String, version: String, updateLink: String) -> [UInt8] {
        JSONWriter.prettyBytes([
            "addons": .object([
                addonID: [
                    "updates": [["version": .string(version), "update_link": .string(updateLink)]]
                ]
            ])
        ])
    }

    /// `text` with `& < > ' "` written as entities.
    public static func xmlEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&apos;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
