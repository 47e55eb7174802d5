/// Parses the binary-format data of a `COPY … TO STDOUT`: the header, then rows of length-prefixed fields, then a
/// trailer. The server sends one row per message (the header with the first).
struct PostgreSQLCopyReader {
    let columns: [PostgreSQLColumn]
    private var hasReadHeader = false
    /// Where each field of the current row starts in its message, and its length (-1 for NULL).
    private var fields: [(start: Int, length: Int)]

    init(columns: [PostgreSQLColumn]) {
        self.columns = columns
        fields = Array(repeating: (0, -1), count: columns.count)
    }

    /// Reads one message, calling `body` for each row in it.
    mutating func read(_ data: UnsafeRawBufferPointer, _ body: (PostgreSQLCopyRow) throws -> Void) throws {
        var offset = 0
        func need(_ count: Int) throws {
            guard count >= 0 && offset + count <= data.count else {
                throw PostgreSQLError(kind: .other, message: "malformed binary COPY data from the server")
            }
        }
        if !hasReadHeader {
            try need(19)
            let extensionLength = Int(data.bigEndianInteger(at: 15, as: Int32.self))
            offset = 19
            try need(extensionLength)
            offset += extensionLength
            hasReadHeader = true
        }
        while offset < data.count {
            try need(2)
            let count = Int(data.bigEndianInteger(at: offset, as: Int16.self))
            offset += 2
            if count == -1 { return }
            guard count == columns.count else { try need(-1); return }
            for index in 0..<count {
                try need(4)
                let length = Int(data.bigEndianInteger(at: offset, as: Int32.self))
                offset += 4
                fields[index] = (offset, length)
                if length > 0 {
                    try need(length)
                    offset += length
                }
            }
            try body(PostgreSQLCopyRow(columns: columns, fields: fields, data: data))
        }
    }
}

/// A row read by ``PostgreSQLConnection/copy(from:_:)``, valid only during the call it is given to.
package struct PostgreSQLCopyRow: PostgreSQLRow {
    let columns: [PostgreSQLColumn]
    let fields: [(start: Int, length: Int)]
    let data: UnsafeRawBufferPointer

    package var columnCount: Int {
        columns.count
    }

    package func columnName(at column: Int) -> String {
        columns[column].name
    }

    package func columnType(at column: Int) -> PostgreSQLType {
        columns[column].type
    }

    package func withBytes<Value>(at column: Int, _ body: (UnsafeRawBufferPointer?) throws -> Value) rethrows -> Value {
        let field = fields[column]
        if field.length < 0 { return try body(nil) }
        return try body(UnsafeRawBufferPointer(rebasing: data[field.start..<field.start + field.length]))
    }
}
