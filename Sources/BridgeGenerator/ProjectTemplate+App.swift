/// The app's side of a generated project: what the seeds' app does through its App Group
/// (seed 002's `ViewController` turns the extension on; seed 003's `PendingImporter` drains what
/// the extension saved into the app's own store), as a library an app links, a command line
/// around it, and its tests over a real suite.
extension ProjectTemplate {
    static func appFiles(_ spec: ProjectSpec) -> [GeneratedFile] {
        [
            GeneratedFile("Sources/\(spec.appTarget)/AppSuite.swift", text: appSuite(spec)),
            GeneratedFile("Sources/\(spec.appTarget)/PendingImporter.swift", text: pendingImporter(spec)),
            GeneratedFile("Sources/\(spec.appTarget)/SavedItemStore.swift", text: savedItemStore(spec)),
            GeneratedFile("Sources/\(spec.appProduct)/main.swift", text: appMain(spec)),
            GeneratedFile("Tests/\(spec.appTarget)Tests/AppSuiteTests.swift", text: appTests(spec)),
        ]
    }

    static func appSuite(_ spec: ProjectSpec) -> String {
        """
        import SharedSuite
        import \(spec.actionsTarget)

        /// \(spec.name)'s side of the group it shares with its extension: what an app does with
        /// `UserDefaults(suiteName:)` and its App Group, done through ExtensionBridge's SharedSuite,
        /// so the host the browser starts reads exactly what the app wrote.
        public struct AppSuite {
            public let container: GroupContainer
            public let suite: Suite
            public let queue: PendingQueue

            /// The group in `container`; by default the app's group (`AppConfiguration.group`, as in
            /// bridge.json) where the platform keeps it (Linux: `$XDG_DATA_HOME/<group>`, else
            /// `~/.local/share/<group>`; `EXTENSION_BRIDGE_CONTAINER` overrides it).
            public init(container: GroupContainer? = nil) throws(SuiteError) {
                if let container {
                    self.container = container
                } else {
                    self.container = try GroupContainer(groupID: AppConfiguration.group)
                }
                try self.container.create()
                suite = Suite(container: self.container)
                queue = PendingQueue(container: self.container)
            }

            /// Turns the extension on or off: a fresh group is off, and the extension changes no page
            /// until the app turns it on (the popup's switch writes the same flag).
            public func setExtensionEnabled(_ on: Bool) throws(SuiteError) {
                try suite.update { SuiteKeys.setEnabled(on, in: &$0) }
            }

            /// Writes the words the extension replaces on pages (`vocabulary`), and turns it on: one
            /// write, atomic, under the suite's lock. The open host sees it at once.
            public func writeVocabulary(_ words: [String: String]) throws(SuiteError) {
                try suite.update { values in
                    values[SuiteKeys.vocabulary] = .dictionary(words.mapValues { .string($0) })
                    SuiteKeys.setEnabled(true, in: &values)
                }
            }

            /// What the extension sees now: on or off (the one rule the host uses), the vocabulary, and
            /// how many saved items wait for the app.
            public func status() throws(SuiteError) -> (enabled: Bool, vocabulary: [String: String], waiting: Int) {
                let snapshot = try suite.snapshot()
                let words = (snapshot.dictionary(SuiteKeys.vocabulary) ?? [:]).compactMapValues(\\.coercedString)
                return (SuiteKeys.isEnabled(snapshot), words, try queue.count())
            }
        }

        """
    }

    static func pendingImporter(_ spec: ProjectSpec) -> String {
        """
        import SharedSuite

        /// Moves what the extension saved (its "Save this page", link or selection: the host queues
        /// each in the group) into the app's own store, each URL once: seed 003's `PendingImporter`.
        /// An item leaves the queue only after the store holds it, so a crash between the two loses
        /// nothing; the hand-over is safe beside another importer or `extension-bridge queue drain`.
        public struct PendingImporter {
            public let suite: AppSuite
            public let store: SavedItemStore

            public init(suite: AppSuite, store: SavedItemStore) {
                self.suite = suite
                self.store = store
            }

            /// Drains the queue into the store.
            /// - Returns: how many items were added, and how many were already there (by URL).
            @discardableResult
            public func drainPending() throws -> (imported: Int, alreadyThere: Int) {
                var items = try store.load()
                var imported = 0
                var alreadyThere = 0
                var failure: (any Error)?
                try suite.queue.drain { item in
                    if items.contains(where: { $0.url == item.url }) {
                        alreadyThere += 1
                        return true
                    }
                    items.append(
                        SavedItem(
                            url: item.url, title: item.title ?? item.url, savedAt: item.savedAt.iso8601, kind: item.kind))
                    do {
                        try store.save(items)
                    } catch {
                        // Not stored: the item stays in the queue for the next import.
                        items.removeLast()
                        failure = error
                        return false
                    }
                    imported += 1
                    return true
                }
                if let failure { throw failure }
                return (imported, alreadyThere)
            }
        }

        """
    }

    /// `SavedItemStore.swift`: the item type, then the store that keeps them.
    static func savedItemStore(_ spec: ProjectSpec) -> String {
        savedItem(spec) + savedItemStoreType(spec)
    }

    static func savedItem(_ spec: ProjectSpec) -> String {
        """
        import Foundation

        /// One page, link or selection the app imported.
        public struct SavedItem: Codable, Equatable, Sendable {
            public var url: String
            public var title: String
            /// When the extension saved it (ISO 8601).
            public var savedAt: String
            /// `page`, `link` or `selection`.
            public var kind: String

            public init(url: String, title: String, savedAt: String, kind: String) {
                self.url = url
                self.title = title
                self.savedAt = savedAt
                self.kind = kind
            }

            /// The item as one line of `\(spec.appProduct) list`: when, URL and title, separated by tabs.
            /// A title is the page's to choose: a line break, tab or other control character in it
            /// (or in the URL) is shown as `\\u{…}`, so each item stays one line of three fields.
            public var listLine: String {
                [savedAt, url, title].map(SavedItem.oneLine).joined(separator: "\\t")
            }

            /// `text` with every control character (C0, DEL, C1, the line and paragraph separators, the
            /// bidi controls) written as `\\u{hex}`.
            public static func oneLine(_ text: String) -> String {
                var out = ""
                for scalar in text.unicodeScalars {
                    switch scalar.value {
                    case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069:
                        out += "\\\\u{" + String(scalar.value, radix: 16) + "}"
                    default:
                        out.unicodeScalars.append(scalar)
                    }
                }
                return out
            }
        }


        """
    }

    static func savedItemStoreType(_ spec: ProjectSpec) -> String {
        """
        /// The app's own list of what it imported: a JSON file the app alone writes (the group is
        /// the extension's and the app's meeting place, not the app's database). Replace it with your
        /// app's store (SwiftData, Core Data, a server): `PendingImporter` only calls `load` and `save`.
        public struct SavedItemStore {
            public let path: String

            public init(path: String) {
                self.path = path
            }

            /// The store in the app's data folder: `$XDG_DATA_HOME/\(spec.fileName)/saved-items.json`, else
            /// `~/.local/share/\(spec.fileName)/saved-items.json`.
            public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment)
                -> SavedItemStore
            {
                let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                    ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
                return SavedItemStore(path: data + \(swiftLiteral("/" + spec.fileName + "/saved-items.json")))
            }

            /// Every item, oldest first; none when the file does not exist yet.
            public func load() throws -> [SavedItem] {
                guard FileManager.default.fileExists(atPath: path) else { return [] }
                return try JSONDecoder().decode([SavedItem].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            }

            /// Replaces the file with `items`, atomically.
            public func save(_ items: [SavedItem]) throws {
                let url = URL(fileURLWithPath: path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(items).write(to: url, options: .atomic)
            }
        }

        """
    }

    static func appMain(_ spec: ProjectSpec) -> String {
        """
        import Foundation
        import \(spec.appTarget)

        // A command line standing in for \(spec.name)'s app: the same library a real app links
        // (\(spec.appTarget)), called from a terminal instead of a window.
        //   \(spec.appProduct) on | off               turn the extension on or off
        //   \(spec.appProduct) vocabulary WORD=NEW…   write the words it replaces on pages, and turn it on
        //   \(spec.appProduct) import                 move what the extension saved into the app's list
        //   \(spec.appProduct) list                   print the app's list
        //   \(spec.appProduct) status                 on or off, how many words, how many saved items wait
        func run(_ arguments: [String]) throws -> Int32 {
            let suite = try AppSuite()
            let store = SavedItemStore.standard()
            switch (arguments.first, arguments.count) {
            case ("on", 1), ("off", 1):
                try suite.setExtensionEnabled(arguments[0] == "on")
                print("the extension is \\(arguments[0]) (group \\(suite.container.groupID))")
            case ("vocabulary", 2...):
                var words: [String: String] = [:]
                for pair in arguments.dropFirst() {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, !parts[0].isEmpty else {
                        FileHandle.standardError.write(Data("not WORD=NEW: \\(pair)\\n".utf8))
                        return 64
                    }
                    words[parts[0]] = parts[1]
                }
                try suite.writeVocabulary(words)
                print("wrote \\(words.count) word(s); the extension is on (group \\(suite.container.groupID))")
            case ("import", 1):
                let (imported, alreadyThere) = try PendingImporter(suite: suite, store: store).drainPending()
                print("imported \\(imported), \\(alreadyThere) already in the list (\\(store.path))")
            case ("list", 1):
                for item in try store.load() { print(item.listLine) }
            case ("status", 1):
                let (enabled, vocabulary, waiting) = try suite.status()
                print("extension \\(enabled ? "on" : "off"), \\(vocabulary.count) word(s), \\(waiting) saved item(s) waiting")
            default:
                let usage = "usage: \(spec.appProduct) on | off | vocabulary WORD=NEW… | import | list | status\\n"
                FileHandle.standardError.write(Data(usage.utf8))
                return 64
            }
            return 0
        }

        do {
            exit(try run(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("\(spec.appProduct): \\(error)\\n".utf8))
            exit(1)
        }

        """
    }

    static func appTests(_ spec: ProjectSpec) -> String {
        """
        import Foundation
        import SharedSuite
        import Testing
        import \(spec.appTarget)

        /// The app's side over a real group folder: what the host the browser starts reads, and what
        /// it queued when the extension saved a page.
        @Suite struct AppSuiteTests {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-\\(UUID().uuidString)")
            var container: GroupContainer {
                GroupContainer(path: folder.appendingPathComponent("group").path, groupID: \(swiftLiteral(spec.group)))
            }

            @Test func on_turnsTheExtensionOn_andTheVocabularyIsWhatTheHostReads() throws {
                defer { try? FileManager.default.removeItem(at: folder) }
                let suite = try AppSuite(container: container)
                #expect(try suite.status().enabled == false, "a fresh group is off")
                try suite.setExtensionEnabled(true)
                #expect(SuiteKeys.isEnabled(try Suite(container: container).snapshot()))
                try suite.writeVocabulary(["blue": "blauw"])
                let snapshot = try Suite(container: container).snapshot()
                #expect(snapshot.dictionary(SuiteKeys.vocabulary)?["blue"]?.coercedString == "blauw")
                try suite.setExtensionEnabled(false)
                #expect(try suite.status().enabled == false)
            }

            @Test func import_drainsASavedItemIntoTheStore_eachURLOnce() throws {
                defer { try? FileManager.default.removeItem(at: folder) }
                let suite = try AppSuite(container: container)
                try suite.setExtensionEnabled(true)
                let store = SavedItemStore(path: folder.appendingPathComponent("saved-items.json").path)
                // What the host does when the extension saves a page.
                let queue = PendingQueue(container: container)
                let saved = NewQueueItem(
                    url: "https://example.com/a", title: "A page", content: "text",
                    source: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
                _ = try queue.append(saved)
                let importer = PendingImporter(suite: suite, store: store)
                let first = try importer.drainPending()
                #expect(first.imported == 1 && first.alreadyThere == 0)
                #expect(try store.load().map(\\.url) == ["https://example.com/a"])
                #expect(try store.load().first?.title == "A page")
                #expect(try queue.count() == 0, "the item left the queue")
                _ = try queue.append(saved)
                let second = try importer.drainPending()
                #expect(second.imported == 0 && second.alreadyThere == 1, "the same URL is not added twice")
                #expect(try store.load().count == 1)
            }

            /// A page's title with line breaks and a tab stays one line of three fields in `list`.
            @Test func aTitleWithLineBreaks_isOneLineOfTheList() {
                let item = SavedItem(
                    url: "https://example.com/a", title: "A\\nfake entry\\r\\u{2028}x\\ty\\u{202E}",
                    savedAt: "2026-01-01T00:00:00Z", kind: "page")
                #expect(
                    item.listLine
                        == "2026-01-01T00:00:00Z\\thttps://example.com/a\\tA\\\\u{a}fake entry\\\\u{d}\\\\u{2028}x\\\\u{9}y\\\\u{202e}")
                #expect(!item.listLine.contains("\\n") && item.listLine.split(separator: "\\t").count == 3)
            }
        }

        """
    }
}
