/// Memory that concurrent tasks write at disjoint places, each task its own: `@unchecked Sendable` is sound because
/// no element is written by two tasks, nor read before they all finish.
///
///     let squares = [Int](unsafeUninitializedCapacity: 8) { buffer, count in
///         let writes = DisjointWrites(base: buffer.baseAddress!)
///         DispatchQueue.concurrentPerform(iterations: 8) { (writes.base + $0).initialize(to: $0 * $0) }
///         count = 8
///     }
package struct DisjointWrites<Element>: @unchecked Sendable {
    package let base: UnsafeMutablePointer<Element>

    package init(base: UnsafeMutablePointer<Element>) {
        self.base = base
    }
}
