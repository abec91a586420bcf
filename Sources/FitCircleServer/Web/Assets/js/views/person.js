// Someone's page (spec 004 R5.5–R6.8, spec 002 §3): what their privacy settings let the caller see, where
// the two stand with the action that fits, their badges and challenge record, and for a friend the
// head-to-head record of the challenges the two met in.
import { api, Problem } from "../api.js";
import { actionButton } from "../forms.js";
import { h, show, number } from "../dom.js";
import { distance, duration, pace, workoutIcons, workoutNames } from "../format.js";
import { lastThirtyDays } from "../sparkline.js";

const categoryIcons = { streak: "🔥", participation: "🏅", victory: "🏆", specialty: "⭐", social: "🤝" };
const standing = {
  self: "This is you.", friends: "Friends ✓", outgoing: "You asked to be friends.", incoming: "They asked to be friends.",
  blocked: "You blocked them.", none: "",
};

/** The buttons for where the two stand: each calls the API, then the page is drawn again. */
function actions(person, redraw, status) {
  const target = { userId: person.userId };
  const button = (text, call, secondary = true) => actionButton(text, call, redraw, status, { class: secondary ? "secondary" : null });
  const block = button("Block", () => api("POST", "/api/friends/blocks", target));
  switch (person.friendship) {
    case "none": return [button("Add friend", () => api("POST", "/api/friends/request", target), false), " ", block];
    case "incoming": return [button("Accept", () => api("POST", "/api/friends/accept", target), false), " ",
      button("Decline", () => api("POST", "/api/friends/decline", target)), " ", block];
    case "outgoing": return [button("Withdraw request", () => api("DELETE", `/api/friends/requests/${person.userId}`)), " ", block];
    case "friends": return [button("Remove friend", () => api("DELETE", `/api/friends/${person.userId}`)), " ", block];
    case "blocked": return [button("Unblock", () => api("DELETE", `/api/friends/blocks/${person.userId}`))];
    default: return [];
  }
}

function statisticsCard(statistics, unit) {
  return h("section", { class: "card", "aria-labelledby": "stats-title" },
    h("h2", { id: "stats-title" }, "Workouts"),
    h("p", {}, `${number(statistics.workouts)} workouts · ${distance(statistics.distanceMeters, unit)} · ${duration(statistics.durationSeconds)}`),
    statistics.personalRecords.length ? h("ul", { class: "plain" }, statistics.personalRecords.map((record) => h("li", {},
      `${workoutIcons[record.type] ?? ""} ${workoutNames[record.type] ?? record.type}: `,
      [record.longestDistanceMeters ? `longest ${distance(record.longestDistanceMeters, unit)}` : null,
        record.longestDurationSeconds ? `longest ${duration(record.longestDurationSeconds)}` : null,
        record.fastestPaceSecondsPerKm ? `fastest ${pace(record.fastestPaceSecondsPerKm)}` : null].filter(Boolean).join(", ")))) : null);
}

function recordCard(record) {
  return h("section", { class: "card", "aria-labelledby": "record-title", id: "challenge-record" },
    h("h2", { id: "record-title" }, "Challenges"),
    h("p", { class: "figure" }, `${number(record.wins)} of ${number(record.challenges)} won`),
    h("p", { class: "fine" }, `Win rate ${Math.round(record.winRate * 100)} % · win streak ${record.currentWinStreak} (best ${record.longestWinStreak})`,
      record.averagePlacement !== undefined ? ` · average place ${record.averagePlacement.toFixed(1)}` : "",
      ` · XP won ${number(record.xpWon)}, lost ${number(record.xpLost)}`));
}

/** The two friends' meetings: wins, losses, draws, the streak and the last five. */
function headToHeadCard(person, rivalry) {
  const { record } = rivalry;
  const streak = record.streak > 0 ? `You have won the last ${record.streak}.` : record.streak < 0 ? `${person.displayName} has won the last ${-record.streak}.` : "";
  return h("section", { class: "card", "aria-labelledby": "h2h-title", id: "head-to-head" },
    h("h2", { id: "h2h-title" }, `You against ${person.displayName}`),
    h("p", { class: "figure" }, `${record.wins} – ${record.losses}`, record.draws ? ` – ${record.draws}` : ""),
    h("p", { class: "fine" }, `${record.wins} won, ${record.losses} lost, ${record.draws} drawn · XP won ${number(record.xpWon)}, lost ${number(record.xpLost)}. ${streak}`),
    rivalry.lastFive.length
      ? h("ol", { class: "plain" }, rivalry.lastFive.map((meeting) => h("li", {},
        { win: "🏆 Won", loss: "Lost", draw: "Drew" }[meeting.outcome], " ",
        h("a", { href: `/app/challenges/${meeting.competitionId}`, "data-route": true }, meeting.name))))
      : h("p", {}, "You have not met in a finished challenge yet. Challenge them!"),
    h("a", { class: "button", href: `/app/challenges?tab=create&invite=${person.userId}`, "data-route": true }, `Challenge ${person.displayName}`));
}

export async function render(main, context, { id }) {
  let person;
  try {
    person = await api("GET", `/api/users/${encodeURIComponent(id)}`);
  } catch (problem) {
    if (!(problem instanceof Problem) || ![403, 404].includes(problem.status)) throw problem;
    show(main, h("h1", {}, "Person not found"), h("p", {}, problem.message), h("a", { href: "/app/friends", "data-route": true }, "Your friends"));
    return;
  }
  const optional = (promise) => promise.catch((problem) => { if (problem instanceof Problem) return null; throw problem; });
  const [badges, record, rivalry] = await Promise.all([
    optional(api("GET", `/api/users/${person.userId}/badges`)),
    optional(api("GET", `/api/users/${person.userId}/challenge-record`)),
    person.friendship === "friends" ? optional(api("GET", `/api/users/${person.userId}/rivalry`)) : null,
  ]);
  const status = h("p", { role: "status", class: "fine" });
  const facts = [person.age ? `${person.age} years` : null, person.heightCm ? `${Math.round(person.heightCm)} cm` : null,
    person.weightKg ? `${person.weightKg.toFixed(1)} kg` : null].filter(Boolean).join(" · ");
  show(main,
    h("h1", {}, person.displayName),
    h("div", { class: "card", id: "standing" },
      h("p", { "data-friendship": person.friendship }, standing[person.friendship] ?? ""),
      facts ? h("p", { class: "fine" }, facts) : null,
      actions(person, () => render(main, context, { id }), status), status),
    rivalry ? headToHeadCard(person, rivalry) : null,
    h("div", { class: "grid" },
      person.statistics ? statisticsCard(person.statistics, context.config.units.distance) : null,
      person.statistics
        ? lastThirtyDays(
          person.statistics.lastThirtyDays.map((day) => ({ date: day.date, steps: day.steps, pushupReps: day.pushups, weightKg: day.weightKg })),
          person.statistics.lastThirtyDays.map((day) => day.date), context.profile?.weight?.unit)
        : null,
      record ? recordCard(record) : null),
    badges?.badges.length ? h("section", { class: "card", "aria-labelledby": "their-badges" },
      h("h2", { id: "their-badges" }, "Badges"),
      h("ul", { class: "plain inline" }, badges.badges.map((badge) => h("li", {},
        h("span", { "aria-hidden": "true" }, `${categoryIcons[badge.category] ?? "🏅"} `), badge.name)))) : null);
}
