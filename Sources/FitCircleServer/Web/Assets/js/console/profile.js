// The active rule profile (GET /api/admin/profile): its name and description, and every section as the
// server loaded it, defaults filled in.
import { api } from "../api.js";
import { h, show } from "../dom.js";

export async function render(main) {
  const { name, description, profile } = await api("GET", "/api/admin/profile");
  show(main, h("h1", {}, `Rule profile: ${name}`), h("p", { class: "lead" }, description),
    Object.entries(profile).filter(([, value]) => typeof value === "object" && value !== null).map(([section, value]) =>
      h("details", { class: "card", "data-section": section }, h("summary", {}, h("strong", {}, section)),
        h("pre", { class: "json", tabindex: 0 }, JSON.stringify(value, null, 2)))));
}
