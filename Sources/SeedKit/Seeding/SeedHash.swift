/// The 64-bit FNV-1a hash the seeder fingerprints files, template sets and object values with, as 16 hex digits.
///
///     SeedHash.hex(of: Array("a".utf8))   // "af63dc4c8601ec8c", on every platform and in every process
///
/// Not cryptographic: it detects change, it does not resist tampering. It is stable across processes and versions,
/// unlike `Hasher`, which is seeded per process.
///
/// - Complexity: O(*n*) in the number of bytes.
enum SeedHash {
    static func hex<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
