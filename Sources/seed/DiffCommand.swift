import Foundation
import SeedKit
import SeedKitSupport

func runDiff(_ arguments: Arguments) throws -> ExitCode {
    let format = arguments.value(.diffFormat) ?? "text"
    let modelURL = arguments.value(.model).map { URL(fileURLWithPath: $0) }
    let oldPath: String
    let newPath: String
    var options = GraphDiff.Options()
    switch (arguments.operands.count, arguments.value(.templates), arguments.value(.store)) {
    case (2, nil, nil):
        (oldPath, newPath) = (arguments.operands[0], arguments.operands[1])
    case (0, let templates?, let store?):
        (oldPath, newPath) = (templates, store)
        options = .driftCheck
        guard Seeder.isServerURL(store) || FileManager.default.fileExists(atPath: store) else {
            throw CommandFailure("no store at \(TerminalText.quoted(store))")
        }
    default:
        throw UsageError("give OLD and NEW, or --templates DIR and --store PATH")
    }
    options.ignoredProperties = arguments.values(.ignore)
    let sides = try ExportDocument.read(paths: [oldPath, newPath], modelURL: modelURL)
    for (path, side) in zip([oldPath, newPath], sides) where side.isModelInferred {
        Warnings.inferredModel(side.model, templates: path)
    }
    let diff = try GraphDiff(from: sides[0], to: sides[1], options: options)
    switch format {
    case "json":
        Output.json(diff.json)
    case "json-patch":
        Output.json(JSONPatch(from: sides[0], to: sides[1]).json)
    case "github":
        Output.block(diff.githubAnnotations())
    default:
        Output.block(diff.text(colored: Output.isColored))
    }
    return diff.hasDifferences ? .problems : .success
}
