// The delivery log (GET /api/admin/deliveries): every attempt to hand a notification to a provider, with
// its answer, latest first, filtered by channel and outcome, a page at a time.
import { api } from "../api.js";
import { h, show } from "../dom.js";

const select = (id, label, values) => h("div", {}, h("label", { for: id }, label),
  h("select", { id }, h("option", { value: "" }, "Any"), values.map((v) => h("option", { value: v }, v))));

export async function render(main) {
  const body = h("tbody");
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Older");
  const filters = h("form", { class: "card filters", id: "delivery-filters" },
    h("div", { class: "row" },
      select("delivery-channel", "Channel", ["push", "email", "in_app"]),
      select("delivery-outcome", "Outcome", ["delivered", "retryable", "permanent", "target_dead", "target_suspect"])),
    h("button", { type: "submit" }, "Show"));
  let cursor = null;
  const load = async (reset) => {
    if (reset) { body.replaceChildren(); cursor = null; }
    const query = new URLSearchParams({ limit: "50" });
    for (const [name, id] of [["channel", "delivery-channel"], ["outcome", "delivery-outcome"]]) {
      const value = filters.querySelector(`#${id}`).value;
      if (value) query.set(name, value);
    }
    if (cursor) query.set("cursor", cursor);
    const page = await api("GET", `/api/admin/deliveries?${query}`);
    body.append(...page.items.map(({ id, notificationType, userId, attempt: a }) => h("tr", { "data-delivery": id },
      h("td", {}, new Date(a.attemptedAt).toLocaleString()),
      h("td", {}, h("a", { href: `/admin/people/${userId}`, "data-route": true }, notificationType)),
      h("td", {}, `${a.channel} → ${a.target}`),
      h("td", {}, `${a.provider} #${a.attempt}`),
      h("td", { class: `outcome ${a.outcome}` }, a.outcome),
      h("td", {}, [a.status, a.reason].filter((v) => v !== undefined).join(" · ")),
      h("td", {}, `${a.latencyMs} ms`))));
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 7 }, "No attempt matches.")));
    cursor = page.nextCursor ?? null;
    more.hidden = !cursor;
  };
  filters.addEventListener("submit", (event) => { event.preventDefault(); load(true); });
  more.addEventListener("click", () => load(false));
  show(main, h("h1", {}, "Deliveries"), filters,
    h("div", { class: "scroll" }, h("table", { class: "records", id: "deliveries" }, h("caption", {}, "Attempts, latest first"),
      h("thead", {}, h("tr", {}, ["When", "Notification", "Target", "Provider", "Outcome", "Answer", "Latency"].map((t) => h("th", { scope: "col" }, t)))),
      body)), more);
  await load(true);
}
