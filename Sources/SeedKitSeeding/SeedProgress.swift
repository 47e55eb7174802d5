/// Where a seed run is, for a progress display: its phase and how much of it is done.
///
///     var options = SeedOptions()
///     options.progress = { progress in
///         print("\(progress.phase) \(progress.completed)/\(progress.total)")   // checking 120/2000, …
///     }
///
/// A run reports as it goes, on the thread that runs it: each template file checked, then every thousand or so
/// objects written. It reports nothing when it finds its set already applied.
public struct SeedProgress: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// Reading the template files and checking what they say; counts files.
        case checking
        /// Writing objects to the store; counts objects.
        case writing
    }

    public var phase: Phase
    public var completed: Int
    public var total: Int

    package init(phase: Phase, completed: Int, total: Int) {
        self.phase = phase
        self.completed = completed
        self.total = total
    }
}
