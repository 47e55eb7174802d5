import Testing
import SeedKitSupport

@Suite("Small index sets")
struct SmallIndexSetTests {
    /// Whatever indices go in, below 64 or beyond, the set answers as a `Set<Int>` of them does.
    @Test func answersAsASetOfTheSameIndices() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var set = SmallIndexSet(), reference = Set<Int>()
            #expect(set.isEmpty)
            for _ in 0..<Int.random(in: 0..<20, using: &generator) {
                let index = Bool.random(using: &generator) ? Int.random(in: 0..<64, using: &generator) : Int.random(in: 0..<200, using: &generator)
                set.insert(index)
                reference.insert(index)
            }
            #expect(set.isEmpty == reference.isEmpty)
            #expect(set.sorted() == reference.sorted())
            #expect((0..<200).allSatisfy { set.contains($0) == reference.contains($0) })
        }
    }
}
