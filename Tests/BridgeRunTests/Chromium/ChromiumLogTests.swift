import Testing

@testable import BridgeRun

/// Chromium 156's own report, on its standard error, of an unpacked extension it did not load.
@Suite struct ChromiumLogTests {
    let line =
        "[16468:16468:1205/145547.380931:WARNING:extensions/browser/load_error_reporter.cc:73] Extension error: "
        + "Failed to load extension from: /tmp/p/extension. Manifest is not valid JSON.  EOF while parsing an "
        + "object at line 2 column 0"

    @Test func aLoadError_givesChromiumsReason_onOneLine_withoutTheFolder() {
        #expect(
            ChromiumLog.loadError(in: line, extensionFolder: "/tmp/p/extension")
                == "Manifest is not valid JSON. EOF while parsing an object at line 2 column 0")
    }

    @Test func anotherFoldersError_keepsItsFolder_andOtherLinesAreNotErrors() {
        #expect(
            ChromiumLog.loadError(in: line, extensionFolder: "/elsewhere")?.hasPrefix("/tmp/p/extension. Manifest")
                == true)
        #expect(ChromiumLog.loadError(in: "[1:1:WARNING:x.cc:1] something else", extensionFolder: "/tmp/p") == nil)
    }

    @Test func theLaunch_asksChromiumForItsWarningsOnStandardError() {
        #expect(ChromiumLog.arguments.contains("--enable-logging=stderr"))
    }
}
