// One challenge (spec 002, spec 004 R8, R16): its rule, the time remaining counting down, the stake and
// the pot, Join / Decline / Leave as the caller's place allows, a link with the code to share, and the
// board, live from the challenge's stream; once settled, who won and what each was paid.
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";
import { live } from "../live.js";
import { actionButton } from "../forms.js";
import { boardTable } from "../board.js";
import { challengeRule, challengeTime, ruleValue } from "../format.js";
import { typeNames } from "./challenges.js";

let stopStream = null;
let ticker = null;
// The board's redraw after a burst of rank events.
let pending = null;

function challengeBoard(board, unit, settled) {
  const rows = [...board.rows];
  if (board.me && !rows.some((row) => row.isCaller)) rows.push(board.me);
  return boardTable({
    id: "challenge-board",
    caption: "Challenge leaderboard",
    who: "Participant",
    rows,
    linkPeople: true,
    columns: [
      { header: "So far", class: "value", cell: (row) => (row.value !== undefined ? ruleValue(row.value, unit) : "nothing yet") },
      settled ? { header: "Result", cell: (row) => [row.won ? "🏆 Won" : "", row.payout ? ` +${number(row.payout)} XP` : ""] } : null,
    ].filter(Boolean),
  });
}

function actions(competition, redraw, status) {
  const code = new URLSearchParams(location.search).get("code");
  const act = (text, path, primary) => actionButton(text,
    () => api("POST", `/api/competitions/${competition.id}/${path}`, path === "join" ? (code ? { joinCode: code } : {}) : undefined),
    redraw, status, { class: primary ? null : "secondary", id: `challenge-${path}` });
  const open = ["scheduled", "active"].includes(competition.status);
  const buttons = [];
  if (open && competition.myState !== "joined") buttons.push(act(competition.stake ? `Join (stake ${number(competition.stake)} XP)` : "Join", "join", true));
  if (open && competition.myState === "invited") buttons.push(act("Decline", "decline"));
  if (competition.status === "scheduled" && competition.myState === "joined") buttons.push(act("Leave", "leave"));
  return buttons.flatMap((button) => [button, " "]);
}

export async function render(main, context, { id }) {
  stopStream?.();
  clearInterval(ticker);
  clearTimeout(pending);
  const code = new URLSearchParams(location.search).get("code");
  let board;
  try {
    const competition = await api("GET", `/api/competitions/${encodeURIComponent(id)}${code ? `?joinCode=${encodeURIComponent(code)}` : ""}`);
    // Someone who holds only the code sees the challenge before joining, but not its board.
    board = await api("GET", `/api/competitions/${competition.id}/leaderboard`).catch((problem) => {
      if (problem instanceof Problem && problem.status === 403) return { competition, rows: [], entries: 0, hidden: true };
      throw problem;
    });
  } catch (problem) {
    if (!(problem instanceof Problem) || ![403, 404].includes(problem.status)) throw problem;
    show(main, h("h1", {}, "Challenge not found"), h("p", {}, problem.message), h("a", { href: "/app/challenges", "data-route": true }, "Your challenges"));
    return;
  }
  const { competition } = board;
  const settled = competition.status === "settled";
  const status = h("p", { role: "status", class: "fine", id: "challenge-status" });
  // The time left, counted down here between the server's answers.
  const clock = h("p", { class: "figure", id: "time-remaining", role: "timer" }, challengeTime(competition));
  const opened = Date.now();
  ticker = setInterval(() => { clock.textContent = challengeTime(competition, Math.floor((Date.now() - opened) / 1000)); }, 1000);
  const share = competition.joinCode
    ? `${location.origin}/app/challenges/${competition.id}?code=${encodeURIComponent(competition.joinCode)}` : null;
  const slot = h("div", { id: "challenge-board-slot", "aria-live": "polite" }, challengeBoard(board, competition.rule.unit, settled));
  show(main,
    h("h1", {}, competition.name),
    h("div", { class: "grid" },
      h("section", { class: "card", "aria-labelledby": "rule-title" },
        h("h2", { id: "rule-title" }, typeNames[competition.type] ?? competition.type),
        h("p", { id: "challenge-rule" }, challengeRule(competition.rule)),
        competition.description ? h("p", { class: "fine" }, competition.description) : null,
        h("p", { class: "fine" }, `${new Date(competition.startsAt).toLocaleString()} – ${new Date(competition.endsAt).toLocaleString()}`)),
      h("section", { class: "card", "aria-labelledby": "time-title" },
        h("h2", { id: "time-title" }, "Time"),
        clock,
        h("p", { class: "fine" }, `${number(competition.participantCount)} taking part (at least ${competition.minParticipants})`,
          competition.stake ? ` · stake ${number(competition.stake)} XP · pot ${number(competition.escrow)} XP` : " · no stake"),
        actions(competition, () => render(main, context, { id }), status), status)),
    share ? h("p", { class: "card" }, "Invite with this link: ", h("a", { href: share, id: "challenge-share" }, share)) : null,
    settled && board.me ? h("p", { class: "notice" }, board.me.won ? "🏆 You won!" : `You finished #${board.me.rank ?? "–"}.`,
      board.me.payout ? ` ${number(board.me.payout)} XP paid to you.` : "") : null,
    h("h2", {}, settled ? "Final standings" : "Leaderboard"),
    slot,
    h("p", { class: "fine" }, `${board.entries} of ${competition.participantCount} have something counted.`));

  if (["scheduled", "active", "ended"].includes(competition.status) && !board.hidden) {
    stopStream = live(`/api/competitions/${competition.id}/stream?seconds=3600`, {
      rank: () => {
        clearTimeout(pending);
        pending = setTimeout(async () => {
          const fresh = await api("GET", `/api/competitions/${competition.id}/leaderboard`);
          show(slot, challengeBoard(fresh, competition.rule.unit, fresh.competition.status === "settled"));
        }, 150);
      },
    });
  }
  return () => {
    stopStream?.();
    clearInterval(ticker);
    clearTimeout(pending);
  };
}
