import Foundation
import SeedKit
import SeedKitSupport

/// The store a command names with `--store` and waits for with `--busy-timeout`; errors about it said with their fix.
struct StoreArgument {
    static let defaultPath = "seed.sqlite"
    static let defaultBusyTimeout = 5.0

    let path: String
    /// The store as messages name it: the path, or the URL without its password.
    let displayName: String
    /// Whether the store is a PostgreSQL database rather than a file.
    var isServer: Bool { Seeder.isServerURL(path) }
    /// The wait as given, in seconds, for messages.
    let busySeconds: Double

    var busyTimeout: Duration { .milliseconds(Int64((busySeconds * 1000).rounded())) }

    /// The store of `arguments`: `--store` (default seed.sqlite), which must name a file
    /// (``Seeder/problem(withStorePath:)``), and `--busy-timeout`, a number of seconds.
    init(_ arguments: Arguments) throws(UsageError) {
        path = arguments.value(.store) ?? Self.defaultPath
        if let problem = Seeder.problem(withStorePath: path) { throw UsageError("--store \(problem)") }
        displayName = Seeder.storeDisplayName(path)
        guard let text = arguments.value(.busyTimeout) else {
            busySeconds = Self.defaultBusyTimeout
            return
        }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw UsageError("--busy-timeout '\(text)' is not a number of seconds from 0 to 86400")
        }
        busySeconds = seconds
    }

    /// Runs `body`, which uses the store, turning the store errors that have a fix into one that says it.
    func run<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .busy {
            throw CommandFailure(
                "store \(TerminalText.quoted(displayName)) is locked by another process; "
                    + "waited \(Self.seconds(busySeconds)) s (--busy-timeout)")
        } catch let error as DatabaseError where error.resultCode == .readOnly {
            // The library's message speaks to code (an open mode); a user needs the cause and what still works.
            throw CommandFailure(
                "store \(TerminalText.quoted(displayName)) can't be written: the file or its directory is read-only "
                    + "to this user; the store is as it was (seed status, export and diff only read it)")
        } catch let error as DatabaseError where error.isDiskFull {
            // Every write is one transaction, and a new store is built beside its path: nothing of the run is left.
            throw CommandFailure(
                "no space left on the disk holding store \(TerminalText.quoted(displayName)); the store is as it was "
                    + "(\(error))")
        } catch let error as StoreError where error.kind == .migrationRefused {
            let fix =
                error.migratesWithDataLoss
                ? "; run again with --allow-data-loss to drop it, or give the property or entity its old name as an "
                    + "alias to keep it"
                : "; give the new model a default, or keep the old type, or seed a new store"
            throw CommandFailure("\(error)\(fix)")
        }
    }

    /// `5`, `0.5`: seconds as a person writes them.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// A command that failed for a reason its message fully states, fix included: `seed: message`, exit status 2.
struct CommandFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
