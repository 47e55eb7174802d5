#if canImport(Glibc)
import Glibc
#endif

/// Process-wide allocator settings of the `seed` tool.
enum Allocator {
    /// Keeps glibc from holding on to memory the process has freed.
    ///
    /// glibc raises its mmap and trim thresholds each time a large block is freed (up to 32 MB and 64 MB), so a
    /// process that frees large tables phase by phase, as a seed does, keeps tens of megabytes of freed memory
    /// resident. Setting a threshold turns that adjustment off: a seed of 200,000 objects then peaks about 28 MB
    /// lower, in the same time (BENCHMARKS.md). Other C libraries are left as they are.
    static func returnFreedMemory() {
        #if canImport(Glibc)
        // `mallopt` is declared in <malloc.h>, which the Glibc module does not import; it is looked up instead.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 1 << 20)
        #endif
    }
}
