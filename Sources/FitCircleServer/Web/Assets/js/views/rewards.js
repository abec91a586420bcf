// Points, level and badges (spec 001, spec 002): the level's progress, today's points, every badge with
// its progress, and the showcase of up to three unlocked badges (the server checks the choice).
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";

function levelCard(points) {
  const span = Math.max(1, points.nextLevelAt - points.levelStartsAt);
  const done = Math.min(span, Math.max(0, points.totalPoints - points.levelStartsAt));
  return h("section", { class: "card", "aria-labelledby": "level-title" },
    h("h2", { id: "level-title" }, `Level ${points.level}`),
    h("p", { class: "figure", id: "total-points" }, `${number(points.totalPoints)} ${points.unit}`),
    h("progress", { max: span, value: done, "aria-label": `Level ${points.level + 1}` }),
    h("p", { class: "fine" }, `${number(points.pointsToNextLevel)} ${points.unit} to level ${points.level + 1}`));
}

// A badge's `icon` names an Apple SF Symbol for the apps; the web shows its category's emoji instead.
const categoryIcons = { streak: "🔥", participation: "🏅", victory: "🏆", specialty: "⭐", social: "🤝" };

function badgeItem(badge, showcase, onToggle) {
  const featured = showcase.includes(badge.id);
  return h("li", { class: `badge card${badge.unlocked ? " unlocked" : ""}`, "data-badge": badge.id },
    h("p", { class: "icon", "aria-hidden": "true" }, categoryIcons[badge.category] ?? "🏅"),
    h("h3", {}, badge.name),
    h("p", { class: "fine" }, badge.description),
    badge.unlocked
      ? h("p", { class: "status" }, "Unlocked ✓")
      : h("progress", { max: 100, value: Math.round(badge.progress * 100), "aria-label": `${badge.name}: ${Math.round(badge.progress * 100)} %` }),
    h("p", { class: "fine" }, `${badge.rarity} · ${badge.xp} XP · held by ${Math.round(badge.holders * 100)} %`),
    badge.unlocked ? h("button", { type: "button", class: "secondary", "aria-pressed": featured ? "true" : "false", onclick: () => onToggle(badge.id) },
      featured ? "Featured ★" : "Feature") : null);
}

export async function render(main) {
  const [stats, catalog] = await Promise.all([api("GET", "/api/user/stats"), api("GET", "/api/badges")]);
  const status = h("p", { role: "status", class: "fine", id: "showcase-status" });
  let showcase = [...catalog.showcase];
  const list = h("ul", { class: "badges" });
  const draw = () => show(list, catalog.badges.map((b) => badgeItem(b, showcase, toggle)));
  async function toggle(id) {
    const chosen = showcase.includes(id) ? showcase.filter((b) => b !== id) : [...showcase, id];
    try {
      const saved = await api("PUT", "/api/badges/showcase", { badgeIds: chosen });
      showcase = saved.showcase.map((b) => b.id);
      status.textContent = "Showcase saved.";
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      status.textContent = problem.errors.map((e) => e.reason).join(" ") || problem.message;
    }
    draw();
  }
  draw();
  const today = stats.points.today;
  show(main,
    h("h1", {}, "Points and badges"),
    h("div", { class: "grid" }, levelCard(stats.points),
      h("section", { class: "card", "aria-labelledby": "today-title" },
        h("h2", { id: "today-title" }, "Today"),
        h("p", { class: "figure" }, `${number(today?.points ?? 0)} ${stats.points.unit}`),
        h("p", { class: "fine" }, `${number(stats.totalSteps)} steps and ${number(stats.activeDays)} active days in all`))),
    h("section", { "aria-labelledby": "badges-title" }, h("h2", { id: "badges-title" }, "Badges"), status, list));
}
