// A form's answer from the server: each of a problem's `errors` shown next to its field (the box marked
// `data-field` with the error's first path segment: `weight` for `weight.value`), its control marked
// invalid, the rest in the form's `.form-error`, and focus on the first field to fix. And the buttons that
// ask the server for one thing, showing a refusal's reason.
import { Problem } from "./api.js";
import { h } from "./dom.js";

/** Clears what an earlier answer showed. */
export function clearProblem(form) {
  for (const element of form.querySelectorAll(".field-error")) element.textContent = "";
  for (const element of form.querySelectorAll("[aria-invalid]")) element.removeAttribute("aria-invalid");
}

/** Shows `problem` (a Problem from api.js) on `form`. */
export function showProblem(form, problem) {
  clearProblem(form);
  const general = form.querySelector(".form-error");
  let first = null;
  for (const error of problem.errors) {
    const box = form.querySelector(`[data-field="${CSS.escape(error.field.split(".")[0])}"]`);
    const target = box?.querySelector(".field-error") ?? general;
    target.textContent = target.textContent ? `${target.textContent} ${error.reason}` : error.reason;
    const control = box?.querySelector("input, select");
    control?.setAttribute("aria-invalid", "true");
    first ??= control;
  }
  if (!problem.errors.length) general.textContent = problem.message;
  (first ?? form.querySelector("button[type=submit]"))?.focus();
}

/**
 * A button that asks the server for something (`call`), then `after()` (redraw); a refusal shows the
 * server's reason in `status` and the button can be pressed again.
 */
export function actionButton(text, call, after, status, attributes = {}) {
  return h("button", {
    type: "button", class: "secondary", ...attributes,
    onclick: async (event) => {
      const button = event.currentTarget;
      button.disabled = true;
      try {
        await call();
        await after();
      } catch (problem) {
        if (!(problem instanceof Problem)) throw problem;
        status.textContent = problem.message;
        button.disabled = false;
      }
    },
  }, text);
}
