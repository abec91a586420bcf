// The daily check-in as spec 000 draws it: acknowledge yesterday's steps with one of three sentiments, then
// mood and energy (emoji shortcuts), an optional weight, and the answer's celebration.
import { api, Problem } from "../api.js";
import { h, show } from "../dom.js";
import { clearProblem, showProblem } from "../forms.js";

const sentiments = [["great", "😄 Great"], ["ok", "🙂 OK"], ["could_be_better", "😕 Could be better"]];
const moods = ["😫", "😕", "😐", "🙂", "😄"];
const energies = ["🪫", "😴", "🙂", "⚡", "🚀"];

function scale(name, legend, emoji) {
  return h("fieldset", { "data-field": name },
    h("legend", {}, legend),
    h("div", { class: "choices" },
      emoji.map((symbol, index) => h("label", { class: "choice" },
        h("input", { type: "radio", name, value: index + 1, required: true }),
        h("span", { "aria-hidden": "true" }, symbol), h("span", { class: "visually-hidden" }, `${index + 1} of 5`)))),
    h("p", { class: "field-error", role: "alert" }));
}

export async function render(main, context) {
  const streak = await api("GET", "/api/streaks/current");
  if (streak.counted && streak.basis === "check_in") {
    show(main, h("div", { class: "card narrow" },
      h("h1", {}, "Checked in ✓"),
      h("p", { class: "streak" }, `🔥 ${streak.current} day${streak.current === 1 ? "" : "s"}`),
      h("p", {}, "Come back tomorrow."),
      h("a", { href: "/app", "data-route": true }, "Back to today")));
    return;
  }
  const form = h("form", { id: "check-in", novalidate: true },
    h("fieldset", { "data-field": "sentiment" },
      h("legend", {}, "How do you feel about yesterday's steps?"),
      h("div", { class: "choices" }, sentiments.map(([value, text]) => h("label", { class: "choice" }, h("input", { type: "radio", name: "sentiment", value }), h("span", {}, text)))),
      h("p", { class: "field-error", role: "alert" })),
    scale("mood", "Mood", moods),
    scale("energy", "Energy", energies),
    h("div", { "data-field": "weightKg" },
      h("label", { for: "weightKg" }, "Weight today, kg (optional)"),
      h("input", { id: "weightKg", name: "weightKg", type: "number", inputmode: "decimal", step: "any", "aria-describedby": "weightKg-error" }),
      h("p", { class: "field-error", id: "weightKg-error", role: "alert" })),
    h("p", { class: "field-error form-error", id: "form-error", role: "alert" }),
    h("button", { type: "submit" }, "Check in"));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearProblem(form);
    const data = new FormData(form);
    const body = { mood: Number(data.get("mood") ?? 0), energy: Number(data.get("energy") ?? 0) };
    if (data.get("sentiment")) body.sentiment = data.get("sentiment");
    if (data.get("weightKg")) body.weightKg = Number(data.get("weightKg"));
    try {
      const result = await api("POST", "/api/streaks/checkin", body);
      const milestone = result.milestone ? h("p", { class: "notice celebrate" }, `🏅 ${result.milestone.badge ?? "Milestone"}!`) : null;
      show(main, h("div", { class: "card narrow", role: "status" },
        h("h1", { class: "celebrate" }, result.comeback ? "You're back! 🎉" : "Checked in ✓"),
        h("p", {}, result.message),
        h("p", {}, `Yesterday: ${result.previousDay.steps.toLocaleString()} steps`,
          result.previousDay.goalPercent !== undefined ? ` (${result.previousDay.goalPercent} % of the goal)` : ""),
        h("p", { class: "streak" }, `🔥 ${result.streak.current} day${result.streak.current === 1 ? "" : "s"}`),
        result.streak.current > 7 ? h("p", { class: "celebrate" }, "🎉 More than a week in a row!") : null,
        milestone,
        h("a", { href: "/app", "data-route": true }, "Back to today")));
      main.focus();
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      showProblem(form, problem);
    }
  });

  show(main, h("div", { class: "card narrow" }, h("h1", {}, "Daily check-in"), form));
}
