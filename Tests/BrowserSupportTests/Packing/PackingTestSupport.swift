import BridgeSystem
import Foundation
import TestSupport

@testable import BrowserSupport

/// Helpers the packing tests share: a real key from openssl, system tools, small folders.
enum Packing {
    /// A fresh RSA key saved (0600) in `folder`, as `pack` makes the machine's.
    static func key(in folder: String, name: String = "key.pem") throws -> ExtensionKey {
        try ExtensionKey.loadOrCreate(at: folder + "/keys/" + name, searchPath: "/usr/bin:/bin").key
    }

    /// Runs a system tool; nil when it is not installed.
    static func run(_ tool: String, _ arguments: [String], input: [UInt8] = []) throws -> Subprocess.Result? {
        guard FileSystem.isExecutable(tool) else { return nil }
        return try Subprocess.run(
            tool, arguments: arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"],
            workingDirectory: nil, input: input, timeoutMilliseconds: 60_000)
    }

    /// Writes `files` (path → text) under `root`, making folders.
    static func write(_ files: [String: String], under root: String) throws {
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileSystem.writeAtomically(full, utf8: text, permissions: 0o644)
        }
    }

    /// A small extension: a manifest with a key, a gecko id (no data_collection_permissions), both
    /// background keys, plus files that must stay out.
    static func smallExtension(at root: String) throws {
        try write(
            [
                "manifest.json": """
                {"manifest_version": 3, "name": "Read Later", "version": "1.2.3", "key": "AAAA",
                 "browser_specific_settings": {"gecko": {"id": "readlater@example.com"}},
                 "background": {"service_worker": "bg.js", "scripts": ["bg.js"], "type": "module"}}
                """,
                "bg.js": "console.log('bg');\n",
                "content/test/kept.js": "// a folder named test below the top is the extension's own\n",
                "test/skipped.test.js": "no\n", "tools/skipped.py": "no\n", "bench/skipped.js": "no\n",
                "package.json": "{}\n", "README.md": "no\n", "extension-id.json": "{}\n", ".eslintrc": "no\n",
                "content/.DS_Store": "no\n",
            ], under: root)
    }
}
