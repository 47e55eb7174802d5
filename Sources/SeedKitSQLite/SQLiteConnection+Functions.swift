import CSQLite

extension SQLiteConnection {
    /// Defines a deterministic SQL function, written in Swift, for the statements of this connection.
    ///
    ///     try connection.defineFunction("reversed", argumentCount: 1) { arguments in
    ///         guard case .text(let text) = arguments[0] else { return .null }
    ///         return .text(String(text.reversed()))
    ///     }
    ///     // SELECT reversed(name) FROM Department
    ///
    /// SQLite calls `body` once per row that needs it, with the arguments' values; a function of the same name and
    /// argument count replaces an earlier one. Deterministic functions may appear in indexes and let SQLite evaluate
    /// constant calls once, so `body` must give equal results for equal arguments.
    ///
    /// - Throws: ``DatabaseError`` when SQLite refuses the definition (a name longer than 255 bytes).
    /// - Complexity: O(1); each call copies its text and blob arguments into Swift values.
    package func defineFunction(
        _ name: String, argumentCount: Int, _ body: @escaping ([SQLiteValue]) -> SQLiteValue
    ) throws {
        let box = Unmanaged.passRetained(FunctionBody(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, Int32(argumentCount), SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                let body = Unmanaged<FunctionBody>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue().body
                let arguments = (0..<Int(count)).map { SQLiteValue(values![$0]) }
                switch body(arguments) {
                case .null: sqlite3_result_null(context)
                case .integer(let value): sqlite3_result_int64(context, value)
                case .real(let value): sqlite3_result_double(context, value)
                case .text(let text):
                    var text = text
                    text.withUTF8 { sqlite3_result_text64(context, $0.baseAddress, UInt64($0.count), transientDestructor, UInt8(SQLITE_UTF8)) }
                case .blob(let bytes):
                    bytes.withUnsafeBytes { sqlite3_result_blob64(context, $0.baseAddress, UInt64($0.count), transientDestructor) }
                }
            },
            nil, nil,
            { box in Unmanaged<FunctionBody>.fromOpaque(box!).release() })
        // On failure SQLite has called the destructor already, releasing the box.
        guard code == SQLITE_OK else { throw DatabaseError(code: code, database: handle) }
    }
}

/// A Swift function SQLite calls, kept alive by the connection until it drops the definition.
private final class FunctionBody {
    let body: ([SQLiteValue]) -> SQLiteValue

    init(_ body: @escaping ([SQLiteValue]) -> SQLiteValue) {
        self.body = body
    }
}

extension SQLiteValue {
    /// The value of an SQL function's argument.
    fileprivate init(_ value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // The text first, then its length in bytes, as SQLite asks.
            let text = sqlite3_value_text(value)
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            self = .text(String(decoding: bytes, as: UTF8.self))
        case SQLITE_BLOB:
            let blob = sqlite3_value_blob(value)
            self = .blob(Array(UnsafeRawBufferPointer(start: blob, count: blob == nil ? 0 : Int(sqlite3_value_bytes(value)))))
        default: self = .null
        }
    }
}
