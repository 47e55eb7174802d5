/// The help text of each subcommand.
enum Usage {
    static let version = "seed (SeedKit) 0.1.0"

    static let seed = """
        usage: seed [--templates DIR] [--store PATH] [--model FILE] [--dry-run] [--prune] [--force] [--json] [--quiet]
               seed validate [--templates DIR] [--model FILE] [--json]
               seed status [--store PATH] [--json]
               seed schema [--model FILE | --templates DIR]
               seed model [--templates DIR] [--model FILE] [--summary]
               seed --version

        Seeds the SQLite store at PATH (default seed.sqlite) from the .template files under DIR (default Templates),
        once: a second run with the same templates does nothing. Every template is checked before anything is written.

          --model FILE  the entity model (default DIR/model.json; without either, inferred from the templates,
                        with a warning: see seed model)
          --dry-run     report what would change, writing nothing
          --prune       delete seeded objects the templates no longer hold, unless the application changed them
          --force       overwrite objects the application changed since they were seeded
          --json        print the report as one JSON object
          --quiet       print nothing on success

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
}
