// The job queue (GET /api/admin/jobs): counts by state, the jobs of one, and a retry for a failed one.
import { api, Problem } from "../api.js";
import { h, show } from "../dom.js";
import { tabs, selectTab } from "../tabs.js";

const states = [["failed", "Failed"], ["due", "Due"], ["running", "Running"], ["scheduled", "Scheduled"]];

export async function render(main) {
  const panel = h("div", { id: "jobs-tab-panel", role: "tabpanel", tabindex: 0 });
  const status = h("p", { role: "status", class: "fine", id: "jobs-status" });
  let state = new URLSearchParams(location.search).get("state") ?? "failed";
  const list = tabs("Job state", states, state, (value) => load(value), "jobs-tab");
  async function load(value) {
    state = value;
    selectTab(list, value);
    panel.setAttribute("aria-labelledby", `jobs-tab-${value}`);
    const { counts, items } = await api("GET", `/api/admin/jobs?state=${value}&limit=100`);
    for (const [key, text] of states) list.querySelector(`#jobs-tab-${key}`).textContent = `${text} (${counts[key]})`;
    show(panel, h("div", { class: "scroll" }, h("table", { class: "records", id: "jobs" },
      h("caption", {}, `${items.length} ${value} job${items.length === 1 ? "" : "s"}`),
      h("thead", {}, h("tr", {}, ["Kind", "Run at", "Attempts", "Last error", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, items.map((job) => h("tr", { "data-job": job.id },
        h("td", {}, job.kind, h("br"), h("span", { class: "fine" }, job.dedupeKey)),
        h("td", {}, new Date(job.runAt).toLocaleString()),
        h("td", {}, `${job.attempts} of ${job.maxAttempts}`),
        h("td", {}, job.lastError ?? ""),
        h("td", {}, job.state === "failed" ? h("button", {
          type: "button", class: "secondary", "aria-label": `Retry ${job.kind} ${job.id}`,
          onclick: async (event) => {
            event.target.disabled = true;
            try {
              await api("POST", `/api/admin/jobs/${job.id}/retry`);
              status.textContent = `${job.kind} is due again.`;
              await load(state);
            } catch (problem) {
              if (!(problem instanceof Problem)) throw problem;
              status.textContent = problem.message;
            }
          },
        }, "Retry") : "")))))));
  }
  show(main, h("h1", {}, "Jobs"), status, list, panel);
  await load(state);
}
