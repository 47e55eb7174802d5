import Foundation
import SeedKit
import SeedKitSupport

func runSeed(_ arguments: Arguments) throws -> ExitCode {
    let templates = arguments.value(.templates) ?? "Templates"
    let store = try StoreArgument(arguments)
    let quiet = arguments.has(.quiet)
    let json = arguments.has(.json)
    var options = SeedOptions(
        modelURL: arguments.value(.model).map { URL(fileURLWithPath: $0) }, dryRun: arguments.has(.dryRun),
        prune: arguments.has(.prune), force: arguments.has(.force), allowsDataLoss: arguments.has(.allowDataLoss),
        busyTimeout: store.busyTimeout)
    let progress = ProgressBar.forStandardError(quiet: quiet)
    if let progress { options.progress = { progress.show($0) } }
    let report: SeedReport
    var plan: GraphDiff?
    do {
        defer { progress?.finish() }
        let seeder = Seeder(storePath: store.path), templatesURL = URL(fileURLWithPath: templates)
        if options.dryRun {
            (report, plan) = try store.run {
                let (report, preview) = try seeder.preview(templates: templatesURL, options: options)
                return (report, try preview.map(GraphDiff.init))
            }
        } else {
            report = try store.run { try seeder.seed(templates: templatesURL, options: options) }
        }
    }
    Warnings.templates(report, templates: templates)
    if json {
        var members = report.json.objectValue ?? [:]
        if let plan { members["plan"] = plan.json }
        Output.json(.object(members))
    }
    switch report.status {
    case .invalid:
        Output.issues(report.issues, templates: templates)
        return .problems
    case .unchanged:
        guard !json && !quiet else { break }
        let total = report.entities.values.reduce(0) { $0 + $1.unchanged }
        Output.out(
            "seed: unchanged — \(TerminalText.quoted(store.displayName)) already holds \(TerminalText.quoted(templates)) "
                + "(\(report.fileCount) files, \(total) objects)")
    case .applied:
        guard !json && !quiet else { break }
        let verb = report.isDryRun ? "would apply" : "applied"
        Output.out(
            "seed: \(verb) \(report.fileCount) template files from \(TerminalText.quoted(templates)) "
                + "to \(TerminalText.quoted(store.displayName))")
        Output.block(report.table)
        if let plan {
            Output.out("plan, as seed diff shows it:")
            Output.block(plan.text(colored: Output.isColored))
        }
        Output.keptAndRemoved(report)
    }
    return .success
}
