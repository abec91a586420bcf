// The one way a page of the web app chooses its view by path: the member's app (/app/…) and the console
// (/admin/…). A route is [pattern, load]: `:name` takes one segment, `load` imports the view's module.

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
