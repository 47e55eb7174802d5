import Foundation
import SeedKit

func runExport(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments.parse(arguments, values: ["--store", "--output", "--entity", "--format", "--model"], flags: [])
    let storePath = parsed.value("--store") ?? "seed.sqlite"
    let format = parsed.value("--format") ?? "json"
    guard format == "json" || format == "templates" else {
        throw UsageError("unknown format '\(format)'; use json or templates")
    }
    var options = SQLiteStore.Options()
    options.connection.openMode = .readOnly
    guard FileManager.default.fileExists(atPath: storePath) else { throw SeedError("no store at \(storePath)") }
    let store: SQLiteStore
    if let modelPath = parsed.value("--model") {
        let model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
        // Opening with another model would migrate the store, which a read-only export must not do.
        if let stored = try? SQLiteStore.storedModel(atPath: storePath), stored != model {
            throw SeedError("the model in \(modelPath) is not the one \(storePath) holds; leave out --model to read the store with its own")
        }
        store = try SQLiteStore(path: storePath, model: model, options: options)
    } else {
        store = try SQLiteStore(existingAt: storePath, options: options)
    }
    let export = GraphExport(entityNames: parsed.values("--entity").isEmpty ? nil : parsed.values("--entity"))
    let context = store.newContext()
    switch (format, parsed.value("--output")) {
    case ("templates", nil):
        throw UsageError("--format templates needs --output DIR")
    case ("templates", let directory?):
        let paths = try export.writeTemplates(context, to: URL(fileURLWithPath: directory))
        Output.err("seed: wrote \(paths.count - 1) template files and model.json to \(directory)")
    case (_, let path?):
        try export.write(context, toFileAtPath: path)
    case (_, nil):
        FileHandle.standardOutput.write(Data(try export.document(of: context)))
    }
    return 0
}
