import SeedKitJSON

/// The canonical JSON text of attribute values, written straight from the values: what keys are spelled with,
/// value hashes are taken of, and exports are made of. The bytes must not change: ledgers hold hashes of them.
package struct CanonicalValueText {
    private var emitter = JSONEmitter(style: .canonical)

    package init() {}

    /// The text written so far.
    package var bytes: [UInt8] {
        get { emitter.bytes }
        // In place: a hash a value reuses one buffer.
        _modify { yield &emitter.bytes }
    }

    /// Appends the value's canonical JSON.
    package mutating func append(_ value: AttributeValue) {
        Self.append(value, to: &emitter)
    }

    /// Appends the value's canonical JSON: byte for byte what the canonical writer makes of `value.json`.
    package static func append(_ value: AttributeValue, to emitter: inout JSONEmitter) {
        switch value {
        case .string(let string):
            emitter.write(string)
        case .integer(let integer):
            NumberText.appendInteger(integer, to: &emitter.bytes)
        case .double(let double):
            // The number `value.json` holds, without the JSON value and the container walk around it.
            NumberText.appendCanonical(JSONNumber(double), to: &emitter.bytes)
        case .bool(let flag):
            emitter.append(flag ? "true" : "false")
        case .date(let timestamp):
            // The JSON string of the date, written in place: its characters never need escaping.
            emitter.bytes.append(UInt8(ascii: "\""))
            timestamp.appendISO8601Text(keepingEveryFractionDigit: false, to: &emitter.bytes)
            emitter.bytes.append(UInt8(ascii: "\""))
        default:
            emitter.write(value.json, indent: 0)
        }
    }
}
