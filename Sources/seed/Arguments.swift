import SeedKit
import SeedKitSupport

/// A command's arguments, parsed against the options it takes: hand-written, so the tool keeps SeedKit's promise of
/// no package dependencies.
///
///     let parsed = try Arguments.parse(["--store", "a.sqlite", "--json"], for: [.store, .json])
///     parsed.value(.store)   // "a.sqlite"
///     parsed.has(.json)      // true
///
/// `--name value` and `--name=value` are both accepted. A value that starts with `-` must be given as `--name=-value`:
/// `--templates --store x` is a missing value, not a directory named `--store`. `--help` or `-h` anywhere asks for
/// help. Up to `operands` arguments that do not start with `-` (or are `-`) are operands; anything else is a
/// ``UsageError``.
struct Arguments {
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private(set) var operands: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// The option's value, the last one when it was repeated.
    func value(_ option: Option) -> String? { values[option.name]?.last }
    /// Every value of a repeatable option, in order.
    func values(_ option: Option) -> [String] { values[option.name] ?? [] }
    func has(_ option: Option) -> Bool { flags.contains(option.name) }

    /// - Complexity: O(*n* + *m*) for *n* arguments and *m* options; a did-you-mean costs O(*m*) edit distances.
    static func parse(
        _ arguments: [String], for options: [Option], operands maxOperands: Int = 0
    ) throws(UsageError) -> Arguments {
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var parsed = Arguments()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
                continue
            }
            if argument == "--" {
                // Everything after `--` is an operand, even when it starts with `-`.
                for operand in rest { try parsed.addOperand(operand, max: maxOperands) }
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                try parsed.addOperand(argument, max: maxOperands)
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            guard let option = byName[name] else {
                throw .unknownOption(name, suggestion: Suggestion.nearest(to: name, among: byName.keys))
            }
            guard option.placeholder != nil else {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let next = rest.first, !(next.hasPrefix("-") && next != "-") {
                value = rest.removeFirst()
            } else {
                throw .missingValue(option, next: rest.first)
            }
            if !option.choices.isEmpty && !option.choices.contains(value) {
                let listed = option.choices.joined(separator: ", ")
                throw UsageError(
                    "\(name) '\(value)' is not one of \(listed)"
                        + (Suggestion.nearest(to: value, among: option.choices).map { "; did you mean '\($0)'?" } ?? "")
                )
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }

    private mutating func addOperand(_ operand: String, max: Int) throws(UsageError) {
        guard operands.count < max else { throw .unexpectedOperand(operand, expected: max) }
        operands.append(operand)
    }

    /// `--name=value` as its name and value; `--name` as its name alone.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

/// A command line the tool cannot run: one line on stderr with what is wrong and where to look, exit status 2.
struct UsageError: Error {
    var message: String
    /// The command whose usage was broken, for the pointer to its help; nil for the tool as a whole.
    var command: String?

    init(_ message: String) {
        self.message = message
    }

    static func unknownOption(_ name: String, suggestion: String?) -> UsageError {
        UsageError("unknown option '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
    }

    static func missingValue(_ option: Option, next: String?) -> UsageError {
        var message = "\(option.name) needs a value (\(option.placeholder ?? "VALUE"))"
        if let next {
            message += "; '\(next)' is an option, not its value (write \(option.name)=\(next) if it is)"
        }
        return UsageError(message)
    }

    static func unexpectedOperand(_ operand: String, expected: Int) -> UsageError {
        UsageError(
            expected == 0
                ? "unexpected argument '\(operand)'" : "unexpected argument '\(operand)': at most \(expected) are taken"
        )
    }
}
