import FuzzSupport
import SeedKit
@testable import SeedKitJSON

/// The JSON reader on arbitrary bytes: it never crashes or hangs; a failure points inside the text; a value it
/// reads writes back, in every style, to text it reads as the same value, and canonical text is a fixed point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = input(data, size)
    let document: JSONDocument
    do {
        document = try JSONDocument(parsing: bytes, file: "input.json")
    } catch {
        checkFailure(error, in: bytes)
        return 0
    }
    let value = document.value
    let canonicalBytes = canonical(value)
    for style in [JSONWriter.Style.compact, .canonical, .pretty] {
        let text = value.serialized(style: style)
        let reread: JSON
        do {
            reread = try JSONDocument(parsing: text).value
        } catch {
            invariant(false, "\(style) text of a value does not read back: \(error)")
            return 0
        }
        invariant(reread == value, "\(style) text reads back as another value")
        invariant(reread.hashValue == value.hashValue, "\(style) text reads back as an equal value that hashes apart")
        invariant(canonical(reread) == canonicalBytes, "\(style) text reads back to other canonical bytes")
    }
    checkLocations(of: document)
    return 0
}

/// A syntax error's offset is inside the text (or at its end), and its line and column are that offset's.
private func checkFailure(_ error: JSONSyntaxError, in bytes: [UInt8]) {
    checkLocation(error.location, in: bytes, file: "input.json", "syntax error \(error)")
    invariant(!error.message.isEmpty, "syntax error without a message")
    checkPrintable(error.message, "syntax error message")
    let offset = bytes.withUnsafeBufferPointer { buffer -> Int? in
        var parser = JSONParser(bytes: buffer, maxDepth: 512)
        do throws(JSONParseFailure) {
            _ = try parser.parseDocument()
            return nil
        } catch {
            return error.offset
        }
    }
    invariant(offset.map { (0...bytes.count).contains($0) } ?? false, "failure offset \(String(describing: offset))")
}

/// Every value of the document has a location inside the text; members' keys have one too.
private func checkLocations(of document: JSONDocument) {
    var pointers: [JSONPointer] = []
    var pending: [(JSONPointer, JSON)] = [(.root, document.value)]
    while let (pointer, value) = pending.popLast(), pointers.count < 256 {
        pointers.append(pointer)
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() { pending.append((pointer.appending(index), element)) }
        case .object(let members):
            for (key, member) in members { pending.append((pointer.appending(key), member)) }
        default:
            break
        }
    }
    let locations = document.locations(of: pointers)
    for pointer in pointers {
        guard let location = locations[pointer] else {
            invariant(false, "no location for \(pointer)")
            return
        }
        checkLocation(location, in: document.bytes, file: document.file, "location of \(pointer)")
        if pointer.parent.map({ document.value[$0]?.objectValue != nil }) ?? false {
            invariant(document.locationOfKey(pointer) != nil, "no key location for \(pointer)")
        }
    }
}
