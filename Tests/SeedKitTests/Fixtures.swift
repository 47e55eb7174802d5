import Foundation
@testable import SeedKit

/// Shared fixtures for the test suite: one place for sample models, graphs and temporary files.
enum Fixtures {}
