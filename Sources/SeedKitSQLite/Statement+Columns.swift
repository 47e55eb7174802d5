import CSQLite
import Foundation

extension Statement {
    /// The number of columns in the statement's rows; 0 for statements that produce none.
    package var columnCount: Int {
        Int(sqlite3_column_count(handle))
    }

    /// The name of each column, in order: the `AS` alias when there is one.
    package var columnNames: [String] {
        (0..<columnCount).map(columnName(at:))
    }

    /// The name of the column at `column`, counted from 0.
    package func columnName(at column: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(column)))
    }

    // The accessors below read the current row: call them after step() returned true. They convert the stored value
    // the way SQLite does (NULL reads as 0, "" or no bytes); check isNull(at:) or read value(at:) to tell NULL apart.
    // The small ones are inlinable: the store reads every column of every fetched row through them, from another
    // module, where a call each would cost more than the read.

    /// Whether the value at `column`, counted from 0, is NULL.
    @inlinable
    package func isNull(at column: Int) -> Bool {
        sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    /// The integer at `column`, counted from 0.
    @inlinable
    package func int64(at column: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(column))
    }

    /// The integer at `column`, counted from 0.
    @inlinable
    package func int(at column: Int) -> Int {
        Int(sqlite3_column_int64(handle, Int32(column)))
    }

    /// The floating-point number at `column`, counted from 0.
    @inlinable
    package func double(at column: Int) -> Double {
        sqlite3_column_double(handle, Int32(column))
    }

    /// The text at `column`, counted from 0, decoded from UTF-8 with its length (so U+0000 is kept); invalid UTF-8
    /// is repaired with U+FFFD.
    ///
    /// - Complexity: O(*n*) in the text's UTF-8 length: one copy, out of SQLite.
    package func text(at column: Int) -> String {
        let index = Int32(column)
        // Text before length, as SQLite asks, so the length measures the UTF-8 form the pointer points to.
        guard let start = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// The text at `column`, counted from 0, as ``text(at:)`` reads it, or nil for NULL: one call into SQLite fewer
    /// than ``isNull(at:)`` before ``text(at:)`` for a value that is there, the usual case of a row's strings.
    ///
    /// - Complexity: O(*n*) in the text's UTF-8 length: one copy, out of SQLite.
    package func optionalText(at column: Int) -> String? {
        let index = Int32(column)
        guard let start = sqlite3_column_text(handle, index) else {
            // NULL has no text; any other value without one is a conversion SQLite could not make, "" to text(at:).
            return sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : ""
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// SQLite's UTF-8 bytes of the text at `column`, uncopied: valid until the next step, reset or conversion of that
    /// column. For comparing a text against a known one without building a `String`.
    @inlinable
    package func textBuffer(at column: Int) -> UnsafeRawBufferPointer {
        let index = Int32(column)
        // Text before length, as in text(at:).
        let start = sqlite3_column_text(handle, index)
        return UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// The bytes at `column`, counted from 0.
    ///
    /// - Complexity: O(*n*) in the number of bytes: one copy, out of SQLite.
    package func bytes(at column: Int) -> [UInt8] {
        [UInt8](blobBuffer(at: column))
    }

    /// The bytes at `column`, counted from 0.
    ///
    /// - Complexity: O(*n*) in the number of bytes: one copy, out of SQLite.
    package func data(at column: Int) -> Data {
        Data(blobBuffer(at: column))
    }

    /// The value at `column`, counted from 0, in its storage class.
    package func value(at column: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: .integer(int64(at: column))
        case SQLITE_FLOAT: .real(double(at: column))
        case SQLITE_TEXT: .text(text(at: column))
        case SQLITE_BLOB: .blob(bytes(at: column))
        default: .null
        }
    }

    /// The index of the first column named `name`, compared as SQLite does (ASCII case-insensitively), or nil.
    ///
    /// - Complexity: O(*c*), where *c* is the number of columns.
    package func columnIndex(named name: String) -> Int? {
        (0..<columnCount).first { sqlite3_stricmp(sqlite3_column_name(handle, Int32($0)), name) == 0 }
    }

    /// SQLite's buffer for the blob at `column`: valid until the next step, reset or conversion of that column.
    private func blobBuffer(at column: Int) -> UnsafeRawBufferPointer {
        let index = Int32(column)
        // An empty blob comes back as a null pointer, which is a valid empty buffer.
        let start = sqlite3_column_blob(handle, index)
        return UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, index)))
    }
}
