public import Foundation

/// Who may delete an account: its owner, signed in afresh. An access token that outlived its sign-in (a
/// phone left unlocked, a token copied from it) must not be enough to erase a person's history.
public enum AccountAccess {
    /// How long after signing in the account may be deleted.
    public static let reauthenticationWindow: TimeInterval = 10 * 60

    public static func mayDelete(sessionStartedAt signIn: Date, now: Date) -> Access {
        now.timeIntervalSince(signIn) <= Self.reauthenticationWindow
            ? .allowed
            : .refused(
                Refusal(
                    .freshSignInRequired,
                    "Deleting the account takes a fresh sign-in: sign in again, then delete within 10 minutes."
                )
            )
    }
}
