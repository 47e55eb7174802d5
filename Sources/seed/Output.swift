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

    /// Says what a run kept as the application left it and what the templates no longer hold: counts, and the
    /// first few readably (`--json` lists them all).
    static func keptAndRemoved(_ report: SeedReport) {
        let shown = 5
        if !report.keptObjects.isEmpty {
            let count = report.keptObjects.count
            out("kept \(count) object\(count == 1 ? "" : "s") the application changed since seeding (--force overwrites):")
            let conflicted = Set(report.conflicts.map(\.object))
            for conflict in report.conflicts.prefix(shown) { out("  \(conflict)") }
            let others = report.keptObjects.filter { !conflicted.contains($0) }
            for object in others.prefix(max(0, shown - report.conflicts.count)) { out("  \(object) (deleted or changed by the application)") }
            let listed = min(report.conflicts.count, shown) + min(others.count, max(0, shown - report.conflicts.count))
            let remaining = report.conflicts.count + others.count - listed
            if remaining > 0 { out("  … and \(remaining) more (--json lists them all)") }
        }
        if !report.removedFromTemplates.isEmpty {
            let count = report.removedFromTemplates.count
            let list = report.removedFromTemplates.prefix(shown).joined(separator: ", ") + (count > shown ? ", …" : "")
            out("\(count) no longer in the templates; --prune deletes \(count == 1 ? "it" : "them"): \(list)")
        }
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
