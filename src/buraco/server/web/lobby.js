// The lobby: a guest name, the open tables, a table's creation, finished games.
import { accountPanel } from "./account.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { optionValue, t, tn, usePreset } from "./i18n.js";
import { app, main } from "./state.js";

/** Who this browser is (its guest cookie), shown in the header. */
export async function loadMe() {
  try {
    const res = await fetch("/api/me", { credentials: "same-origin" });
    app.me = res.ok ? await res.json() : null;
  } catch { app.me = null; }
  renderMe();
}

export function renderMe() {
  const box = /** @type {HTMLElement} */ (document.getElementById("me"));
  box.replaceChildren();
  if (app.me) box.append(t("me.playing-as", { name: app.me.name }));
}

/** The form that chooses (or changes) this browser's guest name. @param {() => void} onDone */
export function nameForm(onDone) {
  const me = app.me;
  const input = /** @type {HTMLInputElement} */ (el("input", { id: "name", maxlength: 40, required: true, autocomplete: "nickname", value: me ? me.name : "" }));
  const err = el("span", { class: "err", role: "alert" });
  return el("form", { class: "row", onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try { app.me = await api("POST", "/api/guests", { name: input.value }); renderMe(); onDone(); }
    catch (x) { err.textContent = /** @type {Error} */ (x).message; }
  } }, el("label", { for: "name" }, t("me.your-name")), input,
  el("button", { class: "primary", type: "submit", id: "name-submit" }, me ? t("me.rename") : t("me.play")), err);
}

/** Whether the lobby is still the page shown (a name given just before the player went
 * to another page must not bring the lobby back over it). */
function onLobby() {
  const path = location.hash.slice(1).split("?")[0].split("/").filter(Boolean);
  return !["table", "game", "ratings", "player", "tournaments", "tournament"].includes(path[0]);
}

/** The lobby page; `which` is "mine" or "all" finished games. @param {string} which */
export async function showLobby(which) {
  clearInterval(app.lobbyTimer);
  main.replaceChildren(el("h1", {}, t("lobby.title")));
  try { if (!app.presets) app.presets = await api("GET", "/api/presets"); }
  catch (x) { main.append(el("p", { role: "alert" }, /** @type {Error} */ (x).message)); return; }
  const me = app.me;
  main.append(el("section", { class: "panel", "aria-labelledby": "name-h" },
    el("h2", { id: "name-h" }, me ? t("me.your-name") : t("me.choose-name")), nameForm(() => { if (onLobby()) showLobby(which); }),
    me ? null : el("p", { class: "muted" }, t("me.guest-note"))));
  main.append(accountPanel(() => { renderMe(); showLobby(which); }));
  const list = el("div", { id: "tables" });
  main.append(el("section", { class: "panel", "aria-labelledby": "tables-h" }, el("h2", { id: "tables-h" }, t("lobby.tables")), list));
  if (me) main.append(createForm());
  const gamesBox = el("section", { class: "panel", "aria-labelledby": "games-h" });
  main.append(gamesBox);
  const refresh = async () => {
    try {
      const data = await api("GET", "/api/tables");
      list.replaceChildren(tablesTable(data.tables));
    } catch (x) { list.replaceChildren(el("p", {}, /** @type {Error} */ (x).message)); }
  };
  refresh();
  app.lobbyTimer = setInterval(refresh, 5000);
  const mine = which !== "all" && me;
  const tabs = el("div", { class: "row", role: "group", "aria-label": t("lobby.which-games") },
    el("a", { href: "#/?games=mine", "aria-current": mine ? "page" : null, class: "tab" }, t("lobby.my-games")),
    el("a", { href: "#/?games=all", "aria-current": mine ? null : "page", class: "tab" }, t("lobby.all-games")));
  gamesBox.append(el("h2", { id: "games-h" }, t("lobby.finished")), ...(me ? [tabs] : []));
  try {
    const games = await api("GET", mine ? "/api/games?mine=true" : "/api/games");
    gamesBox.append(gamesTable(games.games));
  } catch (x) { gamesBox.append(el("p", {}, /** @type {Error} */ (x).message)); }
}

/** @param {any[]} tables */
function tablesTable(tables) {
  if (!tables.length) return el("p", { class: "muted" }, t("lobby.no-tables"));
  const rows = tables.map((tb) => {
    const open = tb.status === "waiting" ? tb.open_seats.length : 0;
    return el("tr", {},
      el("td", {}, tb.preset, tb.rated ? el("span", { class: "rated" }, ` · ${t("lobby.rated")}`) : null), el("td", {}, `${tb.players}`),
      el("td", {}, tb.seats.map((/** @type {any} */ s) => (s.kind === "open" ? t("seat.open-short") : s.kind === "invite" ? t("seat.invited-short")
        : s.rating !== null && s.rating !== undefined ? `${s.name} (${s.rating})` : s.name)).join(", ")),
      el("td", {}, tb.status === "waiting" ? tn("lobby.open-seats", open) : t("lobby.playing-hand", { hand: tb.hand })),
      el("td", {}, tb.you !== null && tb.you !== undefined
        ? el("a", { href: `#/table/${tb.id}`, class: "return button primary" }, t("lobby.return"))
        : [open ? el("a", { href: `#/table/${tb.id}`, class: "join" }, t("lobby.join")) : null, " ",
          el("a", { href: `#/table/${tb.id}`, class: "watch" }, t("lobby.watch"))]));
  });
  const heads = [t("lobby.col.preset"), t("lobby.col.players"), t("lobby.col.seats"), t("lobby.col.open-seats"), hidden(t("lobby.col.actions"))];
  return el("table", { class: "list compact" },
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

/** @param {any[]} games */
export function gamesTable(games) {
  if (!games.length) return el("p", { class: "muted" }, t("lobby.none-yet"));
  const rows = games.map((g) => el("tr", {},
    el("td", {}, g.finished_at.slice(0, 16).replace("T", " ")),
    el("td", {}, g.preset), el("td", {}, g.names.join(", ")), el("td", {}, g.totals.join(" – ")),
    el("td", {}, tn("lobby.hands", g.hands)),
    el("td", {}, el("a", { href: `#/game/${g.id}` }, t("lobby.replay")), " · ",
      el("a", { href: `/api/games/${g.id}/record`, download: `buraco-game-${g.id}.json` }, t("lobby.record")))));
  const heads = [t("lobby.col.finished"), t("lobby.col.preset"), t("lobby.col.players"), t("lobby.col.score"), t("lobby.col.hands"), hidden(t("lobby.col.actions"))];
  return el("table", { class: "list compact" },
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

const SEAT_KINDS = ["me", "bot", "open", "invite"];

/** Text for screen readers only (a column's name the eye does not need). @param {string} text */
function hidden(text) { return el("span", { class: "sr-only" }, text); }

/** The form that creates a table. */
function createForm() {
  const presets = app.presets;
  /** @type {Record<string, HTMLElement>} */
  const errs = {};
  /** @param {string} name @param {string} label @param {HTMLElement} input @param {string} [help] */
  const fieldBox = (name, label, input, help) => {
    errs[name] = el("span", { class: "err", role: "alert", id: `err-${name}` });
    input.setAttribute("aria-describedby", `err-${name}${help ? ` help-${name}` : ""}`);
    return el("div", { class: "field", "data-field": name }, el("label", { for: input.id }, label), input,
      help ? el("span", { class: "muted help", id: `help-${name}` }, help) : null, errs[name]);
  };
  const preset = /** @type {HTMLSelectElement} */ (el("select", { id: "f-preset" }, presets.presets.map((/** @type {any} */ p) => el("option", { value: p.name }, t("create.preset-option", { name: p.name, title: t(`preset.${p.name}`) })))));
  const players = /** @type {HTMLSelectElement} */ (el("select", { id: "f-players" }));
  const seatsBox = el("div", { class: "grid seats-form" });
  const optsBox = el("div", { class: "topics" });
  const details = /** @type {HTMLDetailsElement} */ (el("details", { id: "f-options" }, el("summary", {}, t("create.rule-options")), optsBox));
  const pub = /** @type {HTMLInputElement} */ (el("input", { id: "f-public", type: "checkbox", checked: true }));
  const rated = /** @type {HTMLInputElement} */ (el("input", { id: "f-rated", type: "checkbox" }));
  const pace = /** @type {HTMLInputElement} */ (el("input", { id: "f-pace", type: "number", min: 0, max: 5, step: 0.25, value: 1 }));
  const timer = /** @type {HTMLSelectElement} */ (el("select", { id: "f-timer" }, [0, 30, 60, 120].map((s) => el("option", { value: s }, s ? t("create.seconds", { n: s }) : t("create.off")))));
  const minutes = /** @type {HTMLSelectElement} */ (el("select", { id: "f-minutes" }, [0, 15, 30, 60, 90].map((m) => el("option", { value: m }, m ? t("create.minutes", { n: m }) : t("create.off")))));
  /** @type {Record<string, {input: HTMLInputElement | HTMLSelectElement, o: any}>} */
  let optInputs = {};
  const fillPlayers = () => {
    const p = presets.presets.find((/** @type {any} */ x) => x.name === preset.value);
    players.replaceChildren(...p.players.map((/** @type {number} */ n) => el("option", { value: n, selected: n === 4 }, `${n}`)));
    fillSeats(); fillOptions();
  };
  const fillSeats = () => {
    seatsBox.replaceChildren();
    const n = Number(players.value);
    for (let i = 0; i < n; i++) {
      const kind = /** @type {HTMLSelectElement} */ (el("select", { id: `f-seat-${i}` },
        SEAT_KINDS.map((k) => el("option", { value: k, selected: (i === 0 && k === "me") || (i > 0 && k === "bot") }, t(`create.seat-kind.${k}`)))));
      const bot = el("input", { id: `f-bot-${i}`, value: "heuristic", maxlength: 200, list: "bot-specs", "aria-label": t("create.which-bot", { seat: i + 1 }) });
      const sync = () => { bot.hidden = kind.value !== "bot"; };
      kind.addEventListener("change", sync);
      sync();
      seatsBox.append(el("div", { class: "field" }, el("label", { for: kind.id }, t("create.seat", { seat: i + 1 })), kind, bot));
    }
  };
  /** @param {string} name @param {any} d */
  const valueText = (name, d) => (Array.isArray(d) ? d.join(",") : d === true ? t("create.yes") : d === false ? t("create.no") : optionValue(name, d));
  const fillOptions = () => {
    optsBox.replaceChildren();
    optInputs = {};
    usePreset(preset.value); // the preset's own words (pozzetto in italiano)
    /** @type {Map<string, HTMLElement>} the options by topic, each topic a group */
    const groups = new Map();
    const groupOf = (/** @type {string} */ topic) => {
      let box = groups.get(topic);
      if (!box) {
        box = el("div", { class: "grid" });
        groups.set(topic, box);
        optsBox.append(el("fieldset", { class: "topic", "data-topic": topic }, el("legend", {}, t(`topic.${topic}`)), box));
      }
      return box;
    };
    const p = presets.presets.find((/** @type {any} */ x) => x.name === preset.value);
    const defaults = p.defaults[players.value] || {};
    for (const o of presets.options) {
      const id = `f-opt-${o.name}`;
      const d = defaults[o.name];
      let input;
      let help = t(`option.${o.name}.help`);
      const shown = d === undefined ? t("create.default") : t("create.default-is", { value: valueText(o.name, d) });
      // every option starts at "the preset's rule": only what the player changes is sent
      if (o.type === "bool") {
        input = el("select", { id }, el("option", { value: "" }, shown), el("option", { value: "true" }, t("create.yes")), el("option", { value: "false" }, t("create.no")));
      } else if (o.type === "choice") {
        input = el("select", { id }, el("option", { value: "" }, shown), o.choices.map((/** @type {string} */ c) => el("option", { value: c }, optionValue(o.name, c))));
      } else if (o.type === "int") {
        input = el("input", { id, type: "number", min: o.min, max: o.max, step: 1, placeholder: shown });
        help = `${help}${help ? " " : ""}${t("create.range", { min: o.min ?? "…", max: o.max ?? "…" })}`;
      } else {
        input = el("input", { id, placeholder: shown, inputmode: o.type === "sizes" ? "numeric" : null });
        if (o.type === "sizes") help = `${help}${help ? " " : ""}${t("create.sizes-help")}`;
      }
      optInputs[o.name] = { input: /** @type {HTMLInputElement} */ (input), o };
      groupOf(o.topic).append(fieldBox(o.name, t(`option.${o.name}`), input, help));
    }
  };
  preset.addEventListener("change", fillPlayers);
  players.addEventListener("change", () => { fillSeats(); fillOptions(); });
  const formErr = el("p", { class: "err", role: "alert" });
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    for (const k of Object.keys(errs)) errs[k].textContent = "";
    formErr.textContent = "";
    /** @type {Record<string, any>} */
    const options = {};
    for (const [name, { input, o }] of Object.entries(optInputs)) {
      const raw = input.value.trim();
      if (raw === "") continue;
      if (o.type === "bool") options[name] = raw === "true";
      // a number as typed, or the text (sizes too: "11,11"), which the server reads and,
      // when it is not one, quotes in its refusal as the player wrote it
      else if (o.type === "int" && /^-?\d+$/.test(raw)) options[name] = Number(raw);
      else options[name] = raw;
    }
    const seats = [];
    for (let i = 0; i < Number(players.value); i++) {
      const kind = /** @type {HTMLSelectElement} */ (document.getElementById(`f-seat-${i}`)).value;
      seats.push(kind === "bot" ? { kind, bot: /** @type {HTMLInputElement} */ (document.getElementById(`f-bot-${i}`)).value.trim() } : { kind });
    }
    try {
      const made = await api("POST", "/api/tables", { preset: preset.value, players: Number(players.value), options, seats, public: pub.checked, rated: rated.checked, pace: Number(pace.value), turn_timer: Number(timer.value), minutes: Number(minutes.value) });
      location.hash = made.link.slice(made.link.indexOf("#"));
    } catch (x) {
      const err = /** @type {Error & {field?: string}} */ (x);
      const field = err.field;
      if (field && errs[field]) {
        errs[field].textContent = err.message;
        if (optInputs[field]) details.open = true;
        const input = /** @type {HTMLElement | null} */ (errs[field].parentElement?.querySelector("input, select"));
        if (input) input.focus();
      } else formErr.textContent = err.message;
    }
  };
  const form = el("form", { class: "panel create", onsubmit: submit, "aria-labelledby": "create-h", novalidate: true },
    el("h2", { id: "create-h" }, t("create.title")),
    el("div", { class: "row wrap" }, fieldBox("preset", t("create.preset"), preset), fieldBox("players", t("create.players"), players),
      fieldBox("pace", t("create.pace"), pace), fieldBox("turn_timer", t("create.timer"), timer), fieldBox("minutes", t("create.timed"), minutes),
      el("div", { class: "field" }, el("label", { for: "f-public" }, t("create.public")), pub),
      el("div", { class: "field" }, el("label", { for: "f-rated" }, t("create.rated")), rated)),
    el("h3", {}, t("create.seats")), el("p", { class: "muted" }, t("create.seats-help")),
    seatsBox, fieldBox("seats", "", el("span", { id: "f-seats-none" })),
    el("datalist", { id: "bot-specs" }, ["heuristic", "expert", "mcts", "mcts:time=0.25", "greedy", "random"].map((b) => el("option", { value: b }))),
    details, formErr, el("button", { class: "primary", type: "submit", id: "create" }, t("create.submit")));
  fillPlayers();
  return form;
}
