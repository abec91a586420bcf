// The operator console. The server serves this page to operators only; every figure comes from the
// operator-only API (403 to anyone else), here spec 000's success metrics as charts over time.
import { api } from "./api.js";
import { h, show } from "./dom.js";
import { lineChart, pointsTable } from "./chart.js";

const main = document.getElementById("main");

function formatter(kind) {
  if (kind === "share") return (v) => `${(v * 100).toFixed(v < 0.1 && v > 0 ? 1 : 0)} %`;
  if (kind === "ratio") return (v) => v.toFixed(2);
  return (v) => new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(v);
}

function isoDay(date) {
  return date.toISOString().slice(0, 10);
}

async function renderMetrics(from, to, granularity) {
  const query = new URLSearchParams({ from, to, granularity });
  const report = await api("GET", `/api/admin/metrics?${query}`);
  const cards = report.metrics.map((metric) => {
    const format = formatter(metric.kind);
    const points = metric.points.map((p) => ({ label: p.period, value: p.value }));
    const latest = [...metric.points].reverse().find((p) => typeof p.value === "number");
    return h("section", { class: "card metric", "aria-labelledby": `m-${metric.id}` },
      h("h2", { id: `m-${metric.id}` }, metric.name),
      h("p", { class: "figure" }, latest ? format(latest.value) : "—",
        metric.target !== undefined ? h("span", { class: "fine" }, ` target ${format(metric.target)}`) : null),
      lineChart(points, { format, target: metric.target, title: metric.name }),
      h("details", {}, h("summary", {}, "Definition and figures"),
        h("p", { class: "fine" }, metric.definition),
        pointsTable(points, format, metric.name)));
  });
  return h("div", { class: "grid" }, cards);
}

async function start() {
  const today = new Date();
  const to = isoDay(new Date(today.getTime() - 86_400_000));
  const from = isoDay(new Date(today.getTime() - 30 * 86_400_000));
  const fromInput = h("input", { id: "from", type: "date", value: from });
  const toInput = h("input", { id: "to", type: "date", value: to });
  const granularity = h("select", { id: "granularity" },
    h("option", { value: "day" }, "Day"), h("option", { value: "week" }, "Week"), h("option", { value: "month" }, "Month"));
  const results = h("div", { "aria-live": "polite" });
  const csv = h("a", { class: "button secondary", href: "#" }, "Download CSV");
  const load = async () => {
    const query = new URLSearchParams({ from: fromInput.value, to: toInput.value, granularity: granularity.value, format: "csv" });
    csv.setAttribute("href", `/api/admin/metrics?${query}`);
    show(results, h("p", {}, "Loading…"));
    try {
      show(results, await renderMetrics(fromInput.value, toInput.value, granularity.value));
    } catch (error) {
      show(results, h("p", { role: "alert" }, error.message));
    }
  };
  const form = h("form", { class: "card filters" },
    h("div", { class: "row" },
      h("div", {}, h("label", { for: "from" }, "From"), fromInput),
      h("div", {}, h("label", { for: "to" }, "To"), toInput),
      h("div", {}, h("label", { for: "granularity" }, "Granularity"), granularity)),
    h("button", { type: "submit" }, "Show"), " ", csv);
  form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
  show(main, h("h1", {}, "Success metrics"), h("p", { class: "lead" }, "Spec 000's figures, from the daily rollup."), form, results);
  await load();
}

start().catch((error) => show(main, h("p", { role: "alert" }, error.message)));
