import BridgeSystem
import Foundation
import TestSupport
import Testing

@Suite struct ChildProcessTests {
    func readAll(_ fd: FileDescriptor) throws -> String {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            if n == 0 { return String(decoding: out, as: UTF8.self) }
            out += chunk[0..<n]
        }
    }

    /// A browser's debugging pipe is its descriptors 3 and 4: what is given in that place is there.
    @Test func descriptorsAfterTheStandardThree_becomeTheChildsThreeAndFour() throws {
        let three = try FileDescriptor.pipe()
        let four = try FileDescriptor.pipe()
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "echo to-three >&3; echo to-four >&4"], environment: ["PATH": "/bin:/usr/bin"],
            workingDirectory: nil, descriptors: [nil, nil, nil, three.write, four.write])
        three.write.close()
        four.write.close()
        #expect(try readAll(three.read) == "to-three\n")
        #expect(try readAll(four.read) == "to-four\n")
        #expect(child.wait(timeoutMilliseconds: 10_000) == 0)
        three.read.close()
        four.read.close()
    }

    /// Mapping descriptors onto each other's numbers (3 onto 4, 4 onto 3) clobbers neither.
    @Test func descriptorsSwappedOntoEachOthersNumbers_arriveUnchanged() throws {
        let a = try FileDescriptor.pipe()
        let b = try FileDescriptor.pipe()
        let first = try a.write.duplicate(atLeast: 3)
        let second = try b.write.duplicate(atLeast: 3)
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "echo A >&3; echo B >&4"], environment: [:], workingDirectory: nil,
            descriptors: [nil, nil, nil, first, second])
        for fd in [a.write, b.write, first, second] { fd.close() }
        #expect(try readAll(a.read) == "A\n")
        #expect(try readAll(b.read) == "B\n")
        child.wait(timeoutMilliseconds: 10_000)
        a.read.close()
        b.read.close()
    }

    @Test func terminate_endsTheWholeProcessGroup() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let pidFile = tmp.path + "/grandchild"
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "sleep 300 & echo $! > \(pidFile); wait"],
            environment: ["PATH": "/bin:/usr/bin"],
            workingDirectory: nil, descriptors: [nil, nil, nil])
        var grandchild: Int32?
        for _ in 0..<500 where grandchild == nil {
            grandchild = (try? FileSystem.readFile(pidFile)).flatMap {
                Int32(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if grandchild == nil { Platform.sleep(milliseconds: 10) }
        }
        let sleeper = try #require(grandchild)
        #expect(child.reap() == nil)
        let status = child.terminate(graceMilliseconds: 2000)
        #expect(status == 128 + 15)
        // The grandchild got the group's signal too: gone, or a zombie until whoever adopted it reaps it.
        func ended() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8) else { return true }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
        var gone = ended()
        for _ in 0..<200 where !gone {
            Platform.sleep(milliseconds: 10)
            gone = ended()
        }
        #expect(gone)
    }

    @Test func reap_givesTheExitStatusOnceEnded() throws {
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "exit 3"], environment: [:], workingDirectory: nil,
            descriptors: [nil, nil, nil])
        #expect(child.wait(timeoutMilliseconds: 10_000) == 3)
        #expect(child.reap() == 3)
        #expect(child.exitStatus == 3)
    }
}
