import Foundation
import SeedKit

/// Where the tool writes: reports on stdout, diagnostics on stderr.
enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func json(_ value: JSON) {
        out(value.text(style: .pretty))
    }

    /// Prints the issues of an invalid report on stderr, sorted, with a closing count.
    static func issues(_ report: SeedReport, templates: String) {
        for issue in report.issues { err(issue.description) }
        let count = report.issues.count
        err("seed: \(count) problem\(count == 1 ? "" : "s") in \(templates); nothing was written")
    }

    /// Says on stderr that the model was inferred, and how to make it explicit.
    static func inferredModelWarning(templates: String) {
        err("seed: warning: no model.json in \(templates); using a model inferred from the templates — run "
            + "'seed model --templates \(templates) > \(templates)/model.json' to make it explicit")
    }

    static func model(_ model: EntityModel, path: String) {
        out("model \(path): \(model.entities.count) entities")
        for entity in model.entities {
            let parent = entity.parentName.map { " : \($0)" } ?? ""
            let identity = entity.identity.isEmpty ? "" : " identity(\(entity.identity.joined(separator: ", ")))"
            out("  \(entity.name)\(parent)\(identity) — \(entity.attributes.count) attributes, \(entity.relationships.count) relationships")
        }
    }
}
