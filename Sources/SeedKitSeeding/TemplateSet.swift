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
/// walk loop. A file is read only if it is still the file the walk found (same device and inode): one swapped for a
/// link to another file between the walk and the read is refused.
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
        /// The path to show in diagnostics: the directory as given, joined with the relative path.
        package var displayPath: String
        /// The contents; empty for a file not read because its stamp said it was unchanged (see ``isRead``).
        package var bytes: [UInt8]
        /// The FNV-1a hash of the bytes.
        package var hash: String
        /// The file's size, modification time and inode when it was read, as text; nil when it was modified too
        /// shortly before being read for the stamp to tell a later change (see ``Stamp``).
        var stamp: String?
        /// Whether ``bytes`` holds the contents: false when a known stamp stood for them.
        var isRead = true
        /// The file the walk found at the path, which a later read (to locate a problem) must open too.
        var identity: FileIdentity?
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
    enum Stamp {
        /// The stamp of a file with this status, read at `readTime`; nil when the file was modified too recently.
        static func of(_ status: stat, readTime: timespec) -> String? {
            #if canImport(Darwin)
            let modified = status.st_mtimespec, changed = status.st_ctimespec
            #else
            let modified = status.st_mtim, changed = status.st_ctim
            #endif
            for time in [modified, changed] {
                let margin: Int64 = time.tv_nsec == 0 ? 2_000_000_000 : 100_000_000
                let age = (Int64(readTime.tv_sec) - Int64(time.tv_sec)) * 1_000_000_000 + Int64(readTime.tv_nsec) - Int64(time.tv_nsec)
                guard age > margin else { return nil }
            }
            return "\(status.st_size) \(modified.tv_sec).\(modified.tv_nsec) \(changed.tv_sec).\(changed.tv_nsec) \(status.st_ino)"
        }

        /// The current time, against which stamps are taken.
        static var now: timespec {
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            return time
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
        try self.init(directory: directory, known: [:])
    }

    /// Reads the template files under `directory` but those whose stamp is in `known`: those take the hash known
    /// with the stamp and are not read (their ``File/isRead`` is false).
    ///
    /// - Parameter known: The stamp and hash of files by relative path, as a ledger recorded them.
    init(directory: URL, known: [String: (stamp: String, hash: String)]) throws(SeedError) {
        self.directory = directory
        var walk = try Walk(directory: directory)
        try walk.walk(relativeDirectory: "")
        let found = walk.found.sorted { $0.relativePath < $1.relativePath }
        let readTime = Stamp.now
        // Files are read and hashed on all cores, four files per task so that their hashes are computed together.
        let reads = Locked([Result<File, ReadFailure>?](repeating: nil, count: found.count))
        DispatchQueue.concurrentPerform(iterations: (found.count + 3) / 4) { task in
            var indices = Array(task * 4..<min(task * 4 + 4, found.count))
            if !known.isEmpty {
                indices.removeAll { index in
                    let entry = found[index]
                    var status = stat()
                    guard let recorded = known[entry.relativePath], stat(entry.path, &status) == 0,
                        Stamp.of(status, readTime: readTime) == recorded.stamp
                    else { return false }
                    let file = File(
                        relativePath: entry.relativePath, displayPath: entry.displayPath, bytes: [], hash: recorded.hash,
                        stamp: recorded.stamp, isRead: false, identity: entry.identity)
                    reads.withLock { $0[index] = .success(file) }
                    return true
                }
            }
            let contents = indices.map { Self.read(found[$0].path, expecting: found[$0].identity, readTime: readTime) }
            let hashes = StableHash.hexes(of: contents.map { (try? $0.get().bytes) ?? [] })
            reads.withLock { reads in
                for (offset, index) in indices.enumerated() {
                    let entry = found[index]
                    reads[index] = contents[offset].map { read in
                        File(
                            relativePath: entry.relativePath, displayPath: entry.displayPath, bytes: read.bytes, hash: hashes[offset],
                            stamp: read.stamp, identity: entry.identity)
                    }
                }
            }
        }
        var files: [File] = []
        files.reserveCapacity(found.count)
        for (entry, read) in zip(found, reads.withLock { $0 }) {
            switch read {
            case .success(let file)?:
                files.append(file)
            case .failure(let failure)?:
                throw SeedError("cannot read the template file \(entry.displayPath): \(failure.reason)")
            case nil:
                preconditionFailure("every file is read before the results are taken")
            }
        }
        self.files = files
        self.issues = walk.issues.sorted()
        self.ignoredFiles = walk.ignored.sorted()
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
        switch Walk.identity(ofFileAt: path, status: status, resolvedPrefix: resolvedPrefix) {
        case .failure(let refusal):
            return .refused(refusal)
        case .success(let identity):
            switch Self.read(path, expecting: identity, readTime: Stamp.now) {
            case .success(let read): return .read(read.bytes)
            case .failure(let failure): return .unreadable(failure)
            }
        }
    }

    /// Whether every file's contents were read: none was stood for by a known stamp.
    var isRead: Bool { files.allSatisfy(\.isRead) }

    /// A hash of every file's path and contents and of the model: equal fingerprints, equal seed input.
    func fingerprint(modelFingerprint: String) -> String {
        var text = "model \(modelFingerprint)\n"
        for file in files { text += "\(file.hash) \(file.relativePath)\n" }
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
    }

    /// The bytes of the regular file at `path` (a symbolic link is followed), or why they cannot be read; a FIFO is
    /// opened without blocking and refused. When `identity` is given, the file opened must be that one.
    ///
    /// - Complexity: O(*n*) in the size of the file: one `fstat` and reads straight into the array's storage.
    static func contents(ofFile path: String, expecting identity: FileIdentity?) -> Result<[UInt8], ReadFailure> {
        read(path, expecting: identity, readTime: Stamp.now).map(\.bytes)
    }

    /// The bytes of the regular file at `path`, and its stamp as of `readTime`, or why they cannot be read; when
    /// `identity` is given, the file opened must be that one (checked on the open descriptor, so no link swapped in
    /// after the walk can lead the read elsewhere).
    static func read(
        _ path: String, expecting identity: FileIdentity?, readTime: timespec
    ) -> Result<(bytes: [UInt8], stamp: String?), ReadFailure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.system) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.system) }
        if let identity, identity != FileIdentity(status) {
            return .failure(ReadFailure(reason: "it was replaced after the directory was listed: the file opened is not the one found there"))
        }
        let stamp = Stamp.of(status, readTime: readTime)
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(ReadFailure(reason: "not a regular file")) }
        let size = Int(status.st_size)
        var failure: ReadFailure?
        // One byte more than fstat says, so that the read that fills the array also sees the end of the file.
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            let read = Self.read(descriptor, filling: UnsafeMutableRawBufferPointer(buffer))
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
                if count < chunk.count { return .success((bytes, nil)) }
            }
        }
        return .success((bytes, stamp))
    }

    /// Reads until `buffer` is full or the file ends, retrying reads a signal interrupts.
    ///
    /// - Returns: The number of bytes read; nil on an error.
    private static func read(_ descriptor: Int32, filling buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var count = 0
        while count < buffer.count {
            #if canImport(Glibc)
            let got = Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            #else
            let got = Darwin.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            #endif
            if got > 0 {
                count += got
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
    /// A file to read: where it is below the directory, where to open it, how to show it, and which file it was.
    struct Entry: Sendable {
        var relativePath: String
        var path: String
        var displayPath: String
        var identity: FileIdentity
    }

    /// The directory's path, for opening.
    let path: String
    /// The directory as given by the caller, for messages.
    let displayPath: String
    /// The directory with every symbolic link resolved, followed by `/`: what a link must resolve below.
    let resolvedPrefix: String
    var found: [Entry] = []
    var issues: [Diagnostic] = []
    /// Files not named like templates, the top-level model file aside.
    var ignored: [String] = []

    init(directory: URL) throws(SeedError) {
        path = directory.path
        displayPath = directory.relativePath
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, let resolved = realpath(path, nil) else {
            throw SeedError("no template directory at \(displayPath)")
        }
        resolvedPrefix = String(cString: resolved) + "/"
        free(resolved)
    }

    private func display(_ relativePath: String) -> String {
        relativePath.isEmpty ? displayPath : displayPath == "." ? relativePath : "\(displayPath)/\(relativePath)"
    }

    /// The file a template path found with this `lstat` status leads to, or why it is refused: a symbolic link is
    /// followed when it leads to a file inside the directory; a directory is no template.
    static func identity(
        ofFileAt path: String, status: stat, resolvedPrefix: String
    ) -> Result<FileIdentity, TemplateSet.Refusal> {
        func refusedLink(_ reason: String) -> Result<FileIdentity, TemplateSet.Refusal> {
            .failure(TemplateSet.Refusal(code: .refusedLink, reason: reason))
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            return .failure(
                TemplateSet.Refusal(code: .notAFile, reason: "a directory named like a template file is refused; rename it"))
        case S_IFLNK:
            guard let target = realpath(path, nil) else {
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
            return .success(FileIdentity(targetStatus))
        default:
            // Other kinds of file (a FIFO, a socket) are found too, and fail to read: they are not templates.
            return .success(FileIdentity(status))
        }
    }

    /// Walks the directory at `relativeDirectory` ("" for the top) and every directory below it.
    ///
    /// - Complexity: O(*n*) in the number of entries: `lstat` only for entries named like templates and where the
    ///   file system leaves the type unknown, `realpath` only for symbolic links named like templates.
    mutating func walk(relativeDirectory: String) throws(SeedError) {
        let directoryPath = relativeDirectory.isEmpty ? path : "\(path)/\(relativeDirectory)"
        guard let stream = opendir(directoryPath) else {
            throw SeedError("cannot list the template directory \(display(relativeDirectory))")
        }
        defer { closedir(stream) }
        var subdirectories: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { name in
                String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let relativePath = relativeDirectory.isEmpty ? name : "\(relativeDirectory)/\(name)"
            let entryPath = "\(path)/\(relativePath)"
            var type = entry.pointee.d_type
            if type == UInt8(DT_UNKNOWN) {
                var status = stat()
                guard lstat(entryPath, &status) == 0 else { continue }
                type = Self.directoryEntryType(of: status.st_mode)
            }
            if type == UInt8(DT_DIR) { subdirectories.append(relativePath) }
            guard name.hasSuffix(".\(TemplateSet.fileExtension)") else {
                if type != UInt8(DT_DIR), relativePath != TemplateSet.modelFileName { ignored.append(relativePath) }
                continue
            }
            // The file the entry is now, to check at reading time that the file opened is the same one.
            var status = stat()
            guard lstat(entryPath, &status) == 0 else { continue }
            switch Self.identity(ofFileAt: entryPath, status: status, resolvedPrefix: resolvedPrefix) {
            case .success(let identity):
                found.append(
                    Entry(relativePath: relativePath, path: entryPath, displayPath: display(relativePath), identity: identity))
            case .failure(let refusal):
                issues.append(Diagnostic(refusal.code, file: display(relativePath), message: refusal.reason))
            }
        }
        for subdirectory in subdirectories { try walk(relativeDirectory: subdirectory) }
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
