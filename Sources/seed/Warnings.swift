import Foundation
import SeedKit
import SeedKitSupport

/// The warnings a command gives about its templates on stderr, before its report.
enum Warnings {
    /// Warns of an inferred model, or of a directory without templates, as `report` says.
    static func templates(_ report: SeedReport, templates: String) {
        if report.fileCount == 0 { noTemplates(in: templates, ignored: report.ignoredFiles) }
        if report.isModelInferred { inferredModel(report.inferredModel, templates: templates) }
    }

    /// Says that the model was inferred, which relationships it takes as inverses (the choice most worth a look),
    /// and how to make it explicit.
    static func inferredModel(_ model: EntityModel?, templates: String) {
        let directory = TerminalText.quoted(templates)
        let file = URL(fileURLWithPath: templates).appendingPathComponent("model.json").path
        let missing =
            FileManager.default.fileExists(atPath: file)
            ? "\(directory)/model.json is empty" : "no model.json in \(directory)"
        let inverses = model.map(inversePairs) ?? []
        let taken = inverses.isEmpty ? "" : " (it takes \(inverses.joined(separator: ", ")) as inverses)"
        let option = templates == "Templates" ? "" : " --templates \(directory)"
        Output.err(
            "seed: warning: \(missing); using a model inferred from the templates\(taken) — run 'seed model --write"
                + "\(option)' to write it to \(directory)/model.json, and 'seed model --summary\(option)' for why")
    }

    /// `Department.employees and Employee.department` for each pair of inverse relationships, once.
    private static func inversePairs(_ model: EntityModel) -> [String] {
        model.declarations.flatMap { entity in
            entity.relationships.compactMap { relationship -> String? in
                guard let inverse = relationship.inverse,
                    (entity.name, relationship.name) < (relationship.destination, inverse)
                else { return nil }
                return "\(entity.name).\(relationship.name) and \(relationship.destination).\(inverse)"
            }
        }
    }

    /// Warns that `templates` holds no `.template` file, naming a few of the files that were ignored.
    static func noTemplates(in templates: String, ignored: [String]) {
        let directory = TerminalText.quoted(templates)
        guard !ignored.isEmpty else {
            Output.err("seed: warning: no .template files in \(directory)")
            return
        }
        let shown = ignored.prefix(3).map(TerminalText.quoted).joined(separator: ", ")
        let more = ignored.count > 3 ? " and \(ignored.count - 3) more" : ""
        Output.err(
            "seed: warning: no .template files in \(directory); ignored \(ignored.count) other file"
                + "\(ignored.count == 1 ? "" : "s") (\(shown)\(more)): templates are JSON files named NAME.template")
    }
}
