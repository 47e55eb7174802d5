import SeedKitJSON

/// A problem that stops seeding before the templates are judged: a missing directory, an unreadable file, a store
/// that cannot be opened. The `seed` command exits with status 2 for it.
///
///     seed: no template directory at Templates
public struct SeedError: Error, Sendable, CustomStringConvertible {
    public var message: String

    package init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

extension Diagnostic.Code {
    /// A symbolic link in a template directory leads outside it, nowhere, into a loop or to a directory.
    static let refusedLink = Diagnostic.Code(rawValue: "refusedLink")
    /// A directory stands where a template file or the model file is looked for.
    static let notAFile = Diagnostic.Code(rawValue: "notAFile")
    /// A template file's or directory's name is not UTF-8, so no path, ledger or message can name it.
    static let nameNotUTF8 = Diagnostic.Code(rawValue: "nameNotUTF8")
    /// The templates give no model to infer, or contradict the one inferred.
    static let inference = Diagnostic.Code(rawValue: "inference")
}
