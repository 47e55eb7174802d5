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
    if store.isServer { return try runServerExport(store, export: export, format: format, output: output, arguments) }
    guard FileManager.default.fileExists(atPath: store.path) else {
        throw CommandFailure("no store at \(TerminalText.quoted(store.path))")
    }
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
    switch (format, output) {
    case ("templates", let directory?):
        try writeTemplates(export, rows: sqliteStore, to: directory)
    case (_, let path?):
        try export.write(store: sqliteStore, toFileAtPath: path)
    case (_, nil):
        FileHandle.standardOutput.write(Data(try export.document(of: sqliteStore)))
    }
    return .success
}

/// `--format templates --output DIR`: the store's objects as a template set, and a line saying so.
private func writeTemplates(_ export: GraphExport, rows store: any RowStore, to directory: String) throws {
    let paths = try export.writeTemplates(rows: store, to: URL(fileURLWithPath: directory))
    Output.err("seed: wrote \(paths.count - 1) template files and model.json to \(TerminalText.quoted(directory))")
}

/// `seed export --store postgresql://…`: the store read with the model it holds, in one snapshot.
private func runServerExport(
    _ store: StoreArgument, export: GraphExport, format: String, output: String?, _ arguments: Arguments
) throws -> ExitCode {
    if arguments.value(.model) != nil {
        throw UsageError("--model is for SQLite stores: a PostgreSQL store is read with the model it holds")
    }
    let rows = try Seeder.openServerStore(url: store.path)
    switch (format, output) {
    case ("templates", let directory?):
        try writeTemplates(export, rows: rows, to: directory)
    case (_, let path?):
        try export.write(rows: rows, toFileAtPath: path)
    case (_, nil):
        FileHandle.standardOutput.write(Data(try export.document(ofRows: rows)))
    }
    return .success
}
