// Onboarding (and later the profile): the rule profile's fields and units, each refusal shown next to its
// field from the problem's `errors`, focus on the first.
import { api, Problem } from "../api.js";
import { h, show } from "../dom.js";
import { clearProblem, showProblem } from "../forms.js";

// Who may see each field of the profile (spec 004, R5.7); `boardName` is the name on circle boards and feeds.
const audiences = [["age", "Age"], ["weight", "Weight"], ["height", "Height"], ["photo", "Photo"], ["boardName", "Name on boards"]];

function field(id, label, control, hint) {
  if (hint && control.hasAttribute("aria-describedby")) {
    control.setAttribute("aria-describedby", `${id}-hint ${control.getAttribute("aria-describedby")}`);
  }
  return h("div", { class: "field", "data-field": id },
    h("label", { for: id }, label),
    hint ? h("p", { class: "fine", id: `${id}-hint` }, hint) : null,
    control,
    h("p", { class: "field-error", id: `${id}-error`, role: "alert" }));
}

function input(id, attributes) {
  return h("input", { id, name: id, "aria-describedby": `${id}-error`, ...attributes });
}

function select(id, options, selected, attributes = {}) {
  return h("select", { id, name: id, "aria-describedby": `${id}-error`, ...attributes },
    options.map(([value, text]) => h("option", { value, selected: value === selected }, text)));
}

export async function render(main, context) {
  const [config, profile] = await Promise.all([api("GET", "/api/config"), api("GET", "/api/user/profile")]);
  const weightUnit = profile.weight?.unit ?? config.units.weight;
  const heightUnit = profile.height?.unit ?? config.units.height;
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const zone = profile.onboardingCompleted ? profile.timeZone : Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zones.includes(zone)) zones.unshift(zone);

  const heightCm = input("height", { type: "number", inputmode: "decimal", min: 0, step: "any", value: profile.height?.centimeters ?? "" });
  const heightFt = input("height-feet", { type: "number", inputmode: "numeric", min: 0, step: 1, value: profile.height?.feet ?? "", "aria-label": "Feet" });
  const heightIn = input("height-inches", { type: "number", inputmode: "decimal", min: 0, step: "any", value: profile.height?.inches ?? "", "aria-label": "Inches" });
  const heightUnitSelect = select("height-unit", [["cm", "cm"], ["ft_in", "ft / in"]], heightUnit, { "aria-label": "Height unit", "aria-describedby": null });
  const heightControls = h("div", { class: "row" });
  const showHeight = () => {
    show(heightControls, ...(heightUnitSelect.value === "cm" ? [heightCm] : [heightFt, heightIn]), heightUnitSelect);
  };
  heightUnitSelect.addEventListener("change", showHeight);
  showHeight();

  const form = h("form", { id: "onboarding", novalidate: true },
    field("displayName", "Display name", input("displayName", { autocomplete: "nickname", required: true, value: profile.displayName ?? "" })),
    field("age", "Age", input("age", { type: "number", inputmode: "numeric", required: true, value: profile.age ?? "" }),
      `${config.limits.minAge}–${config.limits.maxAge}`),
    field("weight", "Weight", h("div", { class: "row" },
      input("weight", { type: "number", inputmode: "decimal", step: "any", required: true, value: profile.weight?.value ?? "" }),
      select("weight-unit", [["kg", "kg"], ["lb", "lb"]], weightUnit, { "aria-label": "Weight unit", "aria-describedby": null }))),
    field("height", "Height (optional)", heightControls),
    field("gender", "Gender (optional)", select("gender", [["", "—"], ["female", "Female"], ["male", "Male"], ["non_binary", "Non-binary"], ["other", "Other"], ["prefer_not_to_say", "Prefer not to say"]], profile.gender ?? "")),
    field("activityBaseline", "How active are you? (optional)", select("activityBaseline", [["", "—"], ["sedentary", "Mostly sitting"], ["moderate", "Moderately active"]], profile.activityBaseline ?? "")),
    field("timeZone", "Time zone", select("timeZone", zones.map((z) => [z, z.replaceAll("_", " ")]), zone)),
    profile.visibility ? h("fieldset", { "data-field": "visibility" }, h("legend", {}, "Who sees what"),
      audiences.map(([key, label]) => h("div", { class: "row" },
        h("label", { for: `visibility-${key}` }, label),
        select(`visibility-${key}`, [["everyone", "Everyone"], ["friends", "Friends"], ["only_me", "Only me"]], profile.visibility[key] ?? "everyone", { "aria-describedby": "visibility-error" }))),
      h("p", { class: "field-error", id: "visibility-error", role: "alert" })) : null,
    h("p", { class: "field-error form-error", id: "form-error", role: "alert" }),
    h("button", { type: "submit" }, profile.onboardingCompleted ? "Save" : "Start"));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearProblem(form);
    const value = (id) => form.elements[id].value.trim();
    const numberOrText = (text) => (text === "" ? undefined : Number(text));
    const body = {
      displayName: value("displayName"),
      age: numberOrText(value("age")),
      weight: { value: numberOrText(value("weight")), unit: value("weight-unit") },
      timeZone: value("timeZone"),
    };
    if (value("height-unit") === "cm" && value("height") !== "") body.height = { unit: "cm", centimeters: Number(value("height")) };
    if (value("height-unit") === "ft_in" && (value("height-feet") !== "" || value("height-inches") !== "")) {
      body.height = { unit: "ft_in", feet: Number(value("height-feet") || 0), inches: Number(value("height-inches") || 0) };
    }
    if (value("gender")) body.gender = value("gender");
    if (value("activityBaseline")) body.activityBaseline = value("activityBaseline");
    if (profile.visibility) {
      body.visibility = Object.fromEntries(audiences.map(([key]) => [key, value(`visibility-${key}`)]));
    }
    try {
      context.profile = await api("PUT", "/api/user/profile", body);
      context.navigate("/app");
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      showProblem(form, problem);
    }
  });

  show(main,
    h("div", { class: "card narrow" },
      h("h1", {}, profile.onboardingCompleted ? "Your profile" : "Welcome! Tell us about you"),
      h("p", { class: "lead" }, "Your goals, days and reminders follow your time zone."),
      form));
}
