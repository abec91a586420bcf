// A line chart as SVG, drawn from a metric's points: no library, nothing inline the CSP would refuse.
import { svg, h } from "./dom.js";

const width = 320;
const height = 140;
const pad = { left: 40, right: 10, top: 10, bottom: 24 };

/** `points`: [{label, value|undefined}]; `format` turns a value into text; `target` draws a dashed line. */
export function lineChart(points, { format = String, target, title }) {
  const values = points.map((p) => p.value).filter((v) => typeof v === "number");
  const max = Math.max(target ?? 0, ...values, 0) || 1;
  const x = (i) => pad.left + (points.length <= 1 ? 0 : (i * (width - pad.left - pad.right)) / (points.length - 1));
  const y = (v) => pad.top + (1 - v / max) * (height - pad.top - pad.bottom);
  const segments = [];
  let current = [];
  points.forEach((p, i) => {
    if (typeof p.value === "number") current.push(`${x(i).toFixed(1)},${y(p.value).toFixed(1)}`);
    else if (current.length) { segments.push(current); current = []; }
  });
  if (current.length) segments.push(current);
  const last = [...points].reverse().find((p) => typeof p.value === "number");
  const summary = last ? `${title}: ${format(last.value)} on ${last.label}` : `${title}: no data`;
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, class: "chart" },
    svg("title", {}, summary),
    svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: pad.left - 4, y: y(max) + 4, class: "tick", "text-anchor": "end" }, format(max)),
    svg("text", { x: pad.left - 4, y: y(0) + 4, class: "tick", "text-anchor": "end" }, format(0)),
    points.length ? svg("text", { x: pad.left, y: height - 6, class: "tick" }, points[0].label) : null,
    points.length > 1 ? svg("text", { x: width - pad.right, y: height - 6, class: "tick", "text-anchor": "end" }, points.at(-1).label) : null,
    target !== undefined ? svg("line", { x1: pad.left, x2: width - pad.right, y1: y(target), y2: y(target), class: "target" }) : null,
    ...segments.map((s) => (s.length === 1
      ? svg("circle", { cx: s[0].split(",")[0], cy: s[0].split(",")[1], r: 3, class: "dot" })
      : svg("polyline", { points: s.join(" "), class: "line" }))));
}

/** A table of the same points, for screen readers and for reading exact figures. */
export function pointsTable(points, format, caption) {
  return h("table", { class: "figures" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Period"), h("th", { scope: "col" }, "Value"))),
    h("tbody", {}, points.map((p) => h("tr", {}, h("td", {}, p.label), h("td", {}, typeof p.value === "number" ? format(p.value) : "—")))));
}

/**
 * Several lines over the same labels (retention curves: one line per cohort over D0, D1, D7, D30).
 * `series`: [{name, values: [number|undefined per label]}]; a legend and a table say the same in text.
 */
export function curves(series, { labels, format = String, title }) {
  const max = Math.max(0, ...series.flatMap((s) => s.values.filter((v) => typeof v === "number"))) || 1;
  const x = (i) => pad.left + (labels.length <= 1 ? 0 : (i * (width - pad.left - pad.right)) / (labels.length - 1));
  const y = (v) => pad.top + (1 - v / max) * (height - pad.top - pad.bottom);
  const lines = series.map((s, index) => {
    const points = s.values.map((v, i) => (typeof v === "number" ? `${x(i).toFixed(1)},${y(v).toFixed(1)}` : null)).filter(Boolean);
    return svg("polyline", { points: points.join(" "), class: `line series-${index % 6}` });
  });
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}: ${series.length} cohorts`, class: "chart" },
    svg("title", {}, title),
    svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: pad.left - 4, y: y(max) + 4, class: "tick", "text-anchor": "end" }, format(max)),
    svg("text", { x: pad.left - 4, y: y(0) + 4, class: "tick", "text-anchor": "end" }, format(0)),
    ...labels.map((label, i) => svg("text", { x: x(i), y: height - 6, class: "tick", "text-anchor": i === 0 ? "start" : i === labels.length - 1 ? "end" : "middle" }, label)),
    ...lines);
  const legend = h("ul", { class: "legend" }, series.map((s, index) => h("li", {}, h("span", { class: `swatch series-${index % 6}`, "aria-hidden": "true" }), s.name)));
  const table = h("table", { class: "figures" },
    h("caption", {}, title),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Cohort"), labels.map((label) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, series.map((s) => h("tr", {}, h("th", { scope: "row" }, s.name), s.values.map((v) => h("td", {}, typeof v === "number" ? format(v) : "—"))))));
  return [chart, legend, h("details", {}, h("summary", {}, "Figures"), table)];
}

/** A funnel: each step's count as a bar, with its share of the first step. `steps`: [{label, count}]. */
export function funnel(steps, { title }) {
  const first = steps[0]?.count || 0;
  const list = h("ol", { class: "funnel", "aria-label": title }, steps.map((step) => {
    const share = first ? step.count / first : 0;
    const bar = h("span", { class: "bar" });
    bar.style.width = `${Math.max(1, Math.round(share * 100))}%`; // the CSSOM: no inline style attribute
    return h("li", {}, h("span", { class: "step" }, step.label),
      h("span", { class: "track" }, bar),
      h("span", { class: "count" }, `${new Intl.NumberFormat().format(step.count)}${first ? ` · ${Math.round(share * 100)} %` : ""}`));
  }));
  return list;
}
