/// Where a rule profile requires onboarding, someone who has not finished it may use only what onboarding
/// needs; everything else answers 403 `onboarding-required` (`DomainError.onboardingRequired`).
public enum OnboardingAccess {
    /// The operations (the API's operation ids) onboarding needs: the profile and its photo, the app's
    /// configuration, the training assessment (one of the onboarding screens), signing out, and taking
    /// one's data or leaving for good.
    public static let allowedBefore: Set<String> = [
        "signOut", "getConfig", "getProfile", "updateProfile", "changeProfile", "uploadProfilePhoto", "getProfilePhoto",
        "assessTraining", "confirmTraining", "deleteAccount", "exportAccount",
    ]

    public static func mayCall(_ operation: String, isOnboarded: Bool, onboardingRequired: Bool) -> Bool {
        !onboardingRequired || isOnboarded || Self.allowedBefore.contains(operation)
    }
}
