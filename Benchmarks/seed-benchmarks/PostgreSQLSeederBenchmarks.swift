import Foundation
import PostgreSQLTestServer

// The `seed` process on the nested shape (~200,000 objects) into PostgreSQL on loopback, against a Python peer in the
// same run: a first launch into a fresh database against orjson + psycopg COPY of the same rows; a second launch
// with nothing to do against the first; `seed export` of the database against a psycopg + orjson exporter of the same
// objects, and against `seed export` of an SQLite store of the same set. Fastest of 3 each. Needs the release `seed`
// binary beside this one (`swift build -c release`), a PostgreSQL server (PostgreSQLTestServer: a throwaway cluster,
// or SEEDKIT_TEST_POSTGRES_URL), python3 with orjson and psycopg.

/// The department files Django's loaddata is given (with the projects): about 10,600 objects.
private let djangoDepartments = 100

private let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts")

@MainActor
let seedPostgresBenchmark = Benchmark(
    name: "seed-postgres",
    summary: "seed process into PostgreSQL, nested shape: first and second launches, export vs psycopg peers and Django loaddata"
) {
    guard pythonHas("psycopg"), pythonHas("orjson") else {
        throw BenchmarkFailure(description: "psycopg or orjson is missing: python3 -m pip install 'psycopg[binary]' orjson")
    }
    let shape = seedShapes.first { $0.name == "nested" }!
    let seed = try seedBinary()
    let server = try PostgreSQLTestServer.shared()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let templates = directory.appendingPathComponent("Templates")
    try shape.write(to: templates)
    Thread.sleep(forTimeInterval: 0.2)

    func fastest(_ executable: String, _ arguments: (String) -> [String], check: (ChildRun) -> Bool) throws -> (Double, String) {
        var seconds = Double.infinity, url = ""
        for _ in 0..<3 {
            url = try server.makeDatabase().url.description
            let run = try runChild(executable, arguments(url))
            guard run.status == 0, check(run) else {
                throw BenchmarkFailure(description: "\(executable) failed: \(run.stdout)\(run.stderr.suffix(2_000))")
            }
            seconds = min(seconds, run.seconds)
        }
        return (seconds, url)
    }
    let (first, url) = try fastest(seed, { ["--templates", templates.path, "--store", $0, "--quiet"] }) { _ in true }
    var second = Double.infinity
    for _ in 0..<3 {
        let again = try runChild(seed, ["--templates", templates.path, "--store", url])
        guard again.status == 0, again.stdout.contains("unchanged") else {
            throw BenchmarkFailure(description: "the second launch did not find the set: \(again.stdout)\(again.stderr)")
        }
        second = min(second, again.seconds)
    }
    let script = scripts.appendingPathComponent("orjson_psycopg_seed.py").path
    let (peer, _) = try fastest("/usr/bin/env", { ["python3", script, templates.path, $0] }) {
        $0.stdout.hasPrefix("\(shape.objectCount)")
    }

    let sqlite = directory.appendingPathComponent("seed.sqlite").path
    let seeded = try runChild(seed, ["--templates", templates.path, "--store", sqlite, "--quiet"])
    guard seeded.status == 0 else { throw BenchmarkFailure(description: "seed into SQLite failed: \(seeded.stderr)") }
    var exports: [Double] = [.infinity, .infinity]
    for _ in 0..<3 {
        for (index, store) in [url, sqlite].enumerated() {
            let output = directory.appendingPathComponent("export-\(index).json").path
            let run = try runChild(seed, ["export", "--store", store, "--output", output])
            guard run.status == 0 else { throw BenchmarkFailure(description: "seed export failed: \(run.stderr)") }
            exports[index] = min(exports[index], run.seconds)
        }
    }
    let same = FileManager.default.contentsEqual(
        atPath: directory.appendingPathComponent("export-0.json").path,
        andPath: directory.appendingPathComponent("export-1.json").path)
    guard same else { throw BenchmarkFailure(description: "the PostgreSQL export differs from the SQLite export") }
    // The peer writes the same objects from the same database; the model as it is stored, so not the same bytes.
    var peerExport = Double.infinity
    let peerOutput = directory.appendingPathComponent("export-peer.json")
    for _ in 0..<3 {
        let run = try runChild(
            "/usr/bin/env", ["python3", scripts.appendingPathComponent("psycopg_export.py").path, url, peerOutput.path])
        guard run.status == 0 else { throw BenchmarkFailure(description: "psycopg_export.py failed: \(run.stderr.suffix(2_000))") }
        peerExport = min(peerExport, run.seconds)
    }
    func objects(_ file: URL) throws -> NSArray? {
        (try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? NSDictionary)?["objects"] as? NSArray
    }
    guard let ours = try objects(directory.appendingPathComponent("export-0.json")),
          ours.isEqual(try objects(peerOutput))
    else { throw BenchmarkFailure(description: "psycopg_export.py wrote other objects than seed export") }

    let objects = Double(shape.objectCount)
    // Django's loaddata of the same kind of data into a database of the same server: the projects and the first
    // department files only, as it is slow; its rate scales.
    var loaddata: (objects: Double, seconds: Double)?
    if pythonHas("django") {
        let work = directory.appendingPathComponent("django")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let run = try runChild("/usr/bin/env", [
            "python3", scripts.appendingPathComponent("django_loaddata_postgres.py").path, templates.path,
            try server.makeDatabase().url.description, work.path, "\(djangoDepartments)",
        ])
        let fields = run.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard run.status == 0, fields.count == 2 else {
            throw BenchmarkFailure(description: "django_loaddata_postgres.py failed: \(run.stderr.suffix(2_000))")
        }
        loaddata = (fields[0], fields[1])
    }
    detail("seed into PostgreSQL: \(format(first)) s, \(format(objects / first)) objects/s; python orjson + psycopg COPY: \(format(peer)) s")
    detail("second launch: \(format(second * 1000)) ms (\(format(second / first * 100)) % of the first)")
    detail("seed export from PostgreSQL: \(format(exports[0])) s; from SQLite: \(format(exports[1])) s; the same bytes")
    detail("python psycopg + orjson export from PostgreSQL: \(format(peerExport)) s; the same objects")
    report("seed-postgres-nested", value: objects / first, unit: "objects/s", ratio: peer / first, peer: "python-orjson-psycopg-copy")
    if let loaddata {
        detail("Django loaddata into PostgreSQL: \(Int(loaddata.objects)) objects in \(format(loaddata.seconds)) s (the projects and the first \(djangoDepartments) departments; loaddata alone)")
        report(
            "seed-postgres-nested-vs-loaddata", value: objects / first, unit: "objects/s",
            ratio: objects / first / (loaddata.objects / loaddata.seconds), peer: "django-loaddata")
    } else {
        detail("Django loaddata not measured: python3 -m pip install django")
    }
    report("seed-postgres-nested-second-launch", value: second * 1000, unit: "ms", ratio: second / first, peer: "first-launch")
    report("export-postgres-nested", value: exports[0] * 1000, unit: "ms", ratio: peerExport / exports[0], peer: "python-psycopg-orjson")
    report("export-postgres-nested-vs-sqlite", value: exports[0] * 1000, unit: "ms", ratio: exports[1] / exports[0], peer: "seed-export-sqlite")
}
