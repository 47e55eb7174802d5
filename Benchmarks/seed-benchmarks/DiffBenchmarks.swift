import Foundation
import SeedKit

// `seed diff` of two exports of 1,000,000 objects (issue 6: ≤ 10 s on 2 cores, peak memory ≤ 3× the input), and the
// same diff by graphtage and deepdiff at the largest size each finishes within 60 s. Needs the release `seed` binary
// beside this one (`swift build -c release`) and, for the peers, `python3 -m pip install graphtage deepdiff`.

private let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts")

private let diffModel = """
    {
      "entities": {
        "Group": {
          "identity": ["name"], "attributes": { "name": "string", "title": "string" },
          "relationships": { "items": { "to": "Item", "many": true, "inverse": "group" } }
        },
        "Item": {
          "identity": ["code"],
          "attributes": { "code": "string", "name": "string", "quantity": "integer", "price": "double", "created": "date" },
          "relationships": { "group": { "to": "Group", "inverse": "items" } }
        }
      }
    }
    """

/// Writes the export of `count` items in groups of 1,000; the `changed` variant differs in about 0.1 % of its items:
/// prices changed, items removed and added, items moved to another group.
private func writeExport(items count: Int, changed: Bool, to path: String) throws {
    let model = try EntityModel(json: JSONDocument(parsing: diffModel).value)
    let context = ObjectContext(model: model)
    let groupCount = max(1, count / 1_000)
    var groups: [ManagedObject] = []
    for index in 0..<groupCount {
        groups.append(try context.insert("Group", values: ["name": "g\(index)", "title": "Group number \(index)"]))
    }
    let base: Int64 = 1_706_745_600
    for index in 0..<count {
        if changed && index % 10_000 == 3 { continue }
        let price = changed && index % 1_000 == 7 ? Double(index % 10_000) + 0.5 : Double(index % 10_000) + 0.25
        let group = changed && index % 100_000 == 5 ? (index + 1) % groupCount : index % groupCount
        _ = try context.insert("Item", values: [
            "code": "item-\(index)", "name": "Item \(index) of the catalogue", "quantity": Int64(index % 977),
            "price": price, "created": Timestamp(seconds: base + Int64(index)),
            "group": groups[group],
        ])
    }
    if changed {
        for index in 0..<max(1, count / 10_000) {
            _ = try context.insert("Item", values: [
                "code": "new-\(index)", "name": "New item \(index)", "quantity": Int64(1), "price": 9.75,
                "created": Timestamp(seconds: base), "group": groups[index % groupCount],
            ])
        }
    }
    try GraphExport().write(context, toFileAtPath: path)
}

private func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

var diffBenchmarks: [Benchmark] { [
    Benchmark(name: "diff-exports", summary: "seed diff of two 1,000,000-object exports; graphtage and deepdiff at the largest size they finish in 60 s") {
        let seed = try seedBinary()
        // SEEDKIT_DIFF_FILES=DIR keeps the generated exports in DIR and reuses them, for profiling `seed diff`.
        let keptDirectory = ProcessInfo.processInfo.environment["SEEDKIT_DIFF_FILES"]
        let directory = keptDirectory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if keptDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
        func paths(_ count: Int) -> (String, String) {
            (directory.appendingPathComponent("old-\(count).json").path, directory.appendingPathComponent("new-\(count).json").path)
        }

        let million = 1_000_000
        let (old, new) = paths(million)
        let reused = FileManager.default.fileExists(atPath: new)
        let writing = try once {
            guard !reused else { return }
            try writeExport(items: million, changed: false, to: old)
            try writeExport(items: million, changed: true, to: new)
        }
        let inputBytes = fileSize(old) + fileSize(new)
        detail("two exports of \(million) items \(reused ? "reused from \(directory.path)" : "written in \(format(writing)) s"): \(inputBytes / 1_048_576) MiB together")
        var best = Double.infinity
        var peak = 0
        var changes = ""
        for _ in 0..<3 {
            let run = try runChild("/usr/bin/time", ["-v", seed, "diff", old, new, "--format", "json"])
            guard run.status == 1 else { throw BenchmarkFailure(description: "seed diff exited \(run.status): \(run.stderr.suffix(500))") }
            best = min(best, run.seconds)
            peak = max(peak, peakBytes(fromTimeOutput: run.stderr) ?? 0)
            changes = run.stdout.split(separator: "\n").last { $0.contains("\"changed\"") }.map(String.init) ?? ""
        }
        detail("seed diff: \(format(best)) s, peak \(peak / 1_048_576) MiB = \(format(Double(peak) / Double(inputBytes)))x the input; summary \(changes.trimmingCharacters(in: .whitespaces))")
        report("diff-1m-exports", value: best, unit: "s", ratio: best / 10, peer: "target-10s")
        report("diff-1m-exports-memory", value: Double(peak) / 1_048_576, unit: "MiB", ratio: Double(peak) / Double(inputBytes), peer: "input-size")

        for peer in ["deepdiff", "graphtage"] {
            guard pythonHas(peer) else {
                detail("\(peer): not installed (python3 -m pip install \(peer)); skipped")
                continue
            }
            var largest: (count: Int, seconds: Double)?
            for count in [100, 1_000, 10_000, 100_000] {
                let (peerOld, peerNew) = paths(count)
                if !FileManager.default.fileExists(atPath: peerOld) {
                    try writeExport(items: count, changed: false, to: peerOld)
                    try writeExport(items: count, changed: true, to: peerNew)
                }
                let run = try runChild(
                    "/usr/bin/env", ["python3", scripts.appendingPathComponent("diff_\(peer).py").path, peerOld, peerNew],
                    timeLimit: 60)
                guard !run.timedOut, run.status == 0 else {
                    detail("\(peer) at \(count) items: over 60 s (or failed: \(run.stderr.suffix(200)))")
                    break
                }
                detail("\(peer) at \(count) items: \(format(run.seconds)) s (\(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))")
                largest = (count, run.seconds)
            }
            guard let largest else { continue }
            let (peerOld, peerNew) = paths(largest.count)
            let ours = try fastest(repetitions: 3) {
                let run = try runChild(seed, ["diff", peerOld, peerNew, "--format", "json"])
                guard run.status == 1 else { throw BenchmarkFailure(description: "seed diff exited \(run.status)") }
            }
            detail("seed diff at \(largest.count) items: \(format(ours)) s")
            report("diff-vs-\(peer)-\(largest.count)", value: ours, unit: "s", ratio: largest.seconds / ours, peer: peer)
        }
    },
] }
