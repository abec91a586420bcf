// Settings (spec 000 F8): notification channels, a switch per type and channel ("Required" on critical
// ones), the reminder time (06:00–23:00), do-not-disturb and the weekend pause, each change saved at once.
// Which changes are allowed is the server's to say: a refused change is shown by its switch and undone.
// Then the history of the last 30 notifications with filters and each one's "why".
import { api, Problem } from "../api.js";
import { h, show } from "../dom.js";

const channelNames = [["push", "Push"], ["email", "Email"], ["inApp", "In-app"]];

function toggle(id, label, checked, onChange, describedBy) {
  const input = h("input", { type: "checkbox", id, checked, "aria-describedby": describedBy ?? null });
  input.addEventListener("change", () => onChange(input));
  return h("label", { class: "switch", for: id }, input, h("span", {}, label));
}

export async function render(main, context) {
  const preferences = await api("GET", "/api/notifications/preferences");
  const status = h("p", { role: "status", class: "fine", id: "settings-status" });

  // Sends one change; on a refusal, shows the reason next to `errorBox` and calls `undo`.
  const save = async (change, errorBox, undo) => {
    errorBox.textContent = "";
    status.textContent = "Saving…";
    try {
      await api("PATCH", "/api/notifications/preferences", change);
      status.textContent = "Saved.";
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      undo();
      errorBox.textContent = problem.errors.map((e) => e.reason).join(" ") || problem.message;
      status.textContent = "Not saved.";
    }
  };

  const channelError = h("p", { class: "field-error", role: "alert", id: "channels-error" });
  const channels = h("fieldset", {}, h("legend", {}, "Channels"),
    channelNames.map(([key, name]) => toggle(`channel-${key}`, name, preferences[key], (input) => save({ [key]: input.checked }, channelError, () => { input.checked = !input.checked; }))),
    channelError);

  const rows = preferences.types.map((type) => {
    const error = h("p", { class: "field-error", role: "alert", id: `type-${type.type}-error` });
    return h("tr", { "data-type": type.type },
      h("th", { scope: "row" }, type.title, type.critical ? h("span", { class: "required" }, " Required") : null, error),
      channelNames.map(([key, name]) => h("td", {},
        toggle(`type-${type.type}-${key}`, h("span", { class: "visually-hidden" }, `${type.title}: ${name}`), type.channels[key] ?? false,
          (input) => save({ types: [{ type: type.type, channels: { [key]: input.checked } }] }, error, () => { input.checked = !input.checked; }),
          `type-${type.type}-error`))));
  });
  const types = h("table", { class: "types" },
    h("caption", {}, "Notifications by type"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Type"), channelNames.map(([, name]) => h("th", { scope: "col" }, name)))),
    h("tbody", {}, rows));

  const timeError = h("p", { class: "field-error", role: "alert", id: "reminder-error" });
  const reminder = h("input", { type: "time", id: "reminderTime", min: "06:00", max: "23:00", value: preferences.reminderTime, "aria-describedby": "reminder-hint reminder-error" });
  let reminderBefore = preferences.reminderTime;
  reminder.addEventListener("change", () => save({ reminderTime: reminder.value }, timeError, () => { reminder.value = reminderBefore; }).then(() => { reminderBefore = reminder.value; }));

  const quietError = h("p", { class: "field-error", role: "alert", id: "quiet-error" });
  const quietStart = h("input", { type: "time", id: "quietStart", value: preferences.quietHours.start, "aria-describedby": "quiet-error" });
  const quietEnd = h("input", { type: "time", id: "quietEnd", value: preferences.quietHours.end, "aria-describedby": "quiet-error" });
  const quietBefore = { ...preferences.quietHours };
  const saveQuiet = () => save({ quietHours: { start: quietStart.value, end: quietEnd.value } }, quietError, () => { quietStart.value = quietBefore.start; quietEnd.value = quietBefore.end; });
  quietStart.addEventListener("change", saveQuiet);
  quietEnd.addEventListener("change", saveQuiet);

  const weekendError = h("p", { class: "field-error", role: "alert" });
  const timing = h("fieldset", {}, h("legend", {}, "When"),
    h("label", { for: "reminderTime" }, "Daily reminder"), h("p", { class: "fine", id: "reminder-hint" }, "Between 06:00 and 23:00, in your time zone."), reminder, timeError,
    h("div", { class: "row" }, h("div", {}, h("label", { for: "quietStart" }, "Do not disturb from"), quietStart), h("div", {}, h("label", { for: "quietEnd" }, "until"), quietEnd)), quietError,
    toggle("pauseWeekends", "Pause on weekends", preferences.pauseWeekends, (input) => save({ pauseWeekends: input.checked }, weekendError, () => { input.checked = !input.checked; })),
    weekendError);

  const history = h("section", { class: "card", "aria-labelledby": "history-title" });
  show(main,
    h("h1", {}, "Settings"),
    h("p", {}, h("a", { href: "/app/profile", "data-route": true }, "Edit your profile and who sees what")),
    h("section", { class: "card", "aria-labelledby": "notifications-title" }, h("h2", { id: "notifications-title" }, "Notifications"), channels, types, timing, status),
    history);
  await renderHistory(history, preferences.types);
}

async function renderHistory(section, types) {
  const typeFilter = h("select", { id: "history-type" }, h("option", { value: "" }, "All types"), types.map((t) => h("option", { value: t.type }, t.title)));
  const channelFilter = h("select", { id: "history-channel" }, h("option", { value: "" }, "All channels"), h("option", { value: "push" }, "Push"), h("option", { value: "email" }, "Email"), h("option", { value: "in_app" }, "In-app"));
  const list = h("div", { "aria-live": "polite" });
  const load = async () => {
    const query = new URLSearchParams({ limit: "30" });
    if (typeFilter.value) query.set("type", typeFilter.value);
    if (channelFilter.value) query.set("channel", channelFilter.value);
    const { items } = await api("GET", `/api/notifications/history?${query}`);
    const time = (iso) => (iso ? new Date(iso).toLocaleString() : "—");
    show(list, items.length ? h("table", { class: "history" },
      h("thead", {}, h("tr", {}, ["Notification", "Decided", "Status", "Opened", "Action", "Why"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, items.map((n) => {
        const why = h("details", {}, h("summary", {}, "Why?"));
        why.addEventListener("toggle", async () => {
          if (!why.open || why.dataset.loaded) return;
          why.dataset.loaded = "1";
          const answer = await api("GET", `/api/notifications/${n.id}/why`);
          why.append(h("ol", {}, answer.trail.map((step) => h("li", {}, step))));
        });
        return h("tr", {}, h("td", {}, h("strong", {}, n.title), h("br"), h("span", { class: "fine" }, `${n.type} · ${n.channels.join(", ") || "no channel"}`)),
          h("td", {}, time(n.decidedAt)), h("td", {}, n.status), h("td", {}, time(n.openedAt)), h("td", {}, time(n.actionAt)), h("td", {}, why));
      })))
      : h("p", {}, "No notifications yet."));
  };
  typeFilter.addEventListener("change", load);
  channelFilter.addEventListener("change", load);
  show(section, h("h2", { id: "history-title" }, "Notification history"),
    h("div", { class: "row" }, h("div", {}, h("label", { for: "history-type" }, "Type"), typeFilter), h("div", {}, h("label", { for: "history-channel" }, "Channel"), channelFilter)),
    list);
  await load();
}
