import SeedKitSupport
import SeedKitJSON
import SeedKitModel

/// What a seed run did, or would do on a dry run: per entity, how many objects were inserted, updated, left
/// unchanged, kept (changed by the application since they were seeded) and deleted.
///
///     let report = try Seeder(storePath: "seed.sqlite").seed(templates: templatesURL)
///     if report.status == .applied { print(report.entities["Employee"]?.inserted ?? 0) }
public struct SeedReport: Sendable {
    public enum Status: String, Sendable {
        /// The templates were written to the store (or, on a dry run, would be).
        case applied
        /// The store already holds exactly this template set: nothing was done.
        case unchanged
        /// The templates have problems: nothing was written; see ``issues``.
        case invalid
    }

    /// Object counts of one entity.
    public struct Counts: Sendable, Hashable {
        public var inserted = 0
        public var updated = 0
        public var unchanged = 0
        public var kept = 0
        public var deleted = 0

        package init() {}
    }

    public var status: Status
    /// Counts by entity name (subentities apart from their parents).
    public var entities: [String: Counts] = [:]
    /// Every problem of the set, sorted by file, line and column; empty unless ``status`` is `invalid`.
    public var issues: [Diagnostic] = []
    /// Objects kept because the application changed them since they were seeded (or deleted them), named as
    /// `Employee[email=ann@example.com]`, sorted.
    public var keptObjects: [String] = []
    /// The properties both the templates and the application changed since the last seed: kept as the
    /// application left them, unless the run was forced (then written, and still listed).
    public var conflicts: [SeedConflict] = []
    /// Seeded objects the templates no longer hold, left in the store (`prune` deletes them), sorted.
    public var removedFromTemplates: [String] = []
    /// The template set's fingerprint.
    package var fingerprint: String
    public var isDryRun = false
    /// Whether the model was inferred from the templates, there being no model file.
    public var isModelInferred = false
    /// The model inferred from the templates, when ``isModelInferred``; its choices are worth a look.
    public var inferredModel: EntityModel?
    public var fileCount = 0
    /// The other files under the template directory, not named like templates (the model file aside), by relative
    /// path in sorted order: worth a warning when ``fileCount`` is 0.
    public var ignoredFiles: [String] = []
    /// How many files the run read and planned: every one, or on a later launch the ones changed since the last.
    package var readFileCount = 0

    package init(status: Status, fingerprint: String) {
        self.status = status
        self.fingerprint = fingerprint
    }

    /// The report as `{"status", "entities": {name: counts}, "errors": [{code, file, line, column, pointer, message,
    /// suggestion, related}]}`.
    package var json: JSON {
        var entityObjects: JSONObject = [:]
        for (name, counts) in entities {
            entityObjects[name] = .object([
                "inserted": .number(JSONNumber(Int64(counts.inserted))), "updated": .number(JSONNumber(Int64(counts.updated))),
                "unchanged": .number(JSONNumber(Int64(counts.unchanged))), "kept": .number(JSONNumber(Int64(counts.kept))),
                "deleted": .number(JSONNumber(Int64(counts.deleted))),
            ])
        }
        let errors: [JSON] = issues.map { issue in
            .object([
                "file": issue.file.map(JSON.string) ?? .null,
                "line": issue.line.map { .number(JSONNumber(Int64($0))) } ?? .null,
                "column": issue.column.map { .number(JSONNumber(Int64($0))) } ?? .null,
                "pointer": .string(issue.pointer?.description ?? ""), "message": .string(issue.message),
                "code": .string(issue.code.rawValue), "suggestion": issue.suggestion.map(JSON.string) ?? .null,
                "related": issue.related.map { .string($0.description) } ?? .null,
            ])
        }
        return .object([
            "status": .string(status.rawValue), "entities": .object(entityObjects), "errors": .array(errors),
            "dryRun": .bool(isDryRun), "fingerprint": .string(fingerprint),
            "kept": .array(keptObjects.map(JSON.string)),
            "conflicts": .array(conflicts.map(\.json)),
            "removedFromTemplates": .array(removedFromTemplates.map(JSON.string)),
        ])
    }

    /// The summary table: one row per entity, in name order.
    ///
    ///     entity      inserted  updated  unchanged  kept  deleted
    ///     Department         2        0          0     0        0
    package var table: String {
        let header = ["entity", "inserted", "updated", "unchanged", "kept", "deleted"]
        let rows = entities.keys.sorted().map { name -> [String] in
            let c = entities[name]!
            return [name] + [c.inserted, c.updated, c.unchanged, c.kept, c.deleted].map(String.init)
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}

/// A property that both the templates and the application changed since the last seed.
///
///     Employee[email=e1@example.com].salary: template 40011.5, store 40020 (changed by the application)
public struct SeedConflict: Sendable, Hashable, CustomStringConvertible {
    /// The object, as `Employee[email=e1@example.com]`.
    public var object: String
    public var property: String
    /// The template's value and the store's, as canonical JSON (strings plain where unambiguous).
    public var templateValue: String
    public var storeValue: String

    package init(object: String, property: String, templateValue: String, storeValue: String) {
        self.object = object
        self.property = property
        self.templateValue = templateValue
        self.storeValue = storeValue
    }

    public var description: String {
        "\(object).\(TerminalText.escaped(property)): template \(templateValue), store \(storeValue) (changed by the application)"
    }

    var json: JSON {
        .object([
            "object": .string(object), "property": .string(property), "template": .string(templateValue),
            "store": .string(storeValue),
        ])
    }
}
