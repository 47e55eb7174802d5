import Foundation
import SeedKit

/// Helpers shared by the SQLite test suites.
enum SQLiteTesting {
    /// Runs `body` with a fresh directory under the temporary directory, and removes the directory afterwards.
    static func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SeedKit-SQLiteTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The names of the files in `directory`, sorted.
    static func fileNames(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// Runs `sql` and returns the first column of its first row, or nil when it has no row.
    static func firstValue(_ connection: SQLiteConnection, _ sql: String, arguments: [SQLiteValue] = []) throws
        -> SQLiteValue?
    {
        let statement = try connection.prepare(sql: sql)
        for (offset, argument) in arguments.enumerated() {
            try statement.bind(argument, at: offset + 1)
        }
        return try statement.step() ? statement.value(at: 0) : nil
    }
}
