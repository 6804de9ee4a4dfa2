/// The profiles of one browser, and the records that could not be used (a
/// `profiles.ini` entry pointing outside its folder, an unreadable `Local State`).
public struct ProfileList: Equatable, Sendable {
    public var profiles: [BrowserProfile] = []
    /// Each problem as (the file or folder concerned, what is wrong).
    public var problems: [(path: String, reason: String)] = []

    public init(profiles: [BrowserProfile] = [], problems: [(path: String, reason: String)] = []) {
        self.profiles = profiles
        self.problems = problems
    }

    public static func == (a: ProfileList, b: ProfileList) -> Bool {
        a.profiles == b.profiles && a.problems.map(\.path) == b.problems.map(\.path)
            && a.problems.map(\.reason) == b.problems.map(\.reason)
    }
}
