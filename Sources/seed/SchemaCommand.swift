import Foundation
import SeedKit
import SeedKitSupport

func runSchema(_ arguments: Arguments) throws -> ExitCode {
    guard arguments.value(.templates) == nil || arguments.value(.model) == nil else {
        throw UsageError("give --model FILE or --templates DIR, not both")
    }
    let model: EntityModel
    if let modelPath = arguments.value(.model) {
        // A model file alone is enough: no template directory is read.
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw CommandFailure("no model file at \(TerminalText.quoted(modelPath))")
        }
        do {
            model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
        } catch let errors as ModelErrors {
            for error in errors.errors { Output.err(error.description) }
            return .problems
        }
    } else {
        let templates = arguments.value(.templates) ?? "Templates"
        let source = try SeedModel(templates: URL(fileURLWithPath: templates))
        if source.isInferred { Warnings.inferredModel(source.model, templates: templates) }
        guard let found = source.model else {
            for issue in source.issues { Output.err(issue.description) }
            return .problems
        }
        model = found
    }
    Output.json(TemplateSchema.json(for: model))
    return .success
}
