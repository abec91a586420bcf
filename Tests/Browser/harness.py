"""What the browser tests share: a FitCircle server started for the run, headless Chromium driven by
Selenium, screenshots at desktop and phone width, and axe-core's accessibility check."""
import datetime
import json
import os
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "fitcircle"
SCREENSHOTS = Path(os.environ.get("FITCIRCLE_SCREENSHOTS", ROOT / "screenshots"))
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`fitcircle serve --demo --dev-login` on a fresh SQLite file, for one run, under `profile`, with `env`'s
    settings (FITCIRCLE_…) on top of the process's."""

    def __init__(self, profile="fitcircle", env=None):
        self.directory = tempfile.mkdtemp(prefix="fitcircle-browser-")
        self.database = f"sqlite://{self.directory}/fitcircle.sqlite"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(Path(self.directory) / "server.log", "w")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--demo", "--dev-login", "--port", str(self.port), "--database-url", self.database,
             "--profiles-dir", str(ROOT / "profiles"), "--profile", profile],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"{self.url}/readyz", timeout=1)
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the server did not start; see {self.log.name}")

    def cli(self, *arguments):
        """Runs `fitcircle <arguments>` against the same database."""
        subprocess.run([str(BINARY), *arguments, "--database-url", self.database, "--profiles-dir", str(ROOT / "profiles")],
                       check=True, capture_output=True, timeout=120)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"the server did not stop within 30 s of SIGTERM; see {self.log.name}")
        finally:
            self.log.close()


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900"]:
        options.add_argument(argument)
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    service = webdriver.ChromeService(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=service)
    driver.implicitly_wait(0)
    return driver


def wait(driver, condition, seconds=10):
    return WebDriverWait(driver, seconds).until(condition)


def visible(driver, css, seconds=10):
    return wait(driver, EC.visibility_of_element_located((By.CSS_SELECTOR, css)), seconds)


def sign_in(driver, server, email):
    driver.get(f"{server.url}/")
    field = visible(driver, "#email")
    field.clear()
    field.send_keys(email)
    driver.find_element(By.CSS_SELECTOR, "#dev-sign-in button[type=submit]").click()


def accessibility(driver, name):
    """axe-core on the page as it stands: returns the serious and critical violations."""
    driver.set_script_timeout(240)  # axe-core on a long page (/docs) takes a while on 2 cores
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"{name}.axe.json").write_text(json.dumps(results["violations"], indent=1))
    return bad


def screenshots(driver, name):
    """The page at desktop and phone width."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    original = driver.get_window_size()
    for label, (width, height) in WIDTHS.items():
        driver.set_window_size(width, height)
        time.sleep(0.3)
        driver.save_screenshot(str(SCREENSHOTS / f"{name}-{label}.png"))
    driver.set_window_size(original["width"], original["height"])


class Member:
    """Someone using the API directly, as a phone app would: signed in with a bearer token."""

    def __init__(self, server, email, time_zone="Europe/Paris"):
        self.server = server
        self.email = email
        self.name = email.split("@")[0].title()
        signed = self.call("POST", "/api/auth/dev", {"email": email, "timeZone": time_zone}, token=None)
        self.token = signed["accessToken"]
        self.id = signed["user"]["id"]
        profile = self.call("GET", "/api/user/profile")
        if not profile["onboardingCompleted"]:
            self.call("PUT", "/api/user/profile", {"displayName": self.name, "age": 30,
                                                   "weight": {"value": 70, "unit": "kg"}, "timeZone": time_zone})

    def call(self, method, path, body=None, token="self"):
        token = self.token if token == "self" else token
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.server.url}{path}", data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
            return json.loads(text) if text else None

    def run(self, meters, minutes=30, route=None):
        """A run recorded by the phone as it starts (now: after the start of a challenge made a moment ago);
        `route` an encoded polyline."""
        now = datetime.datetime.now(datetime.timezone.utc)
        workout = {"type": "running", "durationSeconds": minutes * 60, "distanceMeters": meters}
        if route:
            workout["route"] = route
        return self.call("POST", "/api/activities", {
            "clientEventId": f"run-{now.timestamp()}", "type": "workout", "source": "app",
            "occurredAt": now.isoformat(timespec="seconds").replace("+00:00", "Z"), "workout": workout})

    def befriend(self, other):
        """Friends with `other` (another Member): asked and accepted."""
        self.call("POST", "/api/friends/request", {"userId": other.id})
        other.call("POST", "/api/friends/accept", {"userId": self.id})

    def sync_steps(self, steps):
        """Today's total from the phone's health data."""
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
        return self.call("POST", "/api/tracking/daily", {"steps": steps, "source": "healthkit", "occurredAt": now})


class BrowserCase(unittest.TestCase):
    """A test with its own headless Chromium; `check_page` photographs the page and runs axe-core on it."""

    def setUp(self):
        self.driver = browser()

    def tearDown(self):
        self.driver.quit()

    def check_page(self, name):
        screenshots(self.driver, name)
        violations = accessibility(self.driver, name)
        self.assertEqual([], [(v["id"], v["impact"], v["help"]) for v in violations], f"axe on {name}")


def encode_polyline(points):
    """Google's encoded polyline of [(latitude, longitude)] at 1e-5 degrees."""
    out, last = [], (0, 0)
    for lat, lon in points:
        here = (round(lat * 1e5), round(lon * 1e5))
        for value in (here[0] - last[0], here[1] - last[1]):
            value = ~(value << 1) if value < 0 else value << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1f)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        last = here
    return "".join(out)


# A loop around the Jardin du Luxembourg.
LOOP = encode_polyline([(48.8462, 2.3371), (48.8490, 2.3352), (48.8496, 2.3390), (48.8478, 2.3417), (48.8452, 2.3400), (48.8462, 2.3371)])
