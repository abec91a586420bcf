// A form's answer from the server: each of a problem's `errors` shown next to its field (the box marked
// `data-field` with the error's first path segment: `weight` for `weight.value`), its control marked
// invalid, the rest in the form's `.form-error`, and focus on the first field to fix.

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
