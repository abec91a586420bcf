// One circle (spec 000 F3, F5): Overview, Members, Leaderboard and Activity tabs. The leaderboard has
// Daily / Weekly / Monthly / All-time tabs, #1–#3 in gold, silver and bronze, ▲▼ with amounts and the
// caller's own row, and follows the circle's stream: another member's claim moves it without a reload.
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";
import { live } from "../live.js";
import { tabs, selectTab } from "../tabs.js";
import { clearProblem, showProblem } from "../forms.js";
import { boardTable } from "../board.js";

const periods = [["daily", "Daily"], ["weekly", "Weekly"], ["monthly", "Monthly"], ["all_time", "All-time"]];
let stopStream = null;

function movement(move) {
  switch (move.direction) {
    case "up": return h("span", { class: "move up", title: `Up ${move.by}` }, `▲${move.by}`, h("span", { class: "visually-hidden" }, ` up ${move.by}`));
    case "down": return h("span", { class: "move down", title: `Down ${move.by}` }, `▼${move.by}`, h("span", { class: "visually-hidden" }, ` down ${move.by}`));
    case "new": return h("span", { class: "move new" }, "new");
    default: return h("span", { class: "move" }, "–");
  }
}

function formatValue(board, row) {
  if (row.value === undefined) return row.percentOfGoal !== undefined ? `${row.percentOfGoal} % of goal` : "—";
  switch (board.measure) {
    case "steps": return `${number(row.value)} steps`;
    case "streak_days": return `${number(row.value)} day${row.value === 1 ? "" : "s"}`;
    case "kg_lost": return `${row.value.toFixed(1)} kg`;
    default: return `${row.value.toFixed(1)} %`;
  }
}

function circleBoard(board) {
  return boardTable({
    id: "board",
    caption: `${board.period.replace("_", "-")} leaderboard`,
    who: "Member",
    rows: board.rows,
    columns: [
      { header: "Value", class: "value", cell: (row) => formatValue(board, row) },
      { header: "Move", cell: (row) => movement(row.movement) },
    ],
  });
}

async function leaderboardPanel(circle, panel, state) {
  const draw = async () => {
    const board = await api("GET", `/api/fitcircles/${circle.id}/leaderboard?period=${state.period}`);
    const table = panel.querySelector("#board-slot");
    if (table) show(table, circleBoard(board), h("p", { class: "fine" }, `${board.entries} of ${board.memberCount} members have claimed this period.`));
  };
  const select = (period) => {
    state.period = period;
    leaderboardPanel(circle, panel, state);
  };
  show(panel, tabs("Leaderboard period", periods, state.period, select, "period"), h("div", { id: "period-panel", role: "tabpanel", "aria-labelledby": `period-${state.period}` }, h("div", { id: "board-slot", "aria-live": "polite" }, "Loading…")));
  state.redraw = draw;
  await draw();
}

function feedList(circle, items, refresh) {
  if (!items.length) return h("p", {}, "Nothing yet: submit today's data to start the feed.");
  return h("ul", { class: "feed" }, items.map((item) => h("li", { class: "card" },
    h("p", {}, item.text),
    h("p", { class: "fine" }, new Date(item.createdAt).toLocaleString(), ` · 🔥 ${item.encouragements}`),
    item.actorId && !item.encouraged && !item.mine ? h("button", {
      type: "button", class: "secondary", "data-item": item.id,
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          await api("POST", `/api/fitcircles/${circle.id}/feed/${item.id}/encourage`, {});
          await refresh();
        } catch (problem) {
          event.target.replaceWith(h("span", { class: "fine" }, problem.message));
        }
      },
    }, "🔥 Encourage") : item.encouraged ? h("span", { class: "status" }, "Encouraged ✓") : null)));
}

async function activityPanel(circle, panel, context) {
  const refresh = async () => {
    const feed = await api("GET", `/api/fitcircles/${circle.id}/feed`);
    for (const item of feed.items) item.mine = item.actorId === context.profile.id;
    show(panel, feedList(circle, feed.items, refresh));
  };
  await refresh();
  return refresh;
}

/** The members a page at a time (GET /api/fitcircles/{id}/members), "Show more" while there are more. */
async function membersPanel(circle, panel) {
  const list = h("ul", { class: "members" });
  const more = h("button", { type: "button", class: "secondary", id: "members-more", hidden: true }, "Show more");
  let cursor = null;
  const load = async () => {
    const query = new URLSearchParams({ limit: "100" });
    if (cursor) query.set("cursor", cursor);
    const page = await api("GET", `/api/fitcircles/${circle.id}/members?${query}`);
    list.append(...page.items.map((m) => h("li", {}, m.displayName, h("span", { class: "fine" }, ` · ${m.role}`))));
    cursor = page.nextCursor ?? null;
    more.hidden = !cursor;
  };
  more.addEventListener("click", load);
  show(panel, list, more);
  await load();
}

/** Owners and admins invite a friend or an email address (POST /api/fitcircles/{id}/invite). */
function inviteForm(circle, friends) {
  const status = h("p", { role: "status", class: "fine", id: "invite-status" });
  const friend = h("select", { id: "invite-friend" }, h("option", { value: "" }, "An email address instead"),
    friends.map((f) => h("option", { value: f.userId }, f.displayName)));
  const form = h("form", { id: "invite", class: "card", novalidate: true },
    h("h2", {}, "Invite someone"),
    friends.length ? h("div", { "data-field": "userId" }, h("label", { for: "invite-friend" }, "A friend"), friend) : null,
    h("div", { "data-field": "email" },
      h("label", { for: "invite-email" }, "Email address"),
      h("input", { id: "invite-email", name: "email", type: "email", "aria-describedby": "invite-email-error" }),
      h("p", { class: "field-error", id: "invite-email-error", role: "alert" })),
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "Send the invitation"), status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearProblem(form);
    status.textContent = "";
    const body = friend.value ? { userId: friend.value } : { email: form.elements.email.value.trim() };
    try {
      await api("POST", `/api/fitcircles/${circle.id}/invite`, body);
      status.textContent = `Invitation sent to ${friend.value ? friend.selectedOptions[0].textContent : body.email}.`;
      form.elements.email.value = "";
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      showProblem(form, problem);
    }
  });
  return form;
}

async function overviewPanel(circle, panel, context) {
  const manages = circle.role === "owner" || circle.role === "admin";
  const friends = manages ? (await api("GET", "/api/friends?limit=1000")).items : [];
  const status = h("p", { role: "status", class: "fine" });
  show(panel,
    circle.description ? h("p", {}, circle.description) : null,
    h("p", {}, `${number(circle.memberCount)} of ${number(circle.memberLimit)} members · days turn at midnight in ${circle.timeZone.replaceAll("_", " ")}`),
    circle.joinCode ? h("p", {}, "Invite friends with the code ", h("strong", { id: "join-code" }, circle.joinCode)) : null,
    h("button", {
      type: "button", id: "submit-circle",
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          const claim = await api("POST", `/api/fitcircles/${circle.id}/submit`);
          status.textContent = `Submitted${claim.steps !== undefined ? `: ${number(claim.steps)} steps` : ""}.`;
        } catch (problem) {
          status.textContent = problem.message;
        } finally {
          event.target.disabled = false;
        }
      },
    }, "Submit today's data"),
    status,
    manages ? inviteForm(circle, friends) : null);
}

export async function render(main, context, { id }) {
  stopStream?.();
  let circle;
  try {
    circle = await api("GET", `/api/fitcircles/${id}`);
  } catch (problem) {
    if (!(problem instanceof Problem) || ![403, 404].includes(problem.status)) throw problem;
    show(main, h("h1", {}, "Circle not found"), h("p", {}, problem.message), h("a", { href: "/app/circles", "data-route": true }, "Your circles"));
    return;
  }
  const state = { tab: new URLSearchParams(location.search).get("tab") ?? "leaderboard", period: "daily", redraw: null, refreshFeed: null };
  const panel = h("div", { id: "circle-panel", role: "tabpanel", tabindex: 0 });
  const select = async (tab) => {
    state.tab = tab;
    selectTab(main.querySelector(".circle-tabs"), tab);
    panel.setAttribute("aria-labelledby", `circle-tab-${tab}`);
    state.redraw = null;
    state.refreshFeed = null;
    if (tab === "overview") await overviewPanel(circle, panel, context);
    if (tab === "members") await membersPanel(circle, panel);
    if (tab === "leaderboard") await leaderboardPanel(circle, panel, state);
    if (tab === "activity") state.refreshFeed = await activityPanel(circle, panel, context);
  };
  const tabList = tabs("Circle", [["overview", "Overview"], ["members", "Members"], ["leaderboard", "Leaderboard"], ["activity", "Activity"]], state.tab, select, "circle-tab");
  tabList.classList.add("circle-tabs");
  for (const button of tabList.querySelectorAll("[role=tab]")) button.setAttribute("aria-controls", "circle-panel");
  show(main, h("h1", {}, circle.name), tabList, panel);
  await select(state.tab);

  // Live: a rank moved or the feed grew, whichever node the change was made on.
  // A claim moves a member on four boards at once: one redraw for the burst, one per kind of event.
  const pending = {};
  const later = (kind, work) => { clearTimeout(pending[kind]); pending[kind] = setTimeout(work, 150); };
  stopStream = live(`/api/fitcircles/${circle.id}/stream?seconds=3600`, {
    rank: () => later("rank", () => state.redraw?.()),
    feed: () => later("feed", () => state.refreshFeed?.()),
  });
  return () => {
    stopStream?.();
    for (const timer of Object.values(pending)) clearTimeout(timer);
  };
}
