"""Friends and challenges in a real browser (issue 25): finding someone and becoming friends, the friends'
feed growing live with reactions, someone's page with the head-to-head record, a challenge made from a
template with a friend invited and its board moving live, and the navigation folded at phone width."""
import datetime
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import uuid

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By

import harness
from harness import visible, wait


def member(server, prefix):
    return harness.Member(server, f"{prefix}-{uuid.uuid4().hex[:8]}@example.com", time_zone="UTC")


def signed_in(driver, server, person):
    """The browser signed in as `person` (already onboarded through the API), on today's page."""
    harness.sign_in(driver, server, person.email)
    wait(driver, lambda d: d.current_url.rstrip("/").endswith("/app") and d.find_elements(By.CSS_SELECTOR, ".rings .ring"))


def reads(driver, css, predicate):
    """Whether the element at `css` exists and passes `predicate` (re-found each time: views redraw)."""
    try:
        return predicate(driver.find_element(By.CSS_SELECTOR, css))
    except (NoSuchElementException, StaleElementReferenceException):
        return False


class FriendsTests(harness.BrowserCase):
    @classmethod
    def setUpClass(cls):
        cls.server = harness.Server()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_findSomeoneBecomeFriendsAndReactToTheirWorkoutAsItArrives(self):
        d, server = self.driver, self.server
        me, pal = member(server, "finder"), member(server, "pal")
        signed_in(d, server, me)
        d.find_element(By.CSS_SELECTOR, "header a[href='/app/friends']").click()
        visible(d, "#friends-tab-find").click()
        # Two letters search nothing: the server's reason is shown by the field.
        query = visible(d, "#people-q")
        query.send_keys("pa")
        d.find_element(By.CSS_SELECTOR, "#find-people button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.ID, "people-q-error").text != "")
        self.assertEqual("true", query.get_attribute("aria-invalid"))
        query.clear()
        query.send_keys(pal.name)
        d.find_element(By.CSS_SELECTOR, "#find-people button[type=submit]").click()
        visible(d, f"#search-results li[data-user='{pal.id}'] button").click()
        wait(d, lambda driver: reads(driver, f"#search-results li[data-user='{pal.id}'] .status", lambda e: e.text == "Request sent"))
        self.check_page("friends-find")

        # They accept: the friend is listed, with a page of their own.
        pal.call("POST", "/api/friends/accept", {"userId": me.id})
        d.find_element(By.ID, "friends-tab-friends").click()
        visible(d, f"#friend-list li[data-user='{pal.id}'] a").click()
        self.assertEqual("Friends ✓", visible(d, "[data-friendship]").text)
        self.assertIn(f"You against {pal.name}", visible(d, "#head-to-head").text)
        self.check_page("person")

        # The feed is open when their run is recorded: it appears without a reload, and takes a 🔥.
        d.find_element(By.CSS_SELECTOR, "header a[href='/app/friends']").click()
        visible(d, "#friend-feed")
        time.sleep(1)  # the stream is listening
        started = time.time()
        run = pal.run(5200, route=harness.LOOP)
        card = f"#friend-feed li[data-activity='{run['id']}']"
        wait(d, lambda driver: reads(driver, card, lambda e: "5.2 km" in e.text), 10)
        self.assertLess(time.time() - started, 10)
        # Its route, drawn from the feed's thumbnail.
        self.assertEqual(6, len(visible(d, f"{card} svg.route polyline").get_attribute("points").split()))
        d.find_element(By.CSS_SELECTOR, f"{card} button[data-reaction='🔥']").click()
        wait(d, lambda driver: reads(driver, f"{card} button[data-reaction='🔥']",
                                     lambda e: e.get_attribute("aria-pressed") == "true" and "1" in e.text))
        self.check_page("friends-feed")
        feed = pal.call("GET", "/api/feed?type=running")
        self.assertEqual({"🔥": 1}, next(i for i in feed["items"] if i["activityId"] == run["id"])["reactions"]["counts"])

    def test_theDemoShowsARequestToAnswer(self):
        d, server = self.driver, self.server
        harness.sign_in(d, server, "ana@demo.fitcircle.dev")
        wait(d, lambda driver: driver.find_elements(By.CSS_SELECTOR, ".rings .ring"))
        d.get(f"{server.url}/app/friends?tab=requests")
        self.assertEqual("Requests (1)", visible(d, "#friends-tab-requests").text)
        visible(d, "button[aria-label='Accept Chloé']")
        self.check_page("friends-requests")
        d.find_element(By.CSS_SELECTOR, "button[aria-label='Accept Chloé']").click()
        wait(d, lambda driver: driver.find_element(By.ID, "friends-tab-requests").text == "Requests")
        d.find_element(By.ID, "friends-tab-friends").click()
        wait(d, lambda driver: "Chloé" in driver.find_element(By.ID, "friend-list").text)
        self.check_page("friends-list")

    def test_atPhoneWidthTheNavigationFoldsBehindAMenu(self):
        d, server = self.driver, self.server
        signed_in(d, server, member(server, "phone"))
        d.set_window_size(390, 844)
        menu = visible(d, "#menu")
        self.assertFalse(d.find_element(By.ID, "main-nav").is_displayed())
        menu.click()
        self.assertEqual("true", menu.get_attribute("aria-expanded"))
        visible(d, "#main-nav a[href='/app/challenges']").click()
        visible(d, "#challenges-tab-mine")
        self.assertEqual("false", menu.get_attribute("aria-expanded"))
        self.assertFalse(d.find_element(By.ID, "main-nav").is_displayed())
        menu.click()
        # No push-up goals under this profile: no training screens.
        self.assertFalse(d.find_element(By.ID, "nav-training").is_displayed())
        harness.screenshots(d, "phone-menu-open")
        d.set_window_size(1280, 900)
        self.assertTrue(d.find_element(By.ID, "main-nav").is_displayed())


class ChallengeTests(harness.BrowserCase):
    """Under the famefit profile, whose catalog has challenge templates (spec 002 §1)."""

    @classmethod
    def setUpClass(cls):
        cls.server = harness.Server(profile="famefit")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_aChallengeFromATemplateWithAFriendInvitedAndItsBoardMovingLive(self):
        d, server = self.driver, self.server
        me, rival = member(server, "racer"), member(server, "rival")
        me.befriend(rival)
        signed_in(d, server, me)
        d.find_element(By.CSS_SELECTOR, "header a[href='/app/challenges']").click()
        visible(d, "#challenges-tab-create").click()
        template = visible(d, "#ch-template")
        # No name and no template: refused by the field.
        d.find_element(By.CSS_SELECTOR, "#create-challenge button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.ID, "ch-name-error").text != "")
        self.assertEqual("true", d.find_element(By.ID, "ch-name").get_attribute("aria-invalid"))

        # "5K Face-Off": first to run 5 km; the rival invited.
        d.execute_script("arguments[0].value = 'five-k-face-off'; arguments[0].dispatchEvent(new Event('change'))", template)
        self.assertEqual("5K Face-Off", d.find_element(By.ID, "ch-name").get_attribute("value"))
        self.assertEqual("5", d.find_element(By.ID, "ch-target").get_attribute("value"))
        d.execute_script("arguments[0].value = '0'", d.find_element(By.ID, "ch-stake"))
        d.find_element(By.CSS_SELECTOR, f"input[name=invitee][value='{rival.id}']").click()
        self.check_page("challenge-create")
        d.find_element(By.CSS_SELECTOR, "#create-challenge button[type=submit]").click()
        visible(d, "#challenge-board")
        challenge_id = d.current_url.rstrip("/").split("/")[-1]
        self.assertIn("First to 5 km", d.find_element(By.ID, "challenge-rule").text)
        self.assertRegex(d.find_element(By.ID, "time-remaining").text, r"^(7 d|6 d 23 h) left$")

        # The rival was invited; they join, and their run moves my open board within 5 seconds.
        invited = rival.call("GET", "/api/competitions")["items"]
        self.assertEqual(["invited"], [c["myState"] for c in invited if c["id"] == challenge_id])
        rival.call("POST", f"/api/competitions/{challenge_id}/join", {})
        time.sleep(1)
        started = time.time()
        rival.run(3100)
        wait(d, lambda driver: reads(driver, f"#challenge-board tr[data-user='{rival.id}']",
                                     lambda e: "3.1 km" in e.text and e.find_element(By.CSS_SELECTOR, ".rank").text == "1"), 5)
        self.assertLess(time.time() - started, 5)
        self.check_page("challenge-live")

        # The list: mine, with the time left.
        d.find_element(By.CSS_SELECTOR, "header a[href='/app/challenges']").click()
        item = visible(d, f"li[data-challenge='{challenge_id}']")
        self.assertIn("left", item.text)
        self.check_page("challenges-mine")


class TrainingTests(harness.BrowserCase):
    """Under the pushups profile (spec 001): the assessment and the Sunday summary's choices."""

    @classmethod
    def setUpClass(cls):
        cls.server = harness.Server(profile="pushups")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_theAssessmentGivesAPlanAndTheWeeksSummaryOffersTheNextGoal(self):
        d, server = self.driver, self.server
        athlete = member(server, "athlete")
        # The week the summary shows (getWeeklySummary: on a Sunday the week so far, on other days the last
        # week that ended; the athlete lives in UTC), Monday to Sunday: 40 push-ups a day, 280 against the
        # default target of 250. Today's are at an instant already past.
        now = datetime.datetime.now(datetime.timezone.utc)
        today = now.date()
        monday = today - datetime.timedelta(days=today.weekday() + (0 if today.weekday() == 6 else 7))

        def at(day):
            if day < today:
                return f"{day}T12:00:00Z"
            midnight = datetime.datetime.combine(day, datetime.time(), datetime.timezone.utc)
            return (midnight + (now - midnight) / 2).strftime("%Y-%m-%dT%H:%M:%SZ")
        athlete.call("POST", "/api/activities/batch", {"events": [
            {"clientEventId": f"pushups-{day}", "type": "workout", "source": "app", "occurredAt": at(day),
             "workout": {"type": "pushups", "durationSeconds": 120, "series": 1, "reps": 40}}
            for day in (monday + datetime.timedelta(days=i) for i in range(7))]})
        signed_in(d, server, athlete)
        self.assertTrue(d.find_element(By.ID, "nav-training").is_displayed())
        visible(d, "#assessment-prompt a").click()
        visible(d, "#assessment")
        # The capacity left out: the server names it.
        d.find_element(By.CSS_SELECTOR, "input[name=level][value=beginner]").click()
        d.find_element(By.CSS_SELECTOR, "#assessment button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.ID, "training-capacity-error").text != "")
        self.assertEqual("true", d.find_element(By.ID, "training-capacity").get_attribute("aria-invalid"))
        self.check_page("training-assessment")
        d.find_element(By.ID, "training-capacity").send_keys("15")
        days = d.find_element(By.ID, "training-workoutDaysPerWeek")
        days.clear()
        days.send_keys("4")
        d.find_element(By.CSS_SELECTOR, "#assessment button[type=submit]").click()
        plan = visible(d, "#recommendation").text
        for expected in ("30 push-ups", "2 series", "60 s"):
            self.assertIn(expected, plan)
        d.find_element(By.ID, "confirm-plan").click()

        # Saved: the settings, and last week's summary with its three choices.
        visible(d, "#training-settings")
        self.assertEqual("30", d.find_element(By.ID, "training-dailyGoal").get_attribute("value"))
        summary = visible(d, "#weekly-summary")
        self.assertRegex(summary.text, r"280 of [\d,]+ push-ups")
        self.assertEqual(3, len(summary.find_elements(By.CSS_SELECTOR, "button[data-choice]")))
        self.check_page("training-summary")
        d.find_element(By.CSS_SELECTOR, "button[data-choice=increase_10]").click()
        wait(d, lambda driver: reads(driver, "#weekly-summary .status", lambda e: "+10 %" in e.text))
        self.assertEqual("33", d.find_element(By.ID, "training-dailyGoal").get_attribute("value"))
        self.assertEqual(33, athlete.call("GET", "/api/settings/training")["dailyGoal"])


class ProviderSignInPageTests(harness.BrowserCase):
    """A server with Google's and Apple's web flows configured (its public URL is https)."""

    @classmethod
    def setUpClass(cls):
        cls.server = harness.Server(env={
            "FITCIRCLE_SERVER_PUBLIC_URL": "https://fit.example.com",
            "FITCIRCLE_AUTH_GOOGLE_WEB_CLIENT_ID": "web-client.apps.googleusercontent.com",
            "FITCIRCLE_AUTH_APPLE_WEB_CLIENT_ID": "com.example.fitcircle.web",
        })

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_theSignInPageOffersGoogleAndAppleAndSaysWhyASignInCameBack(self):
        d, server = self.driver, self.server
        d.get(f"{server.url}/?error=expired")
        self.assertIn("took too long", visible(d, "#sign-in-error").text)
        google = visible(d, "#sign-in-google")
        self.assertTrue(google.get_attribute("href").startswith(f"{server.url}/web/auth/google?timeZone="))
        self.assertTrue(d.find_element(By.ID, "sign-in-apple").is_displayed())
        self.check_page("sign-in-providers")
        # The link leads to Google with this server's client, state and nonce (not followed: no network here).
        request = urllib.request.Request(google.get_attribute("href"))
        opener = urllib.request.build_opener(NoRedirect())
        with self.assertRaises(urllib.error.HTTPError) as answer:
            opener.open(request, timeout=10)
        self.assertEqual(303, answer.exception.code)
        location = answer.exception.headers["Location"]
        self.assertTrue(location.startswith("https://accounts.google.com/o/oauth2/v2/auth?"), location)
        for part in ("client_id=web-client.apps.googleusercontent.com", "response_mode=form_post", "state=", "nonce=",
                     "redirect_uri=https://fit.example.com/web/auth/google/callback"):
            self.assertIn(part, urllib.parse.unquote(location))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None


if __name__ == "__main__":
    unittest.main(verbosity=2)
