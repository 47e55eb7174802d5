import SeedKit
import SeedKitSupport

/// The usage lines and help texts, made from the command table (``Command/all``).
enum Help {
    /// Lines of help are wrapped at this width.
    static let width = 100

    /// `seed validate [--templates DIR] [--model FILE] [--json]`, one per form of the command, each wrapped in lines
    /// of ``width`` columns under "usage: ". An option a form spells out belongs to the forms that spell it.
    static func usageLines(of command: Command) -> [[String]] {
        let spelled = Set(
            command.options.filter { option in command.forms.contains { $0.contains(option.name) } }.map(\.name))
        return command.forms.map { form in
            let bracketed = command.options.filter { !spelled.contains($0.name) }.map { "[\($0.synopsis)]" }
            let words = [command.invocation, form].filter { !$0.isEmpty } + bracketed
            var lines = [words[0]]
            for word in words.dropFirst() {
                if "usage: ".count + lines[lines.count - 1].count + 1 + word.count > width {
                    lines.append(String(repeating: " ", count: command.invocation.count + 1) + word)
                } else {
                    lines[lines.count - 1] += " " + word
                }
            }
            return lines
        }
    }

    /// The help of one command: usage, what it does, its options, its exit statuses.
    static func text(of command: Command) -> String {
        var lines = usage(usageLines(of: command))
        lines += [""] + wrap(command.details, indent: "")
        lines += [""] + options(command.options)
        lines += [""] + wrap("Exit status: \(command.exits).", indent: "")
        return lines.joined(separator: "\n")
    }

    /// The help of the tool: every command's usage, then seeding's help, the list of commands, and where to look next.
    static var toolText: String {
        let seeding = Command.all[0]
        var lines = usage(Command.all.flatMap(usageLines))
        lines += [""] + wrap(seeding.details, indent: "")
        lines += [""] + options(seeding.options)
        lines +=
            ["", "commands:"]
            + columns(Command.all.compactMap { command in command.name.map { ($0, command.summary) } })
        lines += [""] + wrap("'seed help COMMAND' (or 'seed COMMAND --help') shows a command's options.", indent: "")
        lines += wrap("Exit status: \(seeding.exits).", indent: "")
        return lines.joined(separator: "\n")
    }

    private static func usage(_ forms: [[String]]) -> [String] {
        forms.joined().enumerated().map { ($0.offset == 0 ? "usage: " : "       ") + $0.element }
    }

    private static func options(_ options: [Option]) -> [String] {
        ["options:"] + columns(options.map { ($0.synopsis, $0.help) } + [("-h, --help", Option.help.help)])
    }

    /// Two columns: names padded to the longest (up to a limit), descriptions wrapped beside them.
    private static func columns(_ rows: [(String, String)]) -> [String] {
        let nameWidth = min(26, rows.map(\.0.count).max() ?? 0)
        return rows.flatMap { name, text -> [String] in
            let indent = String(repeating: " ", count: nameWidth + 4)
            let wrapped = wrap(text, indent: indent)
            let first = "  " + name.padding(toLength: max(nameWidth, name.count), withPad: " ", startingAt: 0) + "  "
            if name.count > nameWidth { return ["  " + name] + wrapped }
            return [first + wrapped[0].dropFirst(indent.count)] + wrapped.dropFirst()
        }
    }

    /// `text` in lines of at most ``width`` columns, each starting with `indent`.
    static func wrap(_ text: String, indent: String) -> [String] {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}

func runHelp(_ arguments: Arguments) throws -> ExitCode {
    guard let name = arguments.operands.first else {
        Output.block(Help.toolText)
        return .success
    }
    guard let command = Command.named(name) else { throw UsageError.unknownCommand(name) }
    Output.block(Help.text(of: command))
    return .success
}

extension UsageError {
    static func unknownCommand(_ name: String) -> UsageError {
        let names = Command.all.compactMap(\.name)
        let hint =
            Suggestion.nearest(to: name, among: names).map { "; did you mean '\($0)'?" }
            ?? "; commands are \(names.joined(separator: ", "))"
        return UsageError("unknown command '\(name)'\(hint)")
    }
}
