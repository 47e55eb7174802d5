import Foundation
import Testing
@testable import SeedKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// End-to-end tests of `seed` given the worst input a user could: damaged stores and files that are not stores,
/// templates that cannot be read, and templates built to exhaust memory or time. Each gets a clear error, and nothing
/// is written or changed.
@Suite("seed command: bad input")
struct BadInputCommandTests {
    // MARK: Stores

    /// Ways a store file can be unsound, each made from a seeded sample store, with what the error must say.
    enum DamagedStore: String, CaseIterable, Sendable {
        case truncated, corruptedSchema, textFile, anotherAppsDatabase, newerSeedKit

        var cause: String {
            switch self {
            case .truncated, .corruptedSchema: "database disk image is malformed"
            case .textFile: "file is not a database"
            case .anotherAppsDatabase: "it is not a SeedKit store"
            case .newerSeedKit: "it was written by a newer SeedKit"
            }
        }

        /// Damages the store at `path`, which the sample set was seeded into.
        func make(at path: String) throws {
            let url = URL(fileURLWithPath: path)
            let bytes = try Data(contentsOf: url)
            switch self {
            case .truncated:
                try bytes.prefix(8192).write(to: url)
            case .corruptedSchema:
                // The schema page, after the 100-byte file header: every open reads it.
                var damaged = bytes
                damaged.replaceSubrange(100..<4096, with: Data(repeating: 0xA5, count: 3996))
                try damaged.write(to: url)
            case .textFile:
                try Data("name,email\nAnn,ann@example.com\n".utf8).write(to: url)
            case .anotherAppsDatabase:
                try FileManager.default.removeItem(at: url)
                var configuration = SQLiteConnection.Configuration()
                configuration.usesWriteAheadLog = false
                let connection = try SQLiteConnection(path: path, configuration: configuration)
                try connection.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
            case .newerSeedKit:
                let connection = try SQLiteConnection(path: path)
                try connection.execute(sql: "UPDATE _seedkit_metadata SET value = '99' WHERE key = 'schemaVersion'")
            }
        }
    }

    /// Every command that opens the store refuses a damaged one with exit status 2 and the cause, and leaves its bytes
    /// as they were: an app's database, a store of a newer SeedKit or a damaged file is never overwritten.
    @Test(arguments: DamagedStore.allCases)
    func storesThatAreNotSoundAreRefusedAndNeverChanged(damage: DamagedStore) throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("seed.sqlite").path
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        try damage.make(at: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        for arguments in [[], ["status"], ["export"], ["diff", "Templates", "seed.sqlite"], ["--force", "--prune"]] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            // seed diff reads a file that is no SQLite database as an export document.
            let cause = damage == .textFile && arguments.first == "diff" ? "seed.sqlite:1:1: expected an export document" : damage.cause
            #expect(result.status == 2, "\(damage) \(arguments): \(result.stdout)")
            #expect(result.stderr.contains(cause) && result.stderr.contains("seed.sqlite"), "\(damage) \(arguments): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "\(damage) \(arguments)")
        }
    }

    /// A damaged page holding objects: the commands that read every object say so, and change nothing.
    @Test func aDamagedPageOfObjectsIsReportedByTheCommandsThatReadIt() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = URL(fileURLWithPath: directory.appendingPathComponent("seed.sqlite").path)
        #expect(try Fixtures.runSeed(["--quiet"], in: directory).status == 0)
        var bytes = try Data(contentsOf: store)
        bytes.replaceSubrange(4096..<8192, with: Data(repeating: 0xDE, count: 4096))
        try bytes.write(to: store)
        for arguments in [["export"], ["diff", "Templates", "seed.sqlite"]] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            #expect(result.status == 2 && result.stderr.contains("database disk image is malformed"), "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: store) == bytes)
    }

    // MARK: Template files

    /// A template that cannot be read, a directory named like one, links leading nowhere or in a loop: each is an
    /// error naming the file, and no store is made.
    @Test func templatesThatCannotBeReadAreNamedAndNothingIsWritten() throws {
        let directory = try Fixtures.sampleTemplatesCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(
            at: templates.appendingPathComponent("folder.template"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: templates.appendingPathComponent("loop.template").path, withDestinationPath: "loop.template")
        try FileManager.default.createSymbolicLink(
            atPath: templates.appendingPathComponent("gone.template").path, withDestinationPath: "nowhere.template")
        for arguments in [["validate"], []] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("Templates/") } == [
                "Templates/folder.template: a directory named like a template file is refused; rename it",
                "Templates/gone.template: a symbolic link to a missing file is refused",
                "Templates/loop.template: a loop of symbolic links is refused",
            ])
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))

        // A file its reader may not read (run as nobody when the tests run as root, who may read anything).
        for name in ["folder.template", "loop.template", "gone.template"] {
            try FileManager.default.removeItem(at: templates.appendingPathComponent(name))
        }
        let secret = templates.appendingPathComponent("staff/sales.template")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        let nobody: UInt32 = 65534
        let result = try Fixtures.runSeed([], in: directory, asUser: nobody)
        #expect(result.status == 2)
        #expect(result.stderr == "seed: cannot read the template file Templates/staff/sales.template: Permission denied\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
    }

    // MARK: Hostile templates

    /// A set of one template file `text`, with a model of every numeric type beside the sample company's.
    private func hostileSet(_ files: [String: String]) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        let model = #"{"entities": {"Reading": {"attributes": {"count": "integer?", "ratio": "double?", "amount": "decimal?", "label": "string?"}}}}"#
        try Fixtures.write(model, to: "Templates/model.json", in: directory)
        for (name, text) in files { try Fixtures.write(text, to: "Templates/\(name)", in: directory) }
        return directory
    }

    /// The peak memory of `seed validate` on a set of one tiny file: what every run needs before its input.
    private func baselineBytes() throws -> Int {
        let directory = try hostileSet(["one.template": #"{"class": "Reading", "count": 1}"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        return try Fixtures.runSeedMeasured(["validate"], in: directory).peakBytes
    }

    /// Deep nesting, numbers past every type's range and lone surrogates, one file each. The nesting is deep enough
    /// that its text (2 MB) outweighs the noise in a process's peak (about 1 MB between runs of the same command), so
    /// a memory bound tells a reader that stops at its limit from one that holds every level.
    private static let hostileFiles: [String: String] = {
        let depth = 1_000_000
        return [
            "deep.template": #"{"class": "Reading", "label": "x", "count": "# + String(repeating: "[", count: depth)
                + String(repeating: "]", count: depth) + "}",
            "count.template": #"[{"class": "Reading", "count": 9223372036854775807}, {"class": "Reading", "count": 9223372036854775808}]"#,
            "negative.template": #"{"class": "Reading", "count": -1e19}"#,
            "fraction.template": #"{"class": "Reading", "count": 77777770007170700.5}"#,
            "ratio.template": #"{"class": "Reading", "ratio": 1e309}"#,
            "amount.template": #"{"class": "Reading", "amount": 9999999999999999999999999999999999999999}"#,
            "high.template": #"{"class": "Reading", "label": "a\ud800"}"#,
            "low.template": #"{"class": "Reading", "label": "\udc00b"}"#,
            "pair.template": #"{"class": "Reading", "label": "\ud800\u0041"}"#,
        ]
    }()

    /// Each hostile value is a located error, and nothing is written.
    @Test func hostileValuesAreLocatedErrors() throws {
        let directory = try hostileSet(Self.hostileFiles)
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [["validate"], []] {
            let result = try Fixtures.runSeed(arguments, in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("Templates/") } == [
                "Templates/amount.template:1:32: number has 40 significant digits; none holds more than 38 exactly (39 below 2^128)",
                "Templates/count.template:1:84: /1/count: attribute 'count' of Reading: 9223372036854775808 is out of range for integer (-9223372036854775808...9223372036854775807)",
                "Templates/deep.template:1:556: nesting deeper than 512",
                "Templates/fraction.template:1:31: /count: attribute 'count' of Reading: expected an integer, got 77777770007170700.5, which has a fraction",
                #"Templates/high.template:1:33: unpaired surrogate \uD800"#,
                #"Templates/low.template:1:32: unpaired surrogate \uDC00"#,
                "Templates/negative.template:1:31: /count: attribute 'count' of Reading: -10000000000000000000 is out of range for integer (-9223372036854775808...9223372036854775807)",
                #"Templates/pair.template:1:32: unpaired surrogate \uD800"#,
                "Templates/ratio.template:1:31: number out of range",
            ])
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("seed.sqlite").path))
    }

    /// The hostile values are refused within four times their text's memory above a run's floor, and in little time.
    @Test(.enabled(if: Fixtures.canMeasurePeakMemory, Fixtures.peakMemoryUnmeasured))
    func hostileValuesAreRefusedInLittleMemoryAndTime() throws {
        let directory = try hostileSet(Self.hostileFiles)
        defer { try? FileManager.default.removeItem(at: directory) }
        let baseline = try baselineBytes()
        let inputBytes = Self.hostileFiles.values.reduce(0) { $0 + $1.utf8.count }
        for arguments in [["validate"], []] {
            let run = try Fixtures.runSeedMeasured(arguments, in: directory)
            #expect(run.result.status == 1)
            #expect(run.peakBytes <= baseline + 4 * inputBytes, "\(arguments): \(run.peakBytes) bytes at peak")
            #expect(run.seconds < 30, "\(arguments): \(run.seconds) s")
        }
    }

    /// A template of one 100 MB string, valid or ending in a lone surrogate.
    private func longStringSet(valid: Bool) throws -> (directory: URL, size: Int) {
        let size = 100 << 20
        var text = Array(#"{"class": "Reading", "label": ""#.utf8)
        text += repeatElement(UInt8(ascii: "x"), count: size)
        text += Array((valid ? #""}"# : #"\ud800"}"#).utf8)
        let directory = try hostileSet([:])
        try Data(text).write(to: directory.appendingPathComponent("Templates/long.template"))
        return (directory, text.count)
    }

    /// A 100 MB string is read within four times the input's memory: ending in a lone surrogate, it is a located
    /// error and nothing is written; valid, it validates.
    @Test(.enabled(if: Fixtures.canMeasurePeakMemory, Fixtures.peakMemoryUnmeasured))
    func aHundredMegabyteStringIsReadWithinBoundedMemory() throws {
        let baseline = try baselineBytes()
        let (invalid, size) = try longStringSet(valid: false)
        defer { try? FileManager.default.removeItem(at: invalid) }
        let refused = try Fixtures.runSeedMeasured([], in: invalid)
        #expect(refused.result.status == 1)
        #expect(refused.result.stderr.hasPrefix(#"Templates/long.template:1:\#(size - 7): unpaired surrogate \uD800"#))
        #expect(refused.peakBytes <= baseline + 4 * size, "\(refused.peakBytes) bytes at peak")
        #expect(!FileManager.default.fileExists(atPath: invalid.appendingPathComponent("seed.sqlite").path))

        let (valid, validSize) = try longStringSet(valid: true)
        defer { try? FileManager.default.removeItem(at: valid) }
        let validated = try Fixtures.runSeedMeasured(["validate"], in: valid)
        #expect(validated.result.status == 0, "\(validated.result.stderr)")
        #expect(validated.peakBytes <= baseline + 4 * validSize, "\(validated.peakBytes) bytes at peak")
    }

    /// Seeding a valid 100 MB string within four times its memory: the long text is bound where its string holds it.
    @Test(.enabled(if: Fixtures.canMeasurePeakMemory, Fixtures.peakMemoryUnmeasured))
    func aHundredMegabyteStringSeedsWithinBoundedMemory() throws {
        let baseline = try baselineBytes()
        let (directory, size) = try longStringSet(valid: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeded = try Fixtures.runSeedMeasured(["--quiet"], in: directory)
        #expect(seeded.result.status == 0, "\(seeded.result.stderr)")
        #expect(seeded.peakBytes <= baseline + 4 * size, "\(seeded.peakBytes) bytes at peak")
    }
}
