// The last 30 days as small lines (Today; spec 000's "visual progress"): one per series that has data,
// each with its figures in words for screen readers.
import { h, svg, number } from "./dom.js";

/** A line of `values` (null: no data that day) over `width` × `height`. */
export function sparkline(values, label, width = 240, height = 48) {
  const known = values.map((value, index) => [index, value]).filter(([, value]) => value !== null && value !== undefined);
  if (known.length === 0) return null;
  const low = Math.min(...known.map(([, v]) => v)), high = Math.max(...known.map(([, v]) => v));
  const x = (index) => (4 + (index * (width - 8)) / Math.max(values.length - 1, 1)).toFixed(1);
  const y = (value) => (height - 4 - ((value - low) * (height - 8)) / Math.max(high - low, 1e-9)).toFixed(1);
  return svg("svg", { class: "sparkline", viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label },
    svg("polyline", { points: known.map(([i, v]) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "currentColor", "stroke-width": "2" }),
    known.length === 1 ? svg("circle", { cx: x(known[0][0]), cy: y(known[0][1]), r: 3, fill: "currentColor" }) : null);
}

/** The card of the last 30 days: steps, push-ups and weight where there are any. */
export function lastThirtyDays(days, dates, weightUnit) {
  const byDate = new Map(days.map((day) => [day.date, day]));
  const series = [
    ["steps", "Steps", (day) => (day ? day.steps : 0), (v) => number(Math.round(v))],
    ["pushups", "Push-ups", (day) => (day ? day.pushupReps : 0), (v) => number(Math.round(v))],
    ["weight", "Weight", (day) => day?.weightKg ?? null, (v) => weightUnit === "lb" ? `${(v / 0.45359237).toFixed(1)} lb` : `${v.toFixed(1)} kg`],
  ];
  const rows = series.flatMap(([key, name, read, shown]) => {
    const values = dates.map((date) => read(byDate.get(date)));
    const known = values.filter((v) => v !== null);
    if (known.length === 0 || known.every((v) => v === 0)) return [];
    const total = known.reduce((a, b) => a + b, 0);
    const words = key === "weight"
      ? `${name}, last 30 days: from ${shown(known[0])} to ${shown(known[known.length - 1])}`
      : `${name}, last 30 days: ${shown(total)} in all, at most ${shown(Math.max(...known))} in a day`;
    return [h("div", { class: "series", "data-series": key }, h("p", { class: "fine" }, words), sparkline(values, words))];
  });
  if (rows.length === 0) return null;
  return h("section", { class: "card thirty-days", "aria-labelledby": "thirty-title" }, h("h2", { id: "thirty-title" }, "Last 30 days"), rows);
}

/** The 30 ISO dates ending with `last` (an ISO date). */
export function thirtyDatesEnding(last) {
  const end = new Date(`${last}T00:00:00Z`);
  return Array.from({ length: 30 }, (_, index) => new Date(end.getTime() - (29 - index) * 86_400_000).toISOString().slice(0, 10));
}
