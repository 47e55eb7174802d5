/// The options a subcommand accepts, and the parse of its arguments against them: hand-written, so the tool keeps
/// SeedKit's promise of no package dependencies.
///
///     let parsed = try Arguments.parse(["--store", "a.sqlite", "--json"], values: ["--store"], flags: ["--json"])
///     parsed.value("--store")   // "a.sqlite"
///
/// Both `--name value` and `--name=value` are accepted, an option may be repeated (the last one counts, or
/// ``values(_:)`` has them all), and up to `positionals` arguments that do not start with `-` are operands; anything
/// else is a ``UsageError``.
struct Arguments {
    private var allValues: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var operands: [String] = []

    func value(_ name: String) -> String? { allValues[name]?.last }
    func values(_ name: String) -> [String] { allValues[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    static func parse(
        _ arguments: [String], values valueNames: Set<String>, flags flagNames: Set<String>, operands maxOperands: Int = 0
    ) throws(UsageError) -> Arguments {
        var parsed = Arguments()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if valueNames.contains(name) {
                if argument.contains("=") {
                    parsed.allValues[name, default: []].append(String(argument.dropFirst(name.count + 1)))
                } else if let value = rest.popFirst() {
                    parsed.allValues[name, default: []].append(value)
                } else {
                    throw UsageError("\(name) needs a value")
                }
            } else if flagNames.contains(argument) {
                parsed.flags.insert(argument)
            } else if !argument.hasPrefix("-") || argument == "-", parsed.operands.count < maxOperands {
                parsed.operands.append(argument)
            } else {
                throw UsageError("unknown argument '\(argument)'")
            }
        }
        return parsed
    }
}

/// A command line the tool cannot run: exit status 2, with the subcommand's usage.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
