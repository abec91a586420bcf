import FitCircleCore
import Testing

/// The pure access decisions not already covered through circles (`CircleRulesTests`) and the HTTP matrix.
struct AccessRulesTests {
    @Test func beforeARequiredOnboardingOnlyItsOwnOperationsAreOpen() {
        #expect(OnboardingAccess.mayCall("updateProfile", isOnboarded: false, onboardingRequired: true))
        #expect(OnboardingAccess.mayCall("assessTraining", isOnboarded: false, onboardingRequired: true))
        #expect(!OnboardingAccess.mayCall("listActivities", isOnboarded: false, onboardingRequired: true))
        #expect(OnboardingAccess.mayCall("listActivities", isOnboarded: true, onboardingRequired: true))
        #expect(OnboardingAccess.mayCall("listActivities", isOnboarded: false, onboardingRequired: false))
    }

    @Test func aPhotoIsForThePersonTheirCircleMatesAndFriendsAndBadgesForEveryone() {
        let stranger = ProfileAccess.Relationship(isSelf: false)
        #expect(!ProfileAccess.mayView(.photo, stranger))
        #expect(ProfileAccess.mayView(.photo, ProfileAccess.Relationship(isSelf: true)))
        #expect(ProfileAccess.mayView(.photo, ProfileAccess.Relationship(isSelf: false, sharesCircle: true)))
        #expect(ProfileAccess.mayView(.photo, ProfileAccess.Relationship(isSelf: false, isFriend: true)))
        #expect(ProfileAccess.mayView(.badges, stranger))
    }

    @Test func operatorOnlyOperationsAreForbiddenToOthers() {
        #expect(OperatorAccess.decide(isOperator: true, to: "send") == .allowed)
        #expect(OperatorAccess.decide(isOperator: false, to: "send notifications") == .forbidden("Only operators may send notifications."))
    }
}
