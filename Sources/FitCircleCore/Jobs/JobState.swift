public import Foundation

/// Where a job stands at an instant: what the console lists and counts.
public enum JobState: String, CaseIterable, Sendable {
    /// Pending and at or past its time, with no worker's lease on it.
    case due
    /// Pending, for later.
    case scheduled
    /// A worker's lease holds.
    case running
    /// Given up after its attempts.
    case failed

    /// The state of `job` at `now` (`nil` for a job done).
    public static func of(_ job: JobRecord, at now: Date) -> JobState? {
        switch job.status {
        case .done: nil
        case .failed: .failed
        case .pending:
            if let lease = job.leaseExpiresAt, lease > now {
                .running
            } else if job.runAt <= now {
                .due
            } else {
                .scheduled
            }
        }
    }
}
