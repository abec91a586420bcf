import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import Testing

@testable import FitCircleServer

/// Core enums and their generated twins share raw values; `mapped` relies on it. Every pair the server
/// converts is here, each in the directions it is converted: Core → document for what the server writes
/// (a Core case the document lacks once took down a node, `PointsLine.Reason.stake`), document → Core
/// for what it reads.
struct MappingTests {
    typealias S = Components.Schemas

    /// Every case of `Core` has its twin in `Schema`.
    func writes<Core: CaseIterable & RawRepresentable<String>, Schema: RawRepresentable<String>>(
        _: Core.Type,
        as _: Schema.Type,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for value in Core.allCases {
            #expect(throws: Never.self, "\(Core.self).\(value.rawValue)", sourceLocation: sourceLocation) {
                let _: Schema = try mapped(value)
            }
        }
    }

    /// Every case of `Schema` has its twin in `Core`.
    func reads<Schema: CaseIterable & RawRepresentable<String>, Core: RawRepresentable<String>>(
        _: Schema.Type,
        as _: Core.Type,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for value in Schema.allCases {
            #expect(throws: Never.self, "\(Schema.self).\(value.rawValue)", sourceLocation: sourceLocation) {
                let _: Core = try mapped(value)
            }
        }
    }

    func both<Core: CaseIterable & RawRepresentable<String>, Schema: CaseIterable & RawRepresentable<String>>(
        _ core: Core.Type,
        _ schema: Schema.Type,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.writes(core, as: schema, sourceLocation: sourceLocation)
        self.reads(schema, as: core, sourceLocation: sourceLocation)
    }

    @Test func everyEnumTheServerWritesHasEveryCaseInTheDocument() {
        // Profiles and people.
        self.both(WeightUnit.self, S.WeightUnit.self)
        self.both(HeightUnit.self, S.HeightUnit.self)
        self.both(DistanceUnit.self, S.DistanceUnit.self)
        self.both(Gender.self, S.Gender.self)
        self.both(ActivityBaseline.self, S.ActivityBaseline.self)
        self.both(Audience.self, S.Audience.self)
        self.both(Weekday.self, S.Weekday.self)
        self.writes(User.Role.self, as: S.Profile.RolePayload.self)
        self.writes(User.Role.self, as: S.ConsoleAccount.RolePayload.self)
        // Activities, check-ins and streaks.
        self.both(ActivityKind.self, S.ActivityType.self)
        self.both(ActivitySource.self, S.ActivitySource.self)
        self.both(WorkoutType.self, S.WorkoutType.self)
        self.both(ActivityVisibility.self, S.ActivityVisibility.self)
        self.writes(CheckIn.Sentiment.self, as: S.Activity.CheckInPayload.SentimentPayload.self)
        self.writes(CheckIn.Sentiment.self, as: S.DailyTracking.PreviousDaySentimentPayload.self)
        self.writes(CheckIn.Sentiment.self, as: S.CheckInResult.PreviousDayPayload.SentimentPayload.self)
        self.reads(S.CheckInRequest.SentimentPayload.self, as: CheckIn.Sentiment.self)
        self.writes(StreakPolicy.Basis.self, as: S.StreakSummary.BasisPayload.self)
        self.writes(StreakPolicy.Period.self, as: S.StreakSummary.PeriodPayload.self)
        self.writes(StreakPolicy.Freezes.Allowance.self, as: S.StreakRules.FreezesPerPayload.self)
        self.writes(StreakPolicy.Freezes.Automatic.self, as: S.StreakRules.AutomaticFreezePayload.self)
        self.writes(Streak.Entry.Status.self, as: S.StreakEntry.StatusPayload.self)
        // Goals and training.
        self.writes(Goal.Span.self, as: S.GoalProgress.SpanPayload.self)
        self.writes(Goal.Kind.self, as: S.GoalType.self)
        self.both(TrainingSettings.Level.self, S.TrainingLevel.self)
        self.writes(Goals.WeeklySummary.Choice.self, as: S.WeeklySummary.ChoicePayload.self)
        self.writes(Goals.WeeklySummary.Choice.self, as: S.WeeklySummary.OptionsPayloadPayload.ChoicePayload.self)
        self.reads(
            Operations.ChooseWeeklyGoal.Input.Body.JsonPayload.ChoicePayload.self,
            as: Goals.WeeklySummary.Choice.self
        )
        // Points and badges.
        self.writes(PointsLine.Reason.self, as: S.PointsLine.ReasonPayload.self)
        self.writes(Badge.Category.self, as: S.Badge.CategoryPayload.self)
        self.writes(Badge.Rarity.self, as: S.Badge.RarityPayload.self)
        // Circles and boards.
        self.both(FitCircle.Metric.self, S.FitCircleInput.MetricPayload.self)
        self.writes(FitCircle.Metric.self, as: S.FitCircle.MetricPayload.self)
        self.writes(FitCircle.Metric.self, as: S.Leaderboard.MetricPayload.self)
        self.both(FitCircle.Privacy.self, S.FitCircleInput.PrivacyPayload.self)
        self.writes(FitCircle.Privacy.self, as: S.FitCircle.PrivacyPayload.self)
        self.writes(FitCircle.Privacy.self, as: S.ConsoleCircle.PrivacyPayload.self)
        self.writes(CircleRole.self, as: S.FitCircle.RolePayload.self)
        self.writes(CircleRole.self, as: S.CircleMember.RolePayload.self)
        self.reads(S.CircleRoleChange.RolePayload.self, as: CircleRole.self)
        self.both(BoardPeriod.self, S.BoardPeriod.self)
        self.writes(BoardMeasure.self, as: S.BoardMeasure.self)
        self.writes(Circles.LeaderboardLayout.self, as: S.Leaderboard.LayoutPayload.self)
        self.writes(FeedItem.Kind.self, as: S.FeedItem.KindPayload.self)
        // Challenges.
        self.both(ChallengeType.self, S.CompetitionType.self)
        self.reads(S.CompetitionInput.GoalPayload.self, as: ChallengeRule.Goal.self)
        self.reads(S.CompetitionInput.WorkoutTypesPayloadPayload.self, as: WorkoutType.self)
        self.reads(S.CompetitionInput.VisibilityPayload.self, as: Challenge.Visibility.self)
        self.writes(ChallengeRule.Metric.self, as: S.CompetitionRule.MetricPayload.self)
        self.writes(ChallengeRule.Aggregation.self, as: S.CompetitionRule.AggregationPayload.self)
        self.writes(ChallengeRule.Goal.self, as: S.CompetitionRule.GoalPayload.self)
        self.writes(Challenge.Visibility.self, as: S.Competition.VisibilityPayload.self)
        self.writes(Challenge.Visibility.self, as: S.ConsoleCompetition.VisibilityPayload.self)
        self.writes(Challenge.Status.self, as: S.Competition.StatusPayload.self)
        self.writes(Challenge.Status.self, as: S.ConsoleCompetition.StatusPayload.self)
        self.writes(ChallengeParticipant.State.self, as: S.Competition.MyStatePayload.self)
        self.writes(Rivalry.Outcome.self, as: S.RivalryDetail.LastFivePayloadPayload.OutcomePayload.self)
        self.both(ChallengeTemplate.Category.self, S.CompetitionTemplate.CategoryPayload.self)
        self.reads(
            Operations.ListCompetitionTemplates.Input.Query.CategoryPayload.self,
            as: ChallengeTemplate.Category.self
        )
        // Every unit a rule can have.
        for metric in ChallengeRule.Metric.allCases {
            for aggregation in ChallengeRule.Aggregation.allCases {
                let unit = ChallengeRule(metric: metric, aggregation: aggregation).unit
                #expect(throws: Never.self, "\(unit)") { let _: S.CompetitionRule.UnitPayload = try mapped(raw: unit) }
            }
        }
        // Notifications and deliveries.
        self.both(PushDevice.Platform.self, S.DeviceRegistration.PlatformPayload.self)
        self.writes(PushDevice.Platform.self, as: S.PushDevice.PlatformPayload.self)
        self.writes(PushDevice.Environment.self, as: S.PushDevice.EnvironmentPayload.self)
        self.reads(S.DeviceRegistration.EnvironmentPayload.self, as: PushDevice.Environment.self)
        self.writes(NotificationRecord.Status.self, as: S.Notification.StatusPayload.self)
        self.writes(NotificationChannel.self, as: S.Notification.ChannelsPayloadPayload.self)
        self.writes(NotificationChannel.self, as: S.DeliveryAttempt.ChannelPayload.self)
        self.reads(Operations.GetNotificationHistory.Input.Query.ChannelPayload.self, as: NotificationChannel.self)
        self.reads(Operations.ListDeliveries.Input.Query.ChannelPayload.self, as: NotificationChannel.self)
        let outcomes: [DeliveryOutcome] = [
            .delivered, .retryable(reason: ""), .permanent(reason: ""), .targetDead(reason: ""),
            .targetSuspect(reason: ""),
        ]
        for outcome in outcomes {
            #expect(throws: Never.self, "\(outcome.name)") {
                let _: S.DeliveryAttempt.OutcomePayload = try mapped(raw: outcome.name)
            }
        }
        // The console, experiments, metrics and webhooks.
        for state in JobState.allCases.map(\.rawValue) + ["done"] {
            #expect(throws: Never.self, "\(state)") { let _: S.ConsoleJob.StatePayload = try mapped(raw: state) }
        }
        self.writes(Experiment.State.self, as: S.Experiment.StatePayload.self)
        self.reads(S.ExperimentChange.StatePayload.self, as: Experiment.State.self)
        self.writes(ExperimentReadout.Measure.self, as: S.ExperimentMeasure.MeasurePayload.self)
        self.writes(Metrics.Granularity.self, as: S.MetricsReport.GranularityPayload.self)
        self.writes(Metric.Kind.self, as: S.MetricSeries.KindPayload.self)
        self.writes(EventSchema.PropertyType.self, as: S.EventSchema.PropertiesPayloadPayload._TypePayload.self)
        self.writes(WebhookDelivery.Status.self, as: S.WebhookDelivery.StatusPayload.self)
        self.reads(Operations.ListWebhookDeliveries.Input.Query.StatusPayload.self, as: WebhookDelivery.Status.self)
    }
}

/// Every header name the server declares is a token `HTTPField.Name` takes (its fallback never runs).
struct HeaderNameTests {
    @Test func everyDeclaredHeaderNameIsTheOneWritten() {
        for (name, text) in HTTPField.Name.declaredNames {
            #expect(name.rawName == text, "\(text) fell back to \(name.rawName)")
        }
    }
}

/// The hand-written date encoding writes exactly what OpenAPIRuntime's ISO 8601 transcoder writes.
struct InternetDateTranscoderTests {
    @Test
    func writesWhatTheStandardTranscoderWrites() throws {
        let (fast, standard) = (InternetDateTranscoder(), ISO8601DateTranscoder())
        var random = SeededRandom(seed: 20_261_122)
        // The epoch, a second before it, leap days, the turn of centuries, the ends of the range, and random
        // instants (some with fractions of a second) from year 1 to 9999.
        let fixed: [TimeInterval] = [
            0, -1, -0.5, 0.999, 951_782_400, 951_868_799.75, 4_107_542_400, 253_402_300_799, -62_135_596_800,
            1_772_442_000,
        ]
        let randomOnes = (0..<5_000).map { _ in
            Double(Int64.random(in: -62_135_596_800...253_402_300_799, using: &random))
                + (Bool.random(using: &random) ? 0.25 : 0)
        }
        for seconds in fixed + randomOnes {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(try fast.encode(date) == (try standard.encode(date)), "at \(seconds)")
        }
        #expect(try fast.decode("2026-03-02T09:00:00Z") == Date(timeIntervalSince1970: 1_772_442_000))
    }

    /// RFC 3339 allows a fraction of a second, and clients write one (Python's generated client did, and was
    /// refused); the standard transcoder refuses it. It is dropped: the API counts whole seconds.
    @Test
    func readsAFractionOfASecondAndDropsIt() throws {
        let transcoder = InternetDateTranscoder()
        let base = Date(timeIntervalSince1970: 1_772_442_000)
        #expect(try transcoder.decode("2026-03-02T09:00:00.250Z") == base)
        #expect(try transcoder.decode("2026-03-02T10:00:00.999+01:00") == base)
        #expect(try transcoder.decode("2026-03-02T09:00:00.123456789-00:00") == base)
        for refused in [
            "2026-03-02T09:00:00.Z", "2026-03-02T09:00:00.1234567891Z", "2026-03-02T09:00:00.12a4Z",
            "2026-03-02T09:00:00.25",
        ] {
            #expect(throws: (any Error).self, "\(refused)") { try transcoder.decode(refused) }
        }
    }

    @Test
    func readsWhatTheStandardTranscoderReads() throws {
        let (fast, standard) = (InternetDateTranscoder(), ISO8601DateTranscoder())
        var random = SeededRandom(seed: 20_261_123)
        var texts = [
            "2026-03-02T09:00:00Z", "2026-03-02T09:00:00+05:45", "2026-03-02T09:00:00-11:00", "2028-02-29T23:59:59Z",
            "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-03-08T07:00:00-00:00",
            // Left to the standard transcoder, which reads or refuses them as before.
            "2026-03-02t09:00:00z", "2026-03-02T09:00:60Z", "2026-02-29T09:00:00Z",
            "1500-03-01T00:00:00Z", "2026-03-02T24:00:00Z", "2026-03-02 09:00:00Z", "2026-03-02T09:00:00+0100",
            "2026-03-02", "", "2026-13-02T09:00:00Z", "+026-03-02T09:00:00Z",
        ]
        for _ in 0..<3_000 {
            let date = Date(
                timeIntervalSince1970: Double(Int64.random(in: -12_212_553_600...253_402_300_799, using: &random))
            )
            var text = try standard.encode(date)
            if Bool.random(using: &random) {
                let (hours, minutes) = (
                    Int.random(in: 0...18, using: &random), [0, 15, 30, 45, 59].randomElement(using: &random)!
                )
                text =
                    String(text.dropLast())
                    + String(format: "%@%02d:%02d", Bool.random(using: &random) ? "+" : "-", hours, minutes)
            }
            texts.append(text)
        }
        for text in texts {
            let expected = try? standard.decode(text)
            #expect((try? fast.decode(text)) == expected, "\(text)")
        }
    }
}
