import CPostgreSQL

/// libpq, loaded the first time a PostgreSQL URL is read or a connection made, not when a program using SeedKit
/// starts: linked, libpq and what it needs (TLS, Kerberos, LDAP and theirs, 20 libraries on Debian) took every
/// `seed` run about 12 ms to load and set up, though most runs use SQLite alone.
///
///     try LibPQ.load()                          // PostgreSQLError when the library cannot be found
///     let status = libpq.PQstatus(handle)       // its functions, as libpq-fe.h declares them
///
/// A program that never reaches PostgreSQL never loads it, and runs where it is not installed.
package enum LibPQ {
    /// The loaded functions, or why they could not be loaded.
    struct Outcome: @unchecked Sendable {
        // Unchecked: the table is written once, before it is published, and only read after.
        let functions: Result<UnsafePointer<SeedKitLibPQ>, PostgreSQLError>
    }

    /// The names libpq is looked for by, in order: the library's own (the loader's search path), then where Homebrew
    /// keeps it on a Mac.
    static var names: [String] {
        #if canImport(Darwin)
        ["libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib"]
        #else
        ["libpq.so.5"]
        #endif
    }

    /// Once per process.
    private static let outcome = load(from: names)

    /// The first of `names` that loads with every function SeedKit calls; each library loaded stays for the process.
    /// Else a ``PostgreSQLError`` of kind ``PostgreSQLError/Kind/other`` saying what the loader said of each name and
    /// what to install.
    static func load(from names: [String]) -> Outcome {
        var failures: [String] = []
        for name in names {
            var error: UnsafePointer<CChar>?
            if let functions = seedkit_libpq_load(name, &error) { return Outcome(functions: .success(functions)) }
            failures.append(error.map { String(cString: $0) } ?? name)
        }
        return Outcome(
            functions: .failure(
                PostgreSQLError(
                    kind: .other,
                    message: "PostgreSQL's client library, libpq, could not be loaded (\(failures.joined(separator: "; ")));"
                        + " install it (Debian and Ubuntu: libpq5, Homebrew: libpq) to use a postgresql:// store")))
    }

    /// Loads libpq unless it is loaded.
    ///
    /// - Throws: ``PostgreSQLError`` when libpq cannot be found or lacks a function SeedKit calls (see
    ///   ``load(from:)``).
    package static func load() throws(PostgreSQLError) {
        _ = try outcome.functions.get()
    }

    /// The text libpq returns, empty for none: its functions' results come through pointers to functions, whose
    /// `char *` Swift sees as optional.
    package static func text(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    /// The functions; ``load()`` must have succeeded, as every way into PostgreSQL (a URL's parameters, a connection)
    /// makes sure.
    fileprivate static var functions: UnsafePointer<SeedKitLibPQ> {
        guard case .success(let functions) = outcome.functions else { preconditionFailure("libpq used before LibPQ.load()") }
        return functions
    }
}

/// libpq's functions (see ``LibPQ``): `libpq.PQexec(handle, sql)` where linking would have `PQexec(handle, sql)`.
package var libpq: SeedKitLibPQ {
    @inline(__always) get { LibPQ.functions.pointee }
}
