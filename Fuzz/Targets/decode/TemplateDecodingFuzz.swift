import FuzzSupport
@testable import SeedKit

/// Template text decoded into a context with the fixed model (`fromDictionary`'s reader): it never crashes; a refusal
/// leaves the context unchanged and locates each problem inside the text, at a pointer the text has; decoded objects
/// export to a document that reads back and shows no difference from itself, and their flat form decodes into a new
/// context whose flat form is the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplateDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = input(data, size)
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
    } catch {
        invariant(false, "the export of decoded objects is refused: \(error)")
    }
    return 0
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
