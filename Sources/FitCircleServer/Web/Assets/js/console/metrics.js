// The console's success metrics (spec 000) as charts over time from the daily rollup, with their CSV;
// the retention curves of each weekly cohort and the notification funnels, from the same report.
import { api } from "../api.js";
import { h, show } from "../dom.js";
import { funnel, curves, lineChart, pointsTable } from "../chart.js";

function formatter(kind) {
  if (kind === "share" || kind === "windowShare") return (v) => `${(v * 100).toFixed(v < 0.1 && v > 0 ? 1 : 0)} %`;
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
  return [h("div", { class: "grid" }, retentionCard(report), funnelCard(report)), h("div", { class: "grid" }, cards)];
}

const byId = (report, id) => report.metrics.find((m) => m.id === id);

/** Each cohort's retention curve (100 % on its sign-up period, then D1, D7, D30): the latest six cohorts with data. */
function retentionCard(report) {
  const [d1, d7, d30] = ["d1_retention", "d7_retention", "d30_retention"].map((id) => byId(report, id));
  const cohorts = (d1?.points ?? []).map((point, i) => ({
    name: point.period, values: [1, point.value, d7?.points[i]?.value, d30?.points[i]?.value],
  })).filter((cohort) => typeof cohort.values[1] === "number").slice(-6);
  return h("section", { class: "card", "aria-labelledby": "retention-title", id: "retention" },
    h("h2", { id: "retention-title" }, "Retention by cohort"),
    cohorts.length
      ? curves(cohorts, { labels: ["Sign-up", "D1", "D7", "D30"], format: formatter("share"), title: "Retention by cohort" })
      : h("p", { class: "fine" }, "No cohort has a D1 figure in this range yet."));
}

/** The notification funnels over the range: push delivered → opened within an hour; email sent → delivered → opened → clicked. */
function funnelCard(report) {
  const total = (id, part) => (byId(report, id)?.points ?? []).reduce((sum, p) => sum + (p[part] ?? 0), 0);
  return h("section", { class: "card", "aria-labelledby": "funnel-title", id: "funnels" },
    h("h2", { id: "funnel-title" }, "Notification funnel"),
    h("h3", {}, "Push"),
    funnel([
      { label: "Delivered", count: total("push_open_rate", "denominator") },
      { label: "Opened within 1 h", count: total("push_open_rate", "numerator") },
    ], { title: "Push funnel" }),
    h("h3", {}, "Email"),
    funnel([
      { label: "Sent", count: total("email_deliverability", "denominator") },
      { label: "Delivered", count: total("email_deliverability", "numerator") },
      { label: "Opened", count: total("email_open_rate", "numerator") },
      { label: "Clicked", count: total("email_click_rate", "numerator") },
    ], { title: "Email funnel" }));
}

export async function render(main) {
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

