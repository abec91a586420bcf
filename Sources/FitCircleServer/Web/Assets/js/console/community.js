// Every circle and every challenge, newest first (GET /api/admin/circles, /api/admin/competitions), a
// page at a time, with their members, stakes and where each challenge stands.
import { api } from "../api.js";
import { h, show, number } from "../dom.js";

/** A table that fills a page at a time from `path`, each item drawn by `row`. */
function pagedTable(id, caption, headings, path, row) {
  const body = h("tbody");
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Older");
  let cursor = null;
  const load = async () => {
    const page = await api("GET", `${path}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    body.append(...page.items.map(row));
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: headings.length }, "None yet.")));
    cursor = page.nextCursor ?? null;
    more.hidden = !cursor;
  };
  more.addEventListener("click", load);
  const section = h("section", { "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, caption),
    h("div", { class: "scroll" }, h("table", { class: "records", id },
      h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))), body)), more);
  return { section, load };
}

export async function render(main) {
  const circles = pagedTable("all-circles", "Circles", ["Name", "Metric", "Privacy", "Members", "Zone", "Created"], "/api/admin/circles",
    (c) => h("tr", { "data-circle": c.id },
      h("td", {}, c.name, c.archivedAt ? " (archived)" : ""), h("td", {}, c.metric), h("td", {}, c.privacy),
      h("td", {}, `${number(c.members)} of ${number(c.memberLimit)}`), h("td", {}, c.timeZone), h("td", {}, new Date(c.createdAt).toLocaleDateString())));
  const challenges = pagedTable("all-challenges", "Challenges", ["Name", "Type", "Status", "Taking part", "Stake · pot", "Span"], "/api/admin/competitions",
    (c) => h("tr", { "data-challenge": c.id },
      h("td", {}, c.name, c.templateId ? h("span", { class: "fine" }, ` · ${c.templateId}`) : ""), h("td", {}, c.type), h("td", {}, c.status),
      h("td", {}, number(c.participantCount)), h("td", {}, `${number(c.stake)} · ${number(c.escrow)} XP`),
      h("td", {}, `${new Date(c.startsAt).toLocaleDateString()} – ${new Date(c.endsAt).toLocaleDateString()}`)));
  show(main, h("h1", {}, "Circles and challenges"), circles.section, challenges.section);
  await Promise.all([circles.load(), challenges.load()]);
}
