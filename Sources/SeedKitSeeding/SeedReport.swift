import SeedKitJSON

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

        public init() {}
    }

    public var status: Status
    /// Counts by entity name (subentities apart from their parents).
    public var entities: [String: Counts] = [:]
    /// Every problem of the set, sorted by file, line and column; empty unless ``status`` is `invalid`.
    public var issues: [Diagnostic] = []
    /// Objects kept because the application changed them since they were seeded, as `Entity key` descriptions.
    public var keptObjects: [String] = []
    /// The template set's fingerprint.
    public var fingerprint: String
    public var isDryRun = false
    /// Whether the model was inferred from the templates, there being no model file (see ``ModelInference``).
    public var isModelInferred = false
    public var fileCount = 0

    public init(status: Status, fingerprint: String) {
        self.status = status
        self.fingerprint = fingerprint
    }

    /// The report as `{"status", "entities": {name: counts}, "errors": [{file, line, column, pointer, message}]}`.
    public var json: JSON {
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
                "code": .string(issue.code.rawValue),
            ])
        }
        return .object([
            "status": .string(status.rawValue), "entities": .object(entityObjects), "errors": .array(errors),
            "dryRun": .bool(isDryRun), "fingerprint": .string(fingerprint),
        ])
    }

    /// The summary table: one row per entity, in name order.
    ///
    ///     entity      inserted  updated  unchanged  kept  deleted
    ///     Department         2        0          0     0        0
    public var table: String {
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
