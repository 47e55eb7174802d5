import Foundation
import SeedKit
import SeedKitSupport

func runExport(_ arguments: Arguments) throws -> ExitCode {
    let store = try StoreArgument(arguments)
    guard FileManager.default.fileExists(atPath: store.path) else {
        throw CommandFailure("no store at \(TerminalText.quoted(store.path))")
    }
    let format = arguments.value(.exportFormat) ?? "json"
    let output = arguments.value(.output)
    if format == "templates" && output == nil { throw UsageError("--format templates needs --output DIR") }
    var options = SQLiteStore.Options()
    options.connection.openMode = .readOnly
    options.connection.busyTimeout = store.busyTimeout
    let sqliteStore: SQLiteStore = try store.run {
        guard let modelPath = arguments.value(.model) else {
            return try SQLiteStore(existingAt: store.path, options: options)
        }
        let model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
        // Opening with another model would migrate the store, which a read-only export must not do.
        if let stored = try? SQLiteStore.storedModel(atPath: store.path), stored != model {
            throw CommandFailure(
                "the model in \(TerminalText.quoted(modelPath)) is not the one \(TerminalText.quoted(store.path)) "
                    + "holds; leave out --model to read the store with its own")
        }
        return try SQLiteStore(path: store.path, model: model, options: options)
    }
    let entities = arguments.values(.entity)
    let export = GraphExport(entityNames: entities.isEmpty ? nil : entities)
    switch (format, output) {
    case ("templates", let directory?):
        let paths = try export.writeTemplates(store: sqliteStore, to: URL(fileURLWithPath: directory))
        Output.err("seed: wrote \(paths.count - 1) template files and model.json to \(TerminalText.quoted(directory))")
    case (_, let path?):
        try export.write(store: sqliteStore, toFileAtPath: path)
    case (_, nil):
        FileHandle.standardOutput.write(Data(try export.document(of: sqliteStore)))
    }
    return .success
}
