/// A position in a text file: 1-based line and column, where columns count Unicode scalars.
///
/// Lines end at line feeds ("\n"), so "\r\n" files count lines as expected.
///
///     SourceLocation(file: "Templates/Sales.json", line: 3, column: 5).description  // "Templates/Sales.json:3:5"
///     SourceLocation(file: nil, line: 3, column: 5).description                     // "3:5"
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as given to the reader, or nil for text that came from no file.
    public var file: String?
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in Unicode scalars: "é" is one column whatever its UTF-8 length.
    public var column: Int

    package init(file: String?, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, or `line:column` without a file.
    public var description: String {
        if let file { return "\(file):\(line):\(column)" }
        return "\(line):\(column)"
    }

    /// Orders by file (no file first), then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file {
            guard let left = lhs.file else { return true }
            guard let right = rhs.file else { return false }
            return left < right
        }
        return (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

extension SourceLocation {
    /// The location of the byte at `offset` in UTF-8 `bytes`.
    ///
    /// - Complexity: O(`offset`).
    package init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String?) {
        self = SourceLocation.locations(ofOffsets: [offset], in: bytes, file: file)[offset]!
    }

    /// The locations of several byte offsets, found in one pass over the bytes up to the last of them.
    ///
    /// - Complexity: O(*n* + *k* log *k*) for *k* offsets, where *n* is the largest offset.
    package static func locations(
        ofOffsets offsets: some Sequence<Int>, in bytes: UnsafeBufferPointer<UInt8>, file: String?
    ) -> [Int: SourceLocation] {
        var locations: [Int: SourceLocation] = [:]
        var line = 1
        var column = 1
        var position = 0
        for offset in Set(offsets).sorted() {
            let end = min(offset, bytes.count)
            while position < end {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte: a new scalar
                    column += 1
                }
                position += 1
            }
            locations[offset] = SourceLocation(file: file, line: line, column: column)
        }
        return locations
    }
}
