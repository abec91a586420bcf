// Friends (spec 004 R6, R7, R15): the friends' feed with reactions, live; friends with their week; the
// requests waiting on either side and the people blocked; finding people by name or exact address.
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";
import { live } from "../live.js";
import { tabs, selectTab } from "../tabs.js";
import { actionButton as action, showProblem } from "../forms.js";
import { ago, distance, duration, workoutFigures, workoutIcons, workoutNames } from "../format.js";
import { routeThumbnail } from "../route.js";

const sections = [["feed", "Feed"], ["friends", "Friends"], ["requests", "Requests"], ["find", "Find people"]];
let stopStream = null;

const personLink = (id, name) => h("a", { href: `/app/people/${id}`, "data-route": true }, name);

// The feed: each workout with its figures and the profile's reactions as toggles.
function reactionButtons(item, reactions) {
  const box = h("div", { class: "reactions", role: "group", "aria-label": `React to ${item.displayName}'s workout` });
  const draw = () => show(box, reactions.map((reaction) => {
    const count = item.reactions.counts[reaction] ?? 0;
    const mine = item.reactions.mine.includes(reaction);
    return h("button", {
      type: "button", class: "reaction", "aria-pressed": mine ? "true" : "false", "data-reaction": reaction,
      "aria-label": `${reaction} ${count}`,
      onclick: async (event) => {
        event.currentTarget.disabled = true;
        const path = `/api/activities/${item.activityId}/reactions`;
        try {
          if (mine) {
            await api("DELETE", `${path}/${encodeURIComponent(reaction)}`);
            item.reactions.mine = item.reactions.mine.filter((r) => r !== reaction);
            item.reactions.counts[reaction] = Math.max(0, count - 1);
          } else {
            item.reactions = await api("POST", path, { reaction });
          }
        } finally {
          draw();
        }
      },
    }, reaction, count ? ` ${count}` : "");
  }));
  draw();
  return box;
}

function feedItem(item, context) {
  return h("li", { class: "card workout", "data-activity": item.activityId },
    h("p", { class: "who" }, h("span", { "aria-hidden": "true" }, `${workoutIcons[item.workoutType] ?? "⭐"} `),
      item.userId === context.profile.id ? "You" : personLink(item.userId, item.displayName),
      ` · ${workoutNames[item.workoutType] ?? item.workoutType}`),
    h("p", { class: "figures" }, workoutFigures(item, context.config.units.distance)),
    routeThumbnail(item.routeThumbnail),
    h("p", { class: "fine" }, h("time", { datetime: item.occurredAt }, ago(item.occurredAt))),
    reactionButtons(item, context.config.reactions));
}

async function feedPanel(panel, context) {
  const type = h("select", { id: "feed-type" }, h("option", { value: "" }, "All workouts"),
    Object.entries(workoutNames).map(([value, text]) => h("option", { value }, text)));
  const list = h("ul", { class: "feed", id: "friend-feed", "aria-live": "polite" });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Show more");
  let cursor = null;
  const shown = new Set();
  const add = (items, { atTop = false } = {}) => {
    const fresh = items.filter((item) => !shown.has(item.activityId));
    for (const item of fresh) shown.add(item.activityId);
    const nodes = fresh.map((item) => feedItem(item, context));
    if (atTop) list.prepend(...nodes.reverse());
    else list.append(...nodes);
  };
  const load = async (reset) => {
    if (reset) { list.replaceChildren(); shown.clear(); cursor = null; }
    const query = new URLSearchParams({ limit: "20" });
    if (type.value) query.set("type", type.value);
    if (cursor) query.set("cursor", cursor);
    const page = await api("GET", `/api/feed?${query}`);
    add(page.items);
    cursor = page.nextCursor ?? null;
    more.hidden = !cursor;
    if (!shown.size) list.append(h("li", { class: "card empty" }, "No workouts yet from you or your friends."));
  };
  const follow = () => {
    stopStream?.();
    const query = new URLSearchParams({ seconds: "3600" });
    if (type.value) query.set("type", type.value);
    stopStream = live(`/api/feed/stream?${query}`, {
      activity: (item) => { list.querySelector(".empty")?.remove(); add([item], { atTop: true }); },
    });
  };
  type.addEventListener("change", () => { load(true); follow(); });
  more.addEventListener("click", () => load(false));
  show(panel, h("div", { class: "toolbar" }, h("label", { for: "feed-type" }, "Show"), type), list, more);
  await load(true);
  follow();
}

async function friendsPanel(panel, context) {
  const { items } = await api("GET", "/api/friends?limit=1000");
  const status = h("p", { role: "status", class: "fine" });
  const redraw = () => friendsPanel(panel, context);
  const unit = context.config.units.distance;
  show(panel, status, items.length
    ? h("ul", { class: "people", id: "friend-list" }, items.map((friend) => h("li", { class: "card", "data-user": friend.userId },
      h("h2", {}, personLink(friend.userId, friend.displayName)),
      h("p", { class: "fine" }, `This week: ${number(friend.recent.workouts)} workout${friend.recent.workouts === 1 ? "" : "s"}`,
        friend.recent.distanceMeters ? ` · ${distance(friend.recent.distanceMeters, unit)}` : "",
        friend.recent.durationSeconds ? ` · ${duration(friend.recent.durationSeconds)}` : "",
        friend.recent.lastWorkoutAt ? ` · last ${ago(friend.recent.lastWorkoutAt)}` : ""),
      action("Remove", () => api("DELETE", `/api/friends/${friend.userId}`), redraw, status, { "aria-label": `Remove ${friend.displayName}` }))))
    : h("p", { class: "card" }, "No friends yet: find people by name under Find people."));
}

async function requestsPanel(panel, context, onCount) {
  // The latest 200 of each list (a page's most); past them, a line says there are more.
  const [incoming, outgoing, blocked] = await Promise.all([
    api("GET", "/api/friends/requests?direction=incoming&limit=200"),
    api("GET", "/api/friends/requests?direction=outgoing&limit=200"),
    api("GET", "/api/friends/blocks?limit=200"),
  ]);
  onCount(incoming.items.length);
  const status = h("p", { role: "status", class: "fine" });
  const redraw = () => requestsPanel(panel, context, onCount);
  const target = (person) => ({ userId: person.userId });
  const people = (page, empty, buttons) => page.items.length
    ? [h("ul", { class: "people" }, page.items.map((person) => h("li", { class: "card", "data-user": person.userId },
      h("p", {}, personLink(person.userId, person.displayName), h("span", { class: "fine" }, ` · ${ago(person.since)}`)),
      buttons(person)))),
    page.nextCursor ? h("p", { class: "fine" }, "And more, older than these.") : null]
    : h("p", { class: "fine" }, empty);
  show(panel, status,
    h("h2", {}, "Asking you"),
    people(incoming, "Nobody is waiting for your answer.", (person) => [
      action("Accept", () => api("POST", "/api/friends/accept", target(person)), redraw, status, { class: null, "aria-label": `Accept ${person.displayName}` }),
      " ",
      action("Decline", () => api("POST", "/api/friends/decline", target(person)), redraw, status, { "aria-label": `Decline ${person.displayName}` }),
    ]),
    h("h2", {}, "You asked"),
    people(outgoing, "No request of yours is waiting.", (person) =>
      action("Withdraw", () => api("DELETE", `/api/friends/requests/${person.userId}`), redraw, status, { "aria-label": `Withdraw the request to ${person.displayName}` })),
    h("h2", {}, "Blocked"),
    people(blocked, "You blocked nobody.", (person) =>
      action("Unblock", () => api("DELETE", `/api/friends/blocks/${person.userId}`), redraw, status, { "aria-label": `Unblock ${person.displayName}` })));
}

function findPanel(panel) {
  const results = h("div", { id: "search-results", "aria-live": "polite" });
  const form = h("form", { id: "find-people", class: "card", novalidate: true, role: "search" },
    h("div", { "data-field": "q" },
      h("label", { for: "people-q" }, "Name or exact email address"),
      h("input", { id: "people-q", name: "q", type: "search", "aria-describedby": "people-q-error", minlength: 3 }),
      h("p", { class: "field-error", id: "people-q-error", role: "alert" })),
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "Search"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const query = form.elements.q.value.trim();
    try {
      const { items } = await api("GET", `/api/users/search?q=${encodeURIComponent(query)}`);
      form.querySelector("[data-field=q] .field-error").textContent = "";
      form.elements.q.removeAttribute("aria-invalid");
      const status = h("p", { role: "status", class: "fine" });
      show(results, status, items.length
        ? h("ul", { class: "people" }, items.map((person) => h("li", { class: "card", "data-user": person.userId },
          h("p", {}, personLink(person.userId, person.displayName)),
          person.pendingRequest === "outgoing" ? h("p", { class: "status" }, "Request sent")
            : h("button", {
              type: "button", "aria-label": `${person.pendingRequest === "incoming" ? "Accept" : "Add"} ${person.displayName}`,
              onclick: async (click) => {
                click.target.disabled = true;
                try {
                  const outcome = await api("POST", "/api/friends/request", { userId: person.userId });
                  click.target.replaceWith(h("p", { class: "status" }, outcome.status === "friends" ? "Friends ✓" : "Request sent"));
                } catch (problem) {
                  if (!(problem instanceof Problem)) throw problem;
                  status.textContent = problem.message;
                  click.target.disabled = false;
                }
              },
            }, person.pendingRequest === "incoming" ? "Accept their request" : "Add friend"))))
        : h("p", {}, `Nobody found for “${query}”.`));
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      // A 400 names no field: the only thing to fix is the query.
      showProblem(form, problem.errors.length ? problem : Object.assign(problem, { errors: [{ field: "q", reason: problem.message }] }));
      results.replaceChildren();
    }
  });
  show(panel, form, results);
}

export async function render(main, context) {
  stopStream?.();
  const tab = new URLSearchParams(location.search).get("tab");
  const state = { tab: sections.some(([value]) => value === tab) ? tab : "feed" };
  const panel = h("div", { id: "friends-tab-panel", role: "tabpanel", tabindex: 0 });
  const list = tabs("Friends", sections, state.tab, (value) => select(value), "friends-tab");
  const requestsTab = list.querySelector("#friends-tab-requests");
  const onCount = (count) => { requestsTab.textContent = count ? `Requests (${count})` : "Requests"; };
  async function select(value) {
    state.tab = value;
    selectTab(list, value);
    panel.setAttribute("aria-labelledby", `friends-tab-${value}`);
    stopStream?.();
    stopStream = null;
    history.replaceState(null, "", value === "feed" ? "/app/friends" : `/app/friends?tab=${value}`);
    if (value === "feed") await feedPanel(panel, context);
    if (value === "friends") await friendsPanel(panel, context);
    if (value === "requests") await requestsPanel(panel, context, onCount);
    if (value === "find") findPanel(panel);
  }
  show(main, h("h1", {}, "Friends"), list, panel);
  api("GET", "/api/friends/requests?direction=incoming&limit=200").then(({ items }) => onCount(items.length), () => null);
  await select(state.tab);
  return () => stopStream?.();
}
