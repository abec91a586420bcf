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

    @Test func aPhotoIsForItsAudienceNeverForWhomTheyBlockedAndBadgesForEveryone() {
        let stranger = ProfileAccess.Relationship(isSelf: false)
        let friend = ProfileAccess.Relationship(isSelf: false, isFriend: true)
        let mate = ProfileAccess.Relationship(isSelf: false, sharesCircle: true)
        func photo(_ audience: Audience) -> PersonPhoto { PersonPhoto(key: "k", audience: audience) }
        #expect(ProfileAccess.mayView(photo: photo(.everyone), stranger))
        #expect(!ProfileAccess.mayView(photo: nil, ProfileAccess.Relationship(isSelf: true)))
        #expect(
            ProfileAccess.mayView(photo: photo(.friends), friend)
                && !ProfileAccess.mayView(photo: photo(.friends), mate)
        )
        #expect(
            ProfileAccess.mayView(photo: photo(.onlyMe), ProfileAccess.Relationship(isSelf: true))
                && !ProfileAccess.mayView(photo: photo(.onlyMe), friend)
        )
        #expect(
            !ProfileAccess.mayView(photo: photo(.everyone), ProfileAccess.Relationship(isSelf: false, blocked: true))
        )
        #expect(ProfileAccess.mayView(.badges, stranger))
    }

    @Test func aBoardNamesWhomTheAudienceAllowsAndCallsTheOthersAMember() {
        let mate = ProfileAccess.Relationship(isSelf: false, sharesCircle: true)
        #expect(ProfileAccess.boardName("Ana", audience: .everyone, mate) == "Ana")
        #expect(ProfileAccess.boardName("Ana", audience: .friends, mate) == nil)
        #expect(
            ProfileAccess.boardName(
                "Ana",
                audience: .friends,
                ProfileAccess.Relationship(isSelf: false, isFriend: true, sharesCircle: true)
            ) == "Ana"
        )
        #expect(ProfileAccess.boardName("Ana", audience: .onlyMe, ProfileAccess.Relationship(isSelf: true)) == "Ana")
        let item = FeedItem(
            id: FeedItem.ID("i"),
            circleID: FitCircle.ID("c"),
            kind: .submission,
            actorID: User.ID("u"),
            text: "🏃 Ana submitted 9,000 steps",
            data: ["name": "Ana"],
            createdAt: .now
        )
        #expect(item.naming(ProfileAccess.anonymousMember).text == "🏃 A member submitted 9,000 steps")
        #expect(item.naming("Ana B.").data["name"] == "Ana B.")
    }

    @Test func operatorOnlyOperationsAreForbiddenToOthers() {
        #expect(OperatorAccess.decide(isOperator: true, to: "send") == .allowed)
        #expect(
            OperatorAccess.decide(isOperator: false, to: "send notifications")
                == .forbidden("Only operators may send notifications.")
        )
    }
}
