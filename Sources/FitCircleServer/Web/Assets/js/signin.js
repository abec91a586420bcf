// The sign-in page: the ways this server offers (GET /web/session), then a session cookie and on to the app
// (onboarding first for a new account).
import { Problem, session } from "./api.js";
import { h, show } from "./dom.js";

const methods = document.getElementById("methods");

function destination(onboarded) {
  if (!onboarded) return "/app/onboarding";
  return sameSitePath(new URLSearchParams(location.search).get("next"));
}

// Only a path of this site, never an address elsewhere. Browsers read a backslash as "/" and drop tabs and
// line breaks, so "/%5Cevil.example" and "/%09/evil.example" (decoded) lead away although they start with one
// slash: the path must hold no backslash, space or control character, and must resolve to this origin.
export function sameSitePath(next) {
  if (!next || !next.startsWith("/") || /[\\\s\u0000-\u001f\u007f]/.test(next)) return "/app";
  const url = new URL(next, location.origin);
  return url.origin === location.origin && !next.startsWith("//") ? url.pathname + url.search + url.hash : "/app";
}

function devForm() {
  const error = h("p", { class: "field-error", id: "email-error", role: "alert" });
  const input = h("input", {
    id: "email", name: "email", type: "email", autocomplete: "email", required: true, "aria-describedby": "email-error",
  });
  const form = h("form", { id: "dev-sign-in", novalidate: true },
    h("label", { for: "email" }, "Email"),
    input,
    error,
    h("button", { type: "submit" }, "Sign in"),
    h("p", { class: "fine" }, "Development server: anyone may sign in with any address."));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    input.removeAttribute("aria-invalid");
    try {
      const result = await session("/web/session", {
        provider: "dev", email: input.value.trim(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
      location.assign(destination(result.onboarded));
    } catch (problem) {
      error.textContent = problem instanceof Problem ? problem.reasonFor("email") ?? problem.message : "The server cannot be reached.";
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  });
  return form;
}

// Why a provider's sign-in came back without a session (`/?error=`).
const errors = {
  expired: "That sign-in took too long, or was started in another browser. Try again.",
  cancelled: "Sign-in was cancelled.",
  refused: "The provider's answer could not be accepted. Try again.",
  unavailable: "That way of signing in is not offered here.",
};

async function start() {
  const response = await fetch("/web/session");
  const { signIn } = await response.json();
  const parts = [];
  // Google's and Apple's web flows: the server sends the browser to the provider and back (WebSignInFlow).
  const zone = encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone);
  for (const [provider, label] of [["google", "Sign in with Google"], ["apple", "Sign in with Apple"]]) {
    if (signIn[provider]) parts.push(h("p", {}, h("a", { class: `button provider ${provider}`, href: `/web/auth/${provider}?timeZone=${zone}`, id: `sign-in-${provider}` }, label)));
  }
  const error = new URLSearchParams(location.search).get("error");
  if (error) parts.unshift(h("p", { class: "notice", role: "alert", id: "sign-in-error" }, errors[error] ?? errors.refused));
  if (signIn.dev) parts.push(devForm());
  if (!parts.length) parts.push(h("p", {}, "This server offers no way to sign in on the web."));
  show(methods, ...parts);
}

start().catch(() => show(methods, h("p", { role: "alert" }, "The server cannot be reached.")));
