// The member's web app: one page whose views are chosen by the path (/app, /app/onboarding, …; router.js).
// Each view is a module exporting `render(main, context)`, which may return its cleanup; links marked
// data-route change it without a reload (`startShell`).
import { api, session } from "./api.js";
import { h } from "./dom.js";
import { startShell } from "./router.js";

const routes = [
  ["/app", () => import("./views/dashboard.js")],
  ["/app/onboarding", () => import("./views/onboarding.js")],
  ["/app/check-in", () => import("./views/checkin.js")],
  ["/app/circles", () => import("./views/circles.js")],
  ["/app/circles/:id", () => import("./views/circle.js")],
  ["/app/challenges", () => import("./views/challenges.js")],
  ["/app/challenges/:id", () => import("./views/challenge.js")],
  ["/app/friends", () => import("./views/friends.js")],
  ["/app/people/:id", () => import("./views/person.js")],
  ["/app/training", () => import("./views/training.js")],
  ["/app/rewards", () => import("./views/rewards.js")],
  ["/app/settings", () => import("./views/settings.js")],
  ["/app/profile", () => import("./views/onboarding.js")],
];

const main = document.getElementById("main");
// `config`: GET /api/config, read with the profile before the first view.
const context = { profile: null, config: null };


// At phone width the navigation folds behind a Menu button (the stylesheet hides it until opened).
const menu = document.getElementById("menu");
function closeMenu() {
  menu.setAttribute("aria-expanded", "false");
}
menu.addEventListener("click", () => menu.setAttribute("aria-expanded", menu.getAttribute("aria-expanded") === "true" ? "false" : "true"));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && menu.getAttribute("aria-expanded") === "true") {
    closeMenu();
    menu.focus();
  }
});
document.getElementById("sign-out").addEventListener("click", async () => {
  await session("/web/session/sign-out").catch(() => null);
  location.assign("/");
});

// Last: the shell runs the first view at once, and its `before` closes the menu set up above.
startShell({
  routes,
  home: "/app",
  main,
  context,
  // Onboarding comes first; the profile and the configuration are read once, before the first view.
  before: async (path) => {
    closeMenu();
    if (!context.profile) {
      [context.profile, context.config] = await Promise.all([api("GET", "/api/user/profile"), api("GET", "/api/config")]);
      // The push-up app's screens, when the profile plans push-up goals (spec 001).
      document.getElementById("nav-training").hidden = !context.config.goals.daily.includes("pushups");
    }
    const mustOnboard = context.profile.onboardingRequired && !context.profile.onboardingCompleted;
    return mustOnboard && path !== "/app/onboarding" ? "/app/onboarding" : null;
  },
  // A person's page belongs with Friends in the navigation.
  section: (found) => (found?.section === "/app/people" ? "/app/friends" : found?.section),
  notFound: () => [h("h1", {}, "Not found"), h("p", {}, "There is no such page. ", h("a", { href: "/app", "data-route": true }, "Back to today"))],
});
