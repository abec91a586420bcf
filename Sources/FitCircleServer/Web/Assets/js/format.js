// How figures read on the web app's pages: distances, durations, paces, time remaining, moments.
import { number } from "./dom.js";

export const workoutIcons = { walking: "🚶", running: "🏃", cycling: "🚴", strength: "🏋️", pushups: "💪", other: "⭐" };
export const workoutNames = { walking: "Walking", running: "Running", cycling: "Cycling", strength: "Strength", pushups: "Push-ups", other: "Other" };

/** "6.0 km" (or miles when the profile counts in them). */
export function distance(meters, unit = "km") {
  return unit === "mi" ? `${(meters / 1609.344).toFixed(1)} mi` : `${(meters / 1000).toFixed(1)} km`;
}

/** "30:00", "1:05:00". */
export function duration(seconds) {
  const s = Math.round(seconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** "5:00 /km". */
export function pace(secondsPerKm) {
  return `${duration(secondsPerKm)} /km`;
}

/** "6 d 23 h", "4 h 12 min", "3 min 5 s": the two largest units of a span. */
export function span(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const parts = [[Math.floor(s / 86400), "d"], [Math.floor((s % 86400) / 3600), "h"], [Math.floor((s % 3600) / 60), "min"], [s % 60, "s"]];
  const first = parts.findIndex(([value]) => value > 0);
  if (first < 0) return "0 s";
  return parts.slice(first, first + 2).filter(([value]) => value > 0).map(([value, unit]) => `${value} ${unit}`).join(" ");
}

/** "2 h ago", "yesterday", or the date. */
export function ago(iso, now = Date.now()) {
  const seconds = (now - new Date(iso).getTime()) / 1000;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 2 * 86400) return "yesterday";
  return new Date(iso).toLocaleDateString();
}

/** A workout's figures on one line: "6.0 km · 30:00 · 5:00 /km · 342 kcal". */
export function workoutFigures(item, unit) {
  return [
    item.reps ? `${number(item.reps)} push-up${item.reps === 1 ? "" : "s"}${item.series ? ` (series ${item.series})` : ""}` : null,
    item.distanceMeters ? distance(item.distanceMeters, unit) : null,
    item.durationSeconds ? duration(item.durationSeconds) : null,
    item.paceSecondsPerKm ? pace(item.paceSecondsPerKm) : null,
    item.calories ? `${number(Math.round(item.calories))} kcal` : null,
  ].filter(Boolean).join(" · ");
}

const ruleUnits = { km: "km", minutes: "min", kcal: "kcal", workouts: "workouts", xp: "XP", days: "days", seconds_per_km: "s/km", weeks: "weeks" };
const metricUnits = { distance: "km", duration: "min", calories: "kcal", workouts: "workouts", xp: "XP", active_days: "days" };
const aggregations = { total: "in total", longest: "in one workout", fastest_pace: "fastest pace", consecutive_days: "days in a row" };

/** A challenge's rule in words: "Most km in total · running · weekends only". */
export function challengeRule(rule) {
  const unit = ruleUnits[rule.unit] ?? rule.unit;
  const target = rule.target !== undefined ? `${number(rule.target)} ${unit}` : "";
  const head = rule.goal === "first_to" ? `First to ${target}` : rule.goal === "everyone_to" ? `Everyone to ${target}` : `Most ${unit}`;
  const filter = rule.filter ?? {};
  return [
    rule.aggregation === "weeks_met"
      ? `${head} of ${number(rule.weeklyTarget ?? 0)} ${metricUnits[rule.metric] ?? ""} each`.trim()
      : `${head} ${aggregations[rule.aggregation] ?? ""}`.trim(),
    filter.workoutTypes?.length ? filter.workoutTypes.map((t) => workoutNames[t] ?? t).join(", ") : null,
    filter.weekendsOnly ? "weekends only" : null,
    filter.startsAfter ? `from ${filter.startsAfter}` : null,
    filter.startsBefore ? `before ${filter.startsBefore}` : null,
    filter.minDurationMinutes ? `at least ${filter.minDurationMinutes} min` : null,
  ].filter(Boolean).join(" · ");
}

/** A value in a challenge rule's unit: "6.0 km", "5:00 /km", "7 workouts". */
export function ruleValue(value, unit) {
  if (unit === "km") return `${value.toFixed(1)} km`;
  if (unit === "seconds_per_km") return pace(value);
  if (unit === "minutes") return `${number(Math.round(value))} min`;
  return `${number(Math.round(value * 10) / 10)} ${ruleUnits[unit] ?? unit}`;
}

/** Where a challenge stands in time: "6 d 23 h left", "starts in 2 h", "ended". */
export function challengeTime(competition, elapsedSeconds = 0) {
  const now = Date.now();
  if (competition.status === "cancelled") return "cancelled";
  if (competition.status === "scheduled") return `starts in ${span((new Date(competition.startsAt) - now) / 1000)}`;
  const left = competition.secondsRemaining - elapsedSeconds;
  return left > 0 && competition.status === "active" ? `${span(left)} left` : competition.status === "settled" ? "finished" : "ended";
}
