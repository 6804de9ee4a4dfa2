import BridgeSystem
import BrowserSupport

/// Why `run` could not start, or stopped early; each says what to do next.
public enum RunError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No executable of the browser was found.
    case noBrowser(RunBrowser, looked: [String], installHint: String?)
    /// A window was asked for, and there is no display to show it on.
    case noDisplay
    /// The host must be built, and `swift` is not on `PATH`.
    case noSwift
    /// The host's build failed before the browser started.
    case buildFailed(command: String, status: Int32)
    /// The build succeeded but its product is not where SwiftPM said.
    case noHostBinary(path: String)
    /// `TMPDIR` is set to something that is not an absolute path to a folder.
    case temporaryDirectory(String, problem: String)
    /// The private folder, a file in it, or the trace socket could not be made.
    case folder(SystemError)
    /// The browser did not start or did not answer its debugging protocol.
    case browserFailed(String, output: [String])
    /// The browser did not load the extension (a manifest error, a missing file): its own reason.
    case extensionNotLoaded(RunBrowser, folder: String, reason: String)
    /// A file `run` would run or build from (the build script, `Package.swift`, the built host)
    /// fails `PathTrust`: another user could have put their program there.
    case untrusted(PathTrust.Refusal)

    public var description: String {
        switch self {
        case .noBrowser(let browser, let looked, let hint):
            return "no \(browser.rawValue) found (looked for \(looked.joined(separator: ", "))); "
                + (hint ?? "install it with your system's package manager")
        case .noDisplay:
            return "no display to open a browser window on (DISPLAY and WAYLAND_DISPLAY are unset): run it in a "
                + "desktop session, or pass --headless to watch the lines without a window"
        case .noSwift:
            return "the host must be built and swift is not on PATH: install the Swift toolchain"
        case .buildFailed(let command, let status):
            return "building the host failed (\(command), exit \(status)); fix the error above and run again"
        case .noHostBinary(let path):
            return "the build finished but left no host at \(path)"
        case .temporaryDirectory(let path, let problem):
            return "TMPDIR is '\(path)', which \(problem); run makes its private folder there and the host's "
                + "build uses it: set TMPDIR to an existing folder's absolute path, or unset it to use /tmp"
        case .folder(let error):
            return "cannot make run's private folder: \(error)"
        case .browserFailed(let reason, let output):
            let tail = output.isEmpty ? "" : "; its last output:\n" + output.map { "  " + $0 }.joined(separator: "\n")
            return "the browser \(reason)\(tail)"
        case .extensionNotLoaded(let browser, let folder, let reason):
            return "\(browser.rawValue) did not load the extension from \(folder): \(reason); fix it and run again"
        case .untrusted(let refusal):
            return "refusing to build or run the host: \(refusal), so another user could have put their program "
                + "there; " + (refusal.fix.map { "run \($0), or " } ?? "")
                + "move the project into a folder of your own"
        }
    }

    /// The exit status (sysexits): 65 an extension the browser refused, 69 something missing or not
    /// starting, 70 the build, 73 the folder, 77 a file others can write.
    public var exitStatus: Int32 {
        switch self {
        case .noBrowser, .noDisplay, .noSwift, .browserFailed: return 69
        case .buildFailed, .noHostBinary: return 70
        case .temporaryDirectory, .folder: return 73
        case .extensionNotLoaded: return 65
        case .untrusted: return 77
        }
    }
}
