import Foundation

// swift run -c release seed-benchmarks [NAME...]   (no names: all of them)
let all: [Benchmark] = objectBenchmarks + codingBenchmarks + storeBenchmarks + fetchBenchmarks + seederBenchmarks + chainBenchmarks
    + diffBenchmarks + [
    sqliteInsertBenchmark,
    postgresCopyBenchmark,
    seedPostgresBenchmark,
    jsonParseBenchmark,
    jsonWriteBenchmark,
    jsonParseMemoryBenchmark,
]

// seed-benchmarks --write-shape NAME DIR [--changed]: writes a shape's template set (or its later edit), to profile
// the seed binary on it by hand.
if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "--write-shape" {
    guard let shape = seedShapes.first(where: { $0.name == CommandLine.arguments[2] }) else {
        FileHandle.standardError.write(Data("unknown shape; shapes: \(seedShapes.map(\.name).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    let directory = URL(fileURLWithPath: CommandLine.arguments[3])
    do {
        if CommandLine.arguments.dropFirst(4).contains("--changed") { _ = try shape.change(in: directory) } else { try shape.write(to: directory) }
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

let wanted = Set(CommandLine.arguments.dropFirst())
if wanted.contains("--list") {
    for benchmark in all { print("\(benchmark.name)\t\(benchmark.summary)") }
    exit(0)
}
let unknown = wanted.subtracting(all.map(\.name))
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("unknown benchmark(s): \(unknown.sorted().joined(separator: ", ")); --list lists them\n".utf8))
    exit(2)
}
for benchmark in all where wanted.isEmpty || wanted.contains(benchmark.name) {
    print("== \(benchmark.name): \(benchmark.summary)")
    do {
        try benchmark.run()
    } catch {
        print("FAILED \(benchmark.name): \(error)")
        exit(1)
    }
}
