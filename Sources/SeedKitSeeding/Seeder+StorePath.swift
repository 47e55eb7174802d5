import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

extension Seeder {
    /// What is wrong with `path` as the file of a seeded store, or nil when it names a file.
    ///
    ///     Seeder.problem(withStorePath: "seed.sqlite")      // nil
    ///     Seeder.problem(withStorePath: "file:a.sqlite")    // "'file:a.sqlite' is an SQLite URI, …"
    ///
    /// A seeded store is a file that outlives the run, at a path the ledger and the atomic creation beside it can
    /// name. SQLite reads three other spellings as something else: an empty path and `:memory:` are private
    /// databases that vanish with the connection, and a path starting with `file:` is a URI, whose file is not the
    /// one at that path (the temporary store built beside it would be left behind). `scheme://…` is kept for store
    /// URLs, such as the `postgresql://` of a PostgreSQL store.
    ///
    /// - Complexity: O(*n*) in the length of `path`.
    package static func problem(withStorePath path: String) -> String? {
        if path.isEmpty { return "path is empty: give a file path, such as seed.sqlite" }
        if path == ":memory:" {
            return "':memory:' is a private in-memory database that would vanish when the run ends: give a file path "
                + "(an app wanting an in-memory store uses SQLiteStore.inMemory(model:) instead)"
        }
        if isServerURL(path) { return problem(withServerURL: path) }
        if let scheme = urlScheme(of: path) {
            return "'\(path)' is a store URL, and this SeedKit has no store for '\(scheme)://': a SQLite store is "
                + "a file path, such as seed.sqlite"
        }
        if path.hasPrefix("file:") {
            let file = path.dropFirst(5).prefix { $0 != "?" }
            return "'\(path)' is an SQLite URI, not a file path: give the path (\(file)), "
                + "or ./\(path) for a file whose name starts with 'file:'"
        }
        return nil
    }

    /// Whether `path` is the URL of a PostgreSQL store (`postgresql://…` or `postgres://…`) that this SeedKit can
    /// open: not on platforms without libpq.
    package static func isServerURL(_ path: String) -> Bool {
        #if canImport(SeedKitPostgreSQLStore)
        guard let scheme = urlScheme(of: path) else { return false }
        return scheme == "postgresql" || scheme == "postgres"
        #else
        return false
        #endif
    }

    /// `postgresql` for `postgresql://…`: a letter, then letters, digits, `+`, `-` or `.`, then `://` (RFC 3986).
    private static func urlScheme(of path: String) -> Substring? {
        guard let separator = path.range(of: "://") else { return nil }
        let scheme = path[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme
    }
}
