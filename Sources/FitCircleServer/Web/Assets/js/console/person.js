// A person's file in the console (GET /api/admin/users/{id}): the account, the streak and its ledger with
// reasons, the points ledger, and each notification with its decision trail and delivery attempts.
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";

const table = (caption, headings, rows, id) => h("div", { class: "scroll" },
  h("table", { class: "records", id }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: headings.length }, "None.")))));

function attempts(deliveries) {
  if (!deliveries.length) return "—";
  return h("ul", { class: "plain" }, deliveries.map((d) => h("li", {},
    `${d.channel} #${d.attempt} via ${d.provider}: ${d.outcome}`, d.status ? ` (${d.status})` : "", d.reason ? ` — ${d.reason}` : "")));
}

export async function render(main, context, { id }) {
  let file;
  try {
    file = await api("GET", `/api/admin/users/${encodeURIComponent(id)}`);
  } catch (problem) {
    if (!(problem instanceof Problem) || problem.status !== 404) throw problem;
    show(main, h("h1", {}, "No such account"), h("a", { href: "/admin/people", "data-route": true }, "Find someone"));
    return;
  }
  const { account, streak } = file;
  show(main,
    h("h1", {}, account.displayName),
    h("p", { class: "lead" }, `${account.email} · ${account.role} · ${account.timeZone} · since ${new Date(account.createdAt).toLocaleDateString()}`,
      account.disabledAt ? ` · disabled ${new Date(account.disabledAt).toLocaleString()}` : ""),
    h("div", { class: "grid" },
      h("section", { class: "card", "aria-labelledby": "file-streak" },
        h("h2", { id: "file-streak" }, "Streak"),
        h("p", { class: "figure", id: "file-streak-current" }, `🔥 ${streak.current} (best ${streak.longest})`),
        h("p", { class: "fine" }, `${streak.basis} · ${streak.freezesLeft} freeze${streak.freezesLeft === 1 ? "" : "s"} left`, streak.atRisk ? " · at risk" : "")),
      h("section", { class: "card", "aria-labelledby": "file-points" },
        h("h2", { id: "file-points" }, "Points"),
        h("p", { class: "figure" }, `${number(file.points.reduce((sum, line) => sum + line.amount, 0))} in the latest ${file.points.length} lines`))),
    table("Streak ledger (60 days)", ["Period", "Status", "Streak", "Reason"],
      [...file.streakLedger].reverse().map((e) => h("tr", {}, h("td", {}, e.period), h("td", {}, e.status), h("td", {}, e.streak), h("td", {}, e.reason))), "streak-ledger"),
    table("Points ledger (latest 50)", ["Date", "Amount", "Reason"],
      file.points.map((line) => h("tr", {}, h("td", {}, line.date), h("td", {}, line.amount > 0 ? `+${line.amount}` : line.amount), h("td", {}, line.reason))), "points-ledger"),
    table("Notifications (latest 30)", ["Decided", "Type", "Outcome", "Why", "Deliveries"],
      file.notifications.map(({ notification: n, trail, deliveries }) => h("tr", { "data-notification": n.id },
        h("td", {}, new Date(n.decidedAt).toLocaleString()),
        h("td", {}, n.type, h("br"), h("span", { class: "fine" }, n.title)),
        h("td", {}, n.status, n.reason ? ` (${n.reason})` : ""),
        h("td", {}, h("ol", { class: "trail" }, trail.map((step) => h("li", {}, step)))),
        h("td", {}, attempts(deliveries)))), "notifications"));
}
