import CSQLite

/// An SQLite result code, primary or extended.
///
/// Extended codes refine a primary code in their high bits: `SQLITE_CONSTRAINT_UNIQUE` (2067) is a refinement of
/// `SQLITE_CONSTRAINT` (19). Compare ``primary`` to match a family, the code itself to match one case.
///
///     catch let error as DatabaseError where error.resultCode == .constraint { ... }
///     catch let error as DatabaseError where error.extendedResultCode == .constraintUnique { ... }
///
/// See <https://www.sqlite.org/rescode.html>.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code of this code's family: the low eight bits.
    public var primary: SQLiteResultCode {
        SQLiteResultCode(rawValue: rawValue & 0xFF)
    }

    /// The number and SQLite's English phrase for it, such as `19 (constraint failed)`.
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }
}

extension SQLiteResultCode {
    package static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    public static let permission = SQLiteResultCode(rawValue: SQLITE_PERM)
    package static let abort = SQLiteResultCode(rawValue: SQLITE_ABORT)
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    package static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    package static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
    package static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    package static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)

    package static let constraintCheck = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (1 << 8))
    package static let constraintForeignKey = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    package static let constraintNotNull = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))
    package static let constraintPrimaryKey = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    public static let constraintUnique = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
}
