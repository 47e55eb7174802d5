import Foundation
import SeedKit
import SeedKitSupport

func runExport(_ arguments: Arguments) throws -> ExitCode {
    let store = try StoreArgument(arguments)
    let format = arguments.value(.exportFormat) ?? "json"
    let output = arguments.value(.output)
    if format == "templates" && output == nil { throw UsageError("--format templates needs --output DIR") }
    let entities = arguments.values(.entity)
    let export = GraphExport(entityNames: entities.isEmpty ? nil : entities)
    let rows = try store.isServer ? serverStore(store, arguments) : fileStore(store, arguments)
    switch (format, output) {
    case ("templates", let directory?):
        let paths = try export.writeTemplates(rows: rows, to: URL(fileURLWithPath: directory))
        Output.err("seed: wrote \(paths.count - 1) template files and model.json to \(TerminalText.quoted(directory))")
    case (_, let path?):
        try export.write(rows: rows, toFileAtPath: path)
    case (_, nil):
        FileHandle.standardOutput.write(Data(try export.document(ofRows: rows)))
    }
    return .success
}

/// The SQLite store of `--store`, opened read-only with the model it holds or the one `--model` names.
private func fileStore(_ store: StoreArgument, _ arguments: Arguments) throws -> any RowStore {
    guard FileManager.default.fileExists(atPath: store.path) else {
        throw CommandFailure("no store at \(TerminalText.quoted(store.path))")
    }
    var options = SQLiteStore.Options()
    options.connection.openMode = .readOnly
    options.connection.busyTimeout = store.busyTimeout
    return try store.run {
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
}

/// The PostgreSQL store of `--store postgresql://…`, with the model it holds; read in one snapshot.
private func serverStore(_ store: StoreArgument, _ arguments: Arguments) throws -> any RowStore {
    if arguments.value(.model) != nil {
        throw UsageError("--model is for SQLite stores: a PostgreSQL store is read with the model it holds")
    }
    return try Seeder.openServerStore(url: store.path)
}
