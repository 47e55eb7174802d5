import CSQLite
import Foundation

/// Tells SQLite to copy a bound string or blob before the bind call returns, so the Swift buffer may go away.
var transientDestructor: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension Statement {
    /// The number of parameters, which is also the largest parameter index.
    package var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(handle))
    }

    /// The index of the parameter named `name`, which includes its prefix as written in the SQL: `:name`, `@name`
    /// or `$name`.
    ///
    /// Binding by index is cheaper in a loop: look the index up once.
    ///
    ///     let nameIndex = try statement.parameterIndex(named: ":name")
    ///
    /// - Complexity: O(*p*), where *p* is the number of parameters.
    package func parameterIndex(named name: String) throws -> Int {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw DatabaseError(
                resultCode: .range,
                message: "no parameter named \(name) (names include their prefix, as in :name)",
                sql: sql)
        }
        return Int(index)
    }

    /// Binds an integer to the parameter at `index`, counted from 1.
    package func bind(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(index), value), binding: index)
    }

    /// Binds an integer, or NULL for nil (a missing row id), to the parameter at `index`, counted from 1.
    package func bind(_ value: Int64?, at index: Int) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Binds an integer to the parameter at `index`, counted from 1.
    package func bind(_ value: Int, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(index), Int64(value)), binding: index)
    }

    /// Binds a floating-point number to the parameter at `index`, counted from 1.
    package func bind(_ value: Double, at index: Int) throws {
        try check(sqlite3_bind_double(handle, Int32(index), value), binding: index)
    }

    /// Binds text to the parameter at `index`, counted from 1.
    ///
    /// The string's UTF-8 bytes are bound with their length, so a U+0000 inside it is kept, and SQLite copies them.
    ///
    /// - Complexity: O(*n*) in the string's UTF-8 length: one copy, into SQLite. A bridged string not stored as UTF-8
    ///   is first converted.
    package func bind(_ value: String, at index: Int) throws {
        var text = value
        let code = text.withUTF8 { utf8 in
            // A null pointer would bind NULL rather than an empty string.
            guard let start = utf8.baseAddress else {
                return sqlite3_bind_text(handle, Int32(index), "", 0, transientDestructor)
            }
            return start.withMemoryRebound(to: CChar.self, capacity: utf8.count) { characters in
                sqlite3_bind_text64(
                    handle, Int32(index), characters, UInt64(utf8.count), transientDestructor, UInt8(SQLITE_UTF8))
            }
        }
        try check(code, binding: index)
    }

    /// Binds UTF-8 text to the parameter at `index`, counted from 1, where it lies: SQLite reads the bytes each time
    /// the statement runs, without copying them first.
    ///
    ///     try texts.withUnsafeBytes { texts in
    ///         try statement.bind(unsafeText: UnsafeRawBufferPointer(rebasing: texts[nameRange]), at: 3)
    ///         try statement.execute()      // before the buffer goes away
    ///     }
    ///
    /// For a loop that inserts many rows: it saves SQLite an allocation, a copy and a free per value.
    ///
    /// - Precondition: The bytes are valid UTF-8, and stay where they are, unchanged, whenever the statement runs
    ///   until the parameter is bound again.
    /// - Complexity: O(1).
    package func bind(unsafeText text: UnsafeRawBufferPointer, at index: Int) throws {
        // A null pointer would bind NULL rather than an empty string.
        let start = text.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
        try check(
            sqlite3_bind_text64(
                handle, Int32(index), start.assumingMemoryBound(to: CChar.self), UInt64(text.count), nil,
                UInt8(SQLITE_UTF8)),
            binding: index)
    }

    /// Binds a blob to the parameter at `index`, counted from 1. An empty array binds an empty blob, not NULL.
    ///
    /// - Complexity: O(*n*) in the number of bytes: one copy, into SQLite.
    package func bind(_ bytes: [UInt8], at index: Int) throws {
        try bytes.withUnsafeBytes { try bindBlob($0, at: index) }
    }

    /// Binds a blob to the parameter at `index`, counted from 1. Empty data binds an empty blob, not NULL.
    ///
    /// - Complexity: O(*n*) in the number of bytes: one copy, into SQLite.
    package func bind(_ data: Data, at index: Int) throws {
        try data.withUnsafeBytes { try bindBlob($0, at: index) }
    }

    /// Binds NULL to the parameter at `index`, counted from 1.
    package func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(handle, Int32(index)), binding: index)
    }

    /// Binds any SQLite value to the parameter at `index`, counted from 1.
    package func bind(_ value: SQLiteValue, at index: Int) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        }
    }

    /// Binds an integer to the parameter named `name`, prefix included (`:name`).
    package func bind(_ value: Int64, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds an integer to the parameter named `name`, prefix included (`:name`).
    package func bind(_ value: Int, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds a floating-point number to the parameter named `name`, prefix included (`:name`).
    package func bind(_ value: Double, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds text to the parameter named `name`, prefix included (`:name`).
    package func bind(_ value: String, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds a blob to the parameter named `name`, prefix included (`:name`).
    package func bind(_ bytes: [UInt8], named name: String) throws {
        try bind(bytes, at: parameterIndex(named: name))
    }

    /// Binds a blob to the parameter named `name`, prefix included (`:name`).
    package func bind(_ data: Data, named name: String) throws {
        try bind(data, at: parameterIndex(named: name))
    }

    /// Binds NULL to the parameter named `name`, prefix included (`:name`).
    package func bindNull(named name: String) throws {
        try bindNull(at: parameterIndex(named: name))
    }

    /// Binds any SQLite value to the parameter named `name`, prefix included (`:name`).
    package func bind(_ value: SQLiteValue, named name: String) throws {
        try bind(value, at: parameterIndex(named: name))
    }

    private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int) throws {
        // A null pointer would bind NULL rather than an empty blob.
        guard let start = bytes.baseAddress else {
            return try check(sqlite3_bind_zeroblob(handle, Int32(index), 0), binding: index)
        }
        try check(sqlite3_bind_blob64(handle, Int32(index), start, UInt64(bytes.count), transientDestructor), binding: index)
    }

    @inline(__always)
    private func check(_ code: Int32, binding index: Int) throws {
        guard code == SQLITE_OK else { throw bindingError(code, index: index) }
    }

    private func bindingError(_ code: Int32, index: Int) -> DatabaseError {
        let error = DatabaseError(code: code, database: sqlite3_db_handle(handle), sql: sql)
        guard code == SQLITE_RANGE else { return error }
        return DatabaseError(
            resultCode: error.extendedResultCode,
            message: "no parameter at index \(index): the statement has \(parameterCount) parameters, counted from 1",
            sql: error.sql)
    }
}
