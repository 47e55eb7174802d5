import Foundation
import SeedKit
import SeedKitSupport

func runValidate(_ arguments: Arguments) throws -> ExitCode {
    let templates = arguments.value(.templates) ?? "Templates"
    let options = SeedOptions(modelURL: arguments.value(.model).map { URL(fileURLWithPath: $0) })
    let report = try Seeder.validate(templates: URL(fileURLWithPath: templates), options: options)
    Warnings.templates(report, templates: templates)
    if arguments.has(.json) {
        var json = report.json
        if case .object(var members) = json, report.status == .applied {
            members["status"] = .string("valid")
            json = .object(members)
        }
        Output.json(json)
    }
    guard report.status != .invalid else {
        Output.issues(report.issues, templates: templates)
        return .problems
    }
    if !arguments.has(.json) {
        let source = try SeedModel(templates: URL(fileURLWithPath: templates), options: options)
        if let model = source.model {
            ModelSummary.print(model, source: source, templates: templates, explaining: false)
        }
        Output.out("\(report.fileCount) template files in \(TerminalText.quoted(templates)): valid")
    }
    return .success
}
