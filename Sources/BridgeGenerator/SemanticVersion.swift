/// A semantic version (`1.2.3`, `1.2.3-beta.1`), ordered as semver orders
/// them: numbers first, a pre-release before its release. Build metadata is
/// ignored.
public struct SemanticVersion: Comparable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int
    public var preRelease: [String]

    public init?(_ text: String) {
        guard ProjectSpec.isSemanticVersion(text) else { return nil }
        var core = Substring(text)
        if let plus = core.firstIndex(of: "+") { core = core[..<plus] }
        var pre: [String] = []
        if let dash = core.firstIndex(of: "-") {
            pre = core[core.index(after: dash)...].split(separator: ".").map(String.init)
            core = core[..<dash]
        }
        let numbers = core.split(separator: ".").compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        (major, minor, patch, preRelease) = (numbers[0], numbers[1], numbers[2], pre)
    }

    public var description: String {
        "\(major).\(minor).\(patch)" + (preRelease.isEmpty ? "" : "-" + preRelease.joined(separator: "."))
    }

    public static func < (a: SemanticVersion, b: SemanticVersion) -> Bool {
        if (a.major, a.minor, a.patch) != (b.major, b.minor, b.patch) {
            return (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        }
        if a.preRelease.isEmpty || b.preRelease.isEmpty { return !a.preRelease.isEmpty && b.preRelease.isEmpty }
        for (x, y) in zip(a.preRelease, b.preRelease) where x != y {
            switch (Int(x), Int(y)) {
            case (let i?, let j?): return i < j
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return x < y
            }
        }
        return a.preRelease.count < b.preRelease.count
    }

    public static func == (a: SemanticVersion, b: SemanticVersion) -> Bool {
        (a.major, a.minor, a.patch) == (b.major, b.minor, b.patch) && a.preRelease == b.preRelease
    }
}
