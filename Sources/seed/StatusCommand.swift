import Foundation
import SeedKit
import SeedKitSupport

func runStatus(_ arguments: Arguments) throws -> ExitCode {
    let store = try StoreArgument(arguments)
    let ledger = try store.run { try Seeder(storePath: store.path).ledger() }
    let perEntity = ledger.objectCounts
    if arguments.has(.json) {
        Output.json(
            .object([
                "store": .string(store.displayName), "fingerprint": ledger.fingerprint.map(JSON.string) ?? .null,
                "appliedAt": ledger.appliedAt.map(JSON.string) ?? .null,
                "templates": ledger.templates.map(JSON.string) ?? .null,
                "files": .object(JSONObject(ledger.files.mapValues(JSON.string))),
                "entities": .object(JSONObject(perEntity.mapValues { JSON.number(JSONNumber(Int64($0))) })),
            ]))
        return .success
    }
    let path = TerminalText.quoted(store.displayName)
    guard let fingerprint = ledger.fingerprint else {
        Output.out("store \(path): never seeded")
        return .success
    }
    let templates = ledger.templates.map(TerminalText.quoted) ?? "?"
    Output.out("store \(path): seeded from \(templates) at \(ledger.appliedAt ?? "?") UTC, fingerprint \(fingerprint)")
    Output.out(
        "\(perEntity.values.reduce(0, +)) objects: "
            + perEntity.keys.sorted().map { "\($0) \(perEntity[$0]!)" }.joined(separator: ", "))
    Output.out("\(ledger.files.count) files:")
    for (path, hash) in ledger.files.sorted(by: { $0.key < $1.key }) {
        Output.out("  \(hash)  \(TerminalText.quoted(path))")
    }
    return .success
}
