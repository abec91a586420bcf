// Today (spec 000 F1, F2, F4, F5): the day's goals as rings, the streak, the week's bars, the
// "Submit today's data" widget and the last 30 days as small lines.
import { api } from "../api.js";
import { h, show, svg, number } from "../dom.js";
import { lastThirtyDays, thirtyDatesEnding } from "../sparkline.js";

const ringNames = { steps: "Steps", weight: "Weight", check_in: "Check-in", workout: "Workout", water: "Water", pushups: "Push-ups", active_days: "Active days" };

export function ring(goal) {
  const radius = 50;
  const circumference = 2 * Math.PI * radius;
  const percent = Math.max(0, Math.min(100, goal.percent));
  const value = goal.type === "check_in"
    ? (goal.completed ? "Done" : "Not yet")
    : `${number(Math.round(goal.actual))} / ${number(Math.round(goal.target))}`;
  const label = `${ringNames[goal.type] ?? goal.type}: ${value}, ${percent} %`;
  return h("figure", { class: `ring ${goal.type}${goal.completed ? " met celebrate" : ""}`, "data-goal": goal.type },
    svg("svg", { viewBox: "0 0 120 120", role: "img", "aria-label": label },
      svg("circle", { cx: 60, cy: 60, r: radius, class: "track" }),
      svg("circle", {
        cx: 60, cy: 60, r: radius, class: "progress",
        "stroke-dasharray": circumference.toFixed(1), "stroke-dashoffset": (circumference * (1 - percent / 100)).toFixed(1),
      })),
    h("figcaption", {}, h("div", { class: "value" }, value), h("div", { class: "label" }, ringNames[goal.type] ?? goal.type)));
}

function streakCard(streak) {
  const unit = streak.period === "week" ? "week" : "day";
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return h("section", { class: "card", "aria-labelledby": "streak-title" },
    h("h2", { id: "streak-title" }, "Streak"),
    h("p", { class: "streak", id: "streak-current" }, `🔥 ${plural(streak.current, unit)}`),
    h("p", {}, `Best: ${plural(streak.longest, unit)}`),
    h("p", {}, `💎 ${plural(streak.freezesLeft, "freeze")} left`, streak.period === "day" ? " this week" : ""),
    streak.atRisk ? h("p", { class: "notice" }, "Your streak is at risk: check in today to keep it.") : null,
    streak.counted ? h("p", { class: "status" }, "Today counts ✓") : null);
}

function weekCard(weekly, timeZone) {
  const steps = weekly.goals.find((g) => g.type === "steps");
  if (!steps) return null;
  const days = [];
  const start = new Date(`${weekly.start}T00:00:00Z`);
  for (let i = 0; i < 7; i += 1) {
    const date = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const value = steps.breakdown.find((d) => d.date === date)?.value ?? 0;
    days.push({ date, value });
  }
  const max = Math.max(steps.target / 7, ...days.map((d) => d.value), 1);
  // en-CA writes dates as YYYY-MM-DD: today in the person's own zone, as the server counts days.
  const today = new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date());
  return h("section", { class: "card", "aria-labelledby": "week-title" },
    h("h2", { id: "week-title" }, "This week"),
    h("p", {}, `${number(Math.round(steps.actual))} of ${number(Math.round(steps.target))} steps · ${steps.percent} %`),
    h("div", { class: "week", role: "list" },
      days.map((d) => {
        const weekday = new Date(`${d.date}T12:00:00Z`).toLocaleDateString(undefined, { weekday: "short", timeZone: "UTC" });
        const bar = h("span", { class: "bar", "data-height": Math.round((100 * d.value) / max) });
        return h("div", { class: `day${d.date === today ? " today" : ""}`, role: "listitem", "aria-label": `${weekday}: ${number(d.value)} steps` },
          bar, h("span", { "aria-hidden": "true" }, weekday));
      })));
}

/** Yesterday's result (spec 000 F1): how many of its goals were met, and what the unmet ones reached. */
function yesterdayLine(history, today) {
  const yesterday = history.periods.find((period) => period.start < today && period.goals.length);
  if (!yesterday) return null;
  const met = yesterday.goals.filter((goal) => goal.completed);
  const missed = yesterday.goals.filter((goal) => !goal.completed && goal.type !== "check_in")
    .map((goal) => `${ringNames[goal.type] ?? goal.type} ${number(Math.round(goal.actual))} / ${number(Math.round(goal.target))}`);
  const text = met.length === yesterday.goals.length
    ? `Yesterday: all ${met.length} goals met ✓`
    : `Yesterday: ${met.length} of ${yesterday.goals.length} goals met${missed.length ? ` (${missed.join(", ")})` : ""}`;
  return h("p", { class: "fine", id: "yesterday" }, text);
}

/** The push-up app's prompts (spec 001): the assessment not taken yet; the week's summary the first time it is read. */
async function trainingNotices(config) {
  if (!config.goals.daily.includes("pushups")) return [];
  const settings = await api("GET", "/api/settings/training");
  if (!settings.saved) {
    return [h("p", { class: "notice", id: "assessment-prompt" }, "Set up your training: three questions give you a plan. ",
      h("a", { href: "/app/training", "data-route": true }, "Take the assessment"))];
  }
  const summary = await api("GET", "/api/goals/weekly/summary");
  if (summary.alreadySeen) return [];
  return [h("p", { class: "notice", id: "summary-prompt" }, `Your week: ${number(summary.reps)} of ${number(summary.target)} push-ups (${summary.percent} %). `,
    summary.reached && !summary.choice ? h("a", { href: "/app/training", "data-route": true }, "Choose next week's goal") : null)];
}

function submitCard(pending, memberships, onSubmit) {
  const circles = pending.items;
  const body = !memberships
    ? [h("p", {}, "Compete with friends on a daily board: ", h("a", { href: "/app/circles", "data-route": true }, "create or join a circle"), ".")]
    : circles.length
    ? [h("p", {}, `Waiting for today's data: ${circles.map((c) => c.name).join(", ")}`),
      h("button", { type: "button", id: "submit-today", onclick: onSubmit }, "Submit today's data")]
    : [h("p", { class: "status", id: "submitted" }, "Submitted ✓"), h("p", { class: "fine" }, "Your circles have today's data; a later sync updates it until 00:30.")];
  return h("section", { class: "card", "aria-labelledby": "submit-title" }, h("h2", { id: "submit-title" }, "Circles"), ...body);
}

export async function render(main, context) {
  const [daily, weekly, streak, pending, notices, history, circles] = await Promise.all([
    api("GET", "/api/goals/daily"), api("GET", "/api/goals/weekly"), api("GET", "/api/streaks/current"), api("GET", "/api/user/submissions/pending"),
    trainingNotices(context.config), api("GET", "/api/goals/daily/history?days=2"), api("GET", "/api/fitcircles"),
  ]);
  const dates = thirtyDatesEnding(daily.start);
  const tracked = await api("GET", `/api/tracking/daily?from=${dates[0]}&to=${dates[29]}`);
  const status = h("p", { role: "status", class: "fine" });
  const onSubmit = async (event) => {
    event.target.disabled = true;
    try {
      const result = await api("POST", "/api/user/submissions");
      status.textContent = `Submitted to ${result.items.length} circle${result.items.length === 1 ? "" : "s"}.`;
      await render(main, context);
    } catch (problem) {
      status.textContent = problem.message;
      event.target.disabled = false;
    }
  };
  const name = context.profile?.displayName ?? "";
  show(main,
    h("h1", {}, `Today${name ? `, ${name}` : ""}`),
    notices,
    h("section", { class: "card", "aria-labelledby": "goals-title" },
      h("h2", { id: "goals-title" }, "Today's goals"),
      h("div", { class: "rings" }, daily.goals.map(ring)),
      yesterdayLine(history, daily.start)),
    h("div", { class: "grid" }, streakCard(streak), weekCard(weekly, context.profile?.timeZone), submitCard(pending, circles.items.length, onSubmit)),
    lastThirtyDays(tracked.days, dates, context.profile?.weight?.unit),
    status);
  // Bar heights as CSS custom properties would need inline styles, which the CSP refuses: set them here.
  for (const bar of main.querySelectorAll(".week .bar")) bar.style.height = `${bar.dataset.height}%`;
}
