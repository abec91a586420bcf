import FitCircleAPI
import FitCircleCore

extension Components.Schemas.Kudos {
    init(_ person: User.ID, _ tally: KudosTally) {
        self.init(userId: person.rawValue, count: tally.count, givenByMe: tally.givenByViewer)
    }
}
