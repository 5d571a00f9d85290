// Tournaments (docs/tournaments.md#online): the list and the form to make one, and a
// tournament's page: its entries, your table in each turn, the results and the standings.
import { api } from "./api.js";
import { el } from "./dom.js";
import { currentLanguage, t, tn } from "./i18n.js";
import { app, main } from "./state.js";

const MOVEMENTS = ["mitchell", "danish", "danish-modified", "swiss", "round-robin"];

/** Who the entrants are: pairs, players at tables of 2, or players with a new partner each turn. @param {any} x */
function entrantsLabel(x) {
  return x.individual ? t("tour.individuals") : x.players === 4 ? t("tour.pairs") : t("tour.singles");
}

/** The director's number of bot entries to add, as typed. */
let botsWanted = "2";

/** The tournaments page: those open or played, and a form to make one. */
export async function showTournaments() {
  main.replaceChildren(el("h1", {}, t("tour.title")));
  try {
    if (!app.presets) app.presets = await api("GET", "/api/presets");
    const list = await api("GET", "/api/tournaments");
    main.append(createForm());
    const rows = list.tournaments.map((/** @type {any} */ x) => el("tr", {},
      el("td", {}, el("a", { href: `#/tournament/${encodeURIComponent(x.id)}` }, x.name)),
      el("td", {}, t(`preset.${x.preset}`)),
      el("td", {}, entrantsLabel(x)),
      el("td", {}, t(`tour.status.${x.status}`))));
    main.append(el("section", { class: "panel", "aria-labelledby": "tour-list" }, el("h2", { id: "tour-list" }, t("tour.list")),
      rows.length
        ? el("table", { class: "list", id: "tournaments" }, el("thead", {}, el("tr", {},
          [t("tour.col.name"), t("tour.col.game"), t("tour.col.entrants"), t("tour.col.status")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows))
        : el("p", { class: "muted" }, t("tour.none"))));
  } catch (x) { main.append(el("p", { role: "alert" }, /** @type {Error} */ (x).message)); }
}

/** The form that makes a tournament. */
function createForm() {
  const presets = (app.presets && app.presets.presets) || [];
  const preset = /** @type {HTMLSelectElement} */ (el("select", { id: "tour-preset" },
    presets.map((/** @type {any} */ p) => el("option", { value: p.name, selected: p.name === "italiano" }, t(`preset.${p.name}`)))));
  const name = /** @type {HTMLInputElement} */ (el("input", { id: "tour-name", maxlength: "40", required: true, value: t("tour.default-name") }));
  const players = /** @type {HTMLSelectElement} */ (el("select", { id: "tour-players" },
    el("option", { value: "4" }, t("tour.pairs")), el("option", { value: "2" }, t("tour.singles")),
    el("option", { value: "individual" }, t("tour.individuals"))));
  const movement = /** @type {HTMLSelectElement} */ (el("select", { id: "tour-movement" },
    MOVEMENTS.map((m) => el("option", { value: m }, t(`tour.movement.${m}`)))));
  const turns = /** @type {HTMLInputElement} */ (el("input", { id: "tour-turns", type: "number", min: "1", max: "50", value: "3" }));
  const hands = /** @type {HTMLSelectElement} */ (el("select", { id: "tour-hands" },
    el("option", { value: "3" }, tn("tour.hands", 3)), el("option", { value: "4" }, tn("tour.hands", 4))));
  const duplicate = /** @type {HTMLInputElement} */ (el("input", { id: "tour-duplicate", type: "checkbox" }));
  const breakSeconds = /** @type {HTMLInputElement} */ (el("input", { id: "tour-break", type: "number", min: "0", max: "3600", value: "60" }));
  const minutes = /** @type {HTMLSelectElement} */ (el("select", { id: "tour-minutes" },
    [0, 15, 30, 60, 90].map((m) => el("option", { value: `${m}` }, m ? t("tour.minutes-n", { minutes: m }) : t("tour.minutes-none")))));
  const rated = /** @type {HTMLInputElement} */ (el("input", { id: "tour-rated", type: "checkbox" }));
  const starts = /** @type {HTMLInputElement} */ (el("input", { id: "tour-starts", type: "datetime-local" }));
  const pace = /** @type {HTMLSelectElement} */ (el("select", { id: "tour-pace" },
    ["0", "0.5", "1", "2"].map((v) => el("option", { value: v, selected: v === "1" }, t("tour.pace-seconds", { seconds: new Intl.NumberFormat(currentLanguage()).format(Number(v)) })))));
  // an individual tournament is Swiss every turn (a new partner each turn)
  players.addEventListener("change", () => {
    const alone = players.value === "individual";
    if (alone) movement.value = "swiss";
    movement.disabled = alone;
  });
  const error = el("p", { role: "alert", id: "tour-error" });
  const form = el("form", { id: "tour-form", class: "panel" },
    el("h2", {}, t("tour.new")),
    el("label", {}, t("tour.name"), " ", name),
    el("label", {}, t("tour.game"), " ", preset),
    el("label", {}, t("tour.entrants"), " ", players),
    el("label", {}, t("tour.movement"), " ", movement),
    el("label", {}, t("tour.turns"), " ", turns),
    el("label", {}, t("tour.turn-hands"), " ", hands),
    el("label", { class: "opt" }, duplicate, ` ${t("tour.duplicate")}`),
    el("label", {}, t("tour.minutes"), " ", minutes),
    el("label", { class: "opt" }, rated, ` ${t("tour.rated")}`),
    el("label", {}, t("tour.starts"), " ", starts),
    el("label", {}, t("tour.break"), " ", breakSeconds),
    el("label", {}, t("tour.pace"), " ", pace),
    el("button", { type: "submit", id: "tour-create" }, t("tour.create")), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const count = Math.max(1, Math.min(50, Number(turns.value) || 1));
    try {
      const made = await api("POST", "/api/tournaments", {
        name: name.value, preset: preset.value, players: players.value === "2" ? 2 : 4,
        individual: players.value === "individual",
        movements: Array(count).fill(movement.value), hands: Number(hands.value),
        duplicate: duplicate.checked, break_seconds: Number(breakSeconds.value) || 0, pace: Number(pace.value),
        minutes: Number(minutes.value), rated: rated.checked,
        // the local time typed, sent with its offset (the server keeps the instant)
        starts_at: starts.value ? new Date(starts.value).toISOString() : undefined,
      });
      location.hash = `#/tournament/${encodeURIComponent(made.tournament.id)}?secret=${encodeURIComponent(made.secret)}`;
    } catch (x) { error.textContent = /** @type {Error} */ (x).message; }
  });
  return form;
}

/** The last refusal of an action on the page, kept across its refreshes until the next action. */
let lastError = "";

/** A tournament's page, kept fresh while it is open or played (one timer: the route's). @param {string} id @param {string | null} secret */
export async function showTournament(id, secret) {
  clearInterval(app.lobbyTimer);
  lastError = "";
  const query = secret ? `?secret=${encodeURIComponent(secret)}` : "";
  const here = location.hash;
  const load = async () => {
    if (location.hash !== here) { clearInterval(app.lobbyTimer); return; }  // gone elsewhere
    try {
      const data = await api("GET", `/api/tournaments/${encodeURIComponent(id)}${query}`);
      if (location.hash !== here) return;
      main.replaceChildren(...tournamentPage(data, id, query, load));
      if (data.status === "over") clearInterval(app.lobbyTimer);
    } catch (x) {
      main.replaceChildren(el("p", { role: "alert" }, /** @type {Error} */ (x).message));
      clearInterval(app.lobbyTimer);
    }
  };
  await load();
  app.lobbyTimer = setInterval(load, 3000);
}

/** @param {any} d @param {string} id @param {string} query @param {() => Promise<void>} reload @returns {HTMLElement[]} */
function tournamentPage(d, id, query, reload) {
  const out = [el("h1", {}, d.name),
    el("p", { id: "tour-summary" }, t("tour.summary", {
      game: t(`preset.${d.preset}`), entrants: entrantsLabel(d),
      turns: tn("tour.turns-n", d.movements.length), hands: tn("tour.hands", d.hands), status: t(`tour.status.${d.status}`) }),
    d.duplicate ? ` ${t("tour.duplicate")}` : "")];
  if (d.status === "open" && d.starts_at !== null) {
    const when = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(d.starts_at * 1000));
    out.push(el("p", { id: "tour-starts-at", role: "status" }, t("tour.starts-at", { time: when })));
  }
  if (d.status === "open") {
    // the link for players: the page's address without the director's secret
    const link = `${location.origin}${location.pathname}#/tournament/${encodeURIComponent(id)}`;
    out.push(el("p", { id: "tour-share" }, t("tour.share"), " ", el("code", {}, link)));
    if (!app.me) out.push(el("p", { id: "tour-need-name" }, el("a", { href: "#/" }, t("tour.need-name"))));
  }
  const error = el("p", { role: "alert", id: "tour-action-error" }, lastError);
  /** @param {string} path @param {any} [body] */
  const act = async (path, body) => {
    try { await api("POST", `/api/tournaments/${encodeURIComponent(id)}/${path}${query}`, body); lastError = ""; }
    catch (x) { lastError = /** @type {Error} */ (x).message; }
    await reload();
  };
  if (d.status === "open") out.push(entryPanel(d, act));
  else out.push(...turnsPanel(d));
  if (d.status !== "open") out.push(standingsPanel(d, id));
  if (d.director && d.status === "open") {
    // kept across the page's refreshes (every few seconds) while the director types it
    const count = /** @type {HTMLInputElement} */ (el("input", { id: "tour-bots", type: "number", min: "1", max: "100", value: botsWanted }));
    count.addEventListener("input", () => { botsWanted = count.value; });
    const add = el("button", { type: "button", id: "tour-add-bots" }, t("tour.add-bots"));
    add.addEventListener("click", () => act("bots", { count: Number(count.value) || 1 }));
    const start = el("button", { type: "button", id: "tour-start" }, t("tour.start"));
    start.addEventListener("click", () => act("start"));
    out.push(el("section", { class: "panel", "aria-labelledby": "tour-director" }, el("h2", { id: "tour-director" }, t("tour.director")),
      el("p", { class: "muted" }, t("tour.director-link")),
      el("label", {}, t("tour.bots"), " ", count), " ", add, " ", start));
  }
  out.push(error);
  return out;
}

/** @param {any} d @param {(path: string, body?: any) => Promise<void>} act */
function entryPanel(d, act) {
  // a partner's link: #/tournament/ID?join=N&code=C (the entrant passes it on)
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const joining = params.get("join") !== null ? Number(params.get("join")) : null;
  const code = params.get("code") || "";
  const items = d.entries.map((/** @type {any} */ e) => {
    const open = e.members.some((/** @type {any} */ m) => m.kind === "open");
    const join = el("button", { type: "button", class: "join-entry", id: "tour-join" }, t("tour.join-as", { name: e.members[0].name }));
    join.addEventListener("click", () => act(`entries/${e.number}/join`, { code }));
    const withdraw = el("button", { type: "button", class: "withdraw-entry" }, d.you === e.number ? t("tour.withdraw") : t("tour.remove"));
    withdraw.addEventListener("click", () => act(`entries/${e.number}/withdraw`));
    return el("li", { class: d.you === e.number ? "me" : "" },
      e.members.map((/** @type {any} */ m) => m.kind === "open" ? t("tour.open-place") : m.name).join(" / "),
      open && d.you === null && app.me && joining === e.number && code ? [" ", join] : null,
      d.you === e.number || d.director ? [" ", withdraw] : null);
  });
  const section = el("section", { class: "panel", "aria-labelledby": "tour-entries" }, el("h2", { id: "tour-entries" }, tn("tour.entries", d.entries.length)),
    items.length ? el("ol", { id: "entries", class: "plain" }, items) : el("p", { class: "muted" }, t("tour.no-entries")));
  if (d.you === null && app.me) {
    if (d.players === 4 && !d.individual) {
      const withBot = el("button", { type: "button", id: "tour-enter-bot" }, t("tour.enter-bot"));
      withBot.addEventListener("click", () => act("entries", { partner: "heuristic" }));
      const withFriend = el("button", { type: "button", id: "tour-enter-partner" }, t("tour.enter-partner"));
      withFriend.addEventListener("click", () => act("entries", {}));
      section.append(el("p", {}, withBot, " ", withFriend));
    } else {
      const enter = el("button", { type: "button", id: "tour-enter" }, t("tour.enter"));
      enter.addEventListener("click", () => act("entries", {}));
      section.append(el("p", {}, enter));
    }
  } else if (d.you !== null) {
    section.append(el("p", { id: "tour-entered" }, t("tour.entered")));
    if (d.partner_code) {
      const link = `${location.origin}${location.pathname}#/tournament/${encodeURIComponent(d.id)}?join=${d.you}&code=${encodeURIComponent(d.partner_code)}`;
      section.append(el("p", { id: "tour-partner-link" }, t("tour.partner-code"), " ", el("code", {}, link)));
    }
  }
  return section;
}

/** @param {any} d @returns {HTMLElement[]} */
function turnsPanel(d) {
  const names = d.entries.map((/** @type {any} */ e) => e.name);
  /** A side's name: its entrant, or the two players of an individual tournament. @param {number} e @param {number | null} partner */
  const side = (e, partner) => partner === null || partner === undefined ? names[e] : t("tour.side", { first: names[e], second: names[partner] });
  const out = [];
  if (d.next_turn_in !== null && d.status === "playing") {
    out.push(el("p", { id: "tour-next", role: "status" }, t("tour.next-turn", { seconds: Math.ceil(d.next_turn_in) })));
  }
  for (const turn of [...d.turns].reverse()) {
    const mine = turn.tables.find((/** @type {any} */ x) => d.you !== null && [x.ns, x.ew, x.ns_partner, x.ew_partner].includes(d.you));
    const rows = turn.tables.map((/** @type {any} */ x) => el("tr", { class: x === mine ? "me" : "" },
      el("td", {}, `${x.table}`),
      el("td", {}, side(x.ns, x.ns_partner)),
      el("td", {}, x.ew === null ? t("tour.bye") : side(x.ew, x.ew_partner)),
      el("td", {}, x.ns_mp === null ? "" : `${x.ns_mp}–${x.ew_mp}`),
      el("td", {}, x.vp ? `${x.vp[0]}–${x.vp[1]}` : "", x.note ? el("span", { class: "muted" }, ` (${x.note})`) : null,
        !x.note && x.resigned ? el("span", { class: "muted" }, ` (${t(x.resigned === "ns" ? "tour.resigned-ns" : "tour.resigned-ew")})`) : null),
      el("td", {}, x.table_id ? el("a", { href: `#/table/${encodeURIComponent(x.table_id)}`, class: "tour-table" },
        x === mine && x.status !== "over" ? t("tour.your-table") : t("tour.watch")) : "")));
    out.push(el("section", { class: "panel", "aria-labelledby": `tour-turn-${turn.turn}` },
      el("h2", { id: `tour-turn-${turn.turn}` }, t("tour.turn", { turn: turn.turn, movement: t(`tour.movement.${turn.movement}`) })),
      mine && mine.table_id && mine.status !== "over" ? el("p", { class: "your-table" }, el("a", { href: `#/table/${encodeURIComponent(mine.table_id)}`, id: "tour-my-table" }, t("tour.go-to-table", { table: mine.table }))) : null,
      el("div", { class: "scroll" }, el("table", { class: "list" }, el("thead", {}, el("tr", {},
        [t("tour.col.table"), t("tour.col.ns"), t("tour.col.ew"), t("tour.col.mp"), t("tour.col.vp"), ""].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows)))));
  }
  return out;
}

/** @param {any} d @param {string} id */
function standingsPanel(d, id) {
  const rows = d.standings.map((/** @type {any} */ s) => el("tr", { class: d.you === s.entrant ? "me" : "" },
    el("td", {}, `${s.place}`), el("td", {}, s.name), el("td", {}, `${s.vp}`),
    el("td", {}, `${s.mp_for - s.mp_against}`), el("td", {}, `${s.played}`)));
  return el("section", { class: "panel", "aria-labelledby": "tour-standings" },
    el("h2", { id: "tour-standings" }, d.status === "over" ? t("tour.final") : t("tour.standings")),
    el("div", { class: "scroll" }, el("table", { class: "list", id: "standings" }, el("thead", {}, el("tr", {},
      [t("tour.col.place"), d.players === 4 && !d.individual ? t("tour.col.pair") : t("tour.col.player"), t("tour.col.vp"), t("tour.col.difference"), t("tour.col.turns-played")].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows))),
    el("p", {}, el("a", { href: `/api/tournaments/${encodeURIComponent(id)}/standings.csv`, download: "" }, t("tour.csv")), " · ",
      el("a", { href: `/api/tournaments/${encodeURIComponent(id)}/standings.html?lang=${encodeURIComponent(currentLanguage())}`, target: "_blank", rel: "noopener" }, t("tour.print"))));
}
