/// SeedKit's one stable hash, 64-bit FNV-1a, as 16 hex digits: model fingerprints, file hashes, template-set
/// fingerprints and object values.
///
///     StableHash.hex(of: Array("a".utf8))   // "af63dc4c8601ec8c", on every platform and in every process
///
/// Not cryptographic: it detects change, it does not resist tampering. It is stable across processes and versions,
/// unlike `Hasher`, which is seeded per process.
///
/// - Complexity: O(*n*) in the number of bytes.
package enum StableHash {
    @usableFromInline static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline static let prime: UInt64 = 0x100_0000_01b3

    // The entry points take concrete types, not any sequence of bytes: a generic one called from another module runs
    // unspecialized, through a protocol witness per byte, unless the optimizer happens to specialize it there.

    package static func hex(of bytes: [UInt8]) -> String {
        text(of: value(of: bytes))
    }

    /// The hash of a string's UTF-8 bytes.
    package static func hex(of string: String) -> String {
        var string = string
        return string.withUTF8 { text(of: fold($0, into: offsetBasis)) }
    }

    /// The hash itself, whose ``text(of:)`` ``hex(of:)-(String)`` gives.
    package static func value(of bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { fold($0, into: offsetBasis) }
    }

    package static func value(of bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { fold($0, into: offsetBasis) }
    }

    /// The hashes of several byte arrays, each the same as ``hex(of:)`` gives, computed four arrays at a time
    /// (``values(of:)``).
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package static func hexes(of arrays: [[UInt8]]) -> [String] {
        values(of: arrays).map(text(of:))
    }

    /// The hashes of several byte arrays, each the same as ``value(of:)-(Array<UInt8>)`` gives, computed four arrays at
    /// a time.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package static func values(of arrays: [[UInt8]]) -> [UInt64] {
        values(of: arrays[...])
    }

    /// The hashes of the texts at `ranges` of one buffer, each the same as ``value(of:)`` gives, computed four texts
    /// at a time (``values(of:)``).
    ///
    ///     StableHash.values(of: texts, ranges: [0..<3, 3..<8])     // [value(of: texts[0..<3]), value(of: texts[3..<8])]
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package static func values(of buffer: [UInt8], ranges: [Range<Int>]) -> [UInt64] {
        buffer.withUnsafeBufferPointer { buffer in values(of: ranges.lazy.map { buffer[$0] }) }
    }

    /// The hashes of several byte collections, each the same as ``value(of:)`` gives, computed four at a time.
    ///
    /// Each byte costs one multiplication that waits for the previous byte's: one text at a time leaves the
    /// multiplier idle most of the time, four interleaved keep it busy, about three times as fast.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    private static func values<Texts: RandomAccessCollection>(of texts: Texts) -> [UInt64]
    where Texts.Element: RandomAccessCollection<UInt8>, Texts.Element.Index == Int, Texts.Index == Int {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(texts.count)
        var start = texts.startIndex
        while texts.endIndex - start >= 4 {
            let (a, b, c, d) = (texts[start], texts[start + 1], texts[start + 2], texts[start + 3])
            var (ha, hb, hc, hd) = (offsetBasis, offsetBasis, offsetBasis, offsetBasis)
            let common = min(a.count, b.count, c.count, d.count)
            for offset in 0..<common {
                ha = (ha ^ UInt64(a[a.startIndex + offset])) &* prime
                hb = (hb ^ UInt64(b[b.startIndex + offset])) &* prime
                hc = (hc ^ UInt64(c[c.startIndex + offset])) &* prime
                hd = (hd ^ UInt64(d[d.startIndex + offset])) &* prime
            }
            hashes.append(fold(a[(a.startIndex + common)...], into: ha))
            hashes.append(fold(b[(b.startIndex + common)...], into: hb))
            hashes.append(fold(c[(c.startIndex + common)...], into: hc))
            hashes.append(fold(d[(d.startIndex + common)...], into: hd))
            start += 4
        }
        hashes += texts[start...].map { fold($0, into: offsetBasis) }
        return hashes
    }

    /// The hash continued from `hash` over `bytes`.
    private static func fold<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    /// 16 lowercase hex digits: the form every hash of this type takes.
    package static func text(of hash: UInt64) -> String {
        // Written in place, without the intermediate strings of `String(_:radix:)` and padding: a seed formats one per object.
        String(unsafeUninitializedCapacity: 16) { digits in
            for index in 0..<16 { digits[index] = digit(index, of: hash) }
            return 16
        }
    }

    /// Appends the 16 hex digits of ``text(of:)`` to `bytes`, making no string.
    package static func appendText(of hash: UInt64, to bytes: inout [UInt8]) {
        // One append of the 16 digits, not 16 appends that each check the array's room: a ledger and a set's
        // fingerprint write one per file.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 { digits[index] = digit(index, of: hash) }
            bytes.append(contentsOf: UnsafeBufferPointer(digits))
        }
    }

    /// The hex digit at `index` (0 the first) of ``text(of:)``.
    private static func digit(_ index: Int, of hash: UInt64) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: hash >> (60 - 4 * UInt64(index))) & 0xf
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// The hash whose ``text(of:)`` is `text`, or nil when `text` is not 16 lowercase hex digits.
    package static func value(ofText text: String) -> UInt64? {
        var text = text
        return text.withUTF8(value(ofText:))
    }

    /// The hash whose ``text(of:)`` has these UTF-8 bytes, or nil when they are not 16 lowercase hex digits.
    package static func value(ofText utf8: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard utf8.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}

/// ``StableHash``'s hash of bytes given a few at a time: the same value as ``StableHash/value(of:)-(Array<UInt8>)``
/// of them all in one array, without the array.
///
///     var hasher = StableHasher()
///     hasher.combine(1)
///     hasher.combine(littleEndian: 7)
///     hasher.value            // StableHash.value(of: [1, 7, 0, 0, 0, 0, 0, 0, 0])
///
/// - Complexity: O(1) per byte.
package struct StableHasher {
    package private(set) var value = StableHash.offsetBasis

    @inlinable
    package init() {}

    @inlinable
    package mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* StableHash.prime
    }

    /// Combines the eight bytes of `word`, the lowest first.
    @inlinable
    package mutating func combine(littleEndian word: UInt64) {
        for shift in stride(from: 0 as UInt64, to: 64, by: 8) { combine(UInt8(truncatingIfNeeded: word >> shift)) }
    }
}
