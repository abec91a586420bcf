// The one way a page of the web app chooses its view by path: the member's app (/app/…) and the console
// (/admin/…) run the same shell (`startShell`). A route is [pattern, load]: `:name` takes one segment, `load`
// imports the view's module, whose `render(main, context, parameters)` may return its cleanup (streams
// closed, timers stopped), called before the next view is shown.
import { h, show } from "./dom.js";

/** The route of `path`, with its parameters and its section (the first two segments, for the navigation). */
export function match(routes, path) {
  const parts = path.split("/");
  for (const [pattern, load] of routes) {
    const expected = pattern.split("/");
    if (expected.length !== parts.length) continue;
    const parameters = {};
    if (expected.every((segment, i) => (segment.startsWith(":") ? (parameters[segment.slice(1)] = decodeURIComponent(parts[i])) : segment === parts[i]))) {
      return { load, parameters, section: `/${expected.slice(1, 3).join("/")}` };
    }
  }
  return null;
}

/** Marks the navigation's link to `section` as the current page. */
export function markCurrent(section) {
  for (const link of document.querySelectorAll("header a[data-route]")) {
    if (link.getAttribute("href") === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** Links marked data-route change the view without a reload (`navigate(path)`). */
export function followLinks(navigate) {
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-route]");
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(link.getAttribute("href"));
  });
}

/**
 * Runs a page's views: `routes` by path (`home` for the bare prefix), links marked data-route and the
 * browser's back and forward. `before(path)` may answer another path to go to instead (onboarding first);
 * `section(found)` names the navigation's current link. A navigation that fails shows why in `main`
 * instead of leaving the last view half drawn. Answers `navigate(path, { replace })`.
 */
export function startShell({ routes, home, main, context, notFound, before = async () => null, section = (found) => found?.section }) {
  let cleanup = null;
  async function route() {
    const path = location.pathname.replace(/\/+$/, "") || home;
    const elsewhere = await before(path);
    if (elsewhere && elsewhere !== path) return navigate(elsewhere, { replace: true });
    const leaving = cleanup;
    cleanup = null;
    leaving?.();
    const found = match(routes, path);
    markCurrent(section(found));
    if (!found) return show(main, ...notFound());
    const view = await found.load();
    const done = await view.render(main, context, found.parameters);
    if (typeof done === "function") cleanup = done;
  }
  async function shown() {
    try {
      await route();
    } catch (error) {
      if (error?.status === 401) return; // the API module has sent the browser to sign in
      show(main, h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, error?.message ?? String(error)),
        h("p", {}, h("a", { href: home, "data-route": true }, "Back to the start")));
    }
  }
  function navigate(path, { replace = false } = {}) {
    if (replace) history.replaceState(null, "", path);
    else history.pushState(null, "", path);
    return shown().then(() => main.focus());
  }
  context.navigate = navigate;
  followLinks(navigate);
  window.addEventListener("popstate", () => shown());
  shown();
  return navigate;
}
