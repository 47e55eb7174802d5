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

    /// A key made from a bridged or substring-built string has the hash of the same bytes made any other way.
    @Test func equalBytesHashAlike() {
        let built = String("xItem[1000]".dropFirst())
        #expect(Prehashed(built) == Prehashed("Item[1000]"))
        #expect(Prehashed(built).hash == Prehashed("Item[1000]").hash)
    }
}
