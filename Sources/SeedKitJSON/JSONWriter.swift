import Foundation

/// SeedKit's JSON writer. Outside SeedKit's package only its ``Style`` is public: the layout that
/// ``JSON/text(style:)`` and ``JSON/serialized(style:)`` write.
public struct JSONWriter {
    // Writes JSON text piece by piece — objects, keys, values — into a byte buffer that it can hand to a sink
    // (a file, say) as it fills, so that exports of millions of objects need neither a `JSON` tree nor the whole text
    // in memory.
    //
    //     var writer = try JSONWriter(style: .pretty, toFileAtPath: "export.json")
    //     writer.beginArray()
    //     for employee in employees {
    //         writer.beginObject()
    //         writer.key("name")
    //         try writer.value(employee.name)
    //         writer.key("salary")
    //         try writer.value(employee.salary)
    //         try writer.endObject()
    //     }
    //     try writer.endArray()
    //     _ = try writer.finish()
    //
    // The output is always valid JSON: calls out of order (a value where a key is expected, `endArray()` in an object,
    // a second top-level value, `finish()` with open containers) are programmer errors and trap.
    // Methods that complete a value may flush to the sink, so they throw the sink's errors.
    //
    // In the sorted styles (`.pretty` and `.canonical`), members written out of key order are reordered when their
    // object ends, and a key written twice in one object traps. Reordering needs the object's members in the buffer,
    // so automatic flushes happen only after array elements and after members of objects that alone outgrow the
    // threshold: small objects stay buffered until they end. An object that was partly flushed (one holding a large
    // array, say) must get its remaining keys in order, and traps otherwise. The compact style writes members in the
    // order given and does not check for duplicate keys.

    /// The layout of the text.
    public enum Style: Sendable, Hashable {
        /// No whitespace; object members in the order given (dictionary order for `JSON` values).
        case compact
        /// Two-space indentation, `": "` after keys, members sorted by key so that the output is stable.
        case pretty
        /// RFC 8785-like canonical form: no whitespace, members sorted by key in Unicode scalar order
        /// (UTF-8 byte order), minimal string escaping, and numbers in the canonical form of
        /// ``JSONNumber/description``. Equal values give identical bytes.
        case canonical
    }

    /// The layout being written.
    package var style: Style { emitter.style }

    private var emitter: JSONEmitter
    private var containers: [OpenContainer] = []
    private var hasTopLevelValue = false
    private let sink: ((UnsafeRawBufferPointer) throws -> Void)?
    private let flushThreshold: Int

    /// A writer that keeps all its output in memory; ``finish()`` returns it.
    package init(style: Style = .compact) {
        self.emitter = JSONEmitter(style: style)
        self.sink = nil
        self.flushThreshold = .max
    }

    /// A writer that passes its output to `sink` in chunks of about `flushThreshold` bytes.
    ///
    /// The buffer passed to `sink` is valid only during the call.
    package init(
        style: Style = .compact, flushThreshold: Int = 1 << 16,
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.emitter = JSONEmitter(style: style)
        self.sink = sink
        self.flushThreshold = flushThreshold
        emitter.bytes.reserveCapacity(flushThreshold + flushThreshold / 4)
    }

    /// A writer that writes to an open file handle.
    package init(style: Style = .compact, to fileHandle: FileHandle, flushThreshold: Int = 1 << 16) {
        self.init(style: style, flushThreshold: flushThreshold) { chunk in
            try fileHandle.write(contentsOf: Data(chunk))
        }
    }

    /// A writer that creates (or truncates) the file at `path` and writes to it.
    ///
    /// The file is closed when the writer is released.
    package init(style: Style = .compact, toFileAtPath path: String, flushThreshold: Int = 1 << 16) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        self.init(style: style, to: handle, flushThreshold: flushThreshold)
    }

    // MARK: Containers

    /// Opens an object; members follow as ``key(_:)`` then a value, until ``endObject()``.
    package mutating func beginObject() {
        prepareForValue()
        emitter.bytes.append(UInt8(ascii: "{"))
        containers.append(OpenContainer(isObject: true))
    }

    /// Writes the key of the next member of the open object.
    package mutating func key(_ key: String) {
        guard var object = containers.popLast(), object.isObject, !object.awaitsValue else {
            preconditionFailure("JSONWriter.key(_:) outside an object, or twice in a row")
        }
        if object.count > 0 { emitter.bytes.append(UInt8(ascii: ",")) }
        emitter.writeLineBreak(indent: containers.count + 1)
        if emitter.sortsKeys {
            if let lastKey = object.lastKey, !JSONEmitter.precedes(lastKey, key) {
                precondition(lastKey != key, "JSONWriter: duplicate key '\(key)'")
                precondition(!object.wasFlushed, "JSONWriter: key '\(key)' out of order after the object was flushed")
                object.keysInOrder = false
            }
            object.lastKey = key
            object.members.append(BufferedMember(key: key, start: emitter.bytes.count, end: emitter.bytes.count))
        }
        emitter.writeKey(key)
        object.count += 1
        object.awaitsValue = true
        containers.append(object)
    }

    /// Closes the open object.
    package mutating func endObject() throws {
        guard let object = containers.popLast(), object.isObject, !object.awaitsValue else {
            preconditionFailure("JSONWriter.endObject() without an open object, or after a key without its value")
        }
        if !object.keysInOrder { reorderMembers(of: object) }
        if object.count > 0 { emitter.writeLineBreak(indent: containers.count) }
        emitter.bytes.append(UInt8(ascii: "}"))
        try finishValue()
    }

    /// Opens an array; elements follow until ``endArray()``.
    package mutating func beginArray() {
        prepareForValue()
        emitter.bytes.append(UInt8(ascii: "["))
        containers.append(OpenContainer(isObject: false))
    }

    /// Closes the open array.
    package mutating func endArray() throws {
        guard let array = containers.popLast(), !array.isObject else {
            preconditionFailure("JSONWriter.endArray() without an open array")
        }
        if array.count > 0 { emitter.writeLineBreak(indent: containers.count) }
        emitter.bytes.append(UInt8(ascii: "]"))
        try finishValue()
    }

    // MARK: Values

    /// Writes a whole value.
    package mutating func value(_ value: JSON) throws {
        prepareForValue()
        emitter.write(value, indent: containers.count)
        try finishValue()
    }

    package mutating func value(_ string: String) throws {
        prepareForValue()
        emitter.write(string)
        try finishValue()
    }

    package mutating func value(_ number: JSONNumber) throws {
        prepareForValue()
        NumberText.appendCanonical(number, to: &emitter.bytes)
        try finishValue()
    }

    package mutating func value(_ integer: Int64) throws {
        prepareForValue()
        NumberText.appendInteger(integer, to: &emitter.bytes)
        try finishValue()
    }

    package mutating func value(_ integer: Int) throws {
        try value(Int64(integer))
    }

    /// Writes a double, which must be finite, like any ``JSONNumber``.
    package mutating func value(_ double: Double) throws {
        try value(JSONNumber(double))
    }

    package mutating func value(_ flag: Bool) throws {
        prepareForValue()
        emitter.append(flag ? "true" : "false")
        try finishValue()
    }

    package mutating func nullValue() throws {
        prepareForValue()
        emitter.append("null")
        try finishValue()
    }

    // MARK: Output

    /// Sends the buffered output to the sink, but for the members of an object written out of key order, which
    /// stay until it ends; without a sink, does nothing. In the sorted styles, the open objects' remaining keys
    /// must then come in order.
    package mutating func flush() throws {
        guard let sink else { return }
        // Everything before the first object whose members still need reordering is final.
        let pending = containers.firstIndex { !$0.keysInOrder }
        let end = pending.map { containers[$0].members[0].start } ?? emitter.bytes.count
        guard end > 0 else { return }
        try emitter.bytes.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[..<end])) }
        emitter.bytes.removeSubrange(..<end)
        for position in containers.indices {
            if position < pending ?? containers.count {
                containers[position].wasFlushed = true
                containers[position].members.removeAll()
            } else {
                for member in containers[position].members.indices {
                    containers[position].members[member].start -= end
                    containers[position].members[member].end -= end
                }
            }
        }
    }

    /// Checks that one complete value was written, flushes it, and returns the output not sent to a sink:
    /// all of it for a writer without a sink, nothing otherwise.
    package mutating func finish() throws -> [UInt8] {
        precondition(containers.isEmpty && hasTopLevelValue, "JSONWriter.finish() before the value is complete")
        try flush()
        defer { emitter.bytes = [] }
        return emitter.bytes
    }

    // MARK: Bookkeeping

    /// An open array or object.
    private struct OpenContainer {
        var isObject: Bool
        /// Elements or members begun so far.
        var count = 0
        /// Whether a key was written and its value is next.
        var awaitsValue = false
        // For objects in the sorted styles:
        var lastKey: String?
        var keysInOrder = true
        var wasFlushed = false
        /// The members in the buffer, in the order written.
        var members: [BufferedMember] = []
    }

    /// An object member in the buffer: its bytes (key, colon, value) are `start..<end`.
    private struct BufferedMember {
        var key: String
        var start: Int
        var end: Int
    }

    private mutating func prepareForValue() {
        guard var container = containers.popLast() else {
            precondition(!hasTopLevelValue, "JSONWriter: a second top-level value")
            return
        }
        if container.isObject {
            precondition(container.awaitsValue, "JSONWriter: a value in an object without its key")
        } else {
            if container.count > 0 { emitter.bytes.append(UInt8(ascii: ",")) }
            emitter.writeLineBreak(indent: containers.count + 1)
            container.count += 1
        }
        containers.append(container)
    }

    private mutating func finishValue() throws {
        guard !containers.isEmpty else {
            hasTopLevelValue = true
            return
        }
        let top = containers.count - 1
        if containers[top].isObject {
            containers[top].awaitsValue = false
            if emitter.sortsKeys && !containers[top].members.isEmpty {
                containers[top].members[containers[top].members.count - 1].end = emitter.bytes.count
            }
        }
        if emitter.bytes.count >= flushThreshold && isGoodFlushPoint { try flush() }
    }

    /// Whether an automatic flush may commit the open objects to their key order so far: after an array element or
    /// the top-level value, or after a member of an object that alone outgrew the flush threshold. A small object
    /// is never flushed while open, so that it can still be reordered.
    private var isGoodFlushPoint: Bool {
        guard let parent = containers.last, parent.isObject else { return true }
        guard parent.keysInOrder else { return false }
        let objectStart = parent.members.first?.start ?? 0
        return emitter.bytes.count - objectStart >= flushThreshold
    }

    /// Rewrites the members of an ending object, which are the end of the buffer, in key order.
    private mutating func reorderMembers(of object: OpenContainer) {
        let sorted = object.members.sorted { JSONEmitter.precedes($0.key, $1.key) }
        for (previous, next) in zip(sorted, sorted.dropFirst()) {
            precondition(previous.key != next.key, "JSONWriter: duplicate key '\(next.key)'")
        }
        let regionStart = object.members[0].start
        let region = Array(emitter.bytes[regionStart...])
        emitter.bytes.removeSubrange(regionStart...)
        for (position, member) in sorted.enumerated() {
            if position > 0 {
                emitter.bytes.append(UInt8(ascii: ","))
                emitter.writeLineBreak(indent: containers.count + 1)
            }
            emitter.bytes.append(contentsOf: region[(member.start - regionStart)..<(member.end - regionStart)])
        }
    }
}
