import Dispatch
import Foundation
import Testing
import SeedKitSupport

/// A value made in the background is made once, on another thread, and every reader gets it, however early it asks.
@Suite("Background value")
struct BackgroundValueTests {
    @Test func theValueIsMadeOnceOnAnotherThreadAndEveryReaderGetsIt() {
        let caller = pthread_self()
        let makers = Locked<[pthread_t]>([])
        let release = DispatchSemaphore(value: 0)
        let value = BackgroundValue { () -> [Int] in
            makers.withLock { $0.append(pthread_self()) }
            // Held until the readers below are started, so that they ask before it is made.
            release.wait()
            return Array(0..<1000)
        }
        let results = Locked<[[Int]]>([])
        let readers = DispatchGroup()
        for _ in 0..<8 {
            DispatchQueue.global().async(group: readers) {
                let read = value.value
                results.withLock { $0.append(read) }
            }
        }
        release.signal()
        readers.wait()
        #expect(results.withLock { $0 } == Array(repeating: Array(0..<1000), count: 8))
        #expect(value.value == Array(0..<1000))
        let madeOn = makers.withLock { $0 }
        #expect(madeOn.count == 1)
        #expect(madeOn.allSatisfy { pthread_equal($0, caller) == 0 })
    }
}
