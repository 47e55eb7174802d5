import Foundation
import FuzzSupport
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding

/// Template text read with the fixed model by both readers of templates: decoded into a context (`fromDictionary`'s
/// reader), and through the seeding pipeline's read and resolve stages (`seed`'s). Neither crashes; a refusal locates
/// each problem inside the text, at a pointer the text has, and a refused decoding leaves the context unchanged;
/// decoded objects export to a document that reads back and shows no difference from itself, and their flat form
/// decodes into a new context whose flat form is the same; a set the pipeline accepts seeds a store, and when both
/// readers accept the text, the store's export is the context's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplateDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = input(data, size)
    let seeded = seededExport(of: bytes)
    let context = ObjectContext(model: fuzzModel)
    let objects: [ManagedObject]
    do {
        objects = try context.decode(bytes: bytes, file: "fuzz.template")
    } catch {
        checkRefusal(error, of: bytes, in: context)
        return 0
    }
    invariant(!context.hasChanges || !objects.isEmpty || context.registeredObjects.isEmpty, "changes without objects")
    let flat = canonical(.array(GraphEncoder().encodeFlat(objects)))
    let copy = ObjectContext(model: fuzzModel)
    do {
        let copies = try copy.decode(bytes: flat, file: "flat.template")
        invariant(canonical(.array(GraphEncoder().encodeFlat(copies))) == flat, "the flat form decodes to another graph")
    } catch {
        invariant(false, "the flat form of decoded objects is refused: \(error)")
    }
    do {
        let export = try ExportDocument(exporting: context, file: "export.json")
        let diff = try GraphDiff(from: export, to: export)
        invariant(!diff.hasDifferences, "an export differs from itself: \(diff.text())")
        if let seeded {
            let decoded = try GraphExport().document(of: context)
            invariant(seeded == decoded, "the pipeline seeds another graph than the decoder decodes")
        }
    } catch {
        invariant(false, "the export of decoded objects is refused: \(error)")
    }
    return 0
}

private let fuzzSchema = SeedSchema(model: fuzzModel)

/// The export of a store seeded from the text by the pipeline's stages, as a first launch seeds it; nil when the
/// pipeline finds problems, after checking that each is located inside the text.
private func seededExport(of bytes: [UInt8]) -> [UInt8]? {
    let file = TemplateSet.File(
        relativePath: "fuzz.template", displayDirectory: ".", bytes: bytes, contentHash: StableHash.value(of: bytes))
    let read = SeedRead(files: [file], directory: URL(fileURLWithPath: "/"), schema: fuzzSchema, keepsContents: true)
    do {
        let objects = try read.resolve(lookUp: nil)
        guard objects.issues.isEmpty else {
            checkSeedingIssues(objects.issues, in: bytes, file: "fuzz.template")
            return nil
        }
        let store = try SQLiteStore.inMemory(model: fuzzModel)
        try Seeder.fill(store, with: objects, read: read)
        let document = try GraphExport().document(of: store)
        let export = try ExportDocument(bytes: document, file: "seeded.json")
        let diff = try GraphDiff(from: export, to: export)
        invariant(!diff.hasDifferences, "a seeded export differs from itself: \(diff.text())")
        return document
    } catch {
        invariant(false, "a template set the pipeline accepts cannot be seeded and exported: \(error)")
        return nil
    }
}

private func checkRefusal(_ refusal: GraphDecodingErrors, of bytes: [UInt8], in context: ObjectContext) {
    invariant(!refusal.errors.isEmpty, "a refusal without a problem")
    invariant(context.registeredObjects.isEmpty && !context.hasChanges, "a refused decoding changed the context")
    let document = try? JSONDocument(parsing: bytes, file: "fuzz.template")
    for error in refusal.errors {
        if let location = error.location {
            checkLocation(location, in: bytes, file: "fuzz.template", "decoding error \(error)")
        } else {
            invariant(false, "a problem of text without a location: \(error)")
        }
        if let document, error.kind != .syntax {
            invariant(document.value[error.pointer] != nil, "a problem at a pointer the text lacks: \(error)")
        }
    }
}
