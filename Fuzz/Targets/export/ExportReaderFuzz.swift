import FuzzSupport
import SeedKit
@testable import SeedKitExport

/// The export reader of `seed diff` on arbitrary bytes, split at the first NUL byte into an old and a new document:
/// it never crashes; a refusal is located inside the text; a document it reads shows no difference from itself,
/// and the JSON patch between two documents it reads turns the old one's objects and model into the new one's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExportReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = input(data, size)
    let split = bytes.firstIndex(of: 0)
    let old = read(Array(bytes[..<(split ?? bytes.count)]), file: "old.json")
    guard let split, let old else { return 0 }
    guard let new = read(Array(bytes[(split + 1)...]), file: "new.json") else { return 0 }
    do {
        let diff = try GraphDiff(from: old.document, to: new.document)
        _ = (diff.text(), diff.json, diff.githubAnnotations())
    } catch {
        // Two models that disagree on an entity may be refused; the refusal must say why.
        invariant(!error.message.isEmpty, "a diff refused without a message")
    }
    do {
        // The patch turns old's objects into new's, and its model into one equal to new's (whatever its spelling).
        let patched = try JSONPatch(from: old.document, to: new.document).apply(to: old.json)
        invariant(patched["objects"] == new.json["objects"], "the JSON patch from old to new gives other objects")
        let model = patched["model"].flatMap { try? EntityModel(json: $0) }
        invariant(model == new.document.model, "the JSON patch from old to new gives another model")
    } catch {
        invariant(false, "the JSON patch from old to new does not apply to old: \(error)")
    }
    return 0
}

/// The document of `bytes`, checked against itself; nil when it is refused, after checking the refusal.
private func read(_ bytes: [UInt8], file: String) -> (document: ExportDocument, json: JSON)? {
    let document: ExportDocument
    do {
        document = try ExportDocument(bytes: bytes, file: file)
    } catch {
        invariant(!error.message.isEmpty, "an export refused without a message")
        if let location = error.location { checkLocation(location, in: bytes, file: file, "export error \(error)") }
        return nil
    }
    // The reader takes each object on its own: the document's object and "objects" array add two levels.
    guard let json = try? JSONDocument(parsing: bytes, maxDepth: ExportDocument.maxDepth + 2).value else {
        invariant(false, "an export the diff reads is no JSON")
        return nil
    }
    do {
        let diff = try GraphDiff(from: document, to: document)
        invariant(!diff.hasDifferences, "an export differs from itself: \(diff.text())")
        invariant(JSONPatch(from: document, to: document).operations.isEmpty, "a patch from an export to itself")
    } catch {
        invariant(false, "an export cannot be compared with itself: \(error)")
    }
    return (document, json)
}
