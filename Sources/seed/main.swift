import Foundation
import SeedKit

// The command line tool is thin over the library: it parses arguments, calls Seeder, prints the report and maps the
// outcome to an exit status (0 done, 1 invalid templates, 2 usage, I/O or store error).

func usageFailure(_ error: UsageError, usage: String) -> Never {
    Output.err("seed: \(error.message)\n\(usage)")
    exit(2)
}

func failure(_ error: any Error) -> Never {
    Output.err("seed: \(error)")
    exit(2)
}

func runSeed(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments.parse(
        arguments, values: ["--templates", "--store", "--model"],
        flags: ["--dry-run", "--prune", "--force", "--json", "--quiet"])
    let templates = parsed.value("--templates") ?? "Templates"
    let storePath = parsed.value("--store") ?? "seed.sqlite"
    let bar = ProgressBar.forStandardError(quiet: parsed.has("--quiet"))
    var options = SeedOptions(
        modelURL: parsed.value("--model").map { URL(fileURLWithPath: $0) }, dryRun: parsed.has("--dry-run"),
        prune: parsed.has("--prune"), force: parsed.has("--force"))
    if let bar { options.progress = { bar.show($0) } }
    let report: SeedReport
    var plan: GraphDiff?
    do {
        defer { bar?.finish() }
        let seeder = Seeder(storePath: storePath), templatesURL = URL(fileURLWithPath: templates)
        if options.dryRun {
            let planned = try seeder.plan(templates: templatesURL, options: options)
            report = planned.report
            plan = try planned.plan.map(GraphDiff.init)
        } else {
            report = try seeder.seed(templates: templatesURL, options: options)
        }
    }
    if report.isModelInferred { Output.inferredModelWarning(templates: templates) }
    if parsed.has("--json") {
        var json = report.json
        if let plan, case .object(var members) = json {
            members["plan"] = plan.json
            json = .object(members)
        }
        Output.json(json)
    }
    switch report.status {
    case .invalid:
        Output.issues(report, templates: templates)
        return 1
    case .unchanged:
        if !parsed.has("--json") && !parsed.has("--quiet") {
            let total = report.entities.values.reduce(0) { $0 + $1.unchanged }
            Output.out("seed: unchanged — \(storePath) already holds \(templates) (\(report.fileCount) files, \(total) objects)")
        }
    case .applied:
        if !parsed.has("--json") && !parsed.has("--quiet") {
            let verb = report.isDryRun ? "would apply" : "applied"
            Output.out("seed: \(verb) \(report.fileCount) template files from \(templates) to \(storePath)")
            Output.out(report.table)
            if let plan {
                let colored = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
                Output.out("plan, as seed diff shows it:")
                FileHandle.standardOutput.write(Data(plan.text(colored: colored).utf8))
            }
            if !report.keptObjects.isEmpty {
                Output.out("kept, changed by the application since seeding (--force overwrites): \(report.keptObjects.joined(separator: ", "))")
            }
        }
    }
    return 0
}

func runValidate(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments.parse(arguments, values: ["--templates", "--model"], flags: ["--json"])
    let templates = parsed.value("--templates") ?? "Templates"
    let modelURL = parsed.value("--model").map { URL(fileURLWithPath: $0) }
    let report = try Seeder.validate(templates: URL(fileURLWithPath: templates), options: SeedOptions(modelURL: modelURL))
    if report.isModelInferred { Output.inferredModelWarning(templates: templates) }
    if parsed.has("--json") {
        var json = report.json
        if case .object(var members) = json, report.status == .applied {
            members["status"] = .string("valid")
            json = .object(members)
        }
        Output.json(json)
    }
    guard report.status != .invalid else {
        Output.issues(report, templates: templates)
        return 1
    }
    if !parsed.has("--json") {
        let source = try SeedModel(templates: URL(fileURLWithPath: templates), options: SeedOptions(modelURL: modelURL))
        if let model = source.model { Output.model(model, path: source.path ?? "inferred from \(templates)") }
        Output.out("\(report.fileCount) template files in \(templates): valid")
    }
    return 0
}

func runStatus(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments.parse(arguments, values: ["--store"], flags: ["--json"])
    let storePath = parsed.value("--store") ?? "seed.sqlite"
    let ledger = try Seeder(storePath: storePath).ledger()
    var perEntity: [String: Int] = [:]
    for entry in ledger.objects.values { perEntity[entry.entity, default: 0] += 1 }
    if parsed.has("--json") {
        Output.json(.object([
            "store": .string(storePath), "fingerprint": ledger.fingerprint.map(JSON.string) ?? .null,
            "appliedAt": ledger.appliedAt.map(JSON.string) ?? .null, "templates": ledger.templates.map(JSON.string) ?? .null,
            "files": .object(JSONObject(ledger.files.mapValues(JSON.string))),
            "entities": .object(JSONObject(perEntity.mapValues { JSON.number(JSONNumber(Int64($0))) })),
        ]))
        return 0
    }
    guard let fingerprint = ledger.fingerprint else {
        Output.out("store \(storePath): never seeded")
        return 0
    }
    Output.out("store \(storePath): seeded from \(ledger.templates ?? "?") at \(ledger.appliedAt ?? "?") UTC, fingerprint \(fingerprint)")
    Output.out("\(ledger.objects.count) objects: " + perEntity.keys.sorted().map { "\($0) \(perEntity[$0]!)" }.joined(separator: ", "))
    Output.out("\(ledger.files.count) files:")
    for path in ledger.files.keys.sorted() { Output.out("  \(ledger.files[path]!)  \(path)") }
    return 0
}

func runModel(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments.parse(arguments, values: ["--templates", "--model"], flags: ["--summary"])
    let templates = parsed.value("--templates") ?? "Templates"
    let options = SeedOptions(modelURL: parsed.value("--model").map { URL(fileURLWithPath: $0) })
    let source = try SeedModel(templates: URL(fileURLWithPath: templates), options: options)
    guard let model = source.model else {
        for issue in source.issues { Output.err(issue.description) }
        return 1
    }
    if parsed.has("--summary") { Output.model(model, path: source.path ?? "inferred from \(templates)") } else { Output.json(model.json) }
    return 0
}

func runSchema(_ arguments: [String]) throws -> Int32 {
    let parsed = try Arguments.parse(arguments, values: ["--templates", "--model"], flags: [])
    guard parsed.value("--templates") == nil || parsed.value("--model") == nil else {
        throw UsageError("give --model FILE or --templates DIR, not both")
    }
    let templates = parsed.value("--templates") ?? "Templates"
    let model: EntityModel
    if let modelPath = parsed.value("--model") {
        // A model file alone is enough: no template directory is read.
        guard FileManager.default.fileExists(atPath: modelPath) else { throw SeedError("no model file at \(modelPath)") }
        do {
            model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
        } catch let errors as ModelErrors {
            Output.err(errors.description)
            return 1
        }
    } else {
        let source = try SeedModel(templates: URL(fileURLWithPath: templates))
        if source.isInferred { Output.inferredModelWarning(templates: templates) }
        guard let found = source.model else {
            for issue in source.issues { Output.err(issue.description) }
            return 1
        }
        model = found
    }
    Output.json(TemplateSchema.json(for: model))
    return 0
}

var arguments = Array(CommandLine.arguments.dropFirst())
let (command, usage): ((([String]) throws -> Int32), String)
switch arguments.first {
case "validate":
    arguments.removeFirst()
    (command, usage) = (runValidate, Usage.validate)
case "status":
    arguments.removeFirst()
    (command, usage) = (runStatus, Usage.status)
case "model":
    arguments.removeFirst()
    (command, usage) = (runModel, Usage.model)
case "schema":
    arguments.removeFirst()
    (command, usage) = (runSchema, Usage.schema)
case "export":
    arguments.removeFirst()
    (command, usage) = (runExport, Usage.export)
case "diff":
    arguments.removeFirst()
    (command, usage) = (runDiff, Usage.diff)
case "--version":
    Output.out(Usage.version)
    exit(0)
default:
    (command, usage) = (runSeed, Usage.seed)
}
Allocator.returnFreedMemory()
if arguments.contains("--help") || arguments.contains("-h") {
    Output.out(usage)
    exit(0)
}
do {
    exit(try command(arguments))
} catch let error as UsageError {
    usageFailure(error, usage: usage)
} catch {
    failure(error)
}
