import FuzzSupport
import SeedKit

/// JSON Patch on a JSON array `[old, new, patch]` (missing elements are null): the difference of two values, applied
/// to the first, gives the second, with and without element keys and below a base path, and reads back from its RFC
/// 6902 form as the same patch; applying any patch either fails with an error that names an operation of the patch,
/// or gives a value whose difference from `old` turns `old` into it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let document = try? JSONDocument(parsing: input(data, size)) else { return 0 }
    let parts = document.value.arrayValue ?? [document.value]
    let old = parts.first ?? .null
    let new = parts.count > 1 ? parts[1] : .null
    checkDifference(from: old, to: new)
    if parts.count > 2 { checkApplying(parts[2], to: old) }
    return 0
}

private func checkDifference(from old: JSON, to new: JSON) {
    let keys: [(String, (JSON) -> String?)] = [
        ("no keys", { _ in nil }),
        // Records keyed by "id", as an export keys objects by identity; duplicate keys must still give a patch.
        ("\"id\" keys", { $0["id"].map { $0.text(style: .canonical) } }),
    ]
    for (name, key) in keys {
        let patch = JSONPatch.difference(from: old, to: new, elementKey: key)
        checkApplies(patch, to: old, gives: new, "difference with \(name)")
        let reread = try? JSONPatch(json: JSONDocument(parsing: patch.json.serialized()).value)
        invariant(reread == patch, "difference with \(name) does not read back from its RFC 6902 form")
    }
    let base = JSONPointer.root.appending("a~/b").appending(0)
    let patch = JSONPatch.difference(from: old, to: new, at: base)
    checkApplies(patch, to: ["a~/b": [old]], gives: ["a~/b": [new]], "difference at \(base)")
    invariant(JSONPatch.difference(from: old, to: old).operations.isEmpty, "difference of a value from itself")
}

private func checkApplies(_ patch: JSONPatch, to old: JSON, gives new: JSON, _ what: String) {
    do {
        let result = try patch.apply(to: old)
        invariant(result == new, "\(what): applying it gives another value")
    } catch {
        invariant(false, "\(what): applying it fails: \(error)")
    }
}

private func checkApplying(_ patchJSON: JSON, to old: JSON) {
    let patch: JSONPatch
    do {
        patch = try JSONPatch(json: patchJSON)
    } catch {
        invariant(error.stage == .reading, "a reading error at stage \(error.stage)")
        return
    }
    do {
        let result = try patch.apply(to: old)
        checkApplies(JSONPatch.difference(from: old, to: result), to: old, gives: result, "difference from a result")
    } catch {
        invariant(
            error.stage == .applying && error.operationIndex.map(patch.operations.indices.contains) == true,
            "an applying error names no operation of the patch: \(error)")
    }
}
