// Tabs as the ARIA pattern has them: a tablist of buttons, arrow keys, Home and End move between them.
import { h } from "./dom.js";

/** `entries`: [value, text] pairs; `onSelect(value)` is called on a click or a key. Ids are `${idPrefix}-${value}`. */
export function tabs(label, entries, selected, onSelect, idPrefix) {
  const list = h("div", { role: "tablist", "aria-label": label, class: "tabs" });
  const buttons = entries.map(([value, text]) => h("button", {
    type: "button", role: "tab", id: `${idPrefix}-${value}`, "aria-selected": value === selected ? "true" : "false",
    "aria-controls": `${idPrefix}-panel`, tabindex: value === selected ? 0 : -1, "data-value": value,
  }, text));
  list.append(...buttons);
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[role=tab]");
    if (button) onSelect(button.dataset.value);
  });
  list.addEventListener("keydown", (event) => {
    const index = buttons.indexOf(document.activeElement);
    if (index < 0 || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const next = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1
      : (index + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length;
    buttons[next].focus();
    onSelect(buttons[next].dataset.value);
  });
  return list;
}

/** Marks `value` selected in a tablist made by `tabs`. */
export function selectTab(list, value) {
  for (const button of list.querySelectorAll("[role=tab]")) {
    const on = button.dataset.value === value;
    button.setAttribute("aria-selected", on ? "true" : "false");
    button.tabIndex = on ? 0 : -1;
  }
}
