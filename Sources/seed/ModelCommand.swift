import Foundation
import SeedKit
import SeedKitSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func runModel(_ arguments: Arguments) throws -> ExitCode {
    let templates = arguments.value(.templates) ?? "Templates"
    let directory = URL(fileURLWithPath: templates)
    if arguments.has(.write) {
        guard arguments.value(.model) == nil else {
            throw UsageError(
                "--write writes the model inferred from the templates; with --model FILE there is none to write")
        }
        guard !arguments.has(.summary) else { throw UsageError("give --write or --summary, not both") }
        let inferred = ModelInference.infer(from: try TemplateSet(directory: directory))
        guard let model = inferred.model else {
            for issue in inferred.issues { Output.err(issue.description) }
            return .problems
        }
        try ModelFile.save(
            model, to: directory.appendingPathComponent("model.json"), replacing: arguments.has(.overwrite))
        Output.err(
            "seed: wrote \(TerminalText.quoted(directory.appendingPathComponent("model.json").relativePath)): "
                + "\(model.entities.count) entities; edit it to change what inference chose")
        return .success
    }
    guard !arguments.has(.overwrite) else { throw UsageError("--force replaces an existing model.json, with --write") }
    let options = SeedOptions(modelURL: arguments.value(.model).map { URL(fileURLWithPath: $0) })
    let source = try SeedModel(templates: directory, options: options)
    guard let model = source.model else {
        for issue in source.issues { Output.err(issue.description) }
        return .problems
    }
    if arguments.has(.summary) {
        ModelSummary.print(model, source: source, templates: templates, explaining: true)
    } else {
        Output.json(model.json)
    }
    return .success
}

/// `seed model --summary` and the model lines of `seed validate`.
enum ModelSummary {
    /// Lists the entities, and with `explaining`, each choice inference made and why.
    static func print(_ model: EntityModel, source: SeedModel, templates: String, explaining: Bool) {
        let origin = source.path.map(TerminalText.quoted) ?? "inferred from \(TerminalText.quoted(templates))"
        Output.out("model \(origin): \(model.entities.count) entities")
        for entity in model.entities {
            let parent = entity.parentName.map { " : \($0)" } ?? ""
            let identity = entity.identity.isEmpty ? "" : " identity(\(entity.identity.joined(separator: ", ")))"
            Output.out(
                "  \(entity.name)\(parent)\(identity) — \(entity.attributes.count) attributes, "
                    + "\(entity.relationships.count) relationships")
        }
        guard explaining, source.isInferred else { return }
        Output.out("inferred, and why:")
        for choice in source.choices { Output.out("  \(choice)") }
        let option = templates == "Templates" ? "" : " --templates \(TerminalText.quoted(templates))"
        Output.out("to change a choice: 'seed model --write\(option)', then edit model.json")
    }
}

/// Writes a model file safely: complete or not at all, and never over another unless asked.
enum ModelFile {
    /// Writes `model` to `url` through a temporary file beside it, linked into place, so that no reader ever finds a
    /// part of it. An existing file is kept unless `replacing`, or unless it is empty (a model file a shell redirect
    /// created, which seeding treats as absent).
    static func save(_ model: EntityModel, to url: URL, replacing: Bool) throws {
        let path = url.path
        var status = stat()
        if !replacing, stat(path, &status) == 0, status.st_size > 0 {
            throw CommandFailure(
                "\(TerminalText.quoted(url.relativePath)) exists; --force replaces it with the inferred model")
        }
        let temporary = "\(path).writing-\(getpid())"
        let bytes = model.json.serialized(style: .pretty) + [UInt8(ascii: "\n")]
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw failure("cannot write", temporary) }
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else { throw failure("cannot write", temporary) }
        // rename(2) replaces; a file that is there and empty is replaced too, as it was checked above.
        if replacing || stat(path, &status) == 0 {
            guard rename(temporary, path) == 0 else { throw failure("cannot replace", path) }
        } else if link(temporary, path) != 0 {
            throw errno == EEXIST
                ? CommandFailure("\(TerminalText.quoted(url.relativePath)) appeared meanwhile; --force replaces it")
                : failure("cannot write", path)
        }
    }

    private static func failure(_ what: String, _ path: String) -> CommandFailure {
        CommandFailure("\(what) \(TerminalText.quoted(path)): \(String(cString: strerror(errno)))")
    }
}
