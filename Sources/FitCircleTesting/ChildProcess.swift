public import Foundation
import Synchronization

#if canImport(Glibc)
    public import Glibc
#endif

/// A process the tests start (`fitcircle serve`, the fake SMTP server), by `posix_spawn`. Foundation's
/// `Process.run` crashed now and then (SIGSEGV in its `memcpy`) while another `Process` was being waited for.
public final class ChildProcess: Sendable {
    /// What a standard stream of the child is connected to.
    public enum Stream: Sendable {
        /// The test process's own.
        case inherit
        /// `/dev/null`.
        case discard
        /// A pipe, whose other end the test process holds (`input` / `output`); not for standard error.
        case pipe
    }

    public let pid: pid_t
    /// The write end of the child's standard input, when it is a pipe.
    public let input: FileHandle?
    /// The read end of the child's standard output, when it is a pipe.
    public let output: FileHandle?

    /// One start at a time: a pipe made for one child must not leak into another started meanwhile, and its
    /// descriptors are only marked close-on-exec after `pipe` returns.
    private static let launching = Mutex(())
    /// Set once the child is reaped: its pid may then be another process's, so it is signalled and waited
    /// for no more.
    private let reaped = Atomic(false)

    /// Starts `executable` (a path; `/usr/bin/env` to look one up) with `arguments` and this process's
    /// environment, with `environment`'s variables added or replaced.
    public init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        input: Stream = .discard,
        output: Stream = .discard,
        errors: Stream = .inherit
    ) throws {
        precondition(errors != .pipe, "the child's standard error goes to the test's or nowhere")
        (self.pid, self.input, self.output) = try Self.launching.withLock { _ in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            var kept: [Int32] = []  // the test process's ends of the pipes, closed unless the child started
            var given: [Int32] = []  // the child's ends, closed here once it has them
            var started = false
            defer {
                given.forEach { _ = close($0) }
                if !started { kept.filter { $0 >= 0 }.forEach { _ = close($0) } }
            }
            for (stream, target) in [(input, STDIN_FILENO), (output, STDOUT_FILENO), (errors, STDERR_FILENO)] {
                switch stream {
                case .inherit:
                    kept.append(-1)
                case .discard:
                    posix_spawn_file_actions_addopen(
                        &actions,
                        target,
                        "/dev/null",
                        target == STDIN_FILENO ? O_RDONLY : O_WRONLY,
                        0
                    )
                    kept.append(-1)
                case .pipe:
                    var ends: [Int32] = [-1, -1]
                    guard pipe(&ends) == 0 else { throw ChildProcessError(executable: executable, code: errno) }
                    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                    let (ours, theirs) = target == STDIN_FILENO ? (ends[1], ends[0]) : (ends[0], ends[1])
                    posix_spawn_file_actions_adddup2(&actions, theirs, target)
                    kept.append(ours)
                    given.append(theirs)
                }
            }
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            var pid = pid_t()
            let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
            guard result == 0 else { throw ChildProcessError(executable: executable, code: result) }
            started = true
            let handle = { (fd: Int32) in fd < 0 ? nil : FileHandle(fileDescriptor: fd, closeOnDealloc: true) }
            return (pid, handle(kept[0]), handle(kept[1]))
        }
    }

    public func signal(_ signal: Int32) {
        guard !self.reaped.load(ordering: .acquiring) else { return }
        _ = kill(self.pid, signal)
    }

    /// The child's exit status once it has ended (and reaped), polling without blocking a thread: a test
    /// that blocked the few threads of Swift's concurrency pool could starve the work the child waits for.
    public func exitStatus() async throws -> Int32 {
        var status: Int32 = 0
        while true {
            let result = waitpid(self.pid, &status, WNOHANG)
            if result == self.pid {
                self.reaped.store(true, ordering: .releasing)
                return (status >> 8) & 0xFF
            }
            if result == -1 && errno != EINTR { throw ChildProcessError(executable: "pid \(self.pid)", code: errno) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Whether the child has ended, without waiting (it is reaped if so).
    public func hasExited() -> Bool {
        guard !self.reaped.load(ordering: .acquiring) else { return true }
        var status: Int32 = 0
        guard waitpid(self.pid, &status, WNOHANG) == self.pid else { return false }
        self.reaped.store(true, ordering: .releasing)
        return true
    }

    /// Blocks until the child has ended (and reaps it).
    public func waitUntilExit() {
        guard !self.reaped.load(ordering: .acquiring) else { return }
        var status: Int32 = 0
        while waitpid(self.pid, &status, 0) == -1 && errno == EINTR {}
        self.reaped.store(true, ordering: .releasing)
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    var executable: String
    var code: Int32
    var description: String { "could not start \(self.executable): \(String(cString: strerror(self.code)))" }
}
