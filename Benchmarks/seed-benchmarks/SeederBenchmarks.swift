import Foundation

// The whole `seed` process on each shape of template set (SeedShapes.swift), against Python peers in the same run:
// a first launch into a fresh store against orjson + executemany writing the same rows; a second launch with nothing
// to do against a bare os.walk + os.stat of the tree; a later launch after a tenth of the files changed against the
// first launch; and for the nested shape `seed export` against a sqlite3 + orjson exporter. Fastest of 3 each, peak
// memory by /usr/bin/time. Needs the release `seed` binary beside this one: `swift build -c release`.

private let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts")
private let djangoObjects = 20_000

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

/// The fastest of `count` runs of a child process and the largest peak memory among them, in MiB.
private func best(
    of count: Int = 3, prepare: () throws -> Void = {}, _ executable: String, _ arguments: [String],
    check: (ChildRun) -> Bool
) throws -> (seconds: Double, mebibytes: Double) {
    var seconds = Double.infinity, peak = 0
    for _ in 0..<count {
        try prepare()
        let timed = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
        let run = timed ? try runChild("/usr/bin/time", ["-v", executable] + arguments) : try runChild(executable, arguments)
        guard run.status == 0, check(run) else {
            throw BenchmarkFailure(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(run.stdout)\(run.stderr.suffix(2_000))")
        }
        seconds = min(seconds, run.seconds)
        peak = max(peak, peakBytes(fromTimeOutput: run.stderr) ?? 0)
    }
    return (seconds, Double(peak) / 1_048_576)
}

private func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

private func python(_ script: String) -> String { scripts.appendingPathComponent(script).path }

/// Measures `seed` on one shape; see the file's description.
private func measure(_ shape: SeedShape, exporting: Bool) throws {
    let seed = try seedBinary()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let templates = directory.appendingPathComponent("Templates")
    try shape.write(to: templates)
    // Files written in the last moments get no stamp (too recent to trust): let the clock move past them.
    Thread.sleep(forTimeInterval: 0.2)
    let objects = Double(shape.objectCount)
    let store = directory.appendingPathComponent("seed.sqlite").path
    let name = "seed-\(shape.name)"

    var second = Double.infinity
    let first = try best(prepare: { removeStore(store) }, seed, ["--templates", templates.path, "--store", store, "--quiet"]) { _ in
        guard let again = try? runChild(seed, ["--templates", templates.path, "--store", store]),
            again.status == 0, again.stdout.contains("unchanged")
        else { return false }
        second = min(second, again.seconds)
        return true
    }
    let peerStore = directory.appendingPathComponent("orjson.sqlite").path
    let peer = try best(prepare: { removeStore(peerStore) }, "/usr/bin/env", ["python3", python("orjson_seed.py"), shape.name, templates.path, peerStore]) {
        $0.stdout.hasPrefix("\(shape.objectCount)")
    }
    let walk = try best("/usr/bin/env", ["python3", python("walk_stat.py"), templates.path]) { _ in true }
    detail("seed: \(format(first.seconds)) s, \(format(objects / first.seconds)) objects/s, peak \(format(first.mebibytes)) MiB; python orjson + executemany: \(format(peer.seconds)) s, peak \(format(peer.mebibytes)) MiB")
    detail("second launch: \(format(second * 1000)) ms (\(format(second / first.seconds * 100)) % of the first); python os.walk + os.stat: \(format(walk.seconds * 1000)) ms")
    report(name, value: objects / first.seconds, unit: "objects/s", ratio: peer.seconds / first.seconds, peer: "python-orjson-executemany")
    report("\(name)-memory", value: first.mebibytes, unit: "MiB", ratio: first.mebibytes / peer.mebibytes, peer: "python-orjson-executemany")
    report("\(name)-second-launch", value: second * 1000, unit: "ms", ratio: second / walk.seconds, peer: "python-walk-stat")
    report("\(name)-second-launch-share", value: second * 1000, unit: "ms", ratio: second / first.seconds, peer: "first-launch")

    if exporting {
        let output = directory.appendingPathComponent("export.json").path
        let export = try best(seed, ["export", "--store", store, "--output", output]) { _ in true }
        let peerOutput = directory.appendingPathComponent("export.py.json").path
        let peerExport = try best("/usr/bin/env", ["python3", python("orjson_export.py"), store, peerOutput]) { _ in true }
        detail("seed export: \(format(export.seconds)) s, peak \(format(export.mebibytes)) MiB; python sqlite3 + orjson: \(format(peerExport.seconds)) s, peak \(format(peerExport.mebibytes)) MiB")
        report("export-\(shape.name)", value: export.seconds * 1000, unit: "ms", ratio: peerExport.seconds / export.seconds, peer: "python-sqlite3-orjson")
    }

    // A later launch: a tenth of the files edited, applied to a copy of the seeded store each time.
    let seeded = store + ".seeded"
    try FileManager.default.copyItem(atPath: store, toPath: seeded)
    let changed = try shape.change(in: templates)
    Thread.sleep(forTimeInterval: 0.2)
    let update = try best(prepare: {
        removeStore(store)
        try FileManager.default.copyItem(atPath: seeded, toPath: store)
    }, seed, ["--templates", templates.path, "--store", store, "--quiet"]) { _ in true }
    detail("later launch, \(changed) files changed: \(format(update.seconds)) s (\(format(update.seconds / first.seconds * 100)) % of the first), peak \(format(update.mebibytes)) MiB")
    report("\(name)-update", value: update.seconds * 1000, unit: "ms", ratio: update.seconds / first.seconds, peer: "first-launch")
    report("\(name)-update-memory", value: update.mebibytes, unit: "MiB", ratio: update.mebibytes / first.mebibytes, peer: "first-launch")

    guard shape.name == "flat", pythonHas("django") else { return }
    let work = directory.appendingPathComponent("django")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let run = try runChild("/usr/bin/env", ["python3", python("django_loaddata.py"), templates.path, work.path, "\(djangoObjects)"])
    let fields = run.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard run.status == 0, fields.count == 2 else { throw BenchmarkFailure(description: "django_loaddata.py failed: \(run.stderr)") }
    let loaddataRate = fields[0] / fields[1]
    detail("Django loaddata: \(Int(fields[0])) objects in \(format(fields[1])) s (the first \(djangoObjects) objects; loaddata alone)")
    report("\(name)-vs-loaddata", value: objects / first.seconds, unit: "objects/s", ratio: objects / first.seconds / loaddataRate, peer: "django-loaddata")
}

var seederBenchmarks: [Benchmark] {
    seedShapes.map { shape in
        Benchmark(name: "seed-\(shape.name)", summary: "seed process, \(shape.summary): first, second and later launches\(shape.name == "nested" ? ", export" : "") vs Python peers") {
            try measure(shape, exporting: shape.name == "nested")
        }
    }
}
