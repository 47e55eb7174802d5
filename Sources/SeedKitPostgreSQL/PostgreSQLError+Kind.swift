extension PostgreSQLError {
    /// What went wrong, in the terms a caller acts on: retry, report a missing database, map a violation.
    ///
    /// See <https://www.postgresql.org/docs/current/errcodes-appendix.html> for the SQLSTATE codes behind each kind.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// No server answered at the address: connection refused, no such socket, no route, an unknown host name, a
        /// connect timeout, or a server starting up or shutting down (`57P03`).
        case unreachable
        /// The server refused the credentials or the role: a wrong or missing password, an unknown role, no
        /// `pg_hba.conf` entry (class `28`).
        case authenticationFailed
        /// The database named in the URL doesn't exist (`3D000`).
        case databaseMissing
        /// The connection broke: the server closed it, the backend was terminated (`pg_terminate_backend`, `57P01`),
        /// or the server crashed (class `08`, `57P02`). The connection can't be used again; a new one may work.
        case connectionLost
        /// A serializable or repeatable-read transaction conflicted with another (`40001`); retry it.
        case serializationFailure
        /// Two transactions waited on each other and this one was chosen to fail (`40P01`); retry it.
        case deadlock
        /// A lock wait took longer than `lock_timeout`, or `NOWAIT` found the lock taken (`55P03`).
        case lockTimeout
        /// A statement was canceled: it ran longer than `statement_timeout`, or `pg_cancel_backend` stopped it
        /// (`57014`; SeedKit never cancels statements itself).
        case statementTimeout
        /// A unique or primary key constraint refused a row (`23505`); see ``PostgreSQLError/constraint``.
        case uniqueViolation
        /// A foreign key constraint refused a row or a deletion (`23503`).
        case foreignKeyViolation
        /// A NULL in a `NOT NULL` column (`23502`).
        case notNullViolation
        /// A `CHECK` constraint refused a row (`23514`).
        case checkViolation
        /// A value the server or the client refuses: text with U+0000, a number out of range, malformed input for
        /// a type (class `22`).
        case invalidValue
        /// A table or view that doesn't exist (`42P01`).
        case undefinedTable
        /// A column that doesn't exist (`42703`).
        case undefinedColumn
        /// SQL that doesn't parse (`42601`).
        case syntaxError
        /// The role lacks a privilege (`42501`).
        case insufficientPrivilege
        /// A statement ran in a transaction that an earlier error aborted, or a commit found it aborted and rolled it
        /// back (`25P02`).
        case transactionAborted
        /// A connection URL that can't be parsed or names an unknown parameter.
        case invalidURL
        /// The API used in a way that can't work: the wrong number of arguments or COPY fields, a value of the wrong
        /// type for a column, an advisory transaction lock outside a transaction.
        case misuse
        /// Anything else; see ``PostgreSQLError/sqlState``.
        case other

        /// The kind of an error the server reported with `sqlState`.
        init(sqlState: String) {
            switch sqlState {
            case "57P03": self = .unreachable
            case "28000", "28P01": self = .authenticationFailed
            case "3D000": self = .databaseMissing
            case "57P01", "57P02": self = .connectionLost
            case "40001": self = .serializationFailure
            case "40P01": self = .deadlock
            case "55P03": self = .lockTimeout
            case "57014": self = .statementTimeout
            case "23505": self = .uniqueViolation
            case "23503": self = .foreignKeyViolation
            case "23502": self = .notNullViolation
            case "23514": self = .checkViolation
            case "42P01": self = .undefinedTable
            case "42703": self = .undefinedColumn
            case "42601": self = .syntaxError
            case "42501": self = .insufficientPrivilege
            case "25P02": self = .transactionAborted
            default:
                switch sqlState.prefix(2) {
                case "08": self = .connectionLost
                case "22": self = .invalidValue
                case "28": self = .authenticationFailed
                default: self = .other
                }
            }
        }

        public var description: String {
            switch self {
            case .unreachable: "unreachable"
            case .authenticationFailed: "authentication failed"
            case .databaseMissing: "database missing"
            case .connectionLost: "connection lost"
            case .serializationFailure: "serialization failure"
            case .deadlock: "deadlock"
            case .lockTimeout: "lock timeout"
            case .statementTimeout: "statement timeout"
            case .uniqueViolation: "unique violation"
            case .foreignKeyViolation: "foreign key violation"
            case .notNullViolation: "not-null violation"
            case .checkViolation: "check violation"
            case .invalidValue: "invalid value"
            case .undefinedTable: "undefined table"
            case .undefinedColumn: "undefined column"
            case .syntaxError: "syntax error"
            case .insufficientPrivilege: "insufficient privilege"
            case .transactionAborted: "transaction aborted"
            case .invalidURL: "invalid URL"
            case .misuse: "misuse"
            case .other: "other"
            }
        }
    }
}
