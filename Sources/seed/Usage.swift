/// The help text of each subcommand.
enum Usage {
    static let version = "seed (SeedKit) 0.1.0"

    static let seed = """
        usage: seed [--templates DIR] [--store PATH] [--model FILE] [--dry-run] [--prune] [--force] [--json] [--quiet]
               seed validate [--templates DIR] [--model FILE] [--json]
               seed status [--store PATH] [--json]
               seed schema [--model FILE | --templates DIR]
               seed model [--templates DIR] [--model FILE] [--summary]
               seed export [--store PATH] [--output FILE] [--entity NAME]... [--format json|templates]
               seed diff OLD NEW [--model FILE] [--ignore PATTERN]... [--format text|json|json-patch|github]
               seed diff --templates DIR --store PATH
               seed --version

        Seeds the SQLite store at PATH (default seed.sqlite) from the .template files under DIR (default Templates),
        once: a second run with the same templates does nothing. Every template is checked before anything is written.

          --model FILE  the entity model (default DIR/model.json; without either, inferred from the templates,
                        with a warning: see seed model)
          --dry-run     report what would change, writing nothing
          --prune       delete seeded objects the templates no longer hold, unless the application changed them
          --force       overwrite objects the application changed since they were seeded
          --json        print the report as one JSON object
          --quiet       print nothing on success, and no progress bar

        From a terminal, a seed that takes more than half a second shows its progress on stderr.

        Exit status: 0 seeded or nothing to do; 1 invalid templates (nothing written); 2 usage, I/O or store error.
        """

    static let validate = """
        usage: seed validate [--templates DIR] [--model FILE] [--json]

        Checks the model and every template under DIR (default Templates) without opening a store: every problem of
        every file, as file:line:column: pointer: message. Exit status 1 when there is one.
        """

    static let status = """
        usage: seed status [--store PATH] [--json]

        Prints the seed ledger of the store at PATH (default seed.sqlite): when and from what it was seeded, each
        template file's hash, and the number of seeded objects per entity.
        """

    static let model = """
        usage: seed model [--templates DIR] [--model FILE] [--summary]

        Prints the model in the model file format: the model file (default DIR/model.json, DIR defaulting to
        Templates), or, when there is none, the model inferred from the templates, so that
        'seed model --templates DIR > DIR/model.json' makes it explicit. With --summary, lists the entities instead.
        Exit status 1 when the model has problems or the templates contradict each other.

        Inference: entities from "class"; attribute types from values (ISO 8601 strings are dates, UUID-shaped ones
        uuids, other arrays and objects json; a key null or missing in some object is optional); relationships from
        nested objects with "class" or "$ref" (arrays are to-many). Identity only when references make it evident;
        inverses never.
        """

    static let schema = """
        usage: seed schema [--model FILE | --templates DIR]

        Prints a JSON Schema (draft 2020-12) of the .template files of the model (default Templates/model.json, or
        the model inferred from DIR's templates) for editors: class names, each entity's keys and their JSON types,
        no unknown keys. It checks shape only; seed validate checks the rest.
        """

    static let export = """
        usage: seed export [--store PATH] [--output FILE] [--entity NAME]... [--format json|templates] [--model FILE]

        Writes the object graph of the store at PATH (default seed.sqlite) as one canonical JSON document, to FILE
        or standard output: the model, then one line per top-level object, sorted by entity and identity, keys
        sorted, owned children nested under their owner, other objects referenced by identity or a deterministic
        $id. The same data gives the same bytes whatever the insertion order or the store file.

          --entity NAME          export only objects of NAME and its subentities (repeatable), with their owned children
          --format templates     write a template set into the new or empty directory FILE instead: model.json and
                                 one .template file per top-level object; seeding it reproduces the export exactly
          --model FILE           read the store with this model instead of the one it holds (it must match)

        The store is opened read-only. Exit status: 0 written; 2 usage, I/O or store error.
        """

    static let diff = """
        usage: seed diff OLD NEW [--model FILE] [--ignore PATTERN]... [--format text|json|json-patch|github]
               seed diff --templates DIR --store PATH [--model FILE] [--ignore PATTERN]... [--format …]

        Compares two object graphs by entity and identity, never by position. OLD and NEW are each an export file
        (seed export), a template directory or a store. Reports objects added and removed, attribute changes,
        to-one targets, members joining or leaving to-many relationships (unordered ones compared as sets), order
        changes in ordered ones, class and model changes, with paths like Employee[email=ann@example.com].department.

        With --templates and --store, a drift check: does the store still hold what the templates say? Objects only
        in the store are counted, not reported.

          --model FILE           the model of a template directory without model.json
          --ignore PATTERN       leave out changes of Entity.property, *.property or a whole Entity (repeatable;
                                 not for json-patch, which always turns OLD into NEW)
          --format text          one line per change and a summary (default; coloured on a terminal unless NO_COLOR)
          --format json          one JSON object: {"differences": [...], "summary": {...}}
          --format json-patch    an RFC 6902 patch that turns OLD's canonical export into NEW's
          --format github        GitHub Actions annotations at each object's line in NEW (or OLD for removals)

        Exit status: 0 no differences; 1 differences; 2 usage, I/O or invalid input.
        """
}
