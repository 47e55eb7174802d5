import Foundation
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects

extension SQLiteStore {
    /// Opens an existing store with the model it was last opened with, kept in its metadata: for tools that read a
    /// store without the application's model, such as `seed export`.
    ///
    ///     let store = try SQLiteStore(existingAt: "company.sqlite")
    ///     print(store.model.entityNames)   // ["Address", "Department", "Employee", …]
    ///
    /// - Throws: ``StoreError`` `notAStore` when there is no file at `path` or it holds no SeedKit metadata;
    ///   ``DatabaseError`` when it is not a readable SQLite database. The file is never created or changed.
    /// - Complexity: as ``init(path:model:options:)``.
    public convenience init(existingAt path: String, options: Options = Options()) throws {
        try self.init(path: path, model: Self.storedModel(atPath: path), options: options)
    }

    /// The model kept in the metadata of the store at `path`, read without writing anything.
    ///
    /// - Throws: as ``init(existingAt:options:)``.
    /// - Complexity: O(*n*) in the size of the model.
    public static func storedModel(atPath path: String) throws -> EntityModel {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notAStore, path: path, "there is no store at \(path)")
        }
        var configuration = SQLiteConnection.Configuration()
        configuration.openMode = .readOnly
        let connection = try SQLiteConnection(path: path, configuration: configuration)
        let contents: (tables: Set<String>, metadata: [String: String])?
        do {
            contents = try Self.contents(of: connection)
        } catch var error as StoreError {
            error.path = path
            throw error
        }
        guard let metadata = contents?.metadata else {
            throw StoreError(.notAStore, path: path, "the database is empty: it is not a SeedKit store")
        }
        guard let text = metadata["model"], let model = try? EntityModel(json: JSONDocument(parsing: text).value) else {
            throw StoreError(.notAStore, path: path, "the store's metadata holds no readable model")
        }
        return model
    }
}
