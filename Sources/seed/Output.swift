import Foundation
import SeedKit

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

    /// Prints the issues of an invalid report on stderr, sorted, with a closing count.
    static func issues(_ issues: [SeedIssue], templates: String) {
        for issue in issues { err(issue.description) }
        let count = issues.count
        err("seed: \(count) problem\(count == 1 ? "" : "s") in \(TerminalText.quoted(templates)); nothing was written")
    }
}
