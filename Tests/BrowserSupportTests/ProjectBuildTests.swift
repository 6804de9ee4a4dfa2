import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `ProjectBuild.actions`: the newest build's `--actions`, run only when nobody else could have put it there.
@Suite struct ProjectBuildTests {
    /// A project with `bridge.json` and a debug build that is a script: it lists actions, and leaves
    /// a mark when run.
    func project(_ tmp: TemporaryFolder) throws -> (config: String, program: String, mark: String) {
        let folder = tmp.path + "/project"
        try FileManager.default.createDirectory(atPath: folder + "/.build/debug", withIntermediateDirectories: true)
        for path in [folder, folder + "/.build", folder + "/.build/debug"] { chmod(path, 0o755) }
        let description: JSONValue = [
            "formatVersion": 1, "name": "A", "hostName": "com.example.a", "group": "group.a", "hostProduct": "a-host",
            "extension": [
                "folder": "extension", "chromiumID": .string(String(repeating: "c", count: 32)),
                "firefoxID": "a@example.com",
            ],
        ]
        try FileSystem.writeAtomically(folder + "/bridge.json", JSONWriter.bytes(description), permissions: 0o644)
        let mark = tmp.path + "/ran"
        let program = folder + "/.build/debug/a-host"
        try FileSystem.writeAtomically(
            program, utf8: "#!/bin/sh\ntouch '\(mark)'\nprintf 'hello\\nappInfo\\n'\n", permissions: 0o755)
        return (folder + "/bridge.json", program, mark)
    }

    @Test func aTrustedBuild_isAskedForItsActions() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let (config, _, mark) = try project(tmp)
        #expect(ProjectBuild.actions(configPath: config) == .listed(["appInfo", "hello"]))
        #expect(FileManager.default.fileExists(atPath: mark))
    }

    /// A project folder others can write: its build is never run, and why is said.
    @Test func aBuildInAFolderOthersCanWrite_isNotRun_andWhyIsSaid() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let (config, program, mark) = try project(tmp)
        for folder in [tmp.path + "/project", tmp.path + "/project/.build/debug"] {
            chmod(folder, 0o777)
            guard case .notRun(let named, let refusal) = ProjectBuild.actions(configPath: config) else {
                Issue.record("\(folder): the build was run")
                continue
            }
            #expect(named == program)
            #expect(refusal.path == folder && refusal.reason.contains("writable by every user"))
            chmod(folder, 0o755)
        }
        #expect(!FileManager.default.fileExists(atPath: mark), "the program ran")
    }
}
