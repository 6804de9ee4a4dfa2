import Foundation
import SuiteAppKit

// A command line around SuiteAppKit, so the tests can run the app as a separate process beside
// the real host (an app would call the same functions from its UI).
//   suite-app publish WORD=REPLACEMENT…   write the vocabulary and turn the extension on
//   suite-app seed-enabled true|false      write seed 002's key
//   suite-app status                       print "enabled=<bool> words=<n>"
//   suite-app share NAME TEXT              put a file in the group's shared files
//   suite-app drain                        print each saved item as "URL<TAB>content" and remove it
//   suite-app watch COUNT                  the same, as items arrive, until COUNT were handed over (20 s at most)
func run(_ arguments: [String]) throws -> Int32 {
    let app = try SuiteApp()
    switch (arguments.first, arguments.count) {
    case ("publish", _):
        var vocabulary: [String: String] = [:]
        for pair in arguments.dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return 64 }
            vocabulary[parts[0]] = parts[1]
        }
        try app.publish(vocabulary: vocabulary)
    case ("seed-enabled", 2):
        try app.setSeedEnabled(arguments[1] == "true")
    case ("status", 1):
        let (enabled, vocabulary) = try app.status()
        print("enabled=\(enabled) words=\(vocabulary.count)")
    case ("share", 3):
        try app.share(arguments[1], text: arguments[2])
    case ("drain", 1):
        try app.drain { item in
            print("\(item.url)\t\(item.content)")
            return true
        }
    case ("watch", 2):
        guard let count = Int(arguments[1]) else { return 64 }
        let handed = try app.watch(until: count, maxLooks: 80) { item in
            // Unbuffered: the caller reads each line as it comes.
            FileHandle.standardOutput.write(Data("\(item.url)\t\(item.content)\n".utf8))
            return true
        }
        if handed < count { return 1 }
    default:
        FileHandle.standardError.write(Data("usage: suite-app publish|seed-enabled|status|share|drain|watch …\n".utf8))
        return 64
    }
    return 0
}

do {
    exit(try run(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("suite-app: \(error)\n".utf8))
    exit(1)
}
