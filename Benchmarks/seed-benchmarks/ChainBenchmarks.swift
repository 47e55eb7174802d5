import Foundation

// An owned chain (issue 19): top-level objects each owning the next through "$ref", at 10,000, 50,000 and 100,000
// links, through the whole `seed` process under /usr/bin/time -v (fastest of 3 by wall and by CPU time, largest peak
// memory): the first launch, the second (which
// must say "unchanged"), `seed export` in both formats, a first launch from the exported templates (whose export must
// be the same bytes: SeedKit never writes what it then refuses), `seed diff` of the templates against the store, and
// of the store's own export against the store. Time per link at each length against the shortest says whether the cost
// is linear; peak memory against the template's size whether it stays within 4× the input (the process's floor, its
// peak on a one-link chain, shown beside it). Needs the release `seed` binary beside this one.

private let chainLengths = [10_000, 50_000, 100_000]

private let chainModel = """
    {
      "entities": {
        "Link": {
          "attributes": { "name": "string", "position": "integer" },
          "relationships": {
            "next": { "to": "Link", "owns": true, "inverse": "previous" },
            "previous": { "to": "Link", "inverse": "next" }
          }
        }
      }
    }
    """

/// One template file of `links` top-level objects, each owning the next through `"$ref"`, as a person would write a
/// list that a model makes a chain.
private func chainTemplate(links: Int) -> String {
    var text = "[\n"
    text.reserveCapacity(links * 80)
    for index in 0..<links {
        let next = index + 1 < links ? #", "next": {"$ref": "l\#(index + 1)"}"# : ""
        text += #"  {"class": "Link", "$id": "l\#(index)", "name": "Link \#(index)", "position": \#(index)\#(next)}"#
        text += index + 1 < links ? ",\n" : "\n"
    }
    return text + "]\n"
}

/// The wall and CPU seconds and peak MiB of each measured command at one length.
private struct ChainRun {
    var inputBytes = 0
    var figures: [(name: String, seconds: Double, cpu: Double, mebibytes: Double)] = []
}

private func measureChain(links: Int, seed: String, in directory: URL) throws -> ChainRun {
    let templates = directory.appendingPathComponent("chain-\(links)")
    try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
    try Data(chainModel.utf8).write(to: templates.appendingPathComponent("model.json"))
    let template = chainTemplate(links: links)
    try Data(template.utf8).write(to: templates.appendingPathComponent("chain.template"))
    Thread.sleep(forTimeInterval: 0.2)
    var run = ChainRun(inputBytes: template.utf8.count)
    let store = directory.appendingPathComponent("chain-\(links).sqlite").path
    let export = directory.appendingPathComponent("chain-\(links).export.json").path
    let exported = directory.appendingPathComponent("chain-\(links)-exported")
    let reseeded = directory.appendingPathComponent("chain-\(links)-exported.sqlite").path
    func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    func measure(_ name: String, prepare: () throws -> Void = {}, _ arguments: [String], check: (ChildRun) -> Bool) throws {
        var (seconds, cpu, peak) = (Double.infinity, Double.infinity, 0)
        for _ in 0..<3 {
            try prepare()
            let child = try runChild("/usr/bin/time", ["-v", seed] + arguments)
            guard child.status == 0, check(child) else {
                throw BenchmarkFailure(description: "seed \(arguments.joined(separator: " ")) failed: \(child.stdout.prefix(500))\(child.stderr.suffix(2_000))")
            }
            seconds = min(seconds, child.seconds)
            cpu = min(cpu, cpuSeconds(fromTimeOutput: child.stderr) ?? .infinity)
            peak = max(peak, peakBytes(fromTimeOutput: child.stderr) ?? 0)
        }
        run.figures.append((name, seconds, cpu, Double(peak) / 1_048_576))
    }
    try measure("seed", prepare: { removeStore(store) }, ["--templates", templates.path, "--store", store, "--quiet"]) { _ in true }
    try measure("second launch", ["--templates", templates.path, "--store", store]) { $0.stdout.contains("unchanged") }
    try measure("export", ["export", "--store", store, "--output", export]) { _ in true }
    try measure("export templates", prepare: { try? FileManager.default.removeItem(at: exported) }, [
        "export", "--store", store, "--format", "templates", "--output", exported.path,
    ]) { _ in true }
    try measure("seed exported", prepare: { removeStore(reseeded) }, [
        "--templates", exported.path, "--store", reseeded, "--quiet",
    ]) { _ in true }
    let again = try runChild(seed, ["export", "--store", reseeded])
    guard again.status == 0, Data(again.stdout.utf8) == (try Data(contentsOf: URL(fileURLWithPath: export))) else {
        throw BenchmarkFailure(description: "the store seeded from the exported templates exports other bytes")
    }
    try measure("diff templates", ["diff", "--templates", templates.path, "--store", store]) { $0.stdout == "no differences\n" }
    try measure("diff export", ["diff", export, store]) { $0.stdout == "no differences\n" }
    return run
}

var chainBenchmarks: [Benchmark] { [
    Benchmark(name: "seed-chain", summary: "owned chains of 10,000–100,000 links: seed, export, re-seed, diff; linear time, memory vs input") {
        let seed = try seedBinary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let floor = try measureChain(links: 1, seed: seed, in: directory)
        let runs = try chainLengths.map { try measureChain(links: $0, seed: seed, in: directory) }
        for (index, figure) in runs[0].figures.enumerated() {
            let floorMiB = floor.figures[index].mebibytes
            let base = runs[0].figures[index]
            for (links, run) in zip(chainLengths, runs) {
                let measured = run.figures[index], inputMiB = Double(run.inputBytes) / 1_048_576
                let scale = Double(links) / Double(chainLengths[0])
                // /usr/bin/time gives CPU time in hundredths: a launch that does next to nothing has no rate.
                let rate = base.cpu >= 0.02 ? "\(format(measured.cpu / base.cpu / scale))× the \(chainLengths[0])-link rate" : "no rate"
                detail("\(figure.name), \(links) links: \(format(measured.seconds)) s, CPU \(format(measured.cpu)) s = \(rate); peak \(format(measured.mebibytes)) MiB, \(format((measured.mebibytes - floorMiB) / inputMiB))× the \(format(inputMiB)) MiB template above the \(format(floorMiB)) MiB floor")
            }
            let name = "chain-\(figure.name.replacingOccurrences(of: " ", with: "-"))"
            let last = runs[runs.count - 1].figures[index], links = chainLengths[chainLengths.count - 1]
            let inputMiB = Double(runs[runs.count - 1].inputBytes) / 1_048_576
            report(
                name, value: last.cpu / Double(links) * 1e6, unit: "µs-cpu/link",
                ratio: base.cpu >= 0.02 ? last.cpu / base.cpu / (Double(links) / Double(chainLengths[0])) : 0,
                peer: "per-link-at-\(chainLengths[0])")
            report(
                "\(name)-memory", value: last.mebibytes, unit: "MiB", ratio: (last.mebibytes - floorMiB) / inputMiB,
                peer: "input-size-above-floor")
        }
    },
] }
