extension JSON {
    /// The JSON text of the value, as UTF-8.
    ///
    /// Every style reads back as an equal value. The canonical style gives identical bytes for equal values,
    /// whatever the key order or number storage they were built with.
    ///
    ///     JSON.object(["b": 1, "a": [true, nil]]).serialized(style: .canonical)  // {"a":[true,null],"b":1}
    ///
    /// - Complexity: O(*n*) for *n* values, plus sorting each object's keys in the sorted styles.
    public func serialized(style: JSONWriter.Style = .compact) -> [UInt8] {
        var emitter = JSONEmitter(style: style)
        emitter.write(self, indent: 0)
        return emitter.bytes
    }

    /// The JSON text of the value; see ``serialized(style:)``.
    ///
    /// - Complexity: as ``serialized(style:)``.
    public func text(style: JSONWriter.Style = .compact) -> String {
        String(decoding: serialized(style: style), as: UTF8.self)
    }
}

extension JSON {
    /// How a message shows text from the input: between single quotes, or as a JSON string when it holds control
    /// characters or quotes, so that nothing in a message can move a terminal's cursor or forge a line.
    ///
    ///     JSON.quotedForMessage("name")     // 'name'
    ///     JSON.quotedForMessage("a\nb")     // "a\nb"
    package static func quotedForMessage(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            $0.value >= 0x20 && $0 != "'" && $0 != "\"" && $0 != "\\" && !(0x7F..<0xA0).contains($0.value)
        }
        return plain ? "'\(text)'" : JSON.string(text).text()
    }
}
