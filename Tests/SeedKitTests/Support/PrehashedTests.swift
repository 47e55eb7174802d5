import Testing
import SeedKitSupport

@Suite("Prehashed keys and byte-exact strings")
struct PrehashedTests {
    /// "Café" with a precomposed é (NFC) and with e + combining acute (NFD): equal for String ==, two keys here.
    @Test func keysCompareAsExactBytes() {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        #expect(composed == decomposed, "the premise: String == is canonical equivalence")
        #expect(!composed.hasSameBytes(as: decomposed))
        #expect(Prehashed(composed) != Prehashed(decomposed))
        #expect(Set([Prehashed(composed), Prehashed(decomposed), Prehashed("Caf\u{E9}")]).count == 2)
        #expect(Prehashed(composed) == Prehashed(String(decoding: Array(composed.utf8), as: UTF8.self)))
    }

    /// A string decoded from bytes holds them only when they were valid UTF-8: F0 90 80 is cut short and decodes to
    /// one U+FFFD, three bytes as well, so the lengths alone cannot tell.
    @Test func decodedStringsHoldTheirBytesOnlyWhenValid() {
        let valid: [UInt8] = Array("xe\u{301}@example.com".utf8), invalid: [UInt8] = [0x61, 0xF0, 0x90, 0x80, 0x62]
        #expect(String(decoding: valid, as: UTF8.self).hasSameBytes(as: valid[1...]) == false)
        #expect(String(decoding: valid[1...], as: UTF8.self).hasSameBytes(as: valid[1...]))
        let repaired = String(decoding: invalid, as: UTF8.self)
        #expect(repaired.utf8.count == invalid.count, "the premise: the repair has the same length")
        #expect(!repaired.hasSameBytes(as: invalid[...]))
        #expect("".hasSameBytes(as: ArraySlice<UInt8>()))
    }

    /// A key made from a bridged or substring-built string has the hash of the same bytes made any other way.
    @Test func equalBytesHashAlike() {
        let built = String("xItem[1000]".dropFirst())
        #expect(Prehashed(built) == Prehashed("Item[1000]"))
        #expect(Prehashed(built).hash == Prehashed("Item[1000]").hash)
    }

    /// Paths sort by their UTF-8 bytes, not by `<`, which calls NFC and NFD spellings equal.
    @Test func stringsOrderByTheirBytes() {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        #expect(!(composed < decomposed) && !(decomposed < composed), "the premise: < is canonical")
        #expect(decomposed.precedesInBytes(composed) && !composed.precedesInBytes(decomposed), "e (65) before C3")
        #expect("a".precedesInBytes("ab") && !"ab".precedesInBytes("a") && !"a".precedesInBytes("a"))
        #expect("".precedesInBytes("a") && !"".precedesInBytes(""))
        #expect("a.b".precedesInBytes("a/b") && "a/b".precedesInBytes("a0"))
    }
}
