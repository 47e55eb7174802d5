import Foundation
import SeedKitPostgreSQL

/// A PostgreSQL cluster made for this process with `initdb` and run with `pg_ctl`: see ``PostgreSQLTestServer``.
struct ThrowawayCluster {
    /// The cluster's directory: `data`, the server's `log`, and its Unix socket.
    let directory: String
    let url: PostgreSQLURL
    let passwordRole: PostgreSQLTestServer.Credentials

    private static let directoryPrefix = "seedkit-postgres-"

    /// Starts a cluster and waits until it accepts connections; prints one line saying where and how fast.
    static func start() throws -> ThrowawayCluster {
        let clock = ContinuousClock()
        let started = clock.now
        guard let binaries = binaryDirectory() else { throw failure(PostgreSQLTestServer.howToEnable) }
        let owner = try Owner.current()
        removeAbandonedClusters(binaries: binaries, owner: owner)
        var template = "/tmp/\(directoryPrefix)\(getpid())-XXXXXX".utf8CString
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw failure("could not make a directory under /tmp: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        do {
            if let user = owner.user, chown(directory, user.uid, user.gid) != 0 {
                throw failure("could not give \(directory) to nobody: \(String(cString: strerror(errno)))")
            }
            let initdb = try run(
                owner.prefix + [
                    "\(binaries)/initdb", "--pgdata=\(directory)/data", "--username=postgres", "--auth=trust",
                    "--encoding=UTF8", "--locale=C", "--no-sync",
                ])
            guard initdb.status == 0 else { throw failure("initdb failed: \(initdb.output)") }
            let initdbSeconds = (clock.now - started).seconds
            try configure(data: "\(directory)/data", socketDirectory: directory)
            let port = try startServer(binaries: binaries, directory: directory, owner: owner)
            let url = PostgreSQLURL(hosts: [.init("127.0.0.1", port: port)], user: "postgres", database: "postgres")
            let passwordRole = PostgreSQLTestServer.Credentials(
                user: "seedkit_password", password: "pw-" + UUID().uuidString.prefix(8))
            try PostgreSQLConnection(url: url).execute(
                sql: "CREATE ROLE \(passwordRole.user) LOGIN PASSWORD '\(passwordRole.password)'")
            let seconds = (clock.now - started).seconds
            FileHandle.standardError.write(Data(
                "PostgreSQL test server at 127.0.0.1:\(port) (\(directory)) started in \(format(seconds)) s (initdb "
                    .appending("\(format(initdbSeconds)) s)\n").utf8))
            return ThrowawayCluster(directory: directory, url: url, passwordRole: passwordRole)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// The directory holding `initdb` and `pg_ctl`: on the `PATH`, else Debian's newest `/usr/lib/postgresql/*/bin`.
    static func binaryDirectory() -> String? {
        binaryDirectoryFound
    }

    private static let binaryDirectoryFound: String? = {
        let fileManager = FileManager.default
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        let debian = (try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let versions = debian.compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        return (path + versions).first { directory in
            fileManager.isExecutableFile(atPath: "\(directory)/initdb")
                && fileManager.isExecutableFile(atPath: "\(directory)/pg_ctl")
        }
    }()

    /// Trust on the socket and for the superuser; a password for ``passwordRole`` over TCP.
    private static func configure(data: String, socketDirectory: String) throws {
        try """
            local all all trust
            host all seedkit_password 127.0.0.1/32 scram-sha-256
            host all all 127.0.0.1/32 trust

            """.write(toFile: "\(data)/pg_hba.conf", atomically: false, encoding: .utf8)
        let settings = FileHandle(forWritingAtPath: "\(data)/postgresql.conf")
        try settings?.seekToEnd()
        // Nothing here needs to survive a crash: durability costs time for nothing.
        try settings?.write(contentsOf: Data("""

            listen_addresses = '127.0.0.1'
            unix_socket_directories = '\(socketDirectory)'
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            max_connections = 200

            """.utf8))
        try settings?.close()
    }

    /// Starts the server under a watcher shell at a free port, trying another port if that one was taken meanwhile.
    ///
    /// - Returns: The port.
    private static func startServer(binaries: String, directory: String, owner: Owner) throws -> Int {
        var log = ""
        for _ in 0..<3 {
            guard let port = freePort() else { throw failure("no free port on 127.0.0.1") }
            let (ready, output) = try startWatcher(
                arguments: ["\(binaries)/pg_ctl", directory, String(port)] + owner.prefix)
            if ready { return port }
            log = output
        }
        throw failure("pg_ctl could not start the server: \(log)")
    }

    /// The watcher: starts the server, says `ready`, then waits for end-of-file on its input (this process gone,
    /// whichever way), stops the server and deletes the directory. It ignores the signals a Ctrl-C or a kill of
    /// the test run sends, so that it still cleans up then.
    private static let watcherScript = """
        trap '' INT TERM HUP
        pgctl=$1 directory=$2 port=$3
        shift 3
        if "$@" "$pgctl" start -w -t 60 -s -D "$directory/data" -l "$directory/log" -o "-p $port" >/dev/null 2>&1
        then
            echo ready
        else
            echo failed
            tail -n 5 "$directory/log" 2>&1
            exit 1
        fi
        exec >/dev/null 2>&1
        cat
        "$@" "$pgctl" stop -s -D "$directory/data" -m immediate
        # Backends killed in the middle of writing (a CREATE DATABASE) may still add files for a moment.
        for attempt in 1 2 3 4 5 6 7 8 9 10; do
            rm -rf "$directory" && break
            sleep 1
        done
        """

    private static func startWatcher(arguments: [String]) throws -> (ready: Bool, output: String) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw failure("pipe: \(String(cString: strerror(errno)))") }
        // The write end stays open, unused, for the life of this process, and in no other process.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = ["-c", watcherScript, "sh"] + arguments
        watcher.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let output = Pipe()
        watcher.standardOutput = output
        watcher.standardError = output
        try watcher.run()
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        if text.hasPrefix("ready\n") { return (true, "") }
        close(ends[1])
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (false, text)
    }

    /// Stops and deletes the clusters of test processes that are gone but whose watcher was killed with them.
    private static func removeAbandonedClusters(binaries: String, owner: Owner) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for entry in entries where entry.hasPrefix(directoryPrefix) {
            guard let pid = entry.dropFirst(directoryPrefix.count).split(separator: "-").first.flatMap({ Int32($0) }),
                kill(pid, 0) != 0 && errno == ESRCH
            else { continue }
            let directory = "/tmp/\(entry)"
            if FileManager.default.fileExists(atPath: "\(directory)/data/postmaster.pid") {
                _ = try? run(
                    owner.prefix + ["\(binaries)/pg_ctl", "stop", "-s", "-D", "\(directory)/data", "-m", "immediate"])
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() -> Int? {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Runs a command to its end.
    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        // waitUntilExit() polls every 50 ms on Linux; the termination handler ends the wait as the process ends.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exited.wait()
        return (process.terminationStatus, text)
    }

    private static func failure(_ message: String) -> PostgreSQLTestServerError {
        PostgreSQLTestServerError(description: message)
    }

    private static func format(_ seconds: Double) -> String {
        String(format: "%.2f", seconds)
    }
}

/// Who runs the cluster: this process's user, or `nobody` when that is root, which PostgreSQL refuses.
private struct Owner {
    /// The user to switch to, if any.
    let user: (uid: uid_t, gid: gid_t)?
    /// The command prefix that switches to it: `setpriv` (or `runuser`) and its arguments, or nothing.
    let prefix: [String]

    static func current() throws -> Owner {
        guard geteuid() == 0 else { return Owner(user: nil, prefix: []) }
        guard let nobody = getpwnam("nobody") else {
            throw PostgreSQLTestServerError(
                description: "running as root, and there is no user nobody to run PostgreSQL")
        }
        let (uid, gid) = (nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            return Owner(
                user: (uid, gid), prefix: ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"])
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") {
            return Owner(user: (uid, gid), prefix: ["/usr/sbin/runuser", "-u", "nobody", "--"])
        }
        throw PostgreSQLTestServerError(
            description: "running as root, and neither setpriv nor runuser is there to run PostgreSQL as nobody")
    }
}

/// Why the test server could not start.
package struct PostgreSQLTestServerError: Error, CustomStringConvertible {
    package let description: String
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
