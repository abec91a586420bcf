// Experiments (GET /api/admin/experiments): each with its state, rollout and variants, and its read-out
// per variant with intervals (GET /api/admin/experiments/{id}/results).
import { api } from "../api.js";
import { h, show } from "../dom.js";

const percent = (v) => `${(v * 100).toFixed(1)} %`;

async function readOut(experiment, slot) {
  const results = await api("GET", `/api/admin/experiments/${experiment.id}/results`);
  show(slot, h("div", { class: "scroll" }, h("table", { class: "records" },
    h("caption", {}, `Through ${results.through}, ${Math.round(results.confidence * 100)} % intervals (${results.test})`),
    h("thead", {}, h("tr", {}, ["Variant", "Exposed", "Measure", "Value", "Interval", "Against control"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, results.variants.flatMap((variant) => variant.measures.map((m) => h("tr", {},
      h("td", {}, variant.name, variant.control ? " (control)" : ""), h("td", {}, variant.exposed), h("td", {}, m.measure),
      h("td", {}, `${percent(m.value)} (${m.successes}/${m.trials})`), h("td", {}, `${percent(m.low)} – ${percent(m.high)}`),
      h("td", {}, m.comparison ? `${m.comparison.significant ? "significant" : "not significant"}` : "", m.warning ? h("span", { class: "fine" }, ` ${m.warning}`) : ""))))))));
}

export async function render(main) {
  const { experiments } = await api("GET", "/api/admin/experiments");
  show(main, h("h1", {}, "Experiments"),
    experiments.length ? h("ul", { class: "plain" }, experiments.map((experiment) => {
      const slot = h("div", { "aria-live": "polite" });
      return h("li", { class: "card", "data-experiment": experiment.id },
        h("h2", {}, experiment.name),
        h("p", { class: "fine" }, `${experiment.state} · rollout ${experiment.rolloutPercent} % · `,
          experiment.variants.map((v) => `${v.name}${v.control ? " (control)" : ""} ×${v.weight}`).join(", ")),
        experiment.description ? h("p", {}, experiment.description) : null,
        h("button", { type: "button", class: "secondary", onclick: (event) => { event.target.remove(); readOut(experiment, slot); } }, "Read out"),
        slot);
    })) : h("p", { class: "card" }, "No experiment yet: POST /api/admin/experiments (see the API reference)."));
}
