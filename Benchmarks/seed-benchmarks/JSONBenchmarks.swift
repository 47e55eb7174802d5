import Foundation
import SeedKit

// JSON reading and writing, against Foundation's JSONSerialization and JSONDecoder/JSONEncoder.
//
//     swift run -c release seed-benchmarks json-parse json-write json-parse-memory

@MainActor let jsonParseBenchmark = Benchmark(
    name: "json-parse",
    summary: "parse a ~30 MB document: JSONDocument vs JSONSerialization.jsonObject and JSONDecoder (Codable)"
) {
    let text = BenchmarkEmployees.text(count: BenchmarkEmployees.defaultCount)
    let data = Data(text)
    let megabytes = Double(text.count) / 1_000_000
    detail("document: \(format(megabytes)) MB, \(BenchmarkEmployees.defaultCount) employees")

    // As many runs of ours as of the peer of the ratio: the fastest of more runs would favor ours on a loaded machine.
    let ours = try fastest(repetitions: 3) { blackHole(try JSONDocument(parsing: text)) }
    let serialization = try fastest(repetitions: 3) { blackHole(try JSONSerialization.jsonObject(with: data)) }
    let decoder = try fastest(repetitions: 2) {
        blackHole(try JSONDecoder().decode([BenchmarkEmployee].self, from: data))
    }
    detail("JSONDocument       \(format(megabytes / ours)) MB/s")
    detail("JSONSerialization  \(format(megabytes / serialization)) MB/s")
    detail("JSONDecoder        \(format(megabytes / decoder)) MB/s (\(format(decoder / ours))x slower than JSONDocument)")
    report("json-parse", value: megabytes / ours, unit: "MB/s", ratio: serialization / ours, peer: "JSONSerialization")
}

@MainActor let jsonWriteBenchmark = Benchmark(
    name: "json-write",
    summary: "write a ~30 MB document, keys sorted: canonical JSONWriter vs JSONSerialization and JSONEncoder"
) {
    let count = BenchmarkEmployees.defaultCount
    let json = try JSONDocument(parsing: BenchmarkEmployees.text(count: count)).value
    let any = json.anyValue
    let employees = BenchmarkEmployees.employees(count: count)
    let megabytes = Double(json.serialized(style: .canonical).count) / 1_000_000
    detail("document: \(format(megabytes)) MB canonical")

    // As many runs of ours as of the peer of the ratio, as for parsing.
    let ours = fastest(repetitions: 2) { blackHole(json.serialized(style: .canonical)) }
    let pretty = fastest(repetitions: 2) { blackHole(json.serialized(style: .pretty)) }
    let serialization = try fastest(repetitions: 2) {
        blackHole(try JSONSerialization.data(withJSONObject: any, options: [.sortedKeys]))
    }
    let encoder = try fastest(repetitions: 2) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        blackHole(try encoder.encode(employees))
    }
    // Throughputs are of the canonical size, so that every writer is measured on the same content.
    detail("JSONWriter canonical  \(format(megabytes / ours)) MB/s")
    detail("JSONWriter pretty     \(format(megabytes / pretty)) MB/s (of the canonical size)")
    detail("JSONSerialization     \(format(megabytes / serialization)) MB/s (.sortedKeys)")
    detail("JSONEncoder           \(format(megabytes / encoder)) MB/s (.sortedKeys, \(format(encoder / ours))x slower)")
    report("json-write", value: megabytes / ours, unit: "MB/s", ratio: serialization / ours, peer: "JSONSerialization")
}

/// Peak memory is per process, so each parser is measured in a fresh child process of this executable: the child
/// builds the text into a buffer reserved up front, then reports how much the peak grew while parsing it.
@MainActor let jsonParseMemoryBenchmark = Benchmark(
    name: "json-parse-memory",
    summary: "peak memory growth while parsing ~40 MB, as a multiple of the text size (each parser in its own process)"
) {
    let childVariable = "SEEDKIT_JSON_MEMORY_PARSER"
    if let parser = ProcessInfo.processInfo.environment[childVariable] {
        let count = BenchmarkEmployees.defaultCount * 4 / 3
        var text: [UInt8] = []
        text.reserveCapacity(count * 550)
        var writer = JSONWriter(style: .compact, flushThreshold: 1 << 16) { text.append(contentsOf: $0) }
        try BenchmarkEmployees.write(count: count, to: &writer)
        _ = try writer.finish()
        let before = memoryHighWaterMark()
        if parser == "JSONDocument" {
            blackHole(try JSONDocument(parsing: text))
        } else {
            blackHole(try JSONSerialization.jsonObject(with: Data(text)))
        }
        print("MEASURE \(memoryHighWaterMark() - before) \(text.count)")
        return
    }

    func measure(_ parser: String) throws -> (growth: Double, size: Double) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["json-parse-memory"]
        child.environment = ProcessInfo.processInfo.environment.merging([childVariable: parser]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MEASURE ") }) else {
            throw CocoaError(.featureUnsupported, userInfo: [NSDebugDescriptionErrorKey: "child said: \(text)"])
        }
        let fields = line.split(separator: " ")
        return (Double(fields[1])!, Double(fields[2])!)
    }
    let ours = try measure("JSONDocument")
    let serialization = try measure("JSONSerialization")
    detail("text: \(format(ours.size / 1_000_000)) MB")
    detail("JSONDocument       +\(format(ours.growth / 1_000_000)) MB peak = \(format(ours.growth / ours.size))x the text (keeps the text, shared)")
    detail("JSONSerialization  +\(format(serialization.growth / 1_000_000)) MB peak = \(format(serialization.growth / serialization.size))x the text (includes its Data copy)")
    detail("ratio column: JSONSerialization's growth / JSONDocument's (higher is better)")
    report(
        "json-parse-memory", value: ours.growth / ours.size, unit: "x-text-size",
        ratio: serialization.growth / ours.growth, peer: "JSONSerialization")
}

/// The peak resident memory of this process image, in bytes: VmHWM from /proc/self/status.
///
/// Not `getrusage`: on Linux its `ru_maxrss` survives `fork` and `execve`, so a child process would start with its
/// parent's peak; VmHWM starts afresh with the new image.
private func memoryHighWaterMark() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

/// A Codable mirror of the benchmark document's records, for JSONDecoder and JSONEncoder.
struct BenchmarkEmployee: Codable {
    struct Address: Codable {
        var street: String
        var city: String
        var zip: String
        var latitude: Double
        var longitude: Double
    }

    struct Review: Codable {
        var year: Int
        var title: String
        var score: Double
    }

    var id: Int
    var name: String
    var email: String
    var department: String
    var salary: Double
    var rating: Double
    var active: Bool
    var tags: [String]
    var address: Address
    var reviews: [Review]
    var notes: String?
}

/// A realistic, deterministic document: an array of employees with strings (some non-ASCII, some escaped),
/// integers, doubles of a few digits and of full precision, booleans, nulls, nested objects and arrays.
enum BenchmarkEmployees {
    /// About 30 MB of compact text.
    static let defaultCount = 60_000

    static func employees(count: Int) -> [BenchmarkEmployee] {
        var random = SplitMix(seed: 2024)
        return (0..<count).map { id in employee(id: id, random: &random) }
    }

    /// One employee; `random` advances, so that successive calls give different employees.
    private static let firstNames = ["Ada", "Grace", "Zoë", "Linus", "Søren", "Mateo", "Yuki", "Amélie", "Chen", "Olusegun"]
    private static let lastNames = ["Lovelace", "Hopper", "Müller", "Torvalds", "Kierkegaard", "García", "Tanaka", "Dubois"]
    private static let cities = ["Zürich", "São Paulo", "Kraków", "Reykjavík", "Tokyo 東京", "New York", "Lagos", "Montréal"]
    private static let departments = ["Sales", "Engineering", "Research & Development", "Marketing", "Support"]
    private static let words = ["quarterly", "review", "exceeds", "\"expectations\"", "mentor", "on-call", "café", "🚀", "lead"]

    static func employee(id: Int, random: inout SplitMix) -> BenchmarkEmployee {
        let first = Self.firstNames[random.next(Self.firstNames.count)]
        let last = Self.lastNames[random.next(Self.lastNames.count)]
        return BenchmarkEmployee(
            id: 100_000 + id,
            name: "\(first) \(last)",
            email: "\(first.lowercased()).\(last.lowercased())\(id)@example.com",
            department: Self.departments[random.next(Self.departments.count)],
            salary: Double(30_000 + random.next(150_000)) + Double(random.next(100)) / 100,
            rating: random.nextUnit(),
            active: random.next(10) > 1,
            tags: (0..<random.next(5)).map { _ in Self.words[random.next(Self.words.count)] },
            address: .init(
                street: "\(1 + random.next(999)) \(Self.lastNames[random.next(Self.lastNames.count)]) Street",
                city: Self.cities[random.next(Self.cities.count)],
                zip: String(10_000 + random.next(89_999)),
                latitude: Double(random.next(180_000_000)) / 1_000_000 - 90,
                longitude: Double(random.next(360_000_000)) / 1_000_000 - 180),
            reviews: (0..<(1 + random.next(3))).map { _ in
                .init(
                    year: 2010 + random.next(15),
                    title: (0..<(2 + random.next(4))).map { _ in Self.words[random.next(Self.words.count)] }
                        .joined(separator: " "),
                    score: Double(random.next(50)) / 10)
            },
            notes: random.next(3) == 0 ? nil : "Line one\nline two\t(tab) — \(Self.words[random.next(Self.words.count)])")
    }

    /// The compact text of `employees(count:)`.
    static func text(count: Int) -> [UInt8] {
        var writer = JSONWriter(style: .compact)
        // Cannot fail: the in-memory writer has no sink.
        try! write(count: count, to: &writer)
        return try! writer.finish()
    }

    /// Writes the text of `employees(count:)`, one employee at a time, holding none of them.
    static func write(count: Int, to writer: inout JSONWriter) throws {
        var random = SplitMix(seed: 2024)
        writer.beginArray()
        for id in 0..<count {
            let employee = employee(id: id, random: &random)
            writer.beginObject()
            writer.key("id")
            try writer.value(employee.id)
            writer.key("name")
            try writer.value(employee.name)
            writer.key("email")
            try writer.value(employee.email)
            writer.key("department")
            try writer.value(employee.department)
            writer.key("salary")
            try writer.value(employee.salary)
            writer.key("rating")
            try writer.value(employee.rating)
            writer.key("active")
            try writer.value(employee.active)
            writer.key("tags")
            writer.beginArray()
            for tag in employee.tags { try writer.value(tag) }
            try writer.endArray()
            writer.key("address")
            writer.beginObject()
            writer.key("street")
            try writer.value(employee.address.street)
            writer.key("city")
            try writer.value(employee.address.city)
            writer.key("zip")
            try writer.value(employee.address.zip)
            writer.key("latitude")
            try writer.value(employee.address.latitude)
            writer.key("longitude")
            try writer.value(employee.address.longitude)
            try writer.endObject()
            writer.key("reviews")
            writer.beginArray()
            for review in employee.reviews {
                writer.beginObject()
                writer.key("year")
                try writer.value(review.year)
                writer.key("title")
                try writer.value(review.title)
                writer.key("score")
                try writer.value(review.score)
                try writer.endObject()
            }
            try writer.endArray()
            writer.key("notes")
            if let notes = employee.notes { try writer.value(notes) } else { try writer.nullValue() }
            try writer.endObject()
        }
        try writer.endArray()
    }
}

/// A small deterministic generator (SplitMix64), so every run measures the same document.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextRaw() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    mutating func next(_ bound: Int) -> Int {
        Int(nextRaw() % UInt64(bound))
    }

    /// A double in [0, 1) with full precision.
    mutating func nextUnit() -> Double {
        Double(nextRaw() >> 11) * 0x1p-53
    }
}
