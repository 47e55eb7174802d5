/// A command of `seed`: its name, the options it takes, its help, and what it runs.
///
/// ``Command/all`` is the one table of the tool: dispatching, parsing (``Arguments``), the usage lines and each
/// command's help (``Help``) all read it.
struct Command: Sendable {
    /// The name after `seed`; nil for seeding itself, which has none.
    let name: String?
    /// The ways to call it, each written before its bracketed options: `["OLD NEW", "--templates DIR --store PATH"]`.
    /// An option a form spells out is not repeated in its brackets.
    let forms: [String]
    /// One line for the list of commands.
    let summary: String
    /// What it does, in a paragraph or two.
    let details: String
    let options: [Option]
    /// How many operands it takes.
    let operands: Int
    /// What each exit status means for it.
    let exits: String
    let run: @Sendable (Arguments) throws -> ExitCode

    /// `seed validate`, or `seed` for seeding.
    var invocation: String { name.map { "seed \($0)" } ?? "seed" }

    init(
        _ name: String?, forms: [String] = [""], summary: String, details: String, options: [Option], operands: Int = 0,
        exits: String, run: @escaping @Sendable (Arguments) throws -> ExitCode
    ) {
        self.name = name
        self.forms = forms
        self.summary = summary
        self.details = details
        self.options = options
        self.operands = operands
        self.exits = exits
        self.run = run
    }

    /// The command named `name`, if there is one.
    static func named(_ name: String) -> Command? {
        all.first { $0.name == name }
    }
}

extension Command {
    static let version = "seed (SeedKit) 0.1.0"

    /// Every command, seeding first; the order of the usage lines and of the list in the help.
    static let all: [Command] = [
        Command(
            nil, summary: "seed the store from the templates",
            details: """
                Seeds the SQLite store at PATH from the .template files under DIR, once: a second run with the same \
                templates does nothing. Every template is checked before anything is written. From a terminal, a \
                seed that takes more than half a second shows its progress on stderr.
                """,
            options: [
                .templates, .store, .model, .dryRun, .prune, .force, .allowDataLoss, .busyTimeout, .json, .quiet,
            ],
            exits: "0 seeded or nothing to do; 1 invalid templates (nothing written); 2 usage, I/O or store error",
            run: runSeed),
        Command(
            "validate", summary: "check the model and every template, opening no store",
            details: """
                Checks the model and every template under DIR without opening a store, and lists every problem of \
                every file as file:line:column: /pointer: message.
                """,
            options: [.templates, .model, .json],
            exits: "0 valid; 1 problems found; 2 usage or I/O error",
            run: runValidate),
        Command(
            "status", summary: "show what a store was seeded from",
            details: """
                Prints the seed ledger of the store at PATH: when and from what it was seeded, each template file's \
                hash, and the number of seeded objects per entity. The store is opened read-only.
                """,
            options: [.store, .json],
            exits: "0 printed; 2 usage, I/O or store error",
            run: runStatus),
        Command(
            "model", summary: "print, explain or write the model",
            details: """
                Prints the model in the model file format: the model file, or, when there is none, the model inferred \
                from the templates. With --write, writes it to DIR/model.json to be edited (atomically; an existing \
                one is kept unless --force). With --summary, lists the entities and explains each choice inference \
                made: identity, subentities, owned entities, inverses and attribute types. Every choice can be \
                overridden by editing the model file.
                """,
            options: [.templates, .model, .summary, .write, .overwrite],
            exits: "0 printed or written; 1 the model has problems or the templates contradict each other; "
                + "2 usage or I/O error",
            run: runModel),
        Command(
            "schema", forms: ["[--model FILE | --templates DIR]"], summary: "print a JSON Schema of the templates",
            details: """
                Prints a JSON Schema (draft 2020-12) of the .template files of the model, for editors: class names, \
                each entity's keys and their JSON types, no unknown keys. It checks shape only; seed validate checks \
                the rest.
                """,
            options: [.model.described("the model file, read alone (give it or --templates, not both)"), .templates],
            exits: "0 printed; 1 the model has problems; 2 usage or I/O error",
            run: runSchema),
        Command(
            "export", summary: "write a store as one canonical JSON document",
            details: """
                Writes the object graph of the store at PATH as one canonical JSON document: the model, then one line \
                per top-level object, sorted by entity and identity, keys sorted, owned children nested under their \
                owner, other objects referenced by identity or a deterministic $id. The same data gives the same bytes \
                whatever the insertion order or the store file. The store is opened read-only.
                """,
            options: [
                .store, .output, .entity, .exportFormat,
                .model.described("read the store with this model instead of the one it holds (it must match)"),
            ],
            exits: "0 written; 2 usage, I/O or store error",
            run: runExport),
        Command(
            "diff", forms: ["OLD NEW", "--templates DIR --store PATH"],
            summary: "compare two object graphs by identity",
            details: """
                Compares two object graphs by entity and identity, never by position. OLD and NEW are each an export \
                file (seed export), a template directory or a store. Reports objects added and removed, attribute \
                changes, to-one targets, members joining or leaving to-many relationships, order changes in ordered \
                ones, class and model changes, with paths like Employee[email=ann@example.com].department. With \
                --templates and --store, a drift check: does the store still hold what the templates say? Objects \
                only in the store are counted, not reported.
                """,
            options: [
                .templates.described("with --store: the templates of a drift check"),
                .store.described("with --templates: the store of a drift check"),
                .model.described("the model of a template directory without model.json"), .ignore, .diffFormat,
            ],
            operands: 2,
            exits: "0 no differences; 1 differences; 2 usage, I/O or invalid input",
            run: runDiff),
        Command(
            "help", forms: ["[COMMAND]"], summary: "show the help of seed or of one command",
            details: "Shows the help of COMMAND, or of seed and the list of commands.", options: [], operands: 1,
            exits: "0 shown; 2 no such command",
            run: runHelp),
        Command(
            "version", summary: "print the version", details: "Prints the version of seed and SeedKit.", options: [],
            exits: "0",
            run: { _ in
                Output.out(version)
                return .success
            }),
    ]
}
