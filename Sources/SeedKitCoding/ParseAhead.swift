import Dispatch
import SeedKitSupport
import SeedKitJSON

/// Parses a decoder's text inputs on another thread, ahead of the reading: the next file is parsed while the one
/// before it is read into pending objects, and the parsed values the reading is done with are freed there too.
///
///     let ahead = ParseAhead(texts: inputs.map { input in input.text.map { ($0, input.file) } })
///     for index in inputs.indices where inputs[index].text != nil {
///         switch ahead.value(at: index) {                 // in input order
///         case .success(let value): read(value); ahead.release(value)
///         case .failure(let error): record(error)
///         }
///     }
///
/// The parser stays at most `lookahead` inputs ahead, so a run holds a few files' values at a time, not all of them.
/// Every text input must be taken, in order: the parser waits for room before each one.
///
/// - Complexity: O(*n*) in the size of the texts, spread over two threads.
final class ParseAhead: Sendable {
    private let results = Locked<[Int: Result<JSON, JSONSyntaxError>]>([:])
    private let released = Locked<[JSON]>([])
    private let produced = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore

    /// Starts parsing; `texts` holds each input's UTF-8 text and file name, nil for an input that is not text.
    init(texts: [(bytes: [UInt8], file: String?)?], lookahead: Int = 8) {
        room = DispatchSemaphore(value: lookahead)
        // Each text is taken out as it is parsed: the parser holds none it is done with.
        let unparsed = Locked(texts)
        let count = texts.count
        DispatchQueue.global().async { [results, released, produced, room] in
            for index in 0..<count {
                guard let text = unparsed.withLock({ $0[index].take() }) else { continue }
                room.wait()
                // Values the reading let go are freed here, off the reading's thread.
                var garbage: [JSON] = []
                released.withLock { swap(&$0, &garbage) }
                garbage.removeAll()
                let result = Result { () throws(JSONSyntaxError) -> JSON in
                    try JSONDocument(parsing: text.bytes, file: text.file).value
                }
                results.withLock { $0[index] = result }
                produced.signal()
            }
        }
    }

    /// The parsed value of the text input at `index`, or its syntax error; waits until it is parsed.
    func value(at index: Int) -> Result<JSON, JSONSyntaxError> {
        produced.wait()
        let result = results.withLock { $0.removeValue(forKey: index) }
        room.signal()
        guard let result else { preconditionFailure("text inputs are taken in order; \(index) is not the next one") }
        return result
    }

    /// Hands a value the reading is done with to the parsing thread, which frees it.
    func release(_ value: JSON) {
        released.withLock { $0.append(value) }
    }
}
