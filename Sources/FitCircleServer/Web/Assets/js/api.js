// The web app's one way to call the server. The session cookie signs each request in (page scripts never
// see a token); anything but a read carries the CSRF cookie's value (bound to the session) as X-CSRF-Token; a 401 refreshes the
// session once, one refresh for every call waiting at the time, and the call is tried again.

/** An RFC 9457 problem the server answered, with its field errors. */
export class Problem extends Error {
  constructor(document, status) {
    super(document?.detail || document?.title || `The server answered ${status}.`);
    this.type = document?.type ?? "about:blank";
    this.status = status;
    this.title = document?.title ?? "";
    this.errors = Array.isArray(document?.errors) ? document.errors : [];
  }

  /** The reason given for `field` or for a field inside it (`weight` for `weight.value`). */
  reasonFor(field) {
    const error = this.errors.find((e) => e.field === field || e.field.startsWith(`${field}.`));
    return error?.reason;
  }
}

/** The CSRF cookie's value: `__Host-fc_csrf` over https, `fc_csrf` over plain http (development). */
export function csrfToken() {
  const name = location.protocol === "https:" ? "__Host-fc_csrf=" : "fc_csrf=";
  const pair = document.cookie.split("; ").find((c) => c.startsWith(name));
  return pair ? pair.slice(name.length) : "";
}

let refreshing = null;

/** Renews the session's tokens; true when it worked. */
function refresh() {
  refreshing ??= fetch("/web/session/refresh", { method: "POST", headers: { "X-CSRF-Token": csrfToken() } })
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => { refreshing = null; });
  return refreshing;
}

export function signInPage() {
  const next = location.pathname + location.search;
  return `/?next=${encodeURIComponent(next)}`;
}

/** Calls the API; resolves to the decoded JSON (null for 204) or rejects with a Problem. */
export async function api(method, path, body, { retried = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = csrfToken();
  const response = await fetch(path, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401 && !retried && (await refresh())) {
    return api(method, path, body, { retried: true });
  }
  if (response.status === 401) {
    location.assign(signInPage());
    throw new Problem({ title: "Sign-in required" }, 401);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  const document = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Problem(document, response.status);
  return document;
}

/** Posts to one of the web session's routes. */
export async function session(path, body) {
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const document = await response.json().catch(() => null);
  if (!response.ok) throw new Problem(document, response.status);
  return document;
}
