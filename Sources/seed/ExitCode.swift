/// The exit statuses of `seed`, the same for every command.
enum ExitCode: Int32 {
    /// Done, or nothing to do: seeded, unchanged, valid, no differences.
    case success = 0
    /// The input was judged and found wanting: invalid templates or model (nothing written), or, for `seed diff`,
    /// differences found.
    case problems = 1
    /// The command could not run: a usage error, an unreadable file, a store that cannot be opened or written.
    case failure = 2
    /// Interrupted by Ctrl-C (SIGINT), as shells report it: 128 + the signal's number.
    case interrupted = 130
}
