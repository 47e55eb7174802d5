import Foundation

// An owned chain (issue 19): top-level objects each owning the next through "$ref", at 10,000, 50,000 and 100,000
// links, through the whole `seed` process under /usr/bin/time -v (fastest of 3 by wall and by CPU time, largest peak
// memory): the first launch, the second (which
// must say "unchanged"), `seed export` in both formats, a first launch from the exported templates (whose export must
// be the same bytes: SeedKit never writes what it then refuses), `seed diff` of the templates against the store, and
// of the store's own export against the store. Time per link at each length against the shortest says whether the cost
// is linear; peak memory against the template's size whether it stays within 4× the input (the process's floor, its
// peak on a one-link chain, shown beside it). Two shapes of template: spaced and indented as a person writes one (104
// bytes a link at 100,000 links), and as dense as the issue's own chain (78 bytes a link): the memory above the floor
// is about the same for both, so the denser template is the harder test of the 4×. Needs the release `seed` binary
// beside this one.

private let chainLengths = [10_000, 50_000, 100_000]


/// How a chain's template is written.
private enum ChainShape: String, CaseIterable {
    /// As a person would write a list that a model makes a chain: spaced, indented, with a name and a position.
    case spaced
    /// As densely as issue 19's chain (20,000 links in 1.6 MB): no spaces, a name, no position.
    case dense

    /// Its model: a `Link` owns the next; the dense shape's has the name alone, as the issue's chain.
    var model: String {
        let attributes = self == .spaced ? #"{ "name": "string", "position": "integer" }"# : #"{ "name": "string" }"#
        return """
            {
              "entities": {
                "Link": {
                  "attributes": \(attributes),
                  "relationships": {
                    "next": { "to": "Link", "owns": true, "inverse": "previous" },
                    "previous": { "to": "Link", "inverse": "next" }
                  }
                }
              }
            }
            """
    }

    /// One template file of `links` top-level objects, each owning the next through `"$ref"`.
    func template(links: Int) -> String {
        var text = "[\n"
        text.reserveCapacity(links * 110)
        for index in 0..<links {
            let isLast = index + 1 == links
            switch self {
            case .spaced:
                let next = isLast ? "" : #", "next": {"$ref": "l\#(index + 1)"}"#
                text += #"  {"class": "Link", "$id": "l\#(index)", "name": "Link \#(index)", "position": \#(index)\#(next)}"#
            case .dense:
                let next = isLast ? "" : #","next":{"$ref":"l\#(index + 1)"}"#
                text += #"{"class":"Link","$id":"l\#(index)","name":"link \#(index)"\#(next)}"#
            }
            text += isLast ? "\n" : ",\n"
        }
        return text + "]\n"
    }

    /// The names of its reports: the spaced shape's keep the names they had before the dense one was measured.
    func reportName(_ name: String) -> String { self == .spaced ? "chain-\(name)" : "chain-\(rawValue)-\(name)" }
}

/// The wall and CPU seconds and peak MiB of each measured command at one length, and the bytes of what it reads: the
/// template, but the exported templates for the launch that seeds them.
private struct ChainRun {
    var figures: [(name: String, seconds: Double, cpu: Double, mebibytes: Double, inputBytes: Int)] = []
}

private func measureChain(links: Int, shape: ChainShape, seed: String, in directory: URL) throws -> ChainRun {
    let templates = directory.appendingPathComponent("chain-\(shape)-\(links)")
    try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
    try Data(shape.model.utf8).write(to: templates.appendingPathComponent("model.json"))
    let template = shape.template(links: links)
    try Data(template.utf8).write(to: templates.appendingPathComponent("chain.template"))
    Thread.sleep(forTimeInterval: 0.2)
    var run = ChainRun()
    let store = directory.appendingPathComponent("chain-\(shape)-\(links).sqlite").path
    let export = directory.appendingPathComponent("chain-\(shape)-\(links).export.json").path
    let exported = directory.appendingPathComponent("chain-\(shape)-\(links)-exported")
    let reseeded = directory.appendingPathComponent("chain-\(shape)-\(links)-exported.sqlite").path
    func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    func measure(
        _ name: String, input: @autoclosure () throws -> Int = template.utf8.count, prepare: () throws -> Void = {},
        _ arguments: [String], check: (ChildRun) -> Bool
    ) throws {
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
        run.figures.append((name, seconds, cpu, Double(peak) / 1_048_576, try input()))
    }
    try measure("seed", prepare: { removeStore(store) }, ["--templates", templates.path, "--store", store, "--quiet"]) { _ in true }
    try measure("second launch", ["--templates", templates.path, "--store", store]) { $0.stdout.contains("unchanged") }
    try measure("export", ["export", "--store", store, "--output", export]) { _ in true }
    try measure("export templates", prepare: { try? FileManager.default.removeItem(at: exported) }, [
        "export", "--store", store, "--format", "templates", "--output", exported.path,
    ]) { _ in true }
    try measure("seed exported", input: try directorySize(exported), prepare: { removeStore(reseeded) }, [
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

/// The bytes of the files in a directory and those below it.
private func directorySize(_ directory: URL) throws -> Int {
    var size = 0
    let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey])
    while let file = files?.nextObject() as? URL {
        size += try file.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
    }
    return size
}

var chainBenchmarks: [Benchmark] { [
    Benchmark(name: "seed-chain", summary: "owned chains of 10,000–100,000 links: seed, export, re-seed, diff; linear time, memory vs input") {
        let seed = try seedBinary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for shape in ChainShape.allCases {
            let floor = try measureChain(links: 1, shape: shape, seed: seed, in: directory)
            let runs = try chainLengths.map { try measureChain(links: $0, shape: shape, seed: seed, in: directory) }
            reportChain(shape, runs: runs, floor: floor)
        }
    },
] }

/// Reports the runs of one shape: per command, the time per link at each length against the shortest, and the peak
/// memory against the template above the floor.
private func reportChain(_ shape: ChainShape, runs: [ChainRun], floor: ChainRun) {
    for (index, figure) in runs[0].figures.enumerated() {
        let floorMiB = floor.figures[index].mebibytes
        let base = runs[0].figures[index]
        for (links, run) in zip(chainLengths, runs) {
            let measured = run.figures[index], inputMiB = Double(measured.inputBytes) / 1_048_576
            let scale = Double(links) / Double(chainLengths[0])
            // /usr/bin/time gives CPU time in hundredths: a launch that does next to nothing has no rate.
            let rate = base.cpu >= 0.02 ? "\(format(measured.cpu / base.cpu / scale))× the \(chainLengths[0])-link rate" : "no rate"
            detail("\(shape), \(figure.name), \(links) links: \(format(measured.seconds)) s, CPU \(format(measured.cpu)) s = \(rate); peak \(format(measured.mebibytes)) MiB, \(format((measured.mebibytes - floorMiB) / inputMiB))× the \(format(inputMiB)) MiB template above the \(format(floorMiB)) MiB floor")
        }
        let name = shape.reportName(figure.name.replacingOccurrences(of: " ", with: "-"))
        let last = runs[runs.count - 1].figures[index], links = chainLengths[chainLengths.count - 1]
        let inputMiB = Double(last.inputBytes) / 1_048_576
        report(
            name, value: last.cpu / Double(links) * 1e6, unit: "µs-cpu/link",
            ratio: base.cpu >= 0.02 ? last.cpu / base.cpu / (Double(links) / Double(chainLengths[0])) : 0,
            peer: "per-link-at-\(chainLengths[0])")
        report(
            "\(name)-memory", value: last.mebibytes, unit: "MiB", ratio: (last.mebibytes - floorMiB) / inputMiB,
            peer: "input-size-above-floor")
    }
}
