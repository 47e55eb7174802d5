import Foundation
import SeedKit
import SeedKitSupport

/// Where the tool writes: reports on stdout, diagnostics on stderr.
///
/// A line (``out(_:)``, ``err(_:)``) has its control characters escaped (``TerminalText``): values, keys, class
/// names and paths from templates and stores cannot forge output. A block (``block(_:)``) is text the library
/// already made safe line by line, such as a diff, a table or JSON.
enum Output {
    static func out(_ line: String) {
        write(TerminalText.escaped(line) + "\n", to: .standardOutput)
    }

    static func err(_ line: String) {
        write(TerminalText.escaped(line) + "\n", to: .standardError)
    }

    /// Writes `text`, already made of safe lines, to stdout as it is.
    static func block(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: .standardOutput)
    }

    static func json(_ value: JSON) {
        block(value.text(style: .pretty))
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }

    /// Whether stdout takes colours: a terminal, and `NO_COLOR` unset or empty (as no-color.org defines it).
    static var isColored: Bool {
        isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Says what a run kept as the application left it and what the templates no longer hold: counts, and the
    /// first few readably (`--json` lists them all).
    static func keptAndRemoved(_ report: SeedReport) {
        let shown = 5
        if !report.keptObjects.isEmpty {
            let count = report.keptObjects.count
            out("kept \(count) object\(count == 1 ? "" : "s") the application changed since seeding (--force overwrites):")
            let conflicted = Set(report.conflicts.map(\.object))
            let others = report.keptObjects.filter { !conflicted.contains($0) }
            let lines = report.conflicts.map(\.description) + others.map { "\($0) (deleted or changed by the application)" }
            for line in lines.prefix(shown) { out("  \(line)") }
            if lines.count > shown { out("  … and \(lines.count - shown) more (--json lists them all)") }
        }
        if !report.removedFromTemplates.isEmpty {
            let count = report.removedFromTemplates.count
            let list = report.removedFromTemplates.prefix(shown).joined(separator: ", ") + (count > shown ? ", …" : "")
            out("\(count) no longer in the templates; --prune deletes \(count == 1 ? "it" : "them"): \(list)")
        }
    }

    /// Prints the issues of an invalid report on stderr, sorted, with a closing count.
    static func issues(_ issues: [Diagnostic], templates: String) {
        for issue in issues { err(issue.description) }
        let count = issues.count
        err("seed: \(count) problem\(count == 1 ? "" : "s") in \(TerminalText.quoted(templates)); nothing was written")
    }
}
