// The operator console. The server serves this page to operators only; every figure comes from the
// operator-only API (403 to anyone else). Views under js/console/ are chosen by the path (router.js).
import { h, show } from "./dom.js";
import { followLinks, markCurrent, match } from "./router.js";

const routes = [
  ["/admin", () => import("./console/metrics.js")],
  ["/admin/people", () => import("./console/people.js")],
  ["/admin/people/:id", () => import("./console/person.js")],
  ["/admin/jobs", () => import("./console/jobs.js")],
  ["/admin/deliveries", () => import("./console/deliveries.js")],
  ["/admin/community", () => import("./console/community.js")],
  ["/admin/experiments", () => import("./console/experiments.js")],
  ["/admin/profile", () => import("./console/profile.js")],
];

const main = document.getElementById("main");
const context = { navigate };

async function route() {
  const path = location.pathname.replace(/\/+$/, "") || "/admin";
  const found = match(routes, path);
  markCurrent(found?.section);
  if (!found) {
    show(main, h("h1", {}, "Not found"), h("p", {}, h("a", { href: "/admin", "data-route": true }, "Back to the metrics")));
    return;
  }
  const view = await found.load();
  await view.render(main, context, found.parameters);
}

function navigate(path) {
  history.pushState(null, "", path);
  return route().then(() => main.focus());
}

followLinks(navigate);
window.addEventListener("popstate", () => route());
route().catch((error) => show(main, h("p", { role: "alert" }, error.message)));
