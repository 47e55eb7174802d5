import Foundation

/// Statement arguments laid out as libpq takes them: a type, a format, a length and a pointer per parameter.
///
/// A value goes in binary format when it is of the parameter's type, which is the whole point of the binary format:
/// no formatting here, no parsing on the server. Otherwise it goes as text, as a quoted literal would, and the server
/// converts it to the parameter's type or says why it can't (`invalid input syntax for type bigint`). Text and
/// numeric values always go as text: their binary forms are no cheaper to make.
struct PostgreSQLArguments {
    private(set) var types: [UInt32] = []
    private var formats: [Int32] = []
    private var lengths: [Int32] = []
    /// Where each value starts in `bytes`; nil for NULL.
    private var offsets: [Int?] = []
    private var bytes: [UInt8] = []

    /// Lays out `values` for parameters of `parameterTypes` (the server's, for a prepared statement), or of the
    /// values' own types when nil.
    ///
    /// - Throws: ``PostgreSQLError`` of kind ``PostgreSQLError/Kind/misuse`` for a count that isn't the parameters',
    ///   or ``PostgreSQLError/Kind/invalidValue`` for text holding U+0000.
    init(_ values: [PostgreSQLValue], parameterTypes: [PostgreSQLType]?, sql: String) throws {
        if let parameterTypes, parameterTypes.count != values.count {
            throw PostgreSQLError(
                kind: .misuse,
                message: "wrong number of arguments: the statement has \(parameterTypes.count) parameters, got "
                    + "\(values.count)",
                statement: sql)
        }
        for (index, value) in values.enumerated() {
            let type = parameterTypes?[index] ?? value.type
            types.append(type.oid)
            offsets.append(value == .null ? nil : bytes.count)
            let start = bytes.count
            switch value {
            case .null:
                formats.append(0)
            case .text(let text), .numeric(let text):
                try appendText(text, parameter: index + 1, sql: sql)
            case _ where type != value.type:
                try appendText(value.textForm, parameter: index + 1, sql: sql)
            case .bool(let flag):
                bytes.append(flag ? 1 : 0)
            case .integer(let integer):
                bytes.appendBigEndian(integer)
            case .double(let double):
                bytes.appendBigEndian(double.bitPattern)
            case .bytes(let data):
                bytes += data
            case .timestamp(let timestamp):
                bytes.appendBigEndian(timestamp.microsecondsSince1970 &- PostgreSQLTimestamp.postgresEpochOffset)
            case .uuid(let uuid):
                withUnsafeBytes(of: uuid.uuid) { bytes += $0 }
            }
            if formats.count == index {
                formats.append(1)
                lengths.append(Int32(bytes.count - start))
            } else {
                lengths.append(0)
            }
        }
        // So that the storage has an address even when every value is NULL or empty.
        bytes.append(0)
    }

    /// Appends `text` NUL-terminated, as libpq reads text-format values (their lengths are ignored).
    private mutating func appendText(_ text: String, parameter: Int, sql: String) throws {
        let start = bytes.count
        bytes += text.utf8
        if bytes[start...].contains(0) {
            throw PostgreSQLError(
                kind: .invalidValue,
                message: "the argument for $\(parameter) contains U+0000, which PostgreSQL text can't hold",
                statement: sql)
        }
        bytes.append(0)
        formats.append(0)
    }

    /// Calls `body` with the arrays libpq's `PQexecParams` and `PQexecPrepared` take, valid during the call.
    func withUnsafeArrays<Result>(
        _ body: (
            _ count: Int32, _ types: UnsafePointer<UInt32>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
            _ lengths: UnsafePointer<Int32>?, _ formats: UnsafePointer<Int32>?
        ) throws -> Result
    ) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { storage in
            let base = UnsafeRawPointer(storage.baseAddress)
            let values = offsets.map { offset in
                offset.map { base!.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            }
            return try body(Int32(types.count), types, values, lengths, formats)
        }
    }
}

extension PostgreSQLValue {
    /// The value as PostgreSQL reads it from text: `t`, `42`, `Infinity`, `\xcafe`, `2024-03-01T09:30:00Z`.
    var textForm: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "t" : "f"
        case .integer(let value): String(value)
        case .double(let value) where value.isNaN: "NaN"
        case .double(let value) where value.isInfinite: value < 0 ? "-Infinity" : "Infinity"
        case .double(let value): String(value)
        case .numeric(let text), .text(let text): text
        case .bytes(let bytes): "\\x" + Self.hex(bytes)
        case .timestamp(let value): value.description
        case .uuid(let value): value.uuidString
        }
    }
}
