// Circles: the caller's list, creating one, joining one by its code.
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";
import { showProblem } from "../forms.js";

const metrics = { steps: "Steps", checkin_streak: "Check-in streak", weight_loss_pct: "Weight loss %" };

function textField(name, label, attributes = {}) {
  const id = `circle-${name}`;
  return h("div", { "data-field": name },
    h("label", { for: id }, label),
    h("input", { id, name, "aria-describedby": `${id}-error`, ...attributes }),
    h("p", { class: "field-error", id: `${id}-error`, role: "alert" }));
}

function createForm(context) {
  const metric = h("select", { id: "circle-metric", name: "metric" }, Object.entries(metrics).map(([value, text]) => h("option", { value }, text)));
  const target = textField("targetWeightKg", "Your target weight, kg", { type: "number", step: "any", inputmode: "decimal" });
  target.hidden = true;
  metric.addEventListener("change", () => { target.hidden = metric.value !== "weight_loss_pct"; });
  const form = h("form", { id: "create-circle", class: "card", novalidate: true },
    h("h2", {}, "Create a circle"),
    textField("name", "Name", { required: true, maxlength: 60 }),
    h("div", { "data-field": "metric" }, h("label", { for: "circle-metric" }, "Compete on"), metric),
    target,
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "Create"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: form.elements.name.value.trim(), metric: metric.value };
    if (metric.value === "weight_loss_pct" && form.elements.targetWeightKg.value) body.targetWeightKg = Number(form.elements.targetWeightKg.value);
    try {
      const circle = await api("POST", "/api/fitcircles", body);
      context.navigate(`/app/circles/${circle.id}`);
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      showProblem(form, problem);
    }
  });
  return form;
}

function joinForm(context) {
  const form = h("form", { id: "join-circle", class: "card", novalidate: true },
    h("h2", {}, "Join with a code"),
    textField("code", "Code", { autocomplete: "off", autocapitalize: "characters", required: true }),
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "Join"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const circle = await api("POST", "/api/fitcircles/join", { joinCode: form.elements.code.value.trim() });
      context.navigate(`/app/circles/${circle.id}`);
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      showProblem(form, problem);
    }
  });
  return form;
}

export async function render(main, context) {
  const { items } = await api("GET", "/api/fitcircles");
  const list = items.length
    ? h("ul", { class: "circles" }, items.map((circle) => h("li", { class: "card" },
      h("h2", {}, h("a", { href: `/app/circles/${circle.id}`, "data-route": true }, circle.name)),
      h("p", { class: "muted" }, `${metrics[circle.metric] ?? circle.metric} · ${number(circle.memberCount)} member${circle.memberCount === 1 ? "" : "s"}`,
        circle.role ? ` · ${circle.role}` : ""))))
    : h("p", { class: "card" }, "You are in no circle yet: create one, or join one with the code a friend gave you.");
  show(main, h("h1", {}, "Circles"), list, h("div", { class: "grid" }, createForm(context), joinForm(context)));
}
