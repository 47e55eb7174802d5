extension JSONParser {
    /// Reads a string; `index` is at its opening quote.
    ///
    /// Strings without escapes, the common case, become a `String` straight from their bytes.
    @inline(__always)
    package mutating func parseString() throws(JSONParseFailure) -> String {
        let start = index + 1
        let (end, isASCII) = try scanToQuoteOrEscape(from: start)
        guard bytes[end] == UInt8(ascii: "\"") else {
            return try parseEscapedString(from: start, firstEscape: end, isASCII: isASCII)
        }
        index = end + 1
        return Self.string(ofValidUTF8: UnsafeBufferPointer(rebasing: bytes[start..<end]), isASCII: isASCII)
    }

    /// A `String` of UTF-8 that the reader has checked already, made without checking it again.
    ///
    /// `String(decoding:as:)` would validate the bytes a second time, about 5 % of the time of reading a document.
    /// `isASCII` must be exact: the string keeps it, and a string not known to be ASCII compares and hashes through
    /// the slower Unicode-normalizing path.
    @inline(__always)
    static func string(ofValidUTF8 text: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        // Valid UTF-8 by the caller's contract: every byte of it went through `validateUTF8Sequence`, or is ASCII,
        // or was written by `unescape`.
        String(copying: unsafe UTF8Span(unchecked: unsafe text.span, isKnownASCII: isASCII))
    }

    /// Reads an object key like ``parseString()`` but without making a `String` of it.
    mutating func skipKey() throws(JSONParseFailure) -> KeyText {
        let string = try scanString()
        return KeyText(bytes: string.text, hasEscapes: string.hasEscapes)
    }

    /// Reads a string like ``parseString()`` but without making a `String` of it: where its text is between the
    /// quotes, whether that text is all ASCII (known only where it has no escapes), and whether it has escapes.
    @inline(__always)
    mutating func scanString() throws(JSONParseFailure) -> (text: Range<Int>, isASCII: Bool, hasEscapes: Bool) {
        let start = index + 1
        let (end, isASCII) = try scanToQuoteOrEscape(from: start)
        guard bytes[end] == UInt8(ascii: "\"") else {
            _ = try parseEscapedString(from: start, firstEscape: end, isASCII: isASCII)
            return (start..<(index - 1), false, true)
        }
        index = end + 1
        return (start..<end, isASCII, false)
    }

    /// The position of the closing quote or the first backslash of the string whose text starts at `start`,
    /// checking the bytes before it: valid UTF-8 and no control characters; and whether those bytes are all ASCII.
    @inline(__always)
    private func scanToQuoteOrEscape(from start: Int) throws(JSONParseFailure) -> (end: Int, isASCII: Bool) {
        var position = start
        var isASCII = true
        while true {
            position = firstSpecialByte(from: position)
            guard position < bytes.count else {
                throw JSONParseFailure(offset: start - 1, message: "unterminated string")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return (position, isASCII)
            } else if byte < 0x20 {
                throw controlCharacterFailure(at: position)
            } else {
                position = try validateUTF8Sequence(at: position)
                isASCII = false
            }
        }
    }

    /// Reads the rest of a string that has escapes, unescaping into the scratch buffer; `isASCII` says whether the
    /// text before the first escape is all ASCII.
    ///
    /// Unescaping never makes text longer, so the buffer is first given room for the text up to the closing quote,
    /// and then written without a check for room per byte or run.
    private mutating func parseEscapedString(
        from start: Int, firstEscape: Int, isASCII: Bool
    ) throws(JSONParseFailure) -> String {
        let room = closingQuote(afterEscapeAt: firstEscape) - start
        let capacity = scratch?.capacity ?? 0
        if capacity < room { scratch = UnescapingBuffer(capacity: max(room, 2 * capacity)) }
        let text = bytes.baseAddress!
        var unescaped = UnescapedBytes(start: scratch!.start, isASCII: isASCII)
        unescaped.append(text + start, count: firstEscape - start)
        var position = firstEscape
        while true {
            let runStart = position
            position = firstSpecialByte(from: position)
            unescaped.append(text + runStart, count: position - runStart)
            guard position < bytes.count else {
                throw JSONParseFailure(offset: start - 1, message: "unterminated string")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return Self.string(
                    ofValidUTF8: UnsafeBufferPointer(start: unescaped.start, count: unescaped.count),
                    isASCII: unescaped.isASCII)
            } else if byte == UInt8(ascii: "\\") {
                position = try unescape(at: position, into: &unescaped)
            } else if byte < 0x20 {
                throw controlCharacterFailure(at: position)
            } else {
                unescaped.isASCII = false
                let end = try validateUTF8Sequence(at: position)
                unescaped.append(text + position, count: end - position)
                position = end
            }
        }
    }

    /// The position of the quote that closes a string, looking from the backslash at `position` on without checking
    /// the text; the end of the text when there is none.
    private func closingQuote(afterEscapeAt position: Int) -> Int {
        var position = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""): return position
            case UInt8(ascii: "\\"): position += 2
            default: position = firstSpecialByte(from: position + 1)
            }
        }
        return bytes.count
    }

    /// Memory that strings are unescaped into, reused from one string to the next.
    final class UnescapingBuffer {
        let start: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            start = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit {
            start.deallocate()
        }
    }

    /// The bytes of an unescaped string, written into memory that has room for them.
    private struct UnescapedBytes {
        let start: UnsafeMutablePointer<UInt8>
        private(set) var count = 0
        /// Whether the bytes written so far are all ASCII.
        var isASCII: Bool

        init(start: UnsafeMutablePointer<UInt8>, isASCII: Bool) {
            self.start = start
            self.isASCII = isASCII
        }

        mutating func append(_ byte: UInt8) {
            start[count] = byte
            count += 1
        }

        mutating func append(_ bytes: UnsafePointer<UInt8>, count byteCount: Int) {
            (start + count).initialize(from: bytes, count: byteCount)
            count += byteCount
        }
    }

    /// Writes the character of the escape at `position` (its backslash) and returns the position after it.
    private func unescape(at position: Int, into unescaped: inout UnescapedBytes) throws(JSONParseFailure) -> Int {
        guard position + 1 < bytes.count else {
            throw JSONParseFailure(offset: position, message: "unterminated string")
        }
        let replacement: UInt8
        switch bytes[position + 1] {
        case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
        case UInt8(ascii: "b"): replacement = 0x08
        case UInt8(ascii: "f"): replacement = 0x0C
        case UInt8(ascii: "n"): replacement = 0x0A
        case UInt8(ascii: "r"): replacement = 0x0D
        case UInt8(ascii: "t"): replacement = 0x09
        case UInt8(ascii: "u"):
            return try unescapeUnicode(at: position, into: &unescaped)
        default:
            throw JSONParseFailure(
                offset: position, message: "invalid escape sequence: \\ followed by \(describeByte(at: position + 1))")
        }
        unescaped.append(replacement)
        return position + 2
    }

    /// Writes the UTF-8 of a `\uXXXX` escape, or of a `\uXXXX\uXXXX` surrogate pair, at `position`.
    private func unescapeUnicode(
        at position: Int, into unescaped: inout UnescapedBytes
    ) throws(JSONParseFailure) -> Int {
        let unit = try hexUnit(afterEscapeAt: position)
        var scalarValue = UInt32(unit)
        var end = position + 6
        if UTF16.isTrailSurrogate(unit) {
            throw JSONParseFailure(offset: position, message: "unpaired surrogate \\u\(hexUnitText(unit))")
        }
        if UTF16.isLeadSurrogate(unit) {
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u"),
                let trail = try? hexUnit(afterEscapeAt: end), UTF16.isTrailSurrogate(trail)
            else {
                throw JSONParseFailure(offset: position, message: "unpaired surrogate \\u\(hexUnitText(unit))")
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00)
            end += 6
        }
        if scalarValue >= 0x80 { unescaped.isASCII = false }
        // Not a surrogate, or a valid pair: always a scalar.
        for byte in UTF8.encode(Unicode.Scalar(scalarValue)!)! {
            unescaped.append(byte)
        }
        return end
    }

    /// The 16-bit unit of the `\uXXXX` escape whose backslash is at `position`.
    private func hexUnit(afterEscapeAt position: Int) throws(JSONParseFailure) -> UInt16 {
        var unit: UInt16 = 0
        for offset in (position + 2)..<(position + 6) {
            guard offset < bytes.count, let digit = hexDigitValue(bytes[offset]) else {
                throw JSONParseFailure(offset: position, message: "invalid \\u escape: expected 4 hexadecimal digits")
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    private func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func hexUnitText(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private func controlCharacterFailure(at position: Int) -> JSONParseFailure {
        let digits = String(bytes[position], radix: 16, uppercase: true)
        let name = "U+" + String(repeating: "0", count: 4 - digits.count) + digits
        return JSONParseFailure(offset: position, message: "control character \(name) in string must be escaped")
    }

    /// The position of the first byte from `position` on that needs a closer look inside a string —
    /// a quote, a backslash, a control character or a non-ASCII byte — or the end of the text.
    ///
    /// Eight bytes at a time: a string's plain ASCII run is skipped with a few word operations per eight bytes, and
    /// the word with the special byte says where it is, so most strings end without a byte-by-byte loop.
    @inline(__always)
    func firstSpecialByte(from position: Int) -> Int {
        var position = position
        let base = bytes.baseAddress
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base! + position).loadUnaligned(as: UInt64.self))
            let special = Self.specialBytes(word)
            if special != 0 { return position + special.trailingZeroBitCount / 8 }
            position += 8
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            position += 1
        }
        return position
    }

    /// The high bit of each byte of `word` (little-endian) that may be a quote, a backslash, below 0x20 or above
    /// 0x7F; zero when there is none.
    ///
    /// The lowest bit set is always exact, so it locates the first such byte: the classic "has a zero byte" test,
    /// (x - 0x01…) & ~x & 0x80…, only marks a byte wrongly through a borrow from a lower byte that matched.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highBits
    }

    /// Checks the UTF-8 sequence starting with the non-ASCII byte at `position`; returns the position after it.
    func validateUTF8Sequence(at position: Int) throws(JSONParseFailure) -> Int {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default:
            throw JSONParseFailure(offset: position, message: "invalid UTF-8 byte \(hex(lead))")
        }
        guard position + 1 < bytes.count, (0x80...0xBF).contains(bytes[position + 1]) else {
            throw JSONParseFailure(offset: position, message: "truncated UTF-8 sequence starting with \(hex(lead))")
        }
        guard secondRange.contains(bytes[position + 1]) else {
            let problem: String
            switch lead {
            case 0xED: problem = "a UTF-16 surrogate encoded in UTF-8"
            case 0xF4: problem = "a UTF-8 sequence beyond U+10FFFF"
            default: problem = "an overlong UTF-8 encoding"
            }
            throw JSONParseFailure(
                offset: position, message: "invalid UTF-8: \(problem) (\(hex(lead)) \(hex(bytes[position + 1])))")
        }
        for offset in (position + 2)..<(position + length) {
            guard offset < bytes.count, (0x80...0xBF).contains(bytes[offset]) else {
                throw JSONParseFailure(offset: position, message: "truncated UTF-8 sequence starting with \(hex(lead))")
            }
        }
        return position + length
    }
}
