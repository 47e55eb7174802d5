import Foundation
import SeedKitJSON
import SeedKitSupport
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// Locates the problems of template files: a file and a JSON Pointer become `file:line:column`.
///
///     let locator = IssueLocator(files: set.files, directory: set.directory, keepsContents: false)
///     locator.issue(.unknownKey, file: 3, pointer: pointer, isAtKey: false, message: "…")   // staff/ann.template:4:7: /name: …
///
/// Reading lets each file's bytes go once its records are made, so a file is parsed again only to locate a problem
/// in it, and read again from disk only if its bytes are gone — and only when it is still the file the walk found,
/// with the hash it was read with, so that a location never points into other contents.
final class IssueLocator {
    /// The files, without their contents unless kept.
    private let files: [TemplateSet.File]
    /// The directory's path, which a file's relative path follows: a file's path is made only to read it again.
    private let directoryPath: String
    /// The directory as given, which a file's path is shown in.
    private let displayDirectory: String
    private var documents: [Int: JSONDocument?] = [:]

    /// A locator of problems in `files`, keeping their contents or (`keepsContents` false) reading a file again to
    /// locate a problem in it.
    init(files: [TemplateSet.File], directory: URL, keepsContents: Bool) {
        directoryPath = directory.path
        displayDirectory = files.first?.displayDirectory ?? directory.relativePath
        self.files = keepsContents ? files : files.map {
            var file = $0
            file.bytes = []
            return file
        }
    }

    var fileCount: Int { files.count }

    /// The path of a file as shown.
    func path(of file: Int) -> String { TemplateSet.displayPath(of: files[file].relativePath, in: displayDirectory) }

    /// A located issue; without line and column when the file cannot be read again unchanged.
    func issue(_ code: Diagnostic.Code, file: Int, pointer: JSONPointer, isAtKey: Bool, message: String) -> Diagnostic {
        let location = self.location(file: file, pointer: pointer, isAtKey: isAtKey)
        return Diagnostic(
            code, file: path(of: file), line: location?.line, column: location?.column, pointer: pointer,
            message: message)
    }

    /// The place of a value, for a diagnostic that names a second place.
    func place(file: Int, pointer: JSONPointer) -> Diagnostic.Place {
        let location = self.location(file: file, pointer: pointer, isAtKey: false)
        return Diagnostic.Place(
            file: path(of: file), line: location?.line, column: location?.column, pointer: pointer)
    }

    /// Where `pointer` (or its key) is in the file, else its nearest ancestor that is; nil when the file is gone.
    private func location(file: Int, pointer: JSONPointer, isAtKey: Bool) -> SourceLocation? {
        guard let document = document(file) else { return nil }
        if isAtKey, let location = document.locationOfKey(pointer) { return location }
        var current: JSONPointer? = pointer
        while let candidate = current {
            if let location = document.location(of: candidate) { return location }
            current = candidate.parent
        }
        return nil
    }

    private func document(_ file: Int) -> JSONDocument? {
        if let document = documents[file] { return document }
        var bytes = files[file].bytes
        if bytes.isEmpty { bytes = TemplateSet.contentsAgain(of: files[file], in: directoryPath) ?? [] }
        let document = bytes.isEmpty ? nil : try? JSONDocument(parsing: bytes, file: path(of: file))
        documents[file] = document
        return document
    }
}
