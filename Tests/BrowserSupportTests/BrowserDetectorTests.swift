import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// A file system that holds exactly these executables and folders.
func fakeProbe(executables: Set<String> = [], folders: Set<String> = []) -> FileProbe {
    FileProbe(
        isExecutableFile: { executables.contains($0) },
        exists: { path in executables.contains(path) || folders.contains(path) })
}

func ids(_ detector: BrowserDetector) -> [String] { detector.detect().map(\.browser.id) }

@Suite struct BrowserDetectorTests {
    @Test func emptyMachine_detectsNothing() {
        let detector = BrowserDetector(home: "/h", searchPath: ["/usr/bin", "/bin"], probe: fakeProbe())
        #expect(ids(detector).isEmpty)
    }

    @Test(arguments: [
        ("/usr/lib/chromium/chromium", "chromium"), ("/usr/bin/firefox-esr", "firefox"),
        ("/opt/google/chrome/chrome", "chrome"), ("/opt/microsoft/msedge/msedge", "edge"),
        ("/opt/brave.com/brave/brave", "brave"), ("/opt/vivaldi/vivaldi", "vivaldi"),
        ("/usr/lib/librewolf/librewolf", "librewolf"), ("/opt/google/chrome-beta/chrome", "chrome-beta"),
    ])
    func vendorLocation_countsWithoutAProfileFolder(path: String, browser: String) {
        let detector = BrowserDetector(home: "/h", searchPath: [], probe: fakeProbe(executables: [path]))
        #expect(ids(detector) == [browser])
        #expect(BrowserCatalog.named(browser).flatMap(detector.evidence(for:)) == .executable(path))
    }

    @Test func commandOnPath_isFound_inPathOrder() throws {
        let detector = BrowserDetector(
            home: "/h", searchPath: ["relative", "/home/u/bin", "/usr/local/bin"],
            probe: fakeProbe(executables: ["/usr/local/bin/chromium", "/home/u/bin/chromium", "relative/firefox"]))
        // A relative PATH entry is ignored (it depends on the working folder).
        #expect(ids(detector) == ["chromium"])
        let chromium = try #require(BrowserCatalog.named("chromium"))
        #expect(detector.evidence(for: chromium) == .executable("/home/u/bin/chromium"))
    }

    @Test func folderNamedLikeTheBrowser_isNotAnExecutable() {
        let detector = BrowserDetector(
            home: "/h", searchPath: ["/usr/bin"], probe: fakeProbe(folders: ["/usr/bin/chromium"]))
        #expect(ids(detector).isEmpty)
    }

    @Test func profileFolderOrFlatpak_stillCount() {
        let detector = BrowserDetector(
            home: "/h", searchPath: [],
            probe: fakeProbe(folders: ["/h/.config/vivaldi", "/var/lib/flatpak/app/org.mozilla.firefox"]))
        #expect(ids(detector) == ["vivaldi", "firefox"])
    }

    @Test func root_prefixesEveryAbsoluteLookup() {
        let detector = BrowserDetector(
            home: "/h", searchPath: ["/usr/bin"], root: "/r/",
            probe: fakeProbe(executables: ["/r/usr/bin/chromium", "/usr/bin/firefox"]))
        #expect(ids(detector) == ["chromium"])
    }

    @Test func environment_suppliesPathAndRoot() {
        let detector = BrowserDetector.forEnvironment(
            home: "/h", environment: Environment(["PATH": "/a:/b", "EXTENSION_BRIDGE_DETECT_ROOT": "/r"]))
        #expect(detector.searchPath == ["/a", "/b"])
        #expect(detector.root == "/r")
    }
}

/// The one detection test on the real file system: executables and a
/// dangling link in a temporary root, found through a real PATH.
@Suite struct BrowserDetectorDiskTests {
    @Test func realFiles_executableBitAndLinksMatter() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let fm = FileManager.default
        let root = tmp.path + "/root with space"
        for folder in ["/usr/lib/chromium", "/usr/bin", "/opt/brave.com/brave", "/home/bin"] {
            try fm.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
        }
        try "#!/bin/sh\n".write(toFile: root + "/usr/lib/chromium/chromium", atomically: true, encoding: .utf8)
        chmod(root + "/usr/lib/chromium/chromium", 0o755)
        // Not executable: not a browser.
        try "".write(toFile: root + "/opt/brave.com/brave/brave", atomically: true, encoding: .utf8)
        // A link on PATH to the real executable counts; a dangling one does not.
        try fm.createSymbolicLink(atPath: root + "/home/bin/firefox", withDestinationPath: "/nonexistent/firefox")
        try fm.createSymbolicLink(
            atPath: root + "/usr/bin/chromium-browser", withDestinationPath: root + "/usr/lib/chromium/chromium")
        let detector = BrowserDetector(home: tmp.path + "/home", searchPath: ["/home/bin", "/usr/bin"], root: root)
        #expect(ids(detector) == ["chromium"])
        let chromium = try #require(BrowserCatalog.named("chromium"))
        #expect(detector.evidence(for: chromium) == .executable("/usr/bin/chromium-browser"))
        try fm.createDirectory(atPath: tmp.path + "/home/.mozilla", withIntermediateDirectories: true)
        #expect(ids(detector) == ["chromium", "firefox"])
    }
}
