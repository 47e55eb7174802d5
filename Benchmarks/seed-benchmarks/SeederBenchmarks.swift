import Foundation

// The whole `seed` process seeding a fresh store from 200,000 objects in 2,000 template files, against a Python
// pipeline (orjson + sqlite3 executemany) and Django's loaddata on the same data. Needs the release `seed` binary
// beside this one: `swift build -c release`.

private let fileCount = 2_000
private let objectsPerFile = 100
private let groupFiles = 10
private let djangoObjects = 20_000

private let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts")

/// Writes the data set: 1,000 groups in the first 10 files, then 199,000 items referencing them by name.
private func writeTemplates(to directory: URL) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("""
        {
          "entities": {
            "Group": { "identity": ["name"], "attributes": { "name": "string", "title": "string" } },
            "Item": {
              "identity": ["code"],
              "attributes": { "code": "string", "name": "string", "quantity": "integer", "price": "double", "created": "date" },
              "relationships": { "group": { "to": "Group" } }
            }
          }
        }
        """.utf8).write(to: directory.appendingPathComponent("model.json"))
    let groupCount = groupFiles * objectsPerFile
    for file in 0..<fileCount {
        var text = "[\n"
        for position in 0..<objectsPerFile {
            let index = file * objectsPerFile + position
            if position > 0 { text += ",\n" }
            if file < groupFiles {
                text += #"  { "class": "Group", "name": "g\#(index)", "title": "Group number \#(index)" }"#
            } else {
                let second = index % 60, minute = index / 60 % 60, hour = index / 3600 % 24, day = index / 86400 % 28 + 1
                text += #"  { "class": "Item", "code": "item-\#(index)", "name": "Item \#(index) of the catalogue", "#
                    + #""quantity": \#(index % 977), "price": \#(index % 10_000).25, "#
                    + #""created": "2024-02-\#(day < 10 ? "0" : "")\#(day)T\#(hour < 10 ? "0" : "")\#(hour):\#(minute < 10 ? "0" : "")\#(minute):\#(second < 10 ? "0" : "")\#(second)Z", "#
                    + #""group": { "class": "Group", "name": "g\#(index % groupCount)" } }"#
            }
        }
        text += "\n]\n"
        try Data(text.utf8).write(to: directory.appendingPathComponent(String(format: "part-%04d.template", file)))
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

var seederBenchmarks: [Benchmark] { [
    Benchmark(name: "seed-templates", summary: "seed process: 200,000 objects in 2,000 templates into a fresh store vs orjson+executemany and Django loaddata") {
        let seed = try seedBinary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("Templates")
        try writeTemplates(to: templates)
        let objects = Double(fileCount * objectsPerFile)
        let store = directory.appendingPathComponent("seed.sqlite").path

        // Whole process, fresh store each time; fastest of 3, measured with /usr/bin/time for the peak memory.
        var first = Double.infinity
        var peak = 0
        var second = Double.infinity
        for _ in 0..<3 {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            let run = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
                ? try runChild("/usr/bin/time", ["-v", seed, "--templates", templates.path, "--store", store, "--quiet"])
                : try runChild(seed, ["--templates", templates.path, "--store", store, "--quiet"])
            guard run.status == 0 else { throw BenchmarkFailure(description: "seed failed: \(run.stderr)") }
            first = min(first, run.seconds)
            peak = max(peak, peakBytes(fromTimeOutput: run.stderr) ?? 0)
            let again = try runChild(seed, ["--templates", templates.path, "--store", store])
            guard again.status == 0, again.stdout.contains("unchanged") else {
                throw BenchmarkFailure(description: "second launch did not find the store unchanged: \(again.stdout)\(again.stderr)")
            }
            second = min(second, again.seconds)
        }
        detail("seed: \(format(first)) s, \(format(objects / first)) objects/s; second launch \(format(second * 1000)) ms (\(format(second / first * 100)) % of the first); peak memory \(peak / 1_048_576) MiB")

        var orjson = Double.infinity
        for _ in 0..<3 {
            let peerStore = directory.appendingPathComponent("orjson.sqlite").path
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: peerStore + suffix) }
            let run = try runChild("/usr/bin/env", ["python3", scripts.appendingPathComponent("orjson_seed.py").path, templates.path, peerStore])
            guard run.status == 0, run.stdout.hasPrefix("\(fileCount * objectsPerFile)") else {
                throw BenchmarkFailure(description: "orjson_seed.py failed: \(run.stderr)")
            }
            orjson = min(orjson, run.seconds)
        }
        detail("python orjson + executemany: \(format(orjson)) s, \(format(objects / orjson)) objects/s (whole process)")

        report("seed-templates", value: objects / first, unit: "objects/s", ratio: orjson / first, peer: "python-orjson-executemany")
        report("seed-templates-second-launch", value: second * 1000, unit: "ms", ratio: second / first, peer: "first-launch")
        report("seed-templates-memory", value: Double(peak) / 1_048_576, unit: "MiB", ratio: Double(peak) / 1_048_576 / 300, peer: "target-300MiB")

        guard pythonHas("django") else {
            detail("Django is not installed (python3 -m pip install django): no loaddata figure")
            return
        }
        let work = directory.appendingPathComponent("django")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let run = try runChild("/usr/bin/env", [
            "python3", scripts.appendingPathComponent("django_loaddata.py").path, templates.path, work.path, "\(djangoObjects)",
        ])
        let fields = run.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard run.status == 0, fields.count == 2 else { throw BenchmarkFailure(description: "django_loaddata.py failed: \(run.stderr)") }
        let loaddataRate = fields[0] / fields[1]
        detail("Django loaddata: \(Int(fields[0])) objects in \(format(fields[1])) s, \(format(loaddataRate)) objects/s (the first \(djangoObjects) objects; loaddata alone, not the process)")
        report("seed-templates-vs-loaddata", value: objects / first, unit: "objects/s", ratio: objects / first / loaddataRate, peer: "django-loaddata")
    },
] }
