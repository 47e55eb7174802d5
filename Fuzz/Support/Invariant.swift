import Foundation
import SeedKit

/// Stops the run as a crash that libFuzzer records, with what broke, when `condition` is false.
///
/// A `precondition` would be compiled out of nothing here, but its message would be lost in release builds.
public func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("invariant broken (\(file):\(line)): \(message())\n".utf8))
    abort()
}

/// The fuzzer's input as an array.
public func input(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// Checks that `location` points into `bytes` (or just past their end) in `file`: a line the text has, and a column
/// of that line, counted in Unicode scalars as ``SourceLocation`` counts them.
public func checkLocation(_ location: SourceLocation, in bytes: [UInt8], file: String?, _ what: @autoclosure () -> String) {
    invariant(location.file == file, "\(what()): location in \(location.file ?? "no file"), expected \(file ?? "no file")")
    var lineStart = 0
    var line = 1
    while line < location.line {
        guard let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
            invariant(false, "\(what()): line \(location.line) of a text of \(line) lines")
            return
        }
        lineStart = newline + 1
        line += 1
    }
    let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    // Columns count bytes that are not UTF-8 continuation bytes, which is one per scalar in valid text.
    let columns = bytes[lineStart..<lineEnd].count { $0 & 0xC0 != 0x80 }
    invariant(
        (1...columns + 1).contains(location.column),
        "\(what()): column \(location.column) of line \(location.line), which has \(columns) columns")
}

/// Checks that a message holds no control characters (below U+0020): user data in it must be escaped, as JSON strings
/// escape them.
public func checkPrintable(_ message: String, _ what: @autoclosure () -> String) {
    invariant(
        !message.unicodeScalars.contains { $0.value < 0x20 },
        "\(what()): control character in \(message.debugDescription)")
}

/// The canonical bytes of a value: equal values, and only those, have equal canonical bytes.
public func canonical(_ value: JSON) -> [UInt8] {
    value.serialized(style: .canonical)
}

/// Checks the problems found in one template's text: each printable, located inside the text (in `file`), at a
/// pointer the text has.
public func checkSeedingIssues(_ issues: [Diagnostic], in bytes: [UInt8], file: String) {
    let document = try? JSONDocument(parsing: bytes, file: file)
    for issue in issues {
        checkPrintable(issue.description, "seeding issue")
        guard let location = issue.location else {
            invariant(false, "a problem of text without a location: \(issue)")
            continue
        }
        checkLocation(location, in: bytes, file: file, "seeding issue \(issue)")
        if let document, let pointer = issue.pointer {
            invariant(document.value[pointer] != nil, "a problem at a pointer the text lacks: \(issue)")
        }
    }
}
