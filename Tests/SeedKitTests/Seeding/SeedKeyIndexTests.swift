import Testing
@testable import SeedKitSeeding

/// The index the resolver finds objects by and the planner ledger entries by: it must answer as the dictionary it
/// replaced, `[SeedKey: Int32]`, whatever the keys and however far it grew.
@Suite("Seed key index")
struct SeedKeyIndexTests {
    /// Keys of every kind, some sharing their text or root with another kind's, as a set's objects do.
    private static func randomKey(using generator: inout SeededGenerator) -> SeedKey {
        let kind = [SeedKey.Kind.identity, .id, .location, .owned].randomElement(using: &generator)!
        let root = kind == .identity || kind == .owned ? ["Item", "Group", ""].randomElement(using: &generator)! : ""
        return SeedKey(kind: kind, root: root, text: "k\(Int.random(in: 0..<3_000, using: &generator))")
    }

    @Test func answersAsADictionaryOfTheSameKeys() {
        var generator = SeededGenerator(seed: 0x5eed_19)
        for capacity in [0, 1, 700, 5_000] {
            var elements: [SeedKey] = []
            var index = SeedKeyIndex(capacity: capacity)
            var dictionary: [SeedKey: Int32] = [:]
            for _ in 0..<4_000 {
                let key = Self.randomKey(using: &generator)
                let element = Int32(elements.count)
                elements.append(key)
                if Bool.random(using: &generator) {
                    // Set: a key set before stands for its latest element.
                    index.set(element, for: key) { elements[$0] == key }
                    dictionary[key] = element
                } else if dictionary[key] == nil {
                    index.add(element, for: key)
                    dictionary[key] = element
                }
                let probe = Self.randomKey(using: &generator)
                #expect(index.element(for: probe) { elements[$0] == probe } == dictionary[probe])
            }
            #expect(index.count == dictionary.count)
            #expect(index.isEmpty == dictionary.isEmpty)
            for (key, element) in dictionary { #expect(index.element(for: key) { elements[$0] == key } == element) }
            #expect(index.elements.sorted() == dictionary.values.sorted())
        }
    }

    @Test func findsNothingWhenEmpty() {
        let index = SeedKeyIndex()
        let key = SeedKey(kind: .identity, root: "Item", text: "a")
        #expect(index.isEmpty)
        #expect(index.element(for: key) { _ in Issue.record("no element to compare"); return true } == nil)
        #expect(index.elements.isEmpty)
    }
}
