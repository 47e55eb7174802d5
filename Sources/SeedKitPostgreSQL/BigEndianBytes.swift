// PostgreSQL's binary formats are big-endian throughout: lengths, counts and values.

extension Array where Element == UInt8 {
    /// Appends `value` in network byte order.
    @inline(__always)
    mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Overwrites the four bytes at `offset` with `value` in network byte order: a length written once it is known.
    @inline(__always)
    mutating func setBigEndian(_ value: Int32, at offset: Int) {
        Swift.withUnsafeBytes(of: value.bigEndian) { bytes in
            for index in 0..<4 { self[offset + index] = bytes[index] }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The integer in network byte order at `offset`, which may be unaligned.
    ///
    /// - Precondition: `offset + MemoryLayout<Integer>.size <= count`.
    @inline(__always)
    func bigEndianInteger<Integer: FixedWidthInteger>(at offset: Int, as type: Integer.Type) -> Integer {
        Integer(bigEndian: loadUnaligned(fromByteOffset: offset, as: Integer.self))
    }
}
