import Foundation

// swift run -c release seed-benchmarks [NAME...]   (no names: all of them)
let all: [Benchmark] = objectBenchmarks + codingBenchmarks + storeBenchmarks + seederBenchmarks + diffBenchmarks + [
    sqliteInsertBenchmark,
    postgresCopyBenchmark,
    jsonParseBenchmark,
    jsonWriteBenchmark,
    jsonParseMemoryBenchmark,
]

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
