import Foundation
import Testing
import SeedKit
import SeedKitSupport
@testable import SeedKitSeeding
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a template directory is read: which files, in which order, under which names, and what is refused.
@Suite("Template sets")
struct TemplateSetTests {
    /// A temporary directory holding `files` (path: contents) under `Templates/`.
    private static func templates(_ files: [String: String]) throws -> (root: URL, templates: URL) {
        let root = try Fixtures.temporaryDirectory()
        let templates = root.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        for (path, text) in files { try Fixtures.write(text, to: path, in: templates) }
        return (root, templates)
    }

    private static func link(_ path: String, to destination: String, in directory: URL) throws {
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent(path).path, withDestinationPath: destination)
    }

    @Test func findsTemplatesInNestedDirectoriesInPathOrder() throws {
        let (root, templates) = try Self.templates([
            "b.template": "b", "a.template": "a", "a-b.template": "a-b", "B.template": "B", "a/z.template": "a/z",
            "a/b/c.template": "a/b/c", "é.template": "é", ".template": "hidden", "model.json": "{}", "notes.txt": "",
            "a/x.templates": "", "dir.template/inner.template": "inner",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let set = try TemplateSet(directory: templates)
        let paths = [".template", "B.template", "a-b.template", "a.template", "a/b/c.template", "a/z.template",
                     "b.template", "dir.template/inner.template", "é.template"]
        #expect(set.files.map(\.relativePath) == paths)
        #expect(paths == paths.sorted())
        #expect(set.files.map(\.displayPath) == paths.map { "\(templates.path)/\($0)" })
        #expect(set.files.map { String(decoding: $0.bytes, as: UTF8.self) }
            == ["hidden", "B", "a-b", "a", "a/b/c", "a/z", "b", "inner", "é"])
        #expect(set.files.allSatisfy { $0.hash == StableHash.hex(of: $0.bytes) })
        // A directory named like a template is no template: refused, not silently taken for a folder.
        #expect(set.issues == [
            Diagnostic(
                .notAFile, file: "\(templates.path)/dir.template",
                message: "a directory named like a template file is refused; rename it"),
        ])
        // Other files are listed as ignored, the top-level model file aside; directories are not files.
        #expect(set.ignoredFiles == ["a/x.templates", "notes.txt"])
    }

    /// A template file or directory whose name is not UTF-8 is an issue naming it (its bytes repaired), not a read
    /// of a path that names nothing; other files and templates beside it are read as usual.
    @Test func namesThatAreNotUTF8AreIssues() throws {
        // A long name is ASCII in its first 16 bytes, which the walk's sort key holds, and not after them.
        let long = "a-name-longer-than-sixteen-bytes-"
        let (root, templates) = try Self.templates(["ok.template": "x", "\(long)\u{E9}.template": "x"])
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["caf\u{E9}.template", "dir\u{FF}", "\(long)\u{FF}.template"] {
            let path = Array(templates.path.utf8) + Array("/".utf8) + name.unicodeScalars.map { UInt8($0.value) }
            if name.hasPrefix("dir") {
                #expect(mkdir(path.map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
            } else {
                let descriptor = open(path.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
                #expect(descriptor >= 0)
                close(descriptor)
            }
        }
        let set = try TemplateSet(directory: templates)
        #expect(set.files.map(\.relativePath) == ["\(long)\u{E9}.template", "ok.template"])
        #expect(set.issues.map(\.code) == [.nameNotUTF8, .nameNotUTF8, .nameNotUTF8])
        #expect(
            Set(set.issues.compactMap(\.file))
                == Set(["caf\u{FFFD}.template", "dir\u{FFFD}", "\(long)\u{FFFD}.template"].map { "\(templates.path)/\($0)" }))
    }

    /// Files are in the byte order of their whole paths, however long the names they share and wherever a directory
    /// (`/`, 2F) falls among names that go on with `-` (2D) or `.` (2E).
    @Test func filesAreInTheByteOrderOfTheirPaths() throws {
        let long = "a-name-longer-than-sixteen-bytes"
        let paths = [
            "\(long)-z.template", "\(long).template", "\(long)/x.template", "\(long)0.template", "caf\u{E9}.template",
            "sixteen-bytes-ab/x.template", "sixteen-bytes-ab0.template", "x/\(long)/\(long).template",
        ]
        let (root, templates) = try Self.templates(Dictionary(uniqueKeysWithValues: paths.map { ($0, "x") }))
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try TemplateSet(directory: templates).files.map { Array($0.relativePath.utf8) } == paths.map { Array($0.utf8) })
        #expect(zip(paths, paths.dropFirst()).allSatisfy { $0.precedesInBytes($1) })
        // Records found by path walking both lists: a path with no record has none.
        let records = [1, 2, 4, 7].map { TemplateSet.FileRecord(path: paths[$0], hash: UInt64($0), stamp: nil) }
        #expect(TemplateSet.FileRecord.indices(of: paths, in: records) == [nil, 0, 1, nil, 2, nil, nil, 3])
        #expect(TemplateSet.FileRecord.indices(of: paths, in: []) == Array(repeating: nil, count: paths.count))
    }

    /// Every file of a set larger than one task's share is read whole and hashed as itself.
    @Test func readsEveryFileOfALargeSet() throws {
        var files: [String: String] = [:]
        for index in 0..<103 { files["d\(index % 7)/f\(index).template"] = String(repeating: "\(index) ", count: index * 37) }
        let (root, templates) = try Self.templates(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let set = try TemplateSet(directory: templates)
        #expect(set.files.map(\.relativePath) == files.keys.sorted())
        for file in set.files {
            #expect(file.bytes == Array(files[file.relativePath]!.utf8), "\(file.relativePath)")
            #expect(file.hash == StableHash.hex(of: Array(files[file.relativePath]!.utf8)), "\(file.relativePath)")
        }
    }

    @Test func followsSymbolicLinksInsideAndRefusesThoseLeadingOutside() throws {
        let (root, templates) = try Self.templates(["sub/x.template": "x", "sub/y.template": "y"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Fixtures.write("secret", to: "outside.template", in: root)
        try Self.link("inside.template", to: "sub/x.template", in: templates)
        try Self.link("sub/absolute.template", to: templates.appendingPathComponent("sub/y.template").path, in: templates)
        try Self.link("escape.template", to: "../outside.template", in: templates)
        try Self.link("sub/escape.template", to: "../../outside.template", in: templates)
        try Self.link("dangling.template", to: "nowhere.template", in: templates)
        try Self.link("linked-dir.template", to: "sub", in: templates)
        let set = try TemplateSet(directory: templates)
        #expect(set.files.map(\.relativePath) == ["inside.template", "sub/absolute.template", "sub/x.template", "sub/y.template"])
        #expect(set.files.map { String(decoding: $0.bytes, as: UTF8.self) } == ["x", "y", "x", "y"])
        let refused = "a symbolic link leading outside the template directory is refused"
        // Links leading nowhere or to a directory are refused too, not silently left out.
        #expect(set.issues == [
            Diagnostic(
                .refusedLink, file: "\(templates.path)/dangling.template", message: "a symbolic link to a missing file is refused"),
            Diagnostic(.refusedLink, file: "\(templates.path)/escape.template", message: refused),
            Diagnostic(
                .refusedLink, file: "\(templates.path)/linked-dir.template",
                message: "a symbolic link to a directory is no template file"),
            Diagnostic(.refusedLink, file: "\(templates.path)/sub/escape.template", message: refused),
        ])
    }

    @Test func aLoopOfLinksIsRefused() throws {
        let (root, templates) = try Self.templates(["ok.template": "ok"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.link("a.template", to: "b.template", in: templates)
        try Self.link("b.template", to: "a.template", in: templates)
        try Self.link("self.template", to: "self.template", in: templates)
        let set = try TemplateSet(directory: templates)
        #expect(set.files.map(\.relativePath) == ["ok.template"])
        #expect(set.issues.map(\.description) == ["a.template", "b.template", "self.template"].map {
            "\(templates.path)/\($0): a loop of symbolic links is refused"
        })
    }

    /// A file is read only if it is still the file the walk found: where the walk took its status, the descriptor
    /// opened must be that file; where it left the status to the read (a regular file), the read follows no link.
    /// Either way one swapped for a link to an outside file after the walk is refused as replaced, not read, and the
    /// file read names itself by its own status.
    @Test(arguments: [true, false])
    func aFileSwappedForALinkAfterTheWalkIsNotRead(walkTookItsStatus: Bool) throws {
        let (root, templates) = try Self.templates(["x.template": "x"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Fixtures.write("secret", to: "outside.template", in: root)
        let path = templates.appendingPathComponent("x.template").path
        var status = stat()
        #expect(lstat(path, &status) == 0)
        let walked = walkTookItsStatus ? FileIdentity(status) : nil
        func read() -> Result<TemplateSet.FileRead, TemplateSet.ReadFailure> {
            TemplateSet.read(path, expecting: walked, followingLinks: walkTookItsStatus, readTime: TemplateSet.Stamp.now)
        }
        let first = try read().get()
        #expect(first.bytes == Array("x".utf8))
        #expect(first.identity == FileIdentity(status))
        try FileManager.default.removeItem(atPath: path)
        try Self.link("x.template", to: "../outside.template", in: templates)
        let refused = read()
        #expect(throws: TemplateSet.ReadFailure.self) { try refused.get() }
        if case .failure(let failure) = refused { #expect(failure.reason.contains("replaced after the directory was listed")) }
        // The set itself refuses the link as its walk finds it, naming it.
        let set = try TemplateSet(directory: templates)
        #expect(set.files.isEmpty)
        #expect(set.issues.map(\.description) == ["\(templates.path)/x.template: a symbolic link leading outside the template directory is refused"])
    }

    /// A swapping race: while a template is swapped back and forth between a file and a link to an outside file, no
    /// set read meanwhile holds the outside file's contents — in a first launch, which reads every file, and in a
    /// later one, which reads only the files whose stamps the ledger does not know (here the swapped one alone).
    @Test(arguments: [false, true])
    func aSwappingRaceNeverReadsTheOutsideFile(asALaterLaunch: Bool) throws {
        // Many files read before the swapped one, so that the walk and its read are far apart.
        var files = ["x.template": "x"]
        for index in 0..<64 { files["a\(index).template"] = "\(index)" }
        let (root, templates) = try Self.templates(files)
        defer { try? FileManager.default.removeItem(at: root) }
        try Fixtures.write("secret", to: "outside.template", in: root)
        var known: [TemplateSet.FileRecord] = []
        if asALaterLaunch {
            for index in 0..<64 { try Self.age(templates.appendingPathComponent("a\(index).template")) }
            known = try TemplateSet(directory: templates).files.map { file in
                TemplateSet.FileRecord(path: file.relativePath, hash: 0, stamp: file.stamp)
            }
            #expect(known.count { $0.stamp != nil && $0.path.hasPrefix("a") } == 64)
        }
        let target = templates.appendingPathComponent("x.template").path
        let file = root.appendingPathComponent("file").path, link = root.appendingPathComponent("link").path
        let stop = Locked(false)
        let swapper = Thread {
            while !stop.withLock({ $0 }) {
                // Atomic replacements: the name is always there, as a file or as a link.
                _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
                rename(file, target)
                // A pause with the file in place: without one, a set would seldom find the file it walked still
                // there to read.
                usleep(300)
                _ = symlink("../outside.template", link)
                rename(link, target)
            }
        }
        swapper.start()
        defer { stop.withLock { $0 = true } }
        var readsOfX = 0
        for _ in 0..<400 {
            guard let set = try? TemplateSet(directory: templates, known: known) else { continue }
            #expect(!set.files.contains { $0.bytes == Array("secret".utf8) })
            readsOfX += set.files.count { $0.bytes == Array("x".utf8) }
            if asALaterLaunch { #expect(set.files.count(where: \.isRead) <= 1, "only the swapped file is read") }
        }
        #expect(readsOfX > 0, "the file was read at times")
    }

    /// A template removed and written again while sets are read: each set either holds it, as it was written (or
    /// empty, caught between its creation and its write), or lacks it, or fails naming it as unreadable — never
    /// another file's contents, a crash or a hang.
    @Test func aTemplateThatComesAndGoesIsReadWholeOrNamed() throws {
        var files = ["x.template": "x"]
        for index in 0..<64 { files["a\(index).template"] = "\(index)" }
        let (root, templates) = try Self.templates(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let target = templates.appendingPathComponent("x.template").path
        let stop = Locked(false)
        let remover = Thread {
            while !stop.withLock({ $0 }) {
                unlink(target)
                let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                if descriptor >= 0 {
                    _ = write(descriptor, "x", 1)
                    close(descriptor)
                }
            }
        }
        remover.start()
        defer { stop.withLock { $0 = true } }
        var outcomes = (read: 0, absent: 0, failed: 0)
        for _ in 0..<200 {
            do {
                let set = try TemplateSet(directory: templates)
                #expect(set.files.count { $0.relativePath.hasPrefix("a") } == 64)
                if let x = set.files.first(where: { $0.relativePath == "x.template" }) {
                    #expect(x.bytes == Array("x".utf8) || x.bytes.isEmpty)
                    outcomes.read += 1
                } else {
                    outcomes.absent += 1
                }
            } catch {
                #expect("\(error)".hasPrefix("cannot read the template file \(target): "), "\(error)")
                outcomes.failed += 1
            }
        }
        #expect(outcomes.read > 0, "the file was read at times: \(outcomes)")
    }

    /// Links to directories are not walked into: a link to the directory itself or above it cannot loop.
    @Test func directoryLinkLoopsEnd() throws {
        let (root, templates) = try Self.templates(["a/x.template": "x"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.link("a/self", to: ".", in: templates)
        try Self.link("a/up", to: "..", in: templates)
        try Self.link("top", to: templates.path, in: templates)
        let set = try TemplateSet(directory: templates)
        #expect(set.files.map(\.relativePath) == ["a/x.template"])
        #expect(set.issues.isEmpty)
    }

    @Test func aDirectoryGivenThroughALinkIsRead() throws {
        let (root, _) = try Self.templates(["a.template": "a"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.link("Linked", to: "Templates", in: root)
        let set = try TemplateSet(directory: root.appendingPathComponent("Linked"))
        #expect(set.files.map(\.displayPath) == ["\(root.path)/Linked/a.template"])
        #expect(set.issues.isEmpty)
    }

    /// A template that is not a regular file (here a FIFO, which would block a plain read) stops the set. Of several,
    /// the first in path order is named, wherever the files are read among the cores' tasks.
    @Test(arguments: [["m"], ["f0100", "f1900"], ["f1900", "f0001"]])
    func aFileThatCannotBeReadIsAnError(unreadable: [String]) throws {
        let files = ["a", "z"] + (unreadable.count > 1 ? (0..<2_000).map { "f" + String(10_000 + $0).dropFirst() } : [])
        let (root, templates) = try Self.templates(
            Dictionary(uniqueKeysWithValues: files.filter { !unreadable.contains($0) }.map { ("\($0).template", "[]") }))
        defer { try? FileManager.default.removeItem(at: root) }
        for name in unreadable {
            #expect(mkfifo(templates.appendingPathComponent("\(name).template").path, 0o644) == 0)
        }
        do {
            _ = try TemplateSet(directory: templates)
            Issue.record("no error for the FIFO")
        } catch {
            #expect(error.message == "cannot read the template file \(templates.path)/\(unreadable.min()!).template: not a regular file")
        }
    }

    @Test func aMissingDirectoryIsAnError() throws {
        let (root, templates) = try Self.templates(["a.template": "a"])
        defer { try? FileManager.default.removeItem(at: root) }
        for path in [root.appendingPathComponent("Missing"), templates.appendingPathComponent("a.template")] {
            do {
                _ = try TemplateSet(directory: path)
                Issue.record("no error for \(path.path)")
            } catch {
                #expect(error.message == "no template directory at \(path.path)")
            }
        }
    }

    /// Sets a file's modification time to an hour ago: old enough for a stamp.
    static func age(_ url: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: url.path)
        // Setting the time changed the file just now: its change time, which no one sets back, must age too.
        Thread.sleep(forTimeInterval: 0.12)
    }

    /// A file modified a while ago is stamped; one modified just now is not, since a change within the same tick of
    /// the file system's clock could keep its time. A known stamp stands for the file's contents: it is not read.
    @Test func stampsStandForContentsOfFilesNotJustModified() throws {
        let (root, templates) = try Self.templates(["old.template": "[1]", "new.template": "[2]"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.age(templates.appendingPathComponent("old.template"))
        // Ahead of the clock, as a file just written is for as long as a slow machine takes to read it.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: templates.appendingPathComponent("new.template").path)
        let set = try TemplateSet(directory: templates)
        let old = try #require(set.files.first { $0.relativePath == "old.template" })
        let stamp = try #require(old.stamp)
        #expect(set.files.first { $0.relativePath == "new.template" }?.stamp == nil)
        #expect(set.isRead)

        let known = [TemplateSet.FileRecord(path: "old.template", hash: 0x0123_4567_89ab_cdef, stamp: stamp)]
        let again = try TemplateSet(directory: templates, known: known)
        let unread = try #require(again.files.first { $0.relativePath == "old.template" })
        #expect(!unread.isRead && unread.bytes.isEmpty && unread.hash == "0123456789abcdef")
        #expect(!again.isRead)
        #expect(again.files.first { $0.relativePath == "new.template" }?.bytes == Array("[2]".utf8))

        // Another size (or time, or inode) is another stamp: the file is read.
        try Data("[10]".utf8).write(to: templates.appendingPathComponent("old.template"))
        try Self.age(templates.appendingPathComponent("old.template"))
        let changed = try TemplateSet(directory: templates, known: known)
        #expect(changed.files.first { $0.relativePath == "old.template" }?.bytes == Array("[10]".utf8))
        #expect(changed.isRead)
    }

    @Test func wholeSecondTimesNeedTwoSecondsForAStamp() throws {
        let (root, templates) = try Self.templates(["a.template": "[1]"])
        defer { try? FileManager.default.removeItem(at: root) }
        let file = templates.appendingPathComponent("a.template").path
        // Times are taken afresh for each step, so a slow machine cannot age a file past the margin under test.
        func wholeSecond(_ offset: TimeInterval) -> TimeInterval { Date().timeIntervalSince1970.rounded(.down) + offset }
        func setTime(_ time: TimeInterval) throws {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: time)], ofItemAtPath: file)
            // The change time, set to now by setting the other, must be older than its own margin.
            Thread.sleep(forTimeInterval: 0.12)
        }
        // A whole second just begun: a tenth of a second old when read, well within two seconds on a slow machine.
        let start = Date().timeIntervalSince1970
        Thread.sleep(forTimeInterval: start.rounded(.down) + 1 - start)
        try setTime(wholeSecond(0))
        #expect(try TemplateSet(directory: templates).files[0].stamp == nil)
        try setTime(wholeSecond(-1.5))
        #expect(try TemplateSet(directory: templates).files[0].stamp != nil, "a fraction: fine-grained times")
        try setTime(wholeSecond(-3))
        #expect(try TemplateSet(directory: templates).files[0].stamp != nil)
    }
}
