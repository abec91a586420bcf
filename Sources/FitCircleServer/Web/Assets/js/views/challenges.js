// Challenges (spec 002, spec 004 R8, R16): the caller's (invitations first, with Join and Decline), the
// public ones open to join, a new one from a template or from scratch with friends invited, and rivals.
import { api, Problem } from "../api.js";
import { h, show, number } from "../dom.js";
import { tabs, selectTab } from "../tabs.js";
import { actionButton, showProblem, clearProblem } from "../forms.js";
import { challengeRule, challengeTime, workoutNames } from "../format.js";

const sections = [["mine", "Mine"], ["open", "Open to join"], ["create", "Create"], ["rivals", "Rivals"]];
export const typeNames = {
  distance: "Distance", duration: "Time moving", calories: "Calories", workouts: "Workouts", xp: "XP earned",
  specific_workout: "One kind of workout", most_distance: "Most distance", most_activities: "Most activities",
  longest_activity: "Longest activity", fastest_pace: "Fastest pace", custom: "Custom",
};
const states = { invited: "Invited", joined: "Joined", declined: "Declined", left: "Left" };

function challengeCard(competition, onChange) {
  const status = h("p", { role: "status", class: "fine" });
  const act = (text, path, primary) => actionButton(text,
    () => api("POST", `/api/competitions/${competition.id}/${path}`, path === "join" ? {} : undefined),
    onChange, status, { class: primary ? null : "secondary", "aria-label": `${text}: ${competition.name}` });
  const canJoin = ["scheduled", "active"].includes(competition.status) && competition.myState !== "joined";
  return h("li", { class: "card challenge", "data-challenge": competition.id },
    h("h2", {}, h("a", { href: `/app/challenges/${competition.id}`, "data-route": true }, competition.name)),
    h("p", {}, challengeRule(competition.rule)),
    h("p", { class: "fine" }, `${challengeTime(competition)} · ${number(competition.participantCount)} taking part`,
      competition.stake ? ` · stake ${number(competition.stake)} XP` : "", competition.myState ? ` · ${states[competition.myState]}` : ""),
    canJoin ? act("Join", "join", true) : null,
    competition.myState === "invited" && canJoin ? [" ", act("Decline", "decline")] : null,
    status);
}

async function listPanel(panel, scope) {
  // A page's most (100): the newest for "mine", the soonest to end for "open".
  const { items, nextCursor } = await api("GET", `/api/competitions?scope=${scope}&limit=100`);
  // Invitations first, then what is on, then the rest as the server ordered them.
  const order = (c) => (c.myState === "invited" && ["scheduled", "active"].includes(c.status) ? 0 : ["scheduled", "active"].includes(c.status) ? 1 : 2);
  const sorted = scope === "mine" ? [...items].sort((a, b) => order(a) - order(b)) : items;
  show(panel, sorted.length
    ? [h("ul", { class: "challenges" }, sorted.map((c) => challengeCard(c, () => listPanel(panel, scope)))),
      nextCursor ? h("p", { class: "fine" }, "And more, past these.") : null]
    : h("p", { class: "card" }, scope === "mine" ? "No challenge yet: create one, or join one open to everybody." : "No public challenge is open right now."));
}

function field(name, label, control, hint) {
  const id = control.id;
  control.setAttribute("aria-describedby", `${id}-error${hint ? ` ${id}-hint` : ""}`);
  return h("div", { "data-field": name }, h("label", { for: id }, label), control,
    hint ? h("p", { class: "fine", id: `${id}-hint` }, hint) : null,
    h("p", { class: "field-error", id: `${id}-error`, role: "alert" }));
}

async function createPanel(panel, context) {
  const [{ items: templates }, { items: friends }] = await Promise.all([api("GET", "/api/competitions/templates"), api("GET", "/api/friends?limit=1000")]);
  const invite = new URLSearchParams(location.search).get("invite");
  const select = (id, entries) => h("select", { id }, entries.map(([value, text]) => h("option", { value }, text)));
  const controls = {
    template: select("ch-template", [["", "None: my own rules"], ...templates.map((t) => [t.id, `${t.name} (${t.durationDays} days)`])]),
    name: h("input", { id: "ch-name", maxlength: 60 }),
    type: select("ch-type", Object.entries(typeNames)),
    workout: select("ch-workout", [["", "Any workout"], ...Object.entries(workoutNames)]),
    goal: select("ch-goal", [["most", "Whoever does most"], ["first_to", "First to reach a target"], ["everyone_to", "Everyone who reaches a target"]]),
    target: h("input", { id: "ch-target", type: "number", step: "any", min: 0, inputmode: "decimal" }),
    days: h("input", { id: "ch-days", type: "number", min: 1, max: 366, value: 7, inputmode: "numeric" }),
    stake: h("input", { id: "ch-stake", type: "number", min: 0, value: 0, inputmode: "numeric" }),
    visibility: select("ch-visibility", [["private", "Private (invited or with the code)"], ["public", "Public (anyone)"]]),
  };
  const targetField = field("target", "Target", controls.target, "In the rule's unit: km, minutes, kcal, workouts, XP or days.");
  const syncTarget = () => { targetField.hidden = controls.goal.value === "most"; };
  controls.goal.addEventListener("change", syncTarget);
  controls.template.addEventListener("change", () => {
    const template = templates.find((t) => t.id === controls.template.value);
    if (!template) return;
    clearProblem(form);
    controls.name.value = template.name;
    controls.type.value = template.type;
    controls.goal.value = template.rule.goal;
    controls.target.value = template.rule.target ?? "";
    controls.days.value = template.durationDays;
    controls.stake.value = template.suggestedStake;
    controls.workout.value = template.rule.filter?.workoutTypes?.length === 1 ? template.rule.filter.workoutTypes[0] : "";
    syncTarget();
  });
  syncTarget();
  const inviteBoxes = friends.map((friend) => h("label", { class: "switch" },
    h("input", { type: "checkbox", name: "invitee", value: friend.userId, checked: friend.userId === invite }), friend.displayName));
  const form = h("form", { id: "create-challenge", class: "card", novalidate: true },
    h("h2", {}, "A new challenge"),
    templates.length ? field("templateId", "Start from a template", controls.template) : null,
    field("name", "Name", controls.name),
    h("div", { class: "grid tight" },
      field("type", "What counts", controls.type),
      field("workoutTypes", "Which workouts", controls.workout),
      field("goal", "Who wins", controls.goal),
      targetField,
      field("durationDays", "Days", controls.days),
      field("stake", "Stake, XP each", controls.stake, "Put in escrow to join; the winners share the pot."),
      field("visibility", "Who may join", controls.visibility)),
    h("fieldset", { "data-field": "invitees" }, h("legend", {}, "Invite friends"),
      inviteBoxes.length ? inviteBoxes : h("p", { class: "fine" }, "Friends you add can be invited here."),
      h("p", { class: "field-error", role: "alert" })),
    h("p", { class: "field-error form-error", role: "alert" }),
    h("button", { type: "submit" }, "Create the challenge"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearProblem(form);
    const body = {
      name: controls.name.value.trim(), type: controls.type.value, goal: controls.goal.value,
      durationDays: Number(controls.days.value), stake: Number(controls.stake.value || 0), visibility: controls.visibility.value,
      invitees: [...form.querySelectorAll("input[name=invitee]:checked")].map((box) => box.value),
    };
    if (controls.template.value) body.templateId = controls.template.value;
    if (controls.goal.value !== "most") body.target = Number(controls.target.value);
    if (controls.workout.value) body.workoutTypes = [controls.workout.value];
    try {
      const created = await api("POST", "/api/competitions", body);
      context.navigate(`/app/challenges/${created.id}`);
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      showProblem(form, problem);
    }
  });
  show(panel, form);
}

async function rivalsPanel(panel) {
  const rivals = await api("GET", "/api/user/rivals");
  const name = (rival) => (rival.userId ? h("a", { href: `/app/people/${rival.userId}`, "data-route": true }, rival.displayName) : rival.displayName);
  const line = (label, rival) => (rival ? h("p", {}, `${label}: `, name(rival), ` (${rival.record.wins}–${rival.record.losses})`) : null);
  show(panel, rivals.top.length
    ? [h("div", { class: "card" }, line("Nemesis", rivals.nemesis), line("You beat most", rivals.dominated)),
      h("table", { class: "board", id: "rivals" }, h("caption", {}, "Friends you met most in challenges"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Friend"), h("th", { scope: "col" }, "Won"), h("th", { scope: "col" }, "Lost"), h("th", { scope: "col" }, "Drawn"))),
        h("tbody", {}, rivals.top.map((rival) => h("tr", {}, h("td", {}, name(rival)), h("td", {}, rival.record.wins), h("td", {}, rival.record.losses), h("td", {}, rival.record.draws)))))]
    : h("p", { class: "card" }, "Rivals appear once you and a friend have met in a finished challenge."));
}

export async function render(main, context) {
  const tab = new URLSearchParams(location.search).get("tab");
  const state = { tab: sections.some(([value]) => value === tab) ? tab : "mine" };
  const panel = h("div", { id: "challenges-tab-panel", role: "tabpanel", tabindex: 0 });
  const list = tabs("Challenges", sections, state.tab, (value) => select(value), "challenges-tab");
  async function select(value) {
    state.tab = value;
    selectTab(list, value);
    panel.setAttribute("aria-labelledby", `challenges-tab-${value}`);
    if (value !== "create" || !location.search.includes("tab=create")) history.replaceState(null, "", value === "mine" ? "/app/challenges" : `/app/challenges?tab=${value}`);
    if (value === "mine") await listPanel(panel, "mine");
    if (value === "open") await listPanel(panel, "open");
    if (value === "create") await createPanel(panel, context);
    if (value === "rivals") await rivalsPanel(panel);
  }
  show(main, h("h1", {}, "Challenges"), list, panel);
  await select(state.tab);
}
