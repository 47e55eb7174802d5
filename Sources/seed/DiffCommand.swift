import Foundation
import SeedKit

func runDiff(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments.parse(
        arguments, values: ["--templates", "--store", "--model", "--format", "--ignore"], flags: [], operands: 2)
    let format = parsed.value("--format") ?? "text"
    guard ["text", "json", "json-patch", "github"].contains(format) else {
        throw UsageError("unknown format '\(format)'; use text, json, json-patch or github")
    }
    let modelURL = parsed.value("--model").map { URL(fileURLWithPath: $0) }
    let oldPath: String
    let newPath: String
    var options = GraphDiff.Options()
    switch (parsed.operands.count, parsed.value("--templates"), parsed.value("--store")) {
    case (2, nil, nil):
        (oldPath, newPath) = (parsed.operands[0], parsed.operands[1])
    case (0, let templates?, let store?):
        (oldPath, newPath) = (templates, store)
        options = .driftCheck
        guard FileManager.default.fileExists(atPath: store) else { throw SeedError("no store at \(store)") }
    default:
        throw UsageError("give OLD and NEW, or --templates DIR and --store PATH")
    }
    options.ignoredProperties = parsed.values("--ignore")
    let sides = try ExportDocument.read(paths: [oldPath, newPath], modelURL: modelURL)
    for (path, side) in zip([oldPath, newPath], sides) where side.isModelInferred {
        Output.inferredModelWarning(templates: path)
    }
    let diff = try GraphDiff(from: sides[0], to: sides[1], options: options)
    switch format {
    case "json":
        Output.json(diff.json)
    case "json-patch":
        Output.json(JSONPatch(from: sides[0], to: sides[1]).json)
    case "github":
        FileHandle.standardOutput.write(Data(diff.githubAnnotations().utf8))
    default:
        let colored = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        FileHandle.standardOutput.write(Data(diff.text(colored: colored).utf8))
    }
    return diff.hasDifferences ? 1 : 0
}
