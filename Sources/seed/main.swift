import Foundation
import SeedKit

// The command line tool is thin over the library: it finds the command in the table (Command.all), parses its
// arguments, runs it, and maps the outcome to an exit status (ExitCode).

/// The command the arguments name, and the arguments left for it: a name first, or seeding.
func command(for arguments: [String]) throws(UsageError) -> (Command, [String]) {
    guard let first = arguments.first else { return (Command.all[0], []) }
    if first == "--version" { return (Command.named("version")!, Array(arguments.dropFirst())) }
    if let command = Command.named(first) { return (command, Array(arguments.dropFirst())) }
    // Seeding takes no operands: a word first is a mistyped command, or a directory meant for --templates.
    var isDirectory: ObjCBool = false
    if !first.hasPrefix("-") && FileManager.default.fileExists(atPath: first, isDirectory: &isDirectory)
        && isDirectory.boolValue
    {
        throw UsageError("'\(first)' is not a command; to seed from that directory, give --templates \(first)")
    }
    if !first.hasPrefix("-") { throw .unknownCommand(first) }
    return (Command.all[0], arguments)
}

/// Runs the command line, printing what fails as one line on stderr.
func main(_ arguments: [String]) -> ExitCode {
    var current: Command?
    do {
        let (command, rest) = try command(for: arguments)
        current = command
        let parsed = try Arguments.parse(rest, for: command.options, operands: command.operands)
        if parsed.wantsHelp {
            Output.block(command.name == nil ? Help.toolText : Help.text(of: command))
            return .success
        }
        return try command.run(parsed)
    } catch let error as UsageError {
        let help = current?.name.map { "seed \($0) --help" } ?? "seed --help"
        // After a question (did you mean …?), the pointer to the help is a sentence of its own.
        Output.err("seed: \(error.message)\(error.message.hasSuffix("?") ? "" : ";") see '\(help)'")
    } catch let error as CommandFailure {
        Output.err("seed: \(error.message)")
    } catch {
        // A list of problems is printed a problem a line; any other error is one line, whatever its text holds.
        let lines: [String] =
            switch error {
            case let errors as ModelErrors: errors.errors.map(\.description)
            case let errors as GraphDecodingErrors: errors.errors.map(\.description)
            case let errors as SaveErrors: errors.errors.map(\.description)
            case let error as ExportError where !error.issues.isEmpty:
                [ExportError(error.message, location: error.location, pointer: error.pointer).description]
                    + error.issues.map(\.description)
            default: ["\(error)"]
            }
        for (index, line) in lines.enumerated() { Output.err(index == 0 ? "seed: \(line)" : line) }
    }
    return .failure
}

exit(main(Array(CommandLine.arguments.dropFirst())).rawValue)
