"""The web app in a real browser (issue 25): headless Chromium against a demo server started for the run.
Each page is checked with axe-core and photographed at desktop and phone width."""
import time
import unittest
import uuid

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

import harness
from harness import visible, wait

server = None


def setUpModule():
    global server
    server = harness.Server()


def tearDownModule():
    server.stop()


def reads_h1(driver):
    """The page's heading, or None while a view replaces it."""
    try:
        return driver.find_element(By.CSS_SELECTOR, "h1").text
    except (NoSuchElementException, StaleElementReferenceException):
        return None


class WebAppTests(harness.BrowserCase):
    def signed_up(self, prefix):
        """A new member, onboarded, on today's page; their email."""
        email = f"{prefix}-{uuid.uuid4().hex[:8]}@example.com"
        self.onboard(email)
        visible(self.driver, ".rings .ring")
        return email

    def onboard(self, email, age="34"):
        harness.sign_in(self.driver, server, email)
        visible(self.driver, "#onboarding")
        self.driver.find_element(By.ID, "age").send_keys(age)
        self.driver.find_element(By.ID, "weight").send_keys("70")
        self.driver.find_element(By.CSS_SELECTOR, "#onboarding button[type=submit]").click()

    def test_signInAndOnboarding_aValidationErrorIsShownByItsFieldAndCorrected(self):
        d = self.driver
        d.get(f"{server.url}/")
        visible(d, "#dev-sign-in")
        self.check_page("sign-in")
        # A malformed address is refused next to the field.
        harness.sign_in(d, server, "not an address")
        error = visible(d, "#email-error")
        self.assertTrue(error.text)
        self.assertEqual("true", d.find_element(By.ID, "email").get_attribute("aria-invalid"))

        email = f"web-{uuid.uuid4().hex[:8]}@example.com"
        self.onboard(email, age="5")
        age_error = visible(d, "#age-error")
        self.assertIn("13", age_error.text)
        self.assertEqual("true", d.find_element(By.ID, "age").get_attribute("aria-invalid"))
        self.assertTrue(d.current_url.endswith("/app/onboarding"))
        self.check_page("onboarding-error")

        age = d.find_element(By.ID, "age")
        age.clear()
        age.send_keys("34")
        d.find_element(By.CSS_SELECTOR, "#onboarding button[type=submit]").click()
        visible(d, ".rings .ring")
        self.assertTrue(d.current_url.endswith("/app"))
        types = [r.get_attribute("data-goal") for r in d.find_elements(By.CSS_SELECTOR, ".rings .ring")]
        self.assertIn("steps", types)
        self.assertIn("check_in", types)
        self.assertIn("0 days", d.find_element(By.ID, "streak-current").text)
        self.check_page("dashboard-new")

    def test_theCheckInFlowCountsTheDayForTheStreak(self):
        d = self.driver
        self.signed_up("checkin")
        d.find_element(By.CSS_SELECTOR, "a[href='/app/check-in']").click()
        visible(d, "#check-in")
        self.check_page("check-in")
        # Mood missing: the server names it.
        d.find_element(By.CSS_SELECTOR, "input[name=sentiment][value=great]").click()
        d.find_element(By.CSS_SELECTOR, "input[name=energy][value='3']").click()
        d.find_element(By.CSS_SELECTOR, "#check-in button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.CSS_SELECTOR, "[data-field=mood] .field-error").text != "")
        d.find_element(By.CSS_SELECTOR, "input[name=mood][value='4']").click()
        d.find_element(By.CSS_SELECTOR, "#check-in button[type=submit]").click()
        done = visible(d, "[role=status] h1")
        self.assertIn("Checked in", done.text)
        self.assertIn("1 day", d.find_element(By.CSS_SELECTOR, "[role=status] .streak").text)
        self.check_page("check-in-done")
        d.find_element(By.CSS_SELECTOR, "a[href='/app']").click()
        ring = visible(d, ".ring.check_in")
        self.assertIn("met", ring.get_attribute("class"))
        self.assertIn("1 day", d.find_element(By.ID, "streak-current").text)

    def test_theDemoDashboardShowsTheStreakAndTheWeek(self):
        d = self.driver
        harness.sign_in(d, server, "ana@demo.fitcircle.dev")
        visible(d, ".rings .ring")
        self.assertRegex(d.find_element(By.ID, "streak-current").text, r"🔥 \d+ days?")
        self.assertEqual(7, len(d.find_elements(By.CSS_SELECTOR, ".week .day")))
        # The last 30 days: three weeks of steps and push-ups, each a line described in words.
        steps = visible(d, ".thirty-days [data-series=steps] svg.sparkline")
        self.assertIn("Steps, last 30 days:", steps.get_attribute("aria-label"))
        self.assertGreaterEqual(len(d.find_element(By.CSS_SELECTOR, ".thirty-days [data-series=steps] polyline").get_attribute("points").split()), 21)
        visible(d, ".thirty-days [data-series=pushups] svg.sparkline")
        self.check_page("dashboard-demo")

    def test_aClaimMovesTheBoardAndAnotherMembersAppearsLiveWithoutAReload(self):
        d = self.driver
        email = self.signed_up("circle")
        me = harness.Member(server, email, time_zone="UTC")
        d.find_element(By.CSS_SELECTOR, "header a[href='/app/circles']").click()
        visible(d, "#create-circle")
        # A name left empty is refused by its field.
        d.find_element(By.CSS_SELECTOR, "#create-circle button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.ID, "circle-name-error").text != "")
        d.find_element(By.ID, "circle-name").send_keys("Lunch walkers")
        d.find_element(By.CSS_SELECTOR, "#create-circle button[type=submit]").click()
        visible(d, "#board")
        circle_id = d.current_url.rstrip("/").split("/")[-1]
        self.check_page("circle-board-empty")

        # My steps synced, then claimed from the overview: the board shows me first.
        me.sync_steps(6400)
        d.find_element(By.ID, "circle-tab-overview").click()
        code = visible(d, "#join-code").text
        # The owner invites by address: a malformed one is refused by its field, a good one is sent.
        invite = d.find_element(By.ID, "invite-email")
        invite.send_keys("not an address")
        d.find_element(By.CSS_SELECTOR, "#invite button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.ID, "invite-email-error").text != "")
        invite.clear()
        invite.send_keys(f"guest-{uuid.uuid4().hex[:8]}@example.com")
        d.find_element(By.CSS_SELECTOR, "#invite button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.ID, "invite-status").text.startswith("Invitation sent"))
        self.check_page("circle-overview")
        d.find_element(By.ID, "submit-circle").click()
        wait(d, lambda driver: "6,400" in driver.find_element(By.CSS_SELECTOR, "#circle-panel [role=status]").text)
        d.find_element(By.ID, "circle-tab-leaderboard").click()
        # (The board may be drawn again as the claim's own rank events arrive: each check finds it anew.)
        def my_row_reads(driver):
            try:
                row = driver.find_element(By.CSS_SELECTOR, f"#board tr[data-user='{me.id}']")
                return row.find_element(By.CSS_SELECTOR, ".rank").text == "1" and "6,400" in row.text
            except (NoSuchElementException, StaleElementReferenceException):
                return False
        wait(d, my_row_reads)

        # Another member joins by the code and claims more: my open board shows it within 5 seconds.
        other = harness.Member(server, f"rival-{uuid.uuid4().hex[:8]}@example.com", time_zone="UTC")
        other.call("POST", "/api/fitcircles/join", {"code": code})
        other.sync_steps(9100)
        time.sleep(0.5)  # the stream is open (its `ready` came long before); nothing is reloaded below
        started = time.time()
        other.call("POST", f"/api/fitcircles/{circle_id}/submit")
        def rival_first(driver):
            try:
                row = driver.find_element(By.CSS_SELECTOR, f"#board tr[data-user='{other.id}']")
                mine = driver.find_element(By.CSS_SELECTOR, f"#board tr[data-user='{me.id}']")
                return (row.find_element(By.CSS_SELECTOR, ".rank").text == "1" and "9,100" in row.text
                        and mine.find_element(By.CSS_SELECTOR, ".rank").text == "2")
            except (NoSuchElementException, StaleElementReferenceException):
                return False
        wait(d, rival_first, 5)
        self.assertLess(time.time() - started, 5)
        self.check_page("circle-board-live")

        # The feed, with one tap of encouragement on the rival's claim.
        d.find_element(By.ID, "circle-tab-activity").click()
        button = visible(d, "ul.feed button[data-item]")
        button.click()
        visible(d, "ul.feed .status")
        self.check_page("circle-activity")

        # The members, a page at a time: the two of us, and no "Show more" for a circle of two.
        d.find_element(By.ID, "circle-tab-members").click()
        wait(d, lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "ul.members li")) == 2)
        self.assertFalse(d.find_element(By.ID, "members-more").is_displayed())

    def test_notificationSettingsAreSavedAndACriticalSwitchIsRefused(self):
        d = self.driver
        self.signed_up("settings")
        d.find_element(By.CSS_SELECTOR, "header a[href='/app/settings']").click()
        visible(d, "table.types")
        self.check_page("settings")
        status = d.find_element(By.ID, "settings-status")

        # An optional type's push switch: off, saved, still off after a reload.
        optional = d.find_element(By.CSS_SELECTOR, "tr[data-type=streak_at_risk] input[id$='-push']")
        self.assertTrue(optional.is_selected())
        optional.click()
        wait(d, lambda driver: status.text == "Saved.")
        d.refresh()
        visible(d, "table.types")
        self.assertFalse(d.find_element(By.CSS_SELECTOR, "tr[data-type=streak_at_risk] input[id$='-push']").is_selected())

        # A critical type is marked Required; turning it off is refused by the server and undone.
        row = d.find_element(By.CSS_SELECTOR, "tr[data-type=daily_checkin_reminder]")
        self.assertIn("required", row.text.lower())
        critical = row.find_element(By.CSS_SELECTOR, "input[id$='-push']")
        critical.click()
        error = d.find_element(By.ID, "type-daily_checkin_reminder-error")
        wait(d, lambda driver: error.text != "")
        self.assertTrue(critical.is_selected())
        self.assertEqual("Not saved.", d.find_element(By.ID, "settings-status").text)

        # The reminder time: 05:00 is refused by its field, 21:30 is kept.
        reminder = d.find_element(By.ID, "reminderTime")
        d.execute_script("arguments[0].value = '05:00'; arguments[0].dispatchEvent(new Event('change'))", reminder)
        wait(d, lambda driver: driver.find_element(By.ID, "reminder-error").text != "")
        d.execute_script("arguments[0].value = '21:30'; arguments[0].dispatchEvent(new Event('change'))", reminder)
        wait(d, lambda driver: driver.find_element(By.ID, "settings-status").text == "Saved.")
        d.refresh()
        self.assertEqual("21:30", visible(d, "#reminderTime").get_attribute("value"))
        self.check_page("settings-saved")

    def test_pointsAndBadgesWithTheShowcase(self):
        d = self.driver
        harness.sign_in(d, server, "ben@demo.fitcircle.dev")
        visible(d, ".rings .ring")
        d.find_element(By.CSS_SELECTOR, "header a[href='/app/rewards']").click()
        total = visible(d, "#total-points")
        self.assertRegex(total.text, r"^\d[\d,]* ")
        unlocked = d.find_elements(By.CSS_SELECTOR, "li.badge.unlocked button")
        self.assertTrue(unlocked, "the demo has unlocked badges")
        unlocked[0].click()
        wait(d, lambda driver: driver.find_element(By.ID, "showcase-status").text == "Showcase saved.")
        self.assertEqual("true", d.find_element(By.CSS_SELECTOR, "li.badge.unlocked button[aria-pressed=true]").get_attribute("aria-pressed"))
        self.check_page("badges")

    def test_theApiReferenceIsReadable(self):
        d = self.driver
        d.get(f"{server.url}/docs")
        visible(d, "nav.toc")
        self.assertTrue(d.find_elements(By.CSS_SELECTOR, "#overview ~ table"), "the Markdown table of problems")
        self.assertTrue(d.find_element(By.ID, "schema-FitCircle").is_displayed())
        self.check_page("docs")

    def test_theConsoleDrawsTheMetricsForOperatorsAndRefusesMembers(self):
        d = self.driver
        email = self.signed_up("operator")
        d.get(f"{server.url}/admin")
        self.assertIn("Operators only", visible(d, "h1").text)
        self.check_page("console-refused")

        # The demo rolled its three weeks up when it seeded: the charts draw without running anything.
        server.cli("operator", "grant", email)
        d.get(f"{server.url}/admin")
        visible(d, ".metric svg.chart")
        dau = d.find_element(By.CSS_SELECTOR, "section[aria-labelledby='m-dau']")
        drawn = dau.find_elements(By.CSS_SELECTOR, "polyline.line, circle.dot")
        self.assertTrue(drawn, "the DAU chart has a line")
        self.assertNotEqual("—", dau.find_element(By.CSS_SELECTOR, ".figure").text.split()[0])
        self.check_page("console-metrics")

    def test_theConsoleLooksUpAPersonAndShowsTheQueueTheLogAndTheProfile(self):
        d = self.driver
        email = self.signed_up("console")
        server.cli("operator", "grant", email)
        d.get(f"{server.url}/admin/people")
        # Too short to search: the server's reason by the field.
        query = visible(d, "#account-q")
        query.send_keys("be")
        d.find_element(By.CSS_SELECTOR, "#find-accounts button[type=submit]").click()
        wait(d, lambda driver: driver.find_element(By.ID, "account-q-error").text != "")
        query.clear()
        query.send_keys("ben@demo.fitcircle.dev")
        d.find_element(By.CSS_SELECTOR, "#find-accounts button[type=submit]").click()
        visible(d, "#account-results a").click()
        # Ben's file: his streak ledger with its reasons, points, notifications with their decision trail.
        visible(d, "#streak-ledger")
        self.assertEqual("Ben", reads_h1(d))
        ledger = d.find_elements(By.CSS_SELECTOR, "#streak-ledger tbody tr")
        self.assertGreater(len(ledger), 10)
        self.assertTrue(any("missed" in row.text for row in ledger), "a missed day with its reason")
        self.assertTrue(d.find_elements(By.CSS_SELECTOR, "#points-ledger tbody tr"))
        trail = d.find_elements(By.CSS_SELECTOR, "#notifications ol.trail li")
        self.assertTrue(trail, "each notification's decision trail")
        self.check_page("console-person")

        d.find_element(By.CSS_SELECTOR, "header a[href='/admin/jobs']").click()
        wait(d, lambda driver: "(" in driver.find_element(By.ID, "jobs-tab-scheduled").text)
        self.assertRegex(d.find_element(By.ID, "jobs-tab-scheduled").text, r"Scheduled \(\d+\)")
        d.find_element(By.ID, "jobs-tab-scheduled").click()
        wait(d, lambda driver: driver.find_elements(By.CSS_SELECTOR, "#jobs tbody tr[data-job]"))
        self.check_page("console-jobs")

        d.find_element(By.CSS_SELECTOR, "header a[href='/admin/deliveries']").click()
        visible(d, "#deliveries tbody tr[data-delivery]")
        self.check_page("console-deliveries")

        d.find_element(By.CSS_SELECTOR, "header a[href='/admin/community']").click()
        visible(d, "#all-circles tbody tr[data-circle]")
        self.assertIn("Demo Walkers", d.find_element(By.ID, "all-circles").text)
        visible(d, "#all-challenges tbody tr[data-challenge]")
        self.assertIn("Demo 10K week", d.find_element(By.ID, "all-challenges").text)
        self.check_page("console-community")

        d.find_element(By.CSS_SELECTOR, "header a[href='/admin/profile']").click()
        visible(d, "details[data-section=streaks] summary").click()
        self.assertIn("fitcircle", d.find_element(By.CSS_SELECTOR, "h1").text)
        self.assertIn("resetAfterMissed", visible(d, "details[data-section=streaks] pre").text)
        self.check_page("console-profile")

        d.find_element(By.CSS_SELECTOR, "header a[href='/admin/experiments']").click()
        wait(d, lambda driver: reads_h1(driver) == "Experiments")
        self.check_page("console-experiments")


if __name__ == "__main__":
    unittest.main(verbosity=2)
