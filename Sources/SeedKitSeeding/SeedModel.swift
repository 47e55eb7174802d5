import Foundation
import SeedKitJSON
import SeedKitModel

/// The model a seed run uses: the `--model` file, else `model.json` in the template directory, else one inferred
/// from the templates.
///
///     let source = try SeedModel(templates: URL(fileURLWithPath: "Templates"))
///     if source.isInferred { print("no model.json; inferred") }
///     let model = source.model   // nil when source.issues says why
package struct SeedModel: Sendable {
    /// The model; nil when the file or the inference has problems.
    package var model: EntityModel?
    /// Whether there was no model file and the model was inferred by ``ModelInference``.
    package var isInferred: Bool
    /// The problems of the model file, or the evidence that contradicts itself, each located.
    package var issues: [Diagnostic]
    /// The model file's path as given, or nil for an inferred model.
    package var path: String?
    /// For an inferred model, each choice inference made and why (see ``ModelInference/Result/choices``).
    package var choices: [ModelInference.Choice] = []

    /// Finds, reads or infers the model of the template set in `templates`.
    ///
    /// - Throws: ``SeedError`` when the directory or an explicit `options.modelURL` is missing, or a file is unreadable.
    /// - Complexity: O(*n*) in the size of the model file, or of the templates when inferring.
    package init(templates: URL, options: SeedOptions = SeedOptions()) throws(SeedError) {
        try self.init(set: TemplateSet(directory: templates), options: options)
    }

    /// Whether the model of the set in `templates` comes from a file rather than from inference, which reads every
    /// template.
    static func isReadFromAFile(templates: URL, options: SeedOptions) -> Bool {
        options.modelURL != nil || hasModelFile(fileURL(templates: templates, options: options))
    }

    /// Whether there is a model file at `url`: a file with more than white space in it. An empty `model.json` is what
    /// a shell redirect into it leaves when the command fails, and is taken as no model file.
    private static func hasModelFile(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            return FileManager.default.fileExists(atPath: url.path)
        }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 4096)) ?? Data()
        return !start.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } || start.count == 4096
    }

    /// Where the model file is: `options.modelURL`, else `model.json` in the template directory.
    private static func fileURL(templates: URL, options: SeedOptions) -> URL {
        options.modelURL ?? templates.appendingPathComponent(TemplateSet.modelFileName)
    }

    init(set: TemplateSet, options: SeedOptions) throws(SeedError) {
        let modelPath = options.modelURL?.relativePath ?? "\(set.directory.relativePath)/\(TemplateSet.modelFileName)"
        let bytes: [UInt8]
        if let modelURL = options.modelURL {
            guard let data = FileManager.default.contents(atPath: modelURL.path) else {
                guard FileManager.default.fileExists(atPath: modelURL.path) else { throw SeedError("no model file at \(modelPath)") }
                throw SeedError("cannot read the model file \(modelPath)")
            }
            bytes = [UInt8](data)
        } else {
            // The set's own model file is read as its templates are: a link may not lead it outside the directory.
            switch set.topLevelFile(named: TemplateSet.modelFileName) {
            case .missing:
                bytes = []
            case .refused(let refusal):
                (model, isInferred, path) = (nil, false, modelPath)
                issues = [Diagnostic(refusal.code, file: modelPath, message: refusal.reason)]
                return
            case .unreadable(let failure):
                throw SeedError("cannot read the model file \(modelPath): \(failure.reason)")
            case .read(let read):
                bytes = read
            }
            // No model.json, or only white space in it (what a failed shell redirect into it leaves): inferred.
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
                let inferred = ModelInference.infer(from: set)
                (model, issues, choices) = (inferred.model, inferred.issues, inferred.choices)
                isInferred = true
                return
            }
        }
        isInferred = false
        path = modelPath
        issues = []
        do {
            let file = Self.fileURL(templates: set.directory, options: options).path
            model = try EntityModel(document: JSONDocument(parsing: bytes, file: file))
        } catch let errors as ModelErrors {
            issues = errors.errors.map { $0.diagnostic(file: modelPath) }
        } catch {
            throw SeedError("cannot read the model file \(modelPath): \(error)")
        }
    }
}
