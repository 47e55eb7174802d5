import Dispatch
import Foundation
import Testing
import SeedKit
import SeedKitSupport

/// Values handed to `releaseInBackground` are freed, and never on the thread that handed them over — however soon
/// the background thread is done.
@Suite("Release in background")
struct BackgroundReleaseTests {
    /// Records the thread its deinitialization runs on.
    private final class Witness: Sendable {
        let freed: @Sendable (pthread_t) -> Void
        init(freed: @escaping @Sendable (pthread_t) -> Void) { self.freed = freed }
        deinit { freed(pthread_self()) }
    }

    @Test func valuesAreFreedOnAnotherThread() {
        let threads = Locked<[pthread_t]>([])
        let done = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        for _ in 0..<200 {
            // A value the caller holds no other copy of, as the function requires.
            releaseInBackground([Witness { thread in
                threads.withLock { $0.append(thread) }
                done.signal()
            }])
        }
        for _ in 0..<200 { done.wait() }
        let freedOn = threads.withLock { $0 }
        #expect(freedOn.count == 200)
        #expect(freedOn.allSatisfy { pthread_equal($0, caller) == 0 })
    }
}
