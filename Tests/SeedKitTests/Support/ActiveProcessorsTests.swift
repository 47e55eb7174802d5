import Foundation
import Testing
import SeedKitSupport

@Suite("Active processors")
struct ActiveProcessorsTests {
    /// The count is the system's, and at least one: what the reading tasks are sized by.
    @Test func theCountIsTheSystemsAndAtLeastOne() {
        #expect(ActiveProcessors.count == max(1, ProcessInfo.processInfo.activeProcessorCount))
    }
}
