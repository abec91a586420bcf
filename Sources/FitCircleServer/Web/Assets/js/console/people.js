// The console's lookup: an account by id, exact address or the start of a name (GET /api/admin/users).
import { api, Problem } from "../api.js";
import { h, show } from "../dom.js";
import { showProblem } from "../forms.js";

export function accountRow(account) {
  return h("tr", { "data-user": account.userId },
    h("td", {}, h("a", { href: `/admin/people/${account.userId}`, "data-route": true }, account.displayName)),
    h("td", {}, account.email),
    h("td", {}, account.role, account.disabledAt ? " · disabled" : "", account.onboardingCompleted ? "" : " · not onboarded"),
    h("td", {}, account.timeZone),
    h("td", {}, new Date(account.createdAt).toLocaleDateString()));
}

export async function render(main) {
  const results = h("div", { id: "account-results", "aria-live": "polite" });
  const form = h("form", { id: "find-accounts", class: "card", role: "search", novalidate: true },
    h("div", { "data-field": "q" },
      h("label", { for: "account-q" }, "Id, email address or name"),
      h("input", { id: "account-q", name: "q", type: "search", "aria-describedby": "account-q-error" }),
      h("p", { class: "field-error", id: "account-q-error", role: "alert" })),
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "Find"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { items } = await api("GET", `/api/admin/users?q=${encodeURIComponent(form.elements.q.value.trim())}`);
      form.querySelector(".field-error").textContent = "";
      form.elements.q.removeAttribute("aria-invalid");
      show(results, items.length
        ? h("div", { class: "scroll" }, h("table", { class: "records" }, h("caption", {}, `${items.length} found`),
          h("thead", {}, h("tr", {}, ["Name", "Email", "Role", "Zone", "Since"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, items.map(accountRow))))
        : h("p", {}, "Nobody found."));
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      showProblem(form, problem);
    }
  });
  show(main, h("h1", {}, "People"), h("p", { class: "lead" }, "A person's file: their streak ledger, points ledger and notifications with the decisions and deliveries behind them."), form, results);
}
