// The operator console. The server serves this page to operators only; every figure comes from the
// operator-only API (403 to anyone else). Views under js/console/ are chosen by the path (router.js).
import { h } from "./dom.js";
import { startShell } from "./router.js";

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

startShell({
  routes,
  home: "/admin",
  main: document.getElementById("main"),
  context: {},
  notFound: () => [h("h1", {}, "Not found"), h("p", {}, h("a", { href: "/admin", "data-route": true }, "Back to the metrics"))],
});
