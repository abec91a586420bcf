"""The daily loop through a Python client that openapi-python-client generated from openapi.yaml:
sign-in, onboarding, an activity, a check-in, a circle's leaderboard, and refusals read as problems (a field
named, a problem type of a business rule with its figures).
Run by scripts/test-python-client.sh against a live server: python3 flow.py <package dir> <base URL>."""
import datetime
import sys
import uuid

sys.path.insert(0, sys.argv[1])
from fitcircle_client import AuthenticatedClient, Client  # noqa: E402
from fitcircle_client.types import UNSET  # noqa: E402
from fitcircle_client.api.activities import list_activities, record_activity  # noqa: E402
from fitcircle_client.api.auth import sign_in_for_development  # noqa: E402
from fitcircle_client.api.challenges import create_competition  # noqa: E402
from fitcircle_client.api.circles import create_fit_circle, get_fit_circle_leaderboard, submit_to_fit_circle  # noqa: E402
from fitcircle_client.api.profile import update_profile  # noqa: E402
from fitcircle_client.api.streaks import check_in, get_current_streak  # noqa: E402
from fitcircle_client.models import (  # noqa: E402
    ActivityInput, ActivitySource, ActivityType, CheckInRequest, CompetitionInput, CompetitionType, DevSignInRequest,
    FitCircleInput, FitCircleInputMetric, Problem, ProfileUpdate, Weight, WeightUnit,
)

base = sys.argv[2]
zone = "Europe/Paris"


def expect(condition, what):
    if not condition:
        sys.exit(f"python client flow: {what}")
    print(f"  ✓ {what}")


# Sign in.
signed_in = sign_in_for_development.sync_detailed(client=Client(base_url=base), body=DevSignInRequest(email="py@example.com", time_zone=zone))
expect(signed_in.status_code == 200 and signed_in.parsed.user.email == "py@example.com", "signed in by the development login")
client = AuthenticatedClient(base_url=base, token=signed_in.parsed.access_token)

# Onboarding: a wrong value is a problem naming its field; then the profile is complete.
refused = update_profile.sync_detailed(
    client=client, body=ProfileUpdate(display_name="Py", age=7, weight=Weight(value=70, unit=WeightUnit.KG), time_zone=zone))
expect(refused.status_code == 422 and isinstance(refused.parsed, Problem), "an impossible age is refused with a problem")
expect(any(error.field == "age" for error in refused.parsed.errors), "the problem names the field `age`")
profile = update_profile.sync_detailed(
    client=client, body=ProfileUpdate(display_name="Py", age=31, weight=Weight(value=70, unit=WeightUnit.KG), time_zone=zone))
expect(profile.status_code == 200 and profile.parsed.onboarding_completed, "onboarding completed")

# An activity, sent twice under its client event id: recorded once.
now = datetime.datetime.now(datetime.timezone.utc)
steps = ActivityInput(client_event_id=str(uuid.uuid4()), type_=ActivityType.STEPS, occurred_at=now, source=ActivitySource.APP, steps=6_500)
first = record_activity.sync_detailed(client=client, body=steps)
again = record_activity.sync_detailed(client=client, body=steps)
expect(first.status_code == 201 and again.status_code == 200, "an activity recorded, and its replay answered 200")
listed = list_activities.sync(client=client)
expect(len(listed.items) == 1 and listed.items[0].steps == 6_500, "the server holds it once")


# Every list pages the same way: `cursor` is the page's `next_cursor`, which the last page leaves out.
def every_item(read):
    items, cursor = [], UNSET
    for _ in range(100):
        page = read(cursor)
        items += page.items
        if not page.next_cursor:
            return items
        cursor = page.next_cursor
    sys.exit("python client flow: a list did not end")


for minutes in (1, 2):
    water = ActivityInput(client_event_id=str(uuid.uuid4()), type_=ActivityType.WATER,
                          occurred_at=now - datetime.timedelta(minutes=minutes), source=ActivitySource.APP, water_ml=250 * minutes)
    expect(record_activity.sync_detailed(client=client, body=water).status_code == 201, f"a glass of water {minutes} min earlier")
paged = every_item(lambda cursor: list_activities.sync(client=client, cursor=cursor, limit=1))
expect([(item.steps, item.water_ml) for item in paged] == [(6_500, UNSET), (UNSET, 250), (UNSET, 500)],
       "the activities a page of one at a time, newest first, each once")

# A check-in, and the streak it starts; a second one that day is a problem type of its own.
checked = check_in.sync_detailed(client=client, body=CheckInRequest(mood=4, energy=3))
expect(checked.status_code == 201, "checked in")
twice = check_in.sync_detailed(client=client, body=CheckInRequest(mood=4, energy=3))
expect(twice.status_code == 409 and isinstance(twice.parsed, Problem) and twice.parsed.type_ == "/problems/already-checked-in",
       "a second check-in is /problems/already-checked-in")
streak = get_current_streak.sync(client=client)
expect(streak.current >= 1, f"the streak is {streak.current}")

# A circle of one, today's steps claimed, and its board.
circle = create_fit_circle.sync_detailed(client=client, body=FitCircleInput(name="Py walkers", metric=FitCircleInputMetric.STEPS))
expect(circle.status_code == 201, "a circle created")
claimed = submit_to_fit_circle.sync_detailed(circle.parsed.id, client=client)
expect(claimed.status_code in (200, 201), "today's steps claimed")
board = get_fit_circle_leaderboard.sync(circle.parsed.id, client=client)
mine = [row for row in board.rows if row.is_caller]
expect(len(mine) == 1 and mine[0].value == 6_500 and mine[0].rank == 1, "the board ranks the caller first with 6,500 steps")
# A stake the person cannot cover (the most a stake may be): its problem type and the figures, as typed fields of
# the generated Problem.
staked = create_competition.sync_detailed(client=client, body=CompetitionInput(
    name="Py stake", type_=CompetitionType.DISTANCE, duration_days=3, stake=100_000))
expect(staked.status_code == 409 and staked.parsed.type_ == "/problems/insufficient-xp"
       and staked.parsed.xp_needed == 100_000 and staked.parsed.xp_available < 100_000,
       f"a stake of 100,000 XP is /problems/insufficient-xp with xpNeeded and xpAvailable ({staked.parsed.xp_available})")
print("python client flow: done")
