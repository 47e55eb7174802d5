/// One command-line option: how it is spelt, whether it takes a value, and what it does.
///
/// Each option is declared once, below; a ``Command`` lists the ones it takes, and that list is all the parser, the
/// usage line and the help read, so the three cannot drift apart.
///
///     static let store = Option("--store", value: "PATH", "the SQLite store file (default seed.sqlite)")
struct Option: Sendable {
    enum Kind: Sendable, Equatable {
        /// Present or not: `--json`.
        case flag
        /// Takes a value, as `--store PATH` or `--store=PATH`; when repeated, the last one counts.
        case value(placeholder: String)
        /// Takes a value and may be repeated, every value counting: `--ignore PATTERN`….
        case repeatable(placeholder: String)
    }

    let name: String
    let kind: Kind
    /// What the option does, for the help: a short phrase, wrapped by ``Help``.
    let help: String
    /// The values the option accepts, when they are a fixed list: checked by the parser, listed by the help.
    let choices: [String]

    init(_ name: String, kind: Kind, choices: [String] = [], _ help: String) {
        self.name = name
        self.kind = kind
        self.help = help
        self.choices = choices
    }

    /// A flag.
    init(_ name: String, _ help: String) {
        self.init(name, kind: .flag, help)
    }

    /// An option that takes a value, the last one counting.
    init(_ name: String, value placeholder: String, choices: [String] = [], _ help: String) {
        self.init(name, kind: .value(placeholder: placeholder), choices: choices, help)
    }

    /// The same option described differently, for a command where it means something more specific.
    func described(_ help: String) -> Option {
        Option(name, kind: kind, choices: choices, help)
    }

    var placeholder: String? {
        switch kind {
        case .flag: nil
        case .value(let placeholder), .repeatable(let placeholder): placeholder
        }
    }

    /// `--store PATH`, `--format text|json`, or `--ignore PATTERN...` as the usage line writes it.
    var synopsis: String {
        guard let placeholder else { return name }
        let value = choices.isEmpty ? placeholder : choices.joined(separator: "|")
        return "\(name) \(value)\(kind == .repeatable(placeholder: placeholder) ? "..." : "")"
    }
}

// Every option of the tool, once.
extension Option {
    static let templates = Option("--templates", value: "DIR", "the template directory (default Templates)")
    static let store = Option(
        "--store", value: "PATH", "the SQLite store file (default seed.sqlite), or a postgresql:// URL")
    static let model = Option(
        "--model", value: "FILE",
        "the model file (default DIR/model.json; without either, the model is inferred from the templates: "
            + "see seed model)")
    static let dryRun = Option("--dry-run", "report what would change, writing nothing")
    static let prune = Option(
        "--prune", "delete seeded objects the templates no longer hold, unless the application changed them")
    static let force = Option("--force", "overwrite objects the application changed since they were seeded")
    static let allowDataLoss = Option(
        "--allow-data-loss", "let a model change drop the columns and tables of properties and entities it removed")
    static let busyTimeout = Option(
        "--busy-timeout", value: "SECONDS", "how long to wait for another process that holds the store (default 5)")
    static let json = Option("--json", "print the report as one JSON object")
    static let quiet = Option("--quiet", "print nothing on success, and no progress display")
    static let summary = Option(
        "--summary", "list the entities and explain each inferred choice instead of printing the model file")
    static let write = Option("--write", "write the model to DIR/model.json instead of printing it")
    static let overwrite = Option("--force", "with --write, replace an existing model.json")
    static let output = Option("--output", value: "FILE", "write to FILE instead of standard output")
    static let entity = Option(
        "--entity", kind: .repeatable(placeholder: "NAME"),
        "export only objects of NAME and its subentities, with their owned children")
    static let exportFormat = Option(
        "--format", value: "FORMAT", choices: ["json", "templates"],
        "json: one canonical document (default); templates: a template set in the new or empty directory --output names"
    )
    static let diffFormat = Option(
        "--format", value: "FORMAT", choices: ["text", "json", "json-patch", "github"],
        "text: a line per change and a summary (default; coloured on a terminal unless NO_COLOR is set); json: one "
            + "object; json-patch: an RFC 6902 patch turning OLD's export into NEW's; github: workflow annotations")
    static let ignore = Option(
        "--ignore", kind: .repeatable(placeholder: "PATTERN"),
        "leave out changes of Entity.property, *.property or a whole Entity (not for json-patch, which always "
            + "turns OLD into NEW)")
    static let help = Option("--help", "show this help")
}
