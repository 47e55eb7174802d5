import Foundation

/// The `.template` files under a directory, read and hashed, in sorted relative-path order: one seed input.
///
///     let set = try TemplateSet(directory: URL(fileURLWithPath: "Templates"))
///     set.files.map(\.relativePath)   // ["departments.template", "staff/ann.template", …]
///
/// Files are found recursively; every other file is ignored (the model file is read separately). A symbolic link
/// that leads outside the directory is refused: it is reported as an issue of the set, so a set cannot read files it
/// does not hold.
///
/// - Complexity: O(*n*) in the total size of the files.
public struct TemplateSet: Sendable {
    /// One template file.
    public struct File: Sendable {
        /// The path below the directory, with `/` separators: the file's name in the ledger.
        public var relativePath: String
        /// The path to show in diagnostics: the directory as given, joined with the relative path.
        public var displayPath: String
        public var bytes: [UInt8]
        /// The FNV-1a hash of the bytes.
        public var hash: String
    }

    public static let fileExtension = "template"

    public let directory: URL
    public let files: [File]
    /// Files refused while reading: symbolic links leading outside the directory.
    public let issues: [SeedIssue]

    /// Reads every template file under `directory`.
    ///
    /// - Throws: ``SeedError`` when the directory is missing or a file cannot be read.
    public init(directory: URL) throws(SeedError) {
        self.directory = directory
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SeedError("no template directory at \(directory.relativePath)")
        }
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        guard let enumerator = manager.enumerator(atPath: directory.path) else {
            throw SeedError("cannot list the template directory \(directory.relativePath)")
        }
        var files: [File] = []
        var issues: [SeedIssue] = []
        for case let relativePath as String in enumerator where relativePath.hasSuffix(".\(Self.fileExtension)") {
            let url = directory.appendingPathComponent(relativePath)
            let displayPath = directory.relativePath == "." ? relativePath : "\(directory.relativePath)/\(relativePath)"
            let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
            guard resolved.hasPrefix(root + "/") else {
                issues.append(SeedIssue(file: displayPath, message: "a symbolic link leading outside the template directory is refused"))
                continue
            }
            var isFileDirectory: ObjCBool = false
            guard manager.fileExists(atPath: resolved, isDirectory: &isFileDirectory), !isFileDirectory.boolValue else { continue }
            guard let data = manager.contents(atPath: url.path) else {
                throw SeedError("cannot read the template file \(displayPath)")
            }
            let bytes = [UInt8](data)
            files.append(File(relativePath: relativePath, displayPath: displayPath, bytes: bytes, hash: SeedHash.hex(of: bytes)))
        }
        self.files = files.sorted { $0.relativePath < $1.relativePath }
        self.issues = issues.sorted()
    }

    /// A hash of every file's path and contents and of the model: equal fingerprints, equal seed input.
    func fingerprint(modelFingerprint: String) -> String {
        var text = "model \(modelFingerprint)\n"
        for file in files { text += "\(file.hash) \(file.relativePath)\n" }
        return SeedHash.hex(of: text.utf8)
    }
}
