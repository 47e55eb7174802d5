import Testing
import SeedKitSupport

@Suite("Stable hash")
struct StableHashTests {
    @Test func hashIsFNV1a() {
        #expect(StableHash.hex(of: []) == "cbf29ce484222325")
        #expect(StableHash.hex(of: Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(StableHash.hex(of: Array("13900".utf8)) == "00f5898e9456454c", "16 digits, leading zeros kept")
        #expect(StableHash.hex(of: "13900") == StableHash.hex(of: Array("13900".utf8)), "a string hashes as its UTF-8")
    }

    /// Hashing several arrays together gives each array's own hash, whatever their number and lengths.
    @Test func hashesComputedTogetherAreEachArraysHash() {
        for count in 0...9 {
            let arrays = (0..<count).map { index in
                (0..<(index * 13 % 29)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            }
            #expect(StableHash.hexes(of: arrays) == arrays.map { StableHash.hex(of: $0) }, "\(count) arrays")
        }
        #expect(
            StableHash.hexes(of: [[], Array("a".utf8), [], []])
                == ["cbf29ce484222325", "af63dc4c8601ec8c", "cbf29ce484222325", "cbf29ce484222325"])
    }

    /// Hashing the texts of one buffer together gives each text's own hash, wherever the texts lie.
    @Test func hashesOfTextsOfOneBufferAreEachTextsHash() {
        let buffer = (0..<400).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        for count in 0...9 {
            let ranges = (0..<count).map { index in (index * 37 % 200)..<(index * 37 % 200 + index * 13 % 29) }
            #expect(
                StableHash.values(of: buffer, ranges: ranges) == ranges.map { StableHash.value(of: buffer[$0]) },
                "\(count) texts")
        }
    }

    /// Hex digits append as ``StableHash/text(of:)`` writes them, and read back; nothing else reads as a hash.
    @Test func hexDigitsAppendAndReadBack() {
        var digits = Array("x".utf8)
        StableHash.appendText(of: 0x00f5_898e_9456_454c, to: &digits)
        #expect(digits == Array("x00f5898e9456454c".utf8))
        #expect(StableHash.value(ofText: "00f5898e9456454c") == 0x00f5_898e_9456_454c)
        #expect(StableHash.value(ofText: "00F5898E9456454C") == nil && StableHash.value(ofText: "0") == nil)
        #expect(StableHash.values(of: [[], Array("a".utf8)]) == [StableHash.value(of: []), StableHash.value(of: Array("a".utf8))])
    }

    /// Bytes given a few at a time hash as the array of them all.
    @Test func bytesGivenAFewAtATimeHashAsOneArray() {
        var hasher = StableHasher()
        hasher.combine(1)
        hasher.combine(littleEndian: 0x0102_0304_0506_0708)
        #expect(hasher.value == StableHash.value(of: [1, 8, 7, 6, 5, 4, 3, 2, 1]))
        #expect(StableHasher().value == StableHash.value(of: []))
    }
}
