import Testing

@testable import BridgeGenerator

/// What a page, a style sheet or a module names by path, resolved as a browser resolves it.
@Suite struct SafariReferencesTests {
    @Test func urls_resolveAgainstTheFileThatNamesThem() {
        #expect(SafariReferences.resolve("options.js", from: "options/options.html") == "options/options.js")
        #expect(SafariReferences.resolve("/images/a.png", from: "options/options.html") == "images/a.png")
        #expect(SafariReferences.resolve("../a.js?v=2#x", from: "a/b/c.html") == "a/a.js")
        #expect(SafariReferences.resolve("./my%20file.css", from: "p.html") == "my file.css")
        for outside in ["https://x.example/a.js", "data:image/png;base64,AA", "//cdn/a.js", "#top", "../../x", ""] {
            #expect(SafariReferences.resolve(outside, from: "a/p.html") == nil, "\(outside)")
        }
    }

    @Test func aPage_namesItsScriptsStylesImagesAndStyleURLs_notWhatIsCommentedOut() {
        let html = """
            <!DOCTYPE html>
            <html><head>
            <link rel="stylesheet" href="popup.css">
            <!-- <script src="old.js"></script> -->
            <script type="module" src='popup.js'></script>
            <style>
              .x { background: url("chevron.svg") } .y { background: url(data:image/png;base64,AA) }
            </style>
            </head><body><img src=images/a.png alt="a > b"><script src="https://cdn.example/x.js"></script></body></html>
            """
        let references = SafariReferences.of(path: "options/options.html", bytes: Array(html.utf8))
        #expect(
            references.map(\.path) == [
                "options/popup.css", "options/popup.js", "options/images/a.png", "options/chevron.svg",
            ])
        #expect(references.first { $0.path == "options/popup.js" }?.isModule == true)
        #expect(references.first { $0.path == "options/chevron.svg" }?.line == 7)
    }

    @Test func aScript_namesItsModules_andAWorkerItsImportedScripts() {
        let js = """
            import { a } from './utils.js';
            import "./side.js";
            export * from "../shared/x.mjs";
            const lazy = () => import('./lazy.js');
            import pkg from "bare-package";
            obj.import("./not-a-module.js");
            """
        #expect(
            SafariReferences.of(path: "bg/main.js", bytes: Array(js.utf8)).map(\.path) == [
                "bg/utils.js", "bg/side.js", "shared/x.mjs", "bg/lazy.js",
            ])
        let worker = JavaScriptTokens("importScripts('a.js', \"lib/b.js\", dynamic);")
        #expect(SafariReferences.importedScripts(tokens: worker).map(\.url) == ["a.js", "lib/b.js"])
    }
}
