import Foundation
import SeedKitStore
import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitObjects

extension GraphExport {
    /// Writes the export as a template set that `seed` reads back: the model as `model.json`, and one `.template`
    /// file per top-level object, named after its entity and identity.
    ///
    ///     try GraphExport().writeTemplates(store.newContext(), to: URL(fileURLWithPath: "Snapshot"))
    ///     // Snapshot/model.json, Snapshot/Department/Sales.template, Snapshot/Employee/ann@example.com.template, …
    ///
    /// The objects follow the model's template conventions — key style, date formats, references by identity — as
    /// the seeder reads them. Seeding a fresh store from the set and exporting it again gives the same bytes as
    /// exporting this context.
    /// The directory must not exist or be empty; the files are written into a sibling directory that takes its place
    /// at the end, so a failure leaves nothing half-written.
    ///
    /// - Returns: The paths written, relative to `directory`, sorted.
    /// - Throws: ``ExportError`` for a directory that holds files or cannot be written.
    /// - Complexity: as ``document(of:)-(ObjectContext)``, plus one file per top-level object.
    @discardableResult
    public func writeTemplates(_ context: ObjectContext, to directory: URL) throws -> [String] {
        try writeTemplates(lines: { try lines(of: context, templateForm: true) }, model: context.model, to: directory)
    }

    /// Writes the export of a store's rows as a template set (see ``writeTemplates(_:to:)``).
    ///
    /// - Complexity: as ``document(of:)-(SQLiteStore)``, plus one file per top-level object.
    @discardableResult
    public func writeTemplates(store: SQLiteStore, to directory: URL) throws -> [String] {
        try writeTemplates(rows: store, to: directory)
    }

    /// Writes the export of any store's rows (an SQLite or a PostgreSQL store) as a template set, read in one snapshot.
    @discardableResult
    package func writeTemplates(rows store: RowStore, to directory: URL) throws -> [String] {
        try writeTemplates(lines: { try lines(of: store, templateForm: true) }, model: store.model, to: directory)
    }

    private func writeTemplates(lines: () throws -> [[UInt8]], model: EntityModel, to directory: URL) throws -> [String] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue, (try? fileManager.contentsOfDirectory(atPath: directory.path))?.isEmpty == true
            else {
                throw ExportError("\(directory.path) already exists and is not an empty directory; give a new or empty one")
            }
        }
        // Read back from the canonical lines: each within the nesting every reader accepts.
        let objects = try lines().map { try JSONDocument(parsing: $0).value }
        let staging = directory.deletingLastPathComponent()
            .appendingPathComponent(".\(directory.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        try? fileManager.removeItem(at: staging)
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            var paths = ["model.json"]
            try model.write(to: staging.appendingPathComponent("model.json"))
            var names = TemplateFileNames()
            for object in objects {
                let path = names.path(for: object, model: model)
                let url = staging.appendingPathComponent(path)
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                var bytes = object.serialized(style: .pretty)
                bytes.append(UInt8(ascii: "\n"))
                try Data(bytes).write(to: url)
                paths.append(path)
            }
            if fileManager.fileExists(atPath: directory.path) { try fileManager.removeItem(at: directory) }
            try fileManager.moveItem(at: staging, to: directory)
            return paths.sorted()
        } catch let error as ExportError {
            try? fileManager.removeItem(at: staging)
            throw error
        } catch {
            try? fileManager.removeItem(at: staging)
            throw ExportError("cannot write the template set to \(directory.path): \(error.localizedDescription)")
        }
    }
}

/// File names for the top-level objects of a template set: `Entity/identity.template`, unique even on
/// case-insensitive file systems.
struct TemplateFileNames {
    private var taken: Set<String> = []
    private var unnamedCounts: [String: Int] = [:]

    /// The relative path for a top-level object in export form.
    mutating func path(for object: JSON, model: EntityModel) -> String {
        let className = object["class"]?.stringValue ?? "Object"
        var stem: String
        if let entity = model.entity(named: className), !entity.identity.isEmpty,
            case let values = entity.identityIndices.compactMap({ object[entity.attributeKeys[$0]] }),
            values.count == entity.identity.count
        {
            stem = values.map(Self.plainText).joined(separator: ",")
        } else if let id = object["$id"]?.stringValue {
            stem = id
        } else {
            let number = unnamedCounts[className, default: 0] + 1
            unnamedCounts[className] = number
            stem = "\(className)-\(number)"
        }
        let base = "\(Self.safeName(className))/\(Self.safeName(stem))"
        var candidate = base
        var suffix = 1
        while !taken.insert(candidate.lowercased()).inserted {
            suffix += 1
            candidate = "\(base)~\(suffix)"
        }
        return candidate + ".template"
    }

    private static func plainText(_ value: JSON) -> String {
        if case .string(let text) = value { return text }
        return value.text(style: .canonical)
    }

    /// Letters, digits and `@ . _ + -` kept; every other byte as `%XX`; a leading dot escaped; at most 120 bytes.
    static func safeName(_ text: String) -> String {
        var name = ""
        for byte in text.utf8 {
            let kept =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || (byte == UInt8(ascii: ".") && !name.isEmpty)
            if kept {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                name += byte < 0x10 ? "%0\(hex)" : "%\(hex)"
            }
        }
        if name.isEmpty { return "%" }
        if name.utf8.count > 120 {
            name = String(name.prefix(100)) + "-" + String(StableHash.hex(of: text).prefix(16))
        }
        return name
    }
}
