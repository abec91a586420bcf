public import Foundation
import Synchronization

/// Starts the processes tests need (`fitcircle serve`, the fake SMTP server), one at a time: Foundation's
/// `Process.run` crashed (SIGSEGV in its memmove) when two suites started one at the same moment.
public enum ChildProcesses {
    private static let launching = Mutex(())

    public static func start(_ process: Process) throws {
        try Self.launching.withLock { _ in try process.run() }
    }
}
