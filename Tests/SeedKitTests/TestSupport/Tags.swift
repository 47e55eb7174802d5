import Testing

extension Tag {
    /// Tests that take minutes: soaks and long runs of the real binary. `.ci/run` runs them with every other test.
    @Tag static var slow: Self
}
