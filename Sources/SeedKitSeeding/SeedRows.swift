import Dispatch
import SeedKitSupport
import SeedKitModel

/// The objects of a flat template set read straight into table rows: what a first seed inserts, without the decoder's
/// pending objects, managed objects or context.
///
///     if let rows = SeedRows(reading: set, model: model) {          // nil: the set needs the full decoder
///         let insertion = try SeedInsertion(inserting: rows, into: store)   // inside the seeder's transaction
///     }
///
/// A flat set is what exports and most seed data look like: every object at the top level, of an entity with
/// identity, stated once, with its attributes and its to-one relationships given as identity stubs
/// (`{"class": "Group", "name": "g1"}`). Each file is read into rows on both cores, then the rows are numbered and
/// their references resolved by key, in file order, on the calling thread. The rows get the row ids, ledger keys and
/// value hashes that decoding the set and saving its context give.
///
/// Anything else makes the reading give up, and the seeder decodes the set the general way, which also reports
/// every problem: a syntax or type error, an unknown key, `"$id"` or `"$ref"`, a nested object stating more than
/// identity, a to-many key, an object stated twice or only referenced, an identity of a type other than string,
/// integer, boolean or UUID (whose equal values can have different texts), a to-one whose inverse is a to-one or an
/// ordered to-many (the inverse needs a column or a position written too).
///
/// - Complexity: O(*n*) in the size of the templates, spread over two threads, plus O(1) per reference on average.
struct SeedRows: Sendable {
    /// One template object as the row it becomes.
    struct Row: Sendable {
        let entity: Entity
        /// The ledger key: the root entity and the identity values; hashed on the reading thread.
        let key: Prehashed
        /// Every attribute's value, in the entity's order: the stated ones, else the defaults.
        let values: [AttributeValue?]
        /// The to-one relationships stated, in the order of their keys' names: the order a decoder meets them in.
        var targets: [Target]
        /// The hash of the row's value text, for the ledger; given once the file's rows are read.
        var hash: UInt64 = 0
        /// The row id, given once rows are numbered.
        var rowID: Int64 = 0
    }

    /// A stated to-one relationship.
    struct Target: Sendable {
        let relationship: Int
        /// The target's key; nil for `null`.
        let key: Prehashed?
        /// The entity the stub names: its `"class"`, else the relationship's destination.
        let entity: Entity
        /// The target's row id, once rows are numbered.
        var rowID: Int64? = nil
    }

    /// Every row, in the files' order.
    let rows: [Row]
    /// Their order of first mention, ledger entries and counts.
    let numbered: Numbered

    /// What numbering the rows of a whole set gives besides their row ids.
    struct Numbered {
        /// The indices of the rows (counted over all files in file order) in the order a decoder creates the
        /// objects: by first mention, stated or referenced.
        let order: [Int]
        /// Whether a row refers to a row after it in ``order``: inserting in that order makes references wait for rows.
        let refersForward: Bool
        /// The rows' ledger entries, packed as the rows are numbered.
        let ledger: SeedLedger
        /// The number of rows per entity.
        let counts: [String: SeedReport.Counts]
    }

    /// Reads every file of the set into rows, or returns nil when the set is not flat or has any problem.
    ///
    /// - Parameter fileRead: Called on the calling thread with the number of files read so far, after each one.
    init?(reading files: [TemplateSet.File], model: EntityModel, fileRead: ((Int) -> Void)? = nil) {
        var rows: [Row] = []
        guard let numbered = Self.read(files, model: model, fileRead: fileRead, numbered: { rows += $0 })
        else { return nil }
        self.rows = rows
        self.numbered = numbered
    }

    /// Reads every file of the set into rows and hands each file's rows to `numbered` as soon as they are numbered,
    /// in file order, while the next files are read; nil when the set is not flat or has any problem — possibly after
    /// some files' rows were handed over, so `numbered` must write somewhere that can be thrown away.
    ///
    /// - Returns: The rows' order of first mention, their ledger entries and counts.
    /// - Parameter fileRead: Called on the calling thread with the number of files read so far, after each one.
    static func read(
        _ files: [TemplateSet.File], model: EntityModel, fileRead: ((Int) -> Void)? = nil,
        numbered: (_ rows: [Row]) throws -> Void
    ) rethrows -> Numbered? {
        let reading = Reading(files: files, model: model)
        // The calling thread reads files too, when the rows it is to write next are not ready.
        DispatchQueue.global().async { reading.work() }
        defer { reading.finish() }
        var reader = SeedRowReader(model: model)
        for index in files.indices {
            guard let fileRows = reading.numberedRows(at: index, reader: &reader) else { return nil }
            try numbered(fileRows)
            reading.discard(fileRows, ofFile: index)
            fileRead?(index + 1)
        }
        return reading.finishNumbering()
    }

    /// The reading of the files on two threads: each claims the next file not yet claimed, reads it, and numbers the
    /// files read so far in file order (one thread at a time); the calling thread takes the numbered rows in file
    /// order. The calling thread writes what it takes, so the helper does most of the reading and numbering.
    private final class Reading: Sendable {
        private struct State {
            var next = 0
            /// The rows of files read and not yet numbered; nil inside for a file that is not flat.
            var read: [Int: [Row]?] = [:]
            /// The rows of files numbered and not yet taken; nil inside when the file is not flat or cannot be
            /// numbered.
            var numbered: [Int: [Row]?] = [:]
            /// Set when a file is not flat, or when the calling thread is done: nothing more is claimed.
            var isStopped = false
            /// Rows the calling thread is done with, for the helper to free.
            var garbage: [[Row]] = []
            /// The files the calling thread claimed and has not discarded the rows of.
            var readByCaller: Set<Int> = []
        }

        /// The numbering, and the next file it takes; locked apart from the state, and always before it.
        private struct Sequence {
            var numbering = Numbering()
            var nextFile = 0
        }

        private let files: [TemplateSet.File]
        private let model: EntityModel
        private let state = Locked(State())
        private let sequence = Locked(Sequence())
        private let fileDone = DispatchSemaphore(value: 0)
        private let helperDone = DispatchSemaphore(value: 0)

        init(files: [TemplateSet.File], model: EntityModel) {
            self.files = files
            self.model = model
        }

        /// The helper thread's loop: reads files until none is left to claim.
        func work() {
            var reader = SeedRowReader(model: model)
            while let index = claim() {
                var garbage: [[Row]] = []
                state.withLock { swap(&$0.garbage, &garbage) }
                garbage.removeAll()
                store(reader.rows(in: files[index]), at: index)
            }
            helperDone.signal()
        }

        /// Hands the rows of the file at `index` to the helper thread to free, if it read them: freeing them takes the
        /// calling thread, which writes them, about as long as building them took. Rows the calling thread read are
        /// left to it, as freeing memory that another thread allocated makes both threads wait for the allocator.
        func discard(_ rows: [Row], ofFile index: Int) {
            state.withLock { state in
                if state.readByCaller.remove(index) == nil { state.garbage.append(rows) }
            }
        }

        /// The numbered rows of the file at `index`; the calling thread reads the files it claims meanwhile. Nil when
        /// that file, or one before it, is not flat or cannot be numbered.
        func numberedRows(at index: Int, reader: inout SeedRowReader) -> [Row]? {
            while true {
                let (result, isStopped) = state.withLock { ($0.numbered.removeValue(forKey: index), $0.isStopped) }
                if let result { return result }
                if let next = claim(byCaller: true) {
                    store(reader.rows(in: files[next]), at: next)
                } else if isStopped {
                    return nil
                } else {
                    // The helper is reading or numbering it.
                    fileDone.wait()
                }
            }
        }

        /// What numbering the whole set gave; nil when an object is referenced but never stated. The numbering's
        /// table of every key is freed on another thread: the caller need not wait.
        func finishNumbering() -> Numbered? {
            let numbering = sequence.withLock { sequence in
                var taken = Numbering()
                swap(&taken, &sequence.numbering)
                return taken
            }
            let result = numbering.finish()
            releaseInBackground(consume numbering)
            return result
        }

        /// Stops claiming and waits for the helper's last file.
        func finish() {
            state.withLock { $0.isStopped = true }
            helperDone.wait()
        }

        private func claim(byCaller: Bool = false) -> Int? {
            state.withLock { state in
                guard !state.isStopped, state.next < files.count else { return nil }
                defer { state.next += 1 }
                if byCaller { state.readByCaller.insert(state.next) }
                return state.next
            }
        }

        private func store(_ rows: [Row]?, at index: Int) {
            state.withLock { state in
                state.read[index] = .some(rows)
                // The general decoder will read the set: no use reading on.
                if rows == nil { state.isStopped = true }
            }
            number()
            fileDone.signal()
        }

        /// Numbers the files read that are next in file order.
        private func number() {
            sequence.withLock { sequence in
                while let read = state.withLock({ $0.read.removeValue(forKey: sequence.nextFile) }) {
                    var outcome: [Row]?
                    if var rows = read {
                        // Files of a set are usually alike: room for as many objects in each as in the first saves
                        // regrowing.
                        if sequence.nextFile == 0 { sequence.numbering.reserveCapacity(min(rows.count * files.count, 1 << 22)) }
                        if sequence.numbering.add(&rows) { outcome = rows }
                    }
                    let isNumbered = outcome != nil
                    state.withLock { state in
                        state.numbered[sequence.nextFile] = .some(outcome)
                        if !isNumbered { state.isStopped = true }
                    }
                    sequence.nextFile += 1
                    if !isNumbered { return }
                }
            }
        }
    }
}
