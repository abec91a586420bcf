// One leaderboard table for circles and challenges: the rank (gold, silver and bronze for the top three),
// the person ("(you)" for the caller, a link to their page where the board offers one), the value, and the
// board's own further columns. Each view says what its value is and how it reads.
import { h } from "./dom.js";

const medals = { 1: "gold", 2: "silver", 3: "bronze" };

/**
 * `columns`: [{ header, cell(row), class? }] after the rank and the person, the first being the value.
 * `linkPeople`: each other person's name leads to their page.
 */
export function boardTable({ id, caption, who, rows, columns, linkPeople = false }) {
  const person = (row) => (linkPeople && row.userId && !row.isCaller
    ? h("a", { href: `/app/people/${row.userId}`, "data-route": true }, row.displayName)
    : row.displayName);
  return h("table", { class: "board", id },
    h("caption", { class: "visually-hidden" }, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, who),
      columns.map((column) => h("th", { scope: "col" }, column.header)))),
    h("tbody", {}, rows.map((row) => h("tr", {
      class: [row.isCaller ? "me" : "", medals[row.rank] ?? ""].join(" ").trim() || null, "data-user": row.userId ?? null,
    },
    h("td", { class: "rank" }, row.rank ?? "–"),
    h("td", {}, person(row), row.isCaller ? " (you)" : ""),
    columns.map((column) => h("td", { class: column.class ?? null }, column.cell(row)))))));
}
