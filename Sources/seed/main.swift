import Foundation
import SeedKit

// The command line tool is thin over the library: it parses arguments, calls SeedKit, and maps errors to exit codes.

let usage = """
    usage: seed [--templates DIR] [--model FILE]
      Checks the model a template set uses: FILE, else DIR/model.json (DIR defaults to Templates).
      Seeding a store from the templates arrives with the seeder.
    """

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("seed: \(message)\n".utf8))
    exit(code)
}

var templates = "Templates"
var modelPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--templates", "--model":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)", code: 2) }
        if argument == "--templates" { templates = value } else { modelPath = value }
    default:
        fail("unknown argument '\(argument)'\n\(usage)", code: 2)
    }
}

let modelFile = modelPath ?? (templates as NSString).appendingPathComponent("model.json")
let modelURL = URL(fileURLWithPath: modelFile)
guard FileManager.default.fileExists(atPath: modelURL.path) else {
    fail("no model file at \(modelFile); pass --model FILE", code: 2)
}
do {
    let model = try EntityModel(contentsOf: modelURL)
    print("model \(modelFile): \(model.entities.count) entities")
    for entity in model.entities {
        let parent = entity.parentName.map { " : \($0)" } ?? ""
        let identity = entity.identity.isEmpty ? "" : " identity(\(entity.identity.joined(separator: ", ")))"
        print("  \(entity.name)\(parent)\(identity) — \(entity.attributes.count) attributes, \(entity.relationships.count) relationships")
    }
} catch let errors as ModelErrors {
    FileHandle.standardError.write(Data((errors.description + "\n").utf8))
    exit(1)
} catch {
    fail("\(error)", code: 2)
}
