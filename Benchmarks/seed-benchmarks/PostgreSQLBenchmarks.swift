import CPostgreSQL
import Foundation
import PostgreSQLTestServer
import SeedKitPostgreSQL

/// Loads 200,000 rows into PostgreSQL with SeedKit's binary COPY writer, with a text-format COPY through raw libpq
/// calls, and with psycopg 3's COPY from Python, all into the same throwaway server in the same run.
///
/// The rows have what a store writes: a bigint key, text (some with tabs, newlines and backslashes, some non-ASCII),
/// an exact numeric, a timestamp with microseconds, an integer. Every run is `TRUNCATE` and `COPY` in one transaction,
/// into a table with a primary key; the fastest of five runs counts. The text-format peer gets its values already
/// formatted as text (not timed), so it measures what the format costs on the wire and on the server. Each peer's
/// table is checked to hold the same data.
@MainActor
let postgresCopyBenchmark = Benchmark(
    name: "postgres-copy",
    summary: "200,000 rows (bigint, text, numeric, timestamptz, integer) by COPY: SeedKit's binary writer vs a "
        + "text-format COPY and Python psycopg",
    run: PostgresCopyBenchmark().run)

private struct PostgresCopyBenchmark {
    let rowCount = 200_000
    let repetitions = 5
    let columns = ["id", "name", "email", "salary", "hired", "level", "note"]

    struct Row {
        var id: Int64
        var name: String
        var email: String
        var salary: String
        var hired: PostgreSQLTimestamp
        var level: Int64
        var note: String
    }

    /// The rows psycopg_copy.py makes too.
    func makeRows() -> [Row] {
        (1...Int64(rowCount)).map { i in
            let cents = i % 100
            return Row(
                id: i, name: "Employee \(i) Zoë", email: "employee\(i)@example.com",
                salary: "\(40000 + i % 60000).\(cents < 10 ? "0" : "")\(cents)",
                hired: PostgreSQLTimestamp(microsecondsSince1970: (1_577_836_800 + i * 37) * 1_000_000 + (i * 7919) % 1_000_000),
                level: i % 10,
                note: i % 10 == 0 ? "note \(i)\twith a tab, a backslash \\ and a\nnewline" : "note \(i)")
        }
    }

    func run() throws {
        guard pythonHas("psycopg") else {
            throw BenchmarkFailure(description: "psycopg is missing: python3 -m pip install 'psycopg[binary]'")
        }
        let database = try PostgreSQLTestServer.shared().makeDatabase()
        let connection = try database.connect()
        try connection.execute(sql: """
            CREATE TABLE employee (
                id bigint PRIMARY KEY, name text NOT NULL, email text NOT NULL, salary numeric NOT NULL,
                hired timestamptz NOT NULL, level integer NOT NULL, note text NOT NULL)
            """)
        let rows = makeRows()
        let textRows = rows.map { row in
            [String(row.id), row.name, row.email, row.salary, row.hired.description, String(row.level), row.note]
        }
        let raw = try RawConnection(url: database.url)

        var seedKit = Double.infinity
        var seedKitCPU = Double.infinity
        var text = Double.infinity
        for _ in 0...repetitions {
            let cpuBefore = processCPUSeconds()
            seedKit = min(seedKit, try once { try copyWithSeedKit(rows, connection) })
            seedKitCPU = min(seedKitCPU, processCPUSeconds() - cpuBefore)
            text = min(text, try once { try raw.copyText(textRows, columns: columns) })
        }
        let seedKitChecksum = try checksum(connection)
        try raw.copyText(textRows, columns: columns)
        guard try checksum(connection) == seedKitChecksum else {
            throw BenchmarkFailure(description: "the text-format COPY loaded other data than SeedKit's writer")
        }
        let psycopgText = try psycopg(database.url, format: "text")
        guard try checksum(connection) == seedKitChecksum else {
            throw BenchmarkFailure(description: "psycopg loaded other data than SeedKit's writer")
        }
        let psycopgBinary = try psycopg(database.url, format: "binary")

        let rate = { (seconds: Double) in "\(format(Double(rowCount) / seconds / 1000))k rows/s" }
        detail("SeedKit binary COPY writer: \(format(seedKit)) s (\(rate(seedKit))), of which \(format(seedKitCPU)) s of "
            + "CPU in this process: the rest is the server's")
        detail("text-format COPY, raw libpq, values preformatted: \(format(text)) s (\(rate(text)), "
            + "\(format(text / seedKit))x SeedKit's time)")
        detail("psycopg \(psycopgVersion()) write_row, text format: \(format(psycopgText)) s (\(rate(psycopgText)))")
        detail("psycopg write_row, binary format: \(format(psycopgBinary)) s (\(rate(psycopgBinary)))")
        detail("peak memory \(peakResidentBytes() / 1_048_576) MiB")
        let psycopgBest = min(psycopgText, psycopgBinary)
        report("postgres-copy", value: Double(rowCount) / seedKit / 1000, unit: "k-rows/s", ratio: psycopgBest / seedKit,
            peer: "psycopg-copy")
    }

    private func copyWithSeedKit(_ rows: [Row], _ connection: PostgreSQLConnection) throws {
        try connection.inTransaction {
            try connection.execute(sql: "TRUNCATE employee")
            try connection.copy(into: "employee", columns: columns) { writer in
                for row in rows {
                    try writer.append(row.id)
                    try writer.append(row.name)
                    try writer.append(row.email)
                    try writer.append(numeric: row.salary)
                    try writer.append(row.hired)
                    try writer.append(row.level)
                    try writer.append(row.note)
                    try writer.endRow()
                }
            }
        }
    }

    /// A digest of the whole table, to check that every peer loaded the same data.
    private func checksum(_ connection: PostgreSQLConnection) throws -> String? {
        try connection.execute(sql: "SET TimeZone = 'UTC'")
        return try connection.query(sql: """
            SELECT md5(string_agg(concat_ws('|', id, name, email, salary, hired, level, note), E'\\n' ORDER BY id))
            FROM employee
            """)[0].text(at: 0)
    }

    private func psycopg(_ url: PostgreSQLURL, format: String) throws -> Double {
        let host = url.hosts[0]
        let conninfo = "host=\(host.name) port=\(host.port ?? 5432) user=\(url.user ?? "") dbname=\(url.database ?? "")"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/psycopg_copy.py").path
        let run = try runChild("/usr/bin/env", ["python3", script, conninfo, String(rowCount), format, String(repetitions)])
        guard run.status == 0, let seconds = Double(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchmarkFailure(description: "psycopg_copy.py failed: \(run.stderr)")
        }
        return seconds
    }

    private func psycopgVersion() -> String {
        (try? runChild("/usr/bin/env", ["python3", "-c", "import psycopg; print(psycopg.__version__)"]))?
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }
}

/// User and system CPU seconds this process has used.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A libpq connection driven by raw C calls, for the text-format peer.
private final class RawConnection {
    let handle: OpaquePointer

    init(url: PostgreSQLURL) throws {
        let host = url.hosts[0]
        let conninfo = "host=\(host.name) port=\(host.port ?? 5432) user=\(url.user ?? "") dbname=\(url.database ?? "")"
        try LibPQ.load()
        guard let handle = libpq.PQconnectdb(conninfo) else { throw BenchmarkFailure(description: "out of memory") }
        self.handle = handle
        guard libpq.PQstatus(handle) == CONNECTION_OK else {
            throw BenchmarkFailure(description: LibPQ.text(libpq.PQerrorMessage(handle)))
        }
    }

    deinit {
        libpq.PQfinish(handle)
    }

    /// TRUNCATE and a text-format COPY of `rows` in one transaction, sent in chunks of the size SeedKit's writer uses.
    func copyText(_ rows: [[String]], columns: [String]) throws {
        try execute("BEGIN; TRUNCATE employee")
        try expect(libpq.PQexec(handle, "COPY employee (\(columns.joined(separator: ", "))) FROM STDIN"), PGRES_COPY_IN)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(300_000)
        for row in rows {
            for (index, field) in row.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: "\t")) }
                for byte in field.utf8 {
                    switch byte {
                    case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                    case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                    case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                    case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                    default: buffer.append(byte)
                    }
                }
            }
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 256 * 1024 { try send(&buffer) }
        }
        try send(&buffer)
        guard libpq.PQputCopyEnd(handle, nil) == 1 else { throw failure() }
        try expect(libpq.PQgetResult(handle), PGRES_COMMAND_OK)
        while let extra = libpq.PQgetResult(handle) { libpq.PQclear(extra) }
        try execute("COMMIT")
    }

    private func send(_ buffer: inout [UInt8]) throws {
        let sent = buffer.withUnsafeBytes { bytes in
            libpq.PQputCopyData(handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        guard sent == 1 else { throw failure() }
        buffer.removeAll(keepingCapacity: true)
    }

    private func execute(_ sql: String) throws {
        try expect(libpq.PQexec(handle, sql), PGRES_COMMAND_OK)
    }

    private func expect(_ result: OpaquePointer?, _ status: ExecStatusType) throws {
        defer { libpq.PQclear(result) }
        guard libpq.PQresultStatus(result) == status else { throw failure() }
    }

    private func failure() -> BenchmarkFailure {
        BenchmarkFailure(description: LibPQ.text(libpq.PQerrorMessage(handle)))
    }
}
