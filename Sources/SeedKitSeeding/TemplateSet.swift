import Foundation
import SeedKitSupport
import SeedKitJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `.template` files under a directory, read and hashed, in sorted relative-path order: one seed input.
///
///     let set = try TemplateSet(directory: URL(fileURLWithPath: "Templates"))
///     set.files.map(\.relativePath)   // ["departments.template", "staff/ann.template", …]
///
/// Files are found recursively; every other file is ignored (the model file is read separately). A symbolic link to a
/// file is followed when it leads inside the directory; one that leads outside, nowhere or into a loop is refused, and
/// so is a directory named like a template: each is reported as an issue of the set, so a set cannot read files it
/// does not hold or silently leave one out. Symbolic links to directories are not walked into, so no link can make the
/// walk loop. A file is read only if it is still the file the walk found (same device and inode), or, where the walk
/// left a regular file's status to its read, if it is still no symbolic link: one swapped for a link to another file
/// between the walk and the read is refused.
///
/// Every later launch of an application reads its whole set to find it unchanged, so this is POSIX work, without
/// Foundation's URL and file manager in the loop, and the files are read and hashed on all cores.
///
/// - Complexity: O(*n*) in the total size of the files.
package struct TemplateSet: Sendable {
    /// One template file.
    package struct File: Sendable {
        /// The path below the directory, with `/` separators: the file's name in the ledger.
        package var relativePath: String
        /// The directory as given, which ``displayPath`` joins with the relative path: one string every file of a set
        /// shares, a file's own path made only where it is shown.
        package var displayDirectory: String
        /// The contents; empty for a file not read because its stamp said it was unchanged (see ``isRead``).
        package var bytes: [UInt8]
        /// The FNV-1a hash of the bytes (``StableHash``).
        var contentHash: UInt64
        /// The file's size, modification time and inode when it was read; nil when it was modified too shortly
        /// before being read for the stamp to tell a later change (see ``Stamp``).
        var stamp: Stamp?
        /// Whether ``bytes`` holds the contents: false when a known stamp stood for them.
        var isRead = true
        /// The file the walk found at the path, which a later read (to locate a problem) must open too.
        var identity: FileIdentity?

        /// The hash of the bytes as 16 hex digits, as the ledger records it.
        public var hash: String { StableHash.text(of: contentHash) }

        /// The path to show in diagnostics: the directory as given, joined with the relative path.
        package var displayPath: String { TemplateSet.displayPath(of: relativePath, in: displayDirectory) }
    }

    /// The path to show of `relativePath` in a directory given as `displayDirectory`.
    static func displayPath(of relativePath: String, in displayDirectory: String) -> String {
        relativePath.isEmpty
            ? displayDirectory : displayDirectory == "." ? relativePath : displayDirectory + "/" + relativePath
    }

    /// What a ledger recorded of a file: its relative path, the hash of its contents, and its stamp when it was read
    /// (nil for none).
    struct FileRecord: Sendable, Equatable {
        var path: String
        var hash: UInt64
        var stamp: Stamp?

        /// For each of `paths`, in byte order, the index of the record of that path among `records`, in byte order
        /// of their paths too (nil for none): both lists are walked once, side by side, hashing no path.
        ///
        /// - Complexity: O(*n* + *m*) comparisons of paths.
        static func indices(of paths: [String], in records: [FileRecord]) -> [Int?] {
            indices(of: paths.count, in: records) { paths[$0] }
        }

        /// ``indices(of:in:)`` of `count` paths, the one at each index given by `path`: a path read where it lies, in
        /// a list of files or records, copies no element beside it.
        static func indices(of count: Int, in records: [FileRecord], path: (Int) -> String) -> [Int?] {
            var indices: [Int?] = []
            indices.reserveCapacity(count)
            var next = 0
            for index in 0..<count {
                let path = path(index)
                var order = 1
                while next < records.count {
                    order = records[next].path.compareBytes(path)
                    guard order < 0 else { break }
                    next += 1
                }
                indices.append(order == 0 && next < records.count ? next : nil)
            }
            return indices
        }
    }

    /// What a file's metadata say about its contents: its size, modification and change times (to the nanosecond)
    /// and inode.
    ///
    /// An unchanged stamp is taken for unchanged contents, as `make`, `rsync` and `git` do, so that a launch that finds
    /// its set unchanged needs no file's contents. The change time is the kernel's own, set by every write and never
    /// set back, so a file rewritten in place with its old size and modification time restored (`cp -p`, `tar -x`,
    /// `rsync -t --inplace`) has another stamp. Like `git`, a file modified just before it was read gets no stamp: a
    /// change within the file system's time granularity might keep the time. Just before means within 2 seconds for a
    /// time without fraction (file systems with whole or even seconds), else within 100 milliseconds (nanosecond
    /// times, set from a clock that ticks every few milliseconds).
    struct Stamp: Sendable, Hashable {
        let size: Int64
        let modified: Time
        let changed: Time
        let inode: UInt64

        /// A time of the file system: seconds and nanoseconds since 1970.
        struct Time: Sendable, Hashable {
            let seconds: Int64
            let nanoseconds: Int64
        }

        /// The stamp of a file with this status, read at `readTime`; nil when the file was modified too recently.
        static func of(_ status: stat, readTime: timespec) -> Stamp? {
            #if canImport(Darwin)
            let modified = status.st_mtimespec, changed = status.st_ctimespec
            #else
            let modified = status.st_mtim, changed = status.st_ctim
            #endif
            func isOldEnough(_ time: timespec) -> Bool {
                let margin: Int64 = time.tv_nsec == 0 ? 2_000_000_000 : 100_000_000
                let age = (Int64(readTime.tv_sec) - Int64(time.tv_sec)) * 1_000_000_000 + Int64(readTime.tv_nsec) - Int64(time.tv_nsec)
                return age > margin
            }
            guard isOldEnough(modified), isOldEnough(changed) else { return nil }
            func time(_ time: timespec) -> Time { Time(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec)) }
            return Stamp(
                size: Int64(status.st_size), modified: time(modified), changed: time(changed), inode: UInt64(status.st_ino))
        }

        /// The current time, against which stamps are taken.
        static var now: timespec {
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            return time
        }

        init(size: Int64, modified: Time, changed: Time, inode: UInt64) {
            self.size = size
            self.modified = modified
            self.changed = changed
            self.inode = inode
        }
    }

    package static let fileExtension = "template"
    /// The name of the model file a set may hold at its top.
    static let modelFileName = "model.json"

    package let directory: URL
    package let files: [File]
    /// Files refused while reading: symbolic links leading outside the directory, nowhere or into a loop, and
    /// directories named like templates.
    package let issues: [Diagnostic]
    /// Other files found under the directory, not named like templates (the top-level model file aside), by relative
    /// path in sorted order: what a set without templates ignored, to say so.
    package let ignoredFiles: [String]
    /// The directory with every symbolic link resolved, followed by `/`: what a link must resolve below.
    private let resolvedPrefix: String

    /// Reads every template file under `directory`.
    ///
    /// - Throws: ``SeedError`` when the directory is missing, it or a directory below it cannot be listed, or a
    ///   file cannot be read (the first such file in path order).
    package init(directory: URL) throws(SeedError) {
        try self.init(directory: directory, known: [])
    }

    /// Reads the template files under `directory` but those whose stamp is in `known`: those take the hash known
    /// with the stamp and are not read (their ``File/isRead`` is false).
    ///
    /// - Parameter known: The stamp and hash of files, as a ledger recorded them, in the byte order of their paths;
    ///   asked for once the directory is listed, so that a caller can read them meanwhile.
    init(directory: URL, known knownRecords: @autoclosure () -> [FileRecord]) throws(SeedError) {
        self.directory = directory
        // Taken before the walk: a file changed since is younger than this, and gets no stamp.
        let readTime = Stamp.now
        var walk = try Walk(directory: directory, readTime: readTime)
        try walk.walk(relativeDirectory: "")
        let known = knownRecords()
        // Files are opened from the directory, by their relative paths: no path is made per file.
        let root = open(walk.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw SeedError("cannot open the template directory \(walk.displayPath)") }
        defer { close(root) }
        let found = walk.found
        let recorded = known.isEmpty ? [] : FileRecord.indices(of: found.count, in: known) { found[$0].relativePath }
        // Files are read and hashed on all cores, in tasks of up to 64 files (fewer where the set is small, so that
        // every core still gets several tasks), each task's hashes computed four files at a time. Each file is made in
        // its place in the set's one array: no file is copied or held twice. The set fails on the first file it cannot
        // read in path order.
        let chunk = min(64, max(4, found.count / (8 * ActiveProcessors.count)))
        let failures = Locked([(index: Int, reason: String)]())
        let displayDirectory = walk.displayPath
        let files = [File](unsafeUninitializedCapacity: found.count) { buffer, initializedCount in
            guard let start = buffer.baseAddress else { return }
            let base = DisjointWrites(base: start)
            DispatchQueue.concurrentPerform(iterations: (found.count + chunk - 1) / chunk) { task in
                // Where the files read are, and their contents, whose hashes are filled in at the end.
                var readIndices: [Int] = [], contents: [[UInt8]] = []
                for index in task * chunk..<min(task * chunk + chunk, found.count) {
                    let entry = found[index]
                    // A regular file's status is taken here, on all cores, only to compare its stamp; else its read's
                    // own serves (see `Walk`). A file that is no longer one is left to the read to refuse.
                    var identity = entry.identity, stamp = entry.stamp
                    if identity == nil, !recorded.isEmpty, let status = Self.regularFileStatus(entry.relativePath, in: root) {
                        identity = FileIdentity(status)
                        stamp = Stamp.of(status, readTime: readTime)
                    }
                    // The status is the file's now: a known stamp stands for its contents.
                    if let stamp, !recorded.isEmpty, let record = recorded[index], known[record].stamp == stamp {
                        (base.base + index).initialize(
                            to: File(
                                relativePath: entry.relativePath, displayDirectory: displayDirectory, bytes: [],
                                contentHash: known[record].hash, stamp: stamp, isRead: false, identity: identity))
                        continue
                    }
                    // Where the walk saw a regular file, no link is followed: one swapped in since is refused.
                    switch Self.read(
                        entry.relativePath, in: root, expecting: identity, followingLinks: entry.identity != nil,
                        readTime: readTime)
                    {
                    case .success(let read):
                        readIndices.append(index)
                        contents.append(read.bytes)
                        (base.base + index).initialize(
                            to: File(
                                relativePath: entry.relativePath, displayDirectory: displayDirectory, bytes: read.bytes,
                                contentHash: 0, stamp: read.stamp, identity: read.identity))
                    case .failure(let failure):
                        failures.withLock { $0.append((index, failure.reason)) }
                        // A file in its place all the same, so that the array is whole when it is thrown away.
                        (base.base + index).initialize(
                            to: File(
                                relativePath: entry.relativePath, displayDirectory: displayDirectory, bytes: [],
                                contentHash: 0, stamp: nil, isRead: false))
                    }
                }
                for (index, hash) in zip(readIndices, StableHash.values(of: contents)) {
                    (base.base + index).pointee.contentHash = hash
                }
            }
            initializedCount = found.count
        }
        if let failure = failures.withLock({ $0.min { $0.index < $1.index } }) {
            throw SeedError("cannot read the template file \(walk.display(found[failure.index].relativePath)): \(failure.reason)")
        }
        self.files = files
        self.issues = walk.issues.sorted()
        self.ignoredFiles = walk.ignored
        self.resolvedPrefix = walk.resolvedPrefix
    }

    /// What reading a file at the top of the directory found.
    enum TopLevelFile {
        case missing
        /// Refused as a template would be, such as a symbolic link leading outside the directory.
        case refused(Refusal)
        case unreadable(ReadFailure)
        case read([UInt8])
    }

    /// The file `name` at the top of the directory, such as `model.json`, found and read as a template is: a symbolic
    /// link is followed only inside the directory, and the file read must be the one found.
    func topLevelFile(named name: String) -> TopLevelFile {
        let path = "\(directory.path)/\(name)"
        var status = stat()
        guard lstat(path, &status) == 0 else { return errno == ENOENT ? .missing : .unreadable(.system) }
        switch Walk.statusOfFile(at: path, status: status, resolvedPrefix: resolvedPrefix) {
        case .failure(let refusal):
            return .refused(refusal)
        case .success(let status):
            switch Self.read(path, expecting: FileIdentity(status), readTime: Stamp.now) {
            case .success(let read): return .read(read.bytes)
            case .failure(let failure): return .unreadable(failure)
            }
        }
    }

    /// Whether every file's contents were read: none was stood for by a known stamp.
    var isRead: Bool { files.allSatisfy(\.isRead) }

    /// A hash of every file's path and contents and of the model: equal fingerprints, equal seed input.
    ///
    /// The hash of the text `model <fingerprint>` and a line `<hash> <relative path>` per file, each line ended by a
    /// newline; the text is made as bytes, without a string per file.
    func fingerprint(modelFingerprint: String) -> String {
        var text = Array("model \(modelFingerprint)\n".utf8)
        text.reserveCapacity(text.count + files.reduce(0) { $0 + 18 + $1.relativePath.utf8.count })
        // Each file's parts taken where they are, copying no file (and retaining none of its arrays).
        for index in files.indices {
            StableHash.appendText(of: files[index].contentHash, to: &text)
            text.append(UInt8(ascii: " "))
            var path = files[index].relativePath
            path.withUTF8 { text.append(contentsOf: $0) }
            text.append(UInt8(ascii: "\n"))
        }
        return StableHash.hex(of: text)
    }

    /// Why an entry named like a template is no template file the set may read: its diagnostic's code and message.
    struct Refusal: Error {
        let code: Diagnostic.Code
        let reason: String
    }

    /// Why a file could not be read: the system's reason, or that it is not a regular file.
    struct ReadFailure: Error {
        var reason: String

        /// The reason `errno` gives now.
        static var system: ReadFailure { ReadFailure(reason: String(cString: strerror(errno))) }

        /// Another file is at the path than the one the walk found there.
        static let replaced = ReadFailure(
            reason: "it was replaced after the directory was listed: the file opened is not the one found there")
    }

    /// The contents of `file` read again from `directoryPath`, when the path still names the file the walk found and
    /// its bytes hash as they did; nil otherwise, so that a location found in them never points into other contents.
    ///
    /// - Complexity: O(*n*) in the size of the file: one `fstat` and reads straight into the array's storage.
    package static func contentsAgain(of file: File, in directoryPath: String) -> [UInt8]? {
        guard case .success(let read) = read("\(directoryPath)/\(file.relativePath)", expecting: file.identity, readTime: Stamp.now),
            StableHash.value(of: read.bytes) == file.contentHash
        else { return nil }
        return read.bytes
    }

    /// The status of the file at `path` below the open `directory` when it is a regular file (no link followed); nil
    /// for anything else, or none.
    private static func regularFileStatus(_ path: String, in directory: Int32) -> stat? {
        var status = stat()
        // `withCString` lends the string's own bytes, where passing the string itself would copy them.
        guard path.withCString({ fstatat(directory, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0,
            status.st_mode & S_IFMT == S_IFREG
        else { return nil }
        return status
    }

    /// What reading a file gives: its bytes, its stamp, and which file it was.
    struct FileRead {
        var bytes: [UInt8]
        var stamp: Stamp?
        var identity: FileIdentity
    }

    /// The bytes of the regular file at `path` (relative to the open `directory`, or to the working directory), its
    /// stamp as of `readTime` and its identity, or why they cannot be read. When `identity` is given, the file opened
    /// must be that one (checked on the open descriptor, so no link swapped in after the walk can lead the read
    /// elsewhere); when links are not followed, a symbolic link at `path` is refused as a file replaced since the
    /// directory was listed.
    static func read(
        _ path: String, in directory: Int32 = AT_FDCWD, expecting identity: FileIdentity?, followingLinks: Bool = true,
        readTime: timespec
    ) -> Result<FileRead, ReadFailure> {
        let descriptor = path.withCString {
            openat(directory, $0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        }
        guard descriptor >= 0 else { return .failure(!followingLinks && errno == ELOOP ? .replaced : .system) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.system) }
        if let identity, identity != FileIdentity(status) { return .failure(.replaced) }
        let stamp = Stamp.of(status, readTime: readTime)
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(ReadFailure(reason: "not a regular file")) }
        let size = Int(status.st_size)
        var failure: ReadFailure?
        // One byte more than fstat says, so that the read that fills the array also sees the end of the file.
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            let read = Self.read(descriptor, filling: UnsafeMutableRawBufferPointer(buffer), endingAt: size)
            count = read ?? 0
            if read == nil { failure = .system }
        }
        if let failure { return .failure(failure) }
        if bytes.count > size {
            // The file grew since fstat: read on to its end, as reading it whole would.
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                guard let count = chunk.withUnsafeMutableBytes({ Self.read(descriptor, filling: $0) }) else { return .failure(.system) }
                bytes.append(contentsOf: chunk[..<count])
                // Grown while read: its stamp is not the one of these contents.
                if count < chunk.count { return .success(FileRead(bytes: bytes, stamp: nil, identity: FileIdentity(status))) }
            }
        }
        return .success(FileRead(bytes: bytes, stamp: stamp, identity: FileIdentity(status)))
    }

    /// Reads until `buffer` is full or the file ends, retrying reads a signal interrupts.
    ///
    /// - Parameter end: The size `fstat` gave, smaller than `buffer`: a read that stops short there is taken as the
    ///   end of the file, as a regular file's short read is, which saves the read that would find nothing more — one
    ///   system call of the few a small template costs. A file grown meanwhile fills the buffer instead.
    /// - Returns: The number of bytes read; nil on an error.
    private static func read(
        _ descriptor: Int32, filling buffer: UnsafeMutableRawBufferPointer, endingAt end: Int? = nil
    ) -> Int? {
        var count = 0
        while count < buffer.count {
            #if canImport(Glibc)
            let got = Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            #else
            let got = Darwin.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            #endif
            if got > 0 {
                count += got
                if count == end { return count }
            } else if got == 0 {
                return count
            } else if errno != EINTR {
                return nil
            }
        }
        return count
    }
}

/// Which file a path led to when it was found: its device and inode.
struct FileIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// The walk of a template directory: the template files found, and the entries refused.
private struct Walk {
    /// A file to read: where it is below the directory, which file it was, and its stamp then.
    struct Entry: Sendable {
        var relativePath: String
        /// Nil for a regular file, which the walk does not look at (see ``walk(relativeDirectory:)``).
        var identity: FileIdentity?
        /// The stamp of the file the walk found (the link's target for a symbolic link); nil when too recent, and for a
        /// regular file.
        var stamp: TemplateSet.Stamp?
    }

    /// The directory's path, for opening.
    let path: String
    /// The directory as given by the caller, for messages.
    let displayPath: String
    /// The directory with every symbolic link resolved, followed by `/`: what a link must resolve below.
    let resolvedPrefix: String
    /// The time stamps are taken against (``TemplateSet/Stamp/of(_:readTime:)``).
    let readTime: timespec
    var found: [Entry] = []
    var issues: [Diagnostic] = []
    /// Files not named like templates, the top-level model file aside.
    var ignored: [String] = []

    init(directory: URL, readTime: timespec) throws(SeedError) {
        path = directory.path
        displayPath = directory.relativePath
        self.readTime = readTime
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, let resolved = realpath(path, nil) else {
            throw SeedError("no template directory at \(displayPath)")
        }
        resolvedPrefix = String(cString: resolved) + "/"
        free(resolved)
    }

    /// The path to open a file at.
    func path(of relativePath: String) -> String { path + "/" + relativePath }

    /// The path to show for a file.
    func display(_ relativePath: String) -> String {
        TemplateSet.displayPath(of: relativePath, in: displayPath)
    }

    /// The status of the file a template path found with this `lstat` status leads to, or why it is refused: a
    /// symbolic link is followed when it leads to a file inside the directory; a directory is no template.
    static func statusOfFile(
        at path: @autoclosure () -> String, status: stat, resolvedPrefix: String
    ) -> Result<stat, TemplateSet.Refusal> {
        func refusedLink(_ reason: String) -> Result<stat, TemplateSet.Refusal> {
            .failure(TemplateSet.Refusal(code: .refusedLink, reason: reason))
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            return .failure(
                TemplateSet.Refusal(code: .notAFile, reason: "a directory named like a template file is refused; rename it"))
        case S_IFLNK:
            guard let target = realpath(path(), nil) else {
                return refusedLink(
                    errno == ELOOP
                        ? "a loop of symbolic links is refused"
                        : errno == ENOENT
                            ? "a symbolic link to a missing file is refused"
                            : "a symbolic link that cannot be followed is refused: \(String(cString: strerror(errno)))")
            }
            let resolved = String(cString: target)
            free(target)
            guard resolved.hasPrefix(resolvedPrefix) else {
                return refusedLink("a symbolic link leading outside the template directory is refused")
            }
            var targetStatus = stat()
            guard stat(resolved, &targetStatus) == 0 else {
                return refusedLink("a symbolic link that cannot be followed is refused: \(String(cString: strerror(errno)))")
            }
            guard targetStatus.st_mode & S_IFMT != S_IFDIR else {
                return refusedLink("a symbolic link to a directory is no template file")
            }
            return .success(targetStatus)
        default:
            // Other kinds of file (a FIFO, a socket) are found too, and fail to read: they are not templates.
            return .success(status)
        }
    }

    /// The name every template file's ends with, as bytes.
    static let suffix = Array(".\(TemplateSet.fileExtension)".utf8)

    /// An entry of a directory being walked: where its name lies in the listing's bytes, its type, and the key it
    /// sorts by.
    private struct DirectoryEntry {
        /// The name's bytes in the listing's, which hold a NUL after each name.
        let name: Range<Int>
        let type: UInt8
        let isTemplate: Bool
        /// Whether the name is UTF-8: a path is a string, which would name another file.
        let isUTF8: Bool
        /// The first 16 bytes of the name, and `/` after a directory's, big-endian, zero-padded: most names differ
        /// within them, so comparing two integers orders them.
        let prefix: (UInt64, UInt64)

        init(name: Range<Int>, type: UInt8, bytes: UnsafeRawBufferPointer) {
            self.name = name
            self.type = type
            // `memcmp`, not `elementsEqual`, which compared a byte at a time through the generic sequence protocol.
            isTemplate = bytes.count >= Walk.suffix.count
                && Walk.suffix.withUnsafeBytes { suffix in
                    memcmp(bytes.baseAddress! + (bytes.count - suffix.count), suffix.baseAddress!, suffix.count) == 0
                }
            var high: UInt64 = 0, low: UInt64 = 0
            for index in 0..<16 {
                let byte: UInt8 = index < bytes.count
                    ? bytes[index] : index == bytes.count && type == UInt8(DT_DIR) ? UInt8(ascii: "/") : 0
                if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
            }
            prefix = (high, low)
            // The prefix's words tell whether most names are ASCII; only a longer name's rest, or a name beyond
            // ASCII, is looked at again.
            let isASCII = (high | low) & 0x8080_8080_8080_8080 == 0 && (bytes.count <= 16 || bytes[16...].allSatisfy { $0 < 0x80 })
            isUTF8 = isASCII || String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
        }

        /// Whether the entry's path comes before `other`'s in byte order: a directory's as its name and `/`, which
        /// is how the paths below it begin. `names` holds both names.
        func precedes(_ other: DirectoryEntry, names: UnsafeBufferPointer<UInt8>) -> Bool {
            if prefix.0 != other.prefix.0 { return prefix.0 < other.prefix.0 }
            if prefix.1 != other.prefix.1 { return prefix.1 < other.prefix.1 }
            let common = min(name.count, other.name.count)
            let compared = memcmp(names.baseAddress! + name.lowerBound, names.baseAddress! + other.name.lowerBound, common)
            if compared != 0 { return compared < 0 }
            if name.count != other.name.count {
                // One name a prefix of the other: a directory's next byte is `/`, a file's none.
                let shorter = name.count < other.name.count ? self : other
                let longer = name.count < other.name.count ? other : self
                let next = shorter.type == UInt8(DT_DIR) ? Int(UInt8(ascii: "/")) : -1
                let order = next - Int(names[longer.name.lowerBound + common])
                if order != 0 { return (order < 0) == (name.count < other.name.count) }
                return name.count < other.name.count
            }
            return type != UInt8(DT_DIR) && other.type == UInt8(DT_DIR)
        }
    }

    /// Walks the directory at `relativeDirectory` ("" for the top) and every directory below it, in the byte order
    /// of the paths: each directory's entries are sorted by name (a directory's as its name and `/`), and a
    /// directory is walked where it sorts, so that the files are found in order without sorting their paths.
    ///
    /// A template the listing calls a regular file is found without its status, which the set's reading tasks take on
    /// all cores (for its stamp, when there are stamps to compare) or its read gives: the walk itself, one core's work,
    /// costs no system call per file. The listing's names stay bytes in one buffer: each file's path is the one
    /// string made for it.
    ///
    /// - Complexity: O(*n* log *n*) in the number of entries: `lstat` (relative to the open directory, so that no
    ///   path is made) only for entries named like templates that are no regular files and where the file system
    ///   leaves the type unknown, `realpath` only for symbolic links named like templates.
    mutating func walk(relativeDirectory: String) throws(SeedError) {
        let directoryPath = relativeDirectory.isEmpty ? path : path(of: relativeDirectory)
        let descriptor = open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0, let stream = fdopendir(descriptor) else {
            if descriptor >= 0 { close(descriptor) }
            throw SeedError("cannot list the template directory \(display(relativeDirectory))")
        }
        defer { closedir(stream) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        var names: [UInt8] = []
        var entries: [DirectoryEntry] = []
        while let entry = readdir(stream) {
            let namePointer = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let nameBytes = UnsafeRawBufferPointer(start: namePointer, count: strlen(namePointer))
            let dot = UInt8(ascii: ".")
            if nameBytes.first == dot, nameBytes.count == 1 || nameBytes.count == 2 && nameBytes[1] == dot { continue }
            var type = entry.pointee.d_type
            if type == UInt8(DT_UNKNOWN) {
                var status = stat()
                guard fstatat(descriptor, namePointer, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                type = Self.directoryEntryType(of: status.st_mode)
            }
            let start = names.count
            names.append(contentsOf: nameBytes)
            entries.append(DirectoryEntry(name: start..<names.count, type: type, bytes: nameBytes))
            names.append(0)
        }
        names.withUnsafeBufferPointer { names in entries.sort { $0.precedes($1, names: names) } }
        let directoryPrefix = Array((relativeDirectory.isEmpty ? "" : relativeDirectory + "/").utf8)
        for entry in entries {
            // The path in one allocation: the directory's bytes, then the name's (repaired where they are no UTF-8,
            // for the message below).
            let relativePath = names.withUnsafeBufferPointer { names in
                String(unsafeUninitializedCapacity: directoryPrefix.count + entry.name.count) { path in
                    _ = path.initialize(from: directoryPrefix)
                    _ = path[directoryPrefix.count...].initialize(from: names[entry.name])
                    return directoryPrefix.count + entry.name.count
                }
            }
            if !entry.isUTF8, entry.isTemplate || entry.type == UInt8(DT_DIR) {
                issues.append(
                    Diagnostic(
                        .nameNotUTF8, file: display(relativePath),
                        message: "a name that is not UTF-8 cannot be read or recorded; rename it"))
                continue
            }
            guard entry.isTemplate else {
                if entry.type == UInt8(DT_DIR) {
                    try walk(relativeDirectory: relativePath)
                } else if relativePath != TemplateSet.modelFileName {
                    ignored.append(relativePath)
                }
                continue
            }
            if entry.type == UInt8(DT_REG) {
                found.append(Entry(relativePath: relativePath, identity: nil, stamp: nil))
                continue
            }
            // The file the entry is now, to check at reading time that the file opened is the same one.
            var status = stat()
            let statused = names.withUnsafeBufferPointer { names in
                names.baseAddress!.advanced(by: entry.name.lowerBound).withMemoryRebound(to: CChar.self, capacity: entry.name.count + 1) {
                    fstatat(descriptor, $0, &status, AT_SYMLINK_NOFOLLOW)
                }
            }
            guard statused == 0 else {
                if entry.type == UInt8(DT_DIR) { try walk(relativeDirectory: relativePath) }
                continue
            }
            switch Self.statusOfFile(at: path(of: relativePath), status: status, resolvedPrefix: resolvedPrefix) {
            case .success(let file):
                found.append(
                    Entry(
                        relativePath: relativePath, identity: FileIdentity(file),
                        stamp: TemplateSet.Stamp.of(file, readTime: readTime)))
            case .failure(let refusal):
                issues.append(Diagnostic(refusal.code, file: display(relativePath), message: refusal.reason))
            }
            // A directory named like a template is refused, and walked all the same.
            if entry.type == UInt8(DT_DIR) { try walk(relativeDirectory: relativePath) }
        }
    }

    /// The `d_type` value for a `st_mode`: directory, symbolic link, or else regular file, as this walk treats
    /// every other kind (reading refuses what is not a regular file).
    private static func directoryEntryType(of mode: mode_t) -> UInt8 {
        switch mode & S_IFMT {
        case S_IFDIR: UInt8(DT_DIR)
        case S_IFLNK: UInt8(DT_LNK)
        default: UInt8(DT_REG)
        }
    }
}
