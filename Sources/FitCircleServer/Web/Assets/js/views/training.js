// The push-up app's screens (spec 001), shown when the profile plans push-up goals: the onboarding
// assessment and its recommendations (confirmed, adjusted or skipped), the training settings, and the
// week's summary — the "Sunday popup" — with its three choices for the daily goal once the target is met.
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";
import { showProblem, clearProblem } from "../forms.js";

const levels = [["beginner", "Beginner"], ["intermediate", "Intermediate"], ["advanced", "Advanced"]];
const choiceText = { maintain: "Keep", increase_10: "+10 %", increase_20: "+20 %" };

function numberField(name, label, value, attributes = {}) {
  const id = `training-${name}`;
  return h("div", { "data-field": name },
    h("label", { for: id }, label),
    h("input", { id, name, type: "number", inputmode: "numeric", step: 1, value: value ?? "", "aria-describedby": `${id}-error`, ...attributes }),
    h("p", { class: "field-error", id: `${id}-error`, role: "alert" }));
}

function levelField(selected) {
  return h("fieldset", { "data-field": "level" }, h("legend", {}, "Your level"),
    h("div", { class: "choices" }, levels.map(([value, text]) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "level", value, checked: value === selected }), text))),
    h("p", { class: "field-error", role: "alert" }));
}

/** The form's values as the API takes them; a field left empty is left out (the server names what is missing). */
function values(form, names) {
  const body = {};
  const level = form.querySelector("input[name=level]:checked");
  if (level) body.level = level.value;
  for (const name of names) {
    const raw = form.elements[name]?.value;
    if (raw !== undefined && raw !== "") body[name] = Number(raw);
  }
  return body;
}

async function submit(form, call) {
  clearProblem(form);
  try {
    return await call();
  } catch (problem) {
    if (!(problem instanceof Problem)) throw problem;
    showProblem(form, problem);
    return null;
  }
}

function recommendationCard(plan) {
  return h("dl", { class: "facts", id: "recommendation" },
    h("dt", {}, "Daily goal"), h("dd", {}, `${number(plan.dailyGoal)} push-ups`),
    h("dt", {}, "Weekly goal"), h("dd", {}, `${number(plan.weeklyGoal)} push-ups`),
    h("dt", {}, "Start with"), h("dd", {}, `${plan.startingSeries} series`),
    h("dt", {}, "Rest between series"), h("dd", {}, `${plan.recoverySeconds} s`));
}

/** The assessment: answers, then the recommendations to confirm (or skip for the defaults). */
function assessment(main, context) {
  const result = h("div", { "aria-live": "polite" });
  const form = h("form", { id: "assessment", class: "card", novalidate: true },
    h("h2", {}, "Your starting point"),
    h("p", { class: "fine" }, "Three answers give you a plan: how many series to start with, how long to rest, and a daily goal."),
    levelField(null),
    numberField("capacity", "The most push-ups you can do in one set", null, { min: 1, max: 500 }),
    numberField("workoutDaysPerWeek", "Days a week you will train", 5, { min: 1, max: 7 }),
    numberField("dailyGoal", "A daily goal of your own (optional)", null, { min: 1, max: 5000 }),
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "See my plan"), " ",
    h("button", { type: "button", class: "secondary", id: "skip-assessment" }, "Skip: use the defaults"));
  const answers = () => values(form, ["capacity", "workoutDaysPerWeek", "dailyGoal"]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const plan = await submit(form, () => api("POST", "/api/onboarding/assessment", answers()));
    if (!plan) return;
    show(result, h("section", { class: "card", "aria-labelledby": "plan-title" },
      h("h2", { id: "plan-title", tabindex: -1 }, "Your plan"), recommendationCard(plan),
      h("button", {
        type: "button", id: "confirm-plan",
        onclick: async () => {
          const saved = await submit(form, () => api("POST", "/api/onboarding/confirm", { ...answers(), startingSeries: plan.startingSeries, recoverySeconds: plan.recoverySeconds, dailyGoal: plan.dailyGoal }));
          if (saved) render(main, context);
        },
      }, "Start with this plan")));
    result.querySelector("#plan-title").focus();
  });
  form.querySelector("#skip-assessment").addEventListener("click", async () => {
    if (await submit(form, () => api("POST", "/api/onboarding/confirm", { skipped: true }))) render(main, context);
  });
  return [form, result];
}

/** The week's summary and, once the target is met, the three choices (one a week). */
function summaryCard(summary, onChoice) {
  const status = h("p", { role: "status", class: "fine", id: "summary-status" });
  const chosen = summary.choice;
  return h("section", { class: "card", "aria-labelledby": "summary-title", id: "weekly-summary" },
    h("h2", { id: "summary-title" }, `Week of ${new Date(`${summary.weekStart}T12:00:00Z`).toLocaleDateString(undefined, { month: "long", day: "numeric", timeZone: "UTC" })}`),
    h("p", { class: "figure" }, `${number(summary.reps)} of ${number(summary.target)} push-ups · ${summary.percent} %`),
    h("progress", { max: 100, value: Math.min(100, summary.percent), "aria-label": `The week's target: ${summary.percent} %` }),
    summary.excessReps ? h("p", { class: "fine" }, `${number(summary.excessReps)} more beyond the days' caps, tracked but not counted.`) : null,
    summary.reached
      ? (chosen
        ? h("p", { class: "status" }, `Chosen: ${choiceText[chosen]} ✓`)
        : [h("p", {}, "🎉 Target reached! Your daily goal from now:"),
          h("div", { class: "choices" }, summary.options.map((option) => h("button", {
            type: "button", class: option.choice === "maintain" ? "secondary" : null, "data-choice": option.choice,
            onclick: async (event) => {
              event.target.disabled = true;
              try {
                await onChoice(option.choice);
              } catch (problem) {
                if (!(problem instanceof Problem)) throw problem;
                status.textContent = problem.message;
                event.target.disabled = false;
              }
            },
          }, `${choiceText[option.choice]}: ${number(option.dailyGoal)} a day`)))])
      : h("p", { class: "fine" }, "Reach the week's target to choose next week's goal."),
    status);
}

function settingsForm(settings, main, context) {
  const status = h("p", { role: "status", class: "fine", id: "training-status" });
  const form = h("form", { id: "training-settings", class: "card", novalidate: true },
    h("h2", {}, "Training settings"),
    levelField(settings.level),
    h("div", { class: "grid tight" },
      numberField("capacity", "Most push-ups in one set", settings.capacity, { min: 1, max: 500 }),
      numberField("workoutDaysPerWeek", "Days a week", settings.workoutDaysPerWeek, { min: 1, max: 7 }),
      numberField("dailyGoal", "Daily goal", settings.dailyGoal, { min: 1, max: 5000 }),
      numberField("startingSeries", "Series to start with", settings.startingSeries, { min: 1, max: 100 }),
      numberField("recoverySeconds", "Rest between series, s", settings.recoverySeconds, { min: 10, max: 600 })),
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "Save"), status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const saved = await submit(form, () => api("PUT", "/api/settings/training", values(form, ["capacity", "workoutDaysPerWeek", "dailyGoal", "startingSeries", "recoverySeconds"])));
    if (saved) status.textContent = `Saved: ${number(saved.dailyGoal)} a day, ${number(saved.weeklyGoal)} a week.`;
  });
  return form;
}

export async function render(main, context) {
  const settings = await api("GET", "/api/settings/training");
  if (!settings.saved) {
    show(main, h("h1", {}, "Training"), assessment(main, context));
    return;
  }
  const summary = await api("GET", "/api/goals/weekly/summary");
  const onChoice = async (choice) => {
    await api("POST", "/api/goals/weekly/summary/choice", { choice });
    await render(main, context);
  };
  show(main, h("h1", {}, "Training"),
    h("p", { class: "lead" }, `${number(settings.dailyGoal)} push-ups a day · ${number(settings.weeklyGoal)} a week · ${settings.startingSeries} series, ${settings.recoverySeconds} s rest`),
    summaryCard(summary, onChoice),
    settingsForm(settings, main, context));
}
