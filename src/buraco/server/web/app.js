// The buraco web client: lobby, table and replays. It talks to the server only through the
// documented REST API and WebSocket protocol (docs/protocol.md). Every user-supplied string is
// put in the page as text (textContent), never as HTML. No inline styles: the page is served
// with a strict Content-Security-Policy.

const PROTOCOL = 2;
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const POSITIONS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const PLACES = {
  low: "at the low end",
  high: "at the high end",
  "wild-low": "in the wild's place (the wild moves to the low end)",
  "wild-high": "in the wild's place (the wild moves to the high end)",
};
const SCORE_ROWS = [
  ["melds", "melds"], ["bonuses", "canastra bonuses"], ["hand", "cards left in hand"],
  ["pot", "morto"], ["going_out", "going out"], ["cut", "cut"], ["rounding", "rounding"], ["total", "hand total"],
];
const PING_EVERY = 25000;

const main = document.getElementById("main");
let me = null;          // {id, name}
let presets = null;     // GET /api/presets
let table = null;       // the current table page's state
let lobbyTimer = null;
let replayKeys = null;

// ----- small helpers ---------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function toast(message) {
  const t = document.getElementById("toast");
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}

async function api(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error(errorText(data) || `${res.status} ${res.statusText}`);
    err.field = data && data.error ? data.error.field : null;
    if (!err.field && data && Array.isArray(data.detail) && data.detail[0]) {
      const loc = data.detail[0].loc || [];
      err.field = loc[1] === "options" ? loc[2] : loc[1];
    }
    err.status = res.status;
    throw err;
  }
  return data;
}

function errorText(data) {
  if (!data) return "";
  if (data.error) return data.error.message;
  if (Array.isArray(data.detail)) return data.detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ");
  return String(data.detail || "");
}

function rankText(r) { return r === "T" ? "10" : r; }

// a timed match: the minutes left (the match ends with the hand in play when they run out)
function matchClock(info) {
  if (!info || !info.minutes || !info.started_at) return null;
  const left = Math.ceil((info.started_at + 60 * info.minutes - Date.now() / 1000) / 60);
  const text = left > 0 ? `timed match: ${left} min left` : "timed match: this is the last hand";
  return el("span", { class: "match-clock", id: "match-clock" }, text);
}

function cardLabel(code) {
  if (code === "JK") return "joker";
  return `${RANK_NAMES[code[0]] || code[0]} of ${SUIT_NAMES[code[1]]}`;
}

// What a meld's wild card stands for, e.g. "5♥" (run) or "K" (set); null without a wild.
function wildStands(m) {
  if (m.wild === null || m.wild === undefined) return null;
  const natural = m.cards.find((c, i) => i !== m.wild && c !== "JK");
  if (!natural) return null;
  if (m.type === "set") return { text: rankText(natural[0]), label: RANK_NAMES[natural[0]] || natural[0] };
  const pos = m.low + m.wild;
  const r = POSITIONS[pos];
  if (!r) return null;
  return { text: rankText(r) + SUITS[natural[1]], label: cardLabel(r + natural[1]) };
}

function cardNode(code, opts = {}) {
  const tag = opts.button ? "button" : "span";
  const rank = code === "JK" ? "★" : rankText(code[0]);
  const suit = code === "JK" ? "" : SUITS[code[1]];
  const cls = ["card"];
  if (code === "JK") cls.push("joker");
  else { cls.push(`s-${code[1]}`); if (code[1] === "H" || code[1] === "D") cls.push("red"); }
  if (opts.wild) cls.push("wild");
  if (opts.extra) cls.push(opts.extra);
  let label = cardLabel(code);
  if (opts.wild) label += opts.stands ? `, wild, as the ${opts.stands.label}` : ", wild";
  const attrs = { class: cls.join(" "), "aria-label": label, title: label };
  if (opts.button) {
    attrs.type = "button";
    attrs["aria-pressed"] = opts.pressed ? "true" : "false";
    attrs["data-key"] = opts.key;
  }
  const node = el(tag, attrs, el("span", { class: "rank" }, rank), el("span", { class: "suit" }, suit));
  if (opts.wild && opts.stands) node.append(el("span", { class: "as", "aria-hidden": "true" }, `=${opts.stands.text}`));
  return node;
}

function backs(n) {
  return el("span", { class: "backs", "aria-label": `${n} cards` }, el("span", { class: "back", "aria-hidden": "true" }), `×${n}`);
}

function route() {
  clearInterval(lobbyTimer);
  replayKeys = null;
  if (table && table.ws) { table.closing = true; table.ws.close(); }
  if (table) clearInterval(table.pinger);
  table = null;
  document.title = "Buraco";
  const hash = location.hash || "#/";
  const [path, query] = hash.slice(1).split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "table" && parts[1]) return showTable(decodeURIComponent(parts[1]), params.get("invite"));
  if (parts[0] === "game" && parts[1]) return showReplay(parts[1], params);
  return showLobby(params.get("games") || "mine");
}

// ----- who am I --------------------------------------------------------------------------------
async function loadMe() {
  try {
    const res = await fetch("/api/me", { credentials: "same-origin" });
    me = res.ok ? await res.json() : null;
  } catch { me = null; }
  renderMe();
}

function renderMe() {
  const box = document.getElementById("me");
  box.replaceChildren();
  if (me) box.append(`Playing as ${me.name}`);
}

function nameForm(onDone) {
  const input = el("input", { id: "name", maxlength: 40, required: true, autocomplete: "nickname", value: me ? me.name : "" });
  const err = el("span", { class: "err", role: "alert" });
  return el("form", { class: "row", onsubmit: async (e) => {
    e.preventDefault();
    try { me = await api("POST", "/api/guests", { name: input.value }); renderMe(); onDone(); }
    catch (x) { err.textContent = x.message; }
  } }, el("label", { for: "name" }, "Your name"), input,
  el("button", { class: "primary", type: "submit", id: "name-submit" }, me ? "Rename" : "Play"), err);
}

// ----- lobby -----------------------------------------------------------------------------------
async function showLobby(which) {
  clearInterval(lobbyTimer);
  main.replaceChildren(el("h1", {}, "Buraco online"));
  try { if (!presets) presets = await api("GET", "/api/presets"); }
  catch (x) { main.append(el("p", { role: "alert" }, x.message)); return; }
  main.append(el("section", { class: "panel", "aria-labelledby": "name-h" },
    el("h2", { id: "name-h" }, me ? "Your name" : "Choose a name to play"), nameForm(() => showLobby(which)),
    me ? null : el("p", { class: "muted" }, "No account or password: a guest name is kept in this browser.")));
  const list = el("div", { id: "tables" });
  main.append(el("section", { class: "panel", "aria-labelledby": "tables-h" }, el("h2", { id: "tables-h" }, "Tables"), list));
  if (me) main.append(createForm());
  const gamesBox = el("section", { class: "panel", "aria-labelledby": "games-h" });
  main.append(gamesBox);
  const refresh = async () => {
    try {
      const data = await api("GET", "/api/tables");
      list.replaceChildren(tablesTable(data.tables));
    } catch (x) { list.replaceChildren(el("p", {}, x.message)); }
  };
  refresh();
  lobbyTimer = setInterval(refresh, 5000);
  const mine = which !== "all" && me;
  const tabs = el("div", { class: "row", role: "group", "aria-label": "which games" },
    el("a", { href: "#/?games=mine", "aria-current": mine ? "page" : null, class: "tab" }, "My games"),
    el("a", { href: "#/?games=all", "aria-current": mine ? null : "page", class: "tab" }, "All games"));
  gamesBox.append(el("h2", { id: "games-h" }, "Finished games: replays and records"), ...(me ? [tabs] : []));
  try {
    const games = await api("GET", mine ? "/api/games?mine=true" : "/api/games");
    gamesBox.append(gamesTable(games.games));
  } catch (x) { gamesBox.append(el("p", {}, x.message)); }
}

function tablesTable(tables) {
  if (!tables.length) return el("p", { class: "muted" }, "No public tables yet: create one.");
  const rows = tables.map((t) => {
    const open = t.status === "waiting" ? t.open_seats.length : 0;
    return el("tr", {},
      el("td", {}, t.preset), el("td", {}, `${t.players}`),
      el("td", {}, t.seats.map((s) => (s.kind === "open" ? "(open)" : s.kind === "invite" ? "(invited)" : s.name)).join(", ")),
      el("td", {}, t.status === "waiting" ? `${open} open` : `playing, hand ${t.hand}`),
      el("td", {}, open ? el("a", { href: `#/table/${t.id}`, class: "join" }, "Join") : null, " ",
        el("a", { href: `#/table/${t.id}`, class: "watch" }, "Watch")));
  });
  return el("table", { class: "list" },
    el("thead", {}, el("tr", {}, ["Preset", "Players", "Seats", "Open seats", ""].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

function gamesTable(games) {
  if (!games.length) return el("p", { class: "muted" }, "None yet.");
  const rows = games.map((g) => el("tr", {},
    el("td", {}, g.finished_at.slice(0, 16).replace("T", " ")),
    el("td", {}, g.preset), el("td", {}, g.names.join(", ")), el("td", {}, g.totals.join(" – ")),
    el("td", {}, `${g.hands} hand${g.hands === 1 ? "" : "s"}`),
    el("td", {}, el("a", { href: `#/game/${g.id}` }, "Replay"), " · ",
      el("a", { href: `/api/games/${g.id}/record`, download: `buraco-game-${g.id}.json` }, "Record"))));
  return el("table", { class: "list" },
    el("thead", {}, el("tr", {}, ["Finished", "Preset", "Players", "Score", "Hands", ""].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

const SEAT_KINDS = { me: "me", bot: "a bot", open: "open to anyone", invite: "kept for a friend (invite link)" };

function createForm() {
  const errs = {};
  const fieldBox = (name, label, input, help) => {
    errs[name] = el("span", { class: "err", role: "alert", id: `err-${name}` });
    input.setAttribute("aria-describedby", `err-${name}${help ? ` help-${name}` : ""}`);
    return el("div", { class: "field", "data-field": name }, el("label", { for: input.id }, label), input,
      help ? el("span", { class: "muted help", id: `help-${name}` }, help) : null, errs[name]);
  };
  const preset = el("select", { id: "f-preset" }, presets.presets.map((p) => el("option", { value: p.name }, `${p.name}: ${p.title}`)));
  const players = el("select", { id: "f-players" });
  const seatsBox = el("div", { class: "grid seats-form" });
  const optsBox = el("div", { class: "grid" });
  const details = el("details", { id: "f-options" }, el("summary", {}, "Rule options"), optsBox);
  const pub = el("input", { id: "f-public", type: "checkbox", checked: true });
  const pace = el("input", { id: "f-pace", type: "number", min: 0, max: 5, step: 0.25, value: 1 });
  const timer = el("select", { id: "f-timer" }, [0, 30, 60, 120].map((s) => el("option", { value: s }, s ? `${s} s` : "off")));
  const minutes = el("select", { id: "f-minutes" }, [0, 15, 30, 60, 90].map((m) => el("option", { value: m }, m ? `${m} min` : "off")));
  let optInputs = {};
  const fillPlayers = () => {
    const p = presets.presets.find((x) => x.name === preset.value);
    players.replaceChildren(...p.players.map((n) => el("option", { value: n, selected: n === 4 }, `${n}`)));
    fillSeats(); fillOptions();
  };
  const fillSeats = () => {
    seatsBox.replaceChildren();
    const n = Number(players.value);
    for (let i = 0; i < n; i++) {
      const kind = el("select", { id: `f-seat-${i}` },
        Object.keys(SEAT_KINDS).map((k) => el("option", { value: k, selected: (i === 0 && k === "me") || (i > 0 && k === "bot") }, SEAT_KINDS[k])));
      const bot = el("input", { id: `f-bot-${i}`, value: "heuristic", maxlength: 200, list: "bot-specs", "aria-label": `seat ${i + 1}: which bot` });
      const sync = () => { bot.hidden = kind.value !== "bot"; };
      kind.addEventListener("change", sync);
      sync();
      seatsBox.append(el("div", { class: "field" }, el("label", { for: kind.id }, `Seat ${i + 1}`), kind, bot));
    }
  };
  const fillOptions = () => {
    optsBox.replaceChildren();
    optInputs = {};
    const p = presets.presets.find((x) => x.name === preset.value);
    const defaults = p.defaults[players.value] || {};
    for (const o of presets.options) {
      const id = `f-opt-${o.name}`;
      const d = defaults[o.name];
      let input;
      let help = o.help || "";
      const shown = d === undefined ? "" : ` (${Array.isArray(d) ? d.join(",") : d === true ? "yes" : d === false ? "no" : d})`;
      // every option starts at "the preset's rule": only what the player changes is sent
      if (o.type === "bool") {
        input = el("select", { id }, el("option", { value: "" }, `preset default${shown}`), el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"));
      } else if (o.type === "choice") {
        input = el("select", { id }, el("option", { value: "" }, `preset default${shown}`), o.choices.map((c) => el("option", { value: c }, c)));
      } else if (o.type === "int") {
        input = el("input", { id, type: "number", min: o.min, max: o.max, step: 1, placeholder: `default${shown}` });
        help = `${help}${help ? " " : ""}(${o.min ?? "…"} to ${o.max ?? "…"})`;
      } else {
        input = el("input", { id, placeholder: `default${shown}`, inputmode: o.type === "sizes" ? "numeric" : null });
        if (o.type === "sizes") help = `${help}${help ? " " : ""}(sizes, e.g. 11,11)`;
      }
      optInputs[o.name] = { input, o };
      optsBox.append(fieldBox(o.name, o.name.replaceAll("_", " "), input, help));
    }
  };
  preset.addEventListener("change", fillPlayers);
  players.addEventListener("change", () => { fillSeats(); fillOptions(); });
  const formErr = el("p", { class: "err", role: "alert" });
  const submit = async (e) => {
    e.preventDefault();
    for (const k of Object.keys(errs)) errs[k].textContent = "";
    formErr.textContent = "";
    const options = {};
    for (const [name, { input, o }] of Object.entries(optInputs)) {
      const raw = input.value.trim();
      if (raw === "") continue;
      if (o.type === "bool") options[name] = raw === "true";
      else if (o.type === "int") options[name] = Number(raw);
      else if (o.type === "sizes") options[name] = raw.split(/[ ,]+/).filter(Boolean).map(Number);
      else options[name] = raw;
    }
    const seats = [];
    for (let i = 0; i < Number(players.value); i++) {
      const kind = document.getElementById(`f-seat-${i}`).value;
      seats.push(kind === "bot" ? { kind, bot: document.getElementById(`f-bot-${i}`).value.trim() } : { kind });
    }
    try {
      const made = await api("POST", "/api/tables", { preset: preset.value, players: Number(players.value), options, seats, public: pub.checked, pace: Number(pace.value), turn_timer: Number(timer.value), minutes: Number(minutes.value) });
      location.hash = made.link.slice(made.link.indexOf("#"));
    } catch (x) {
      const field = x.field;
      if (field && errs[field]) {
        errs[field].textContent = x.message;
        if (optInputs[field]) details.open = true;
        const input = errs[field].parentElement.querySelector("input, select");
        if (input) input.focus();
      } else formErr.textContent = x.message;
    }
  };
  const form = el("form", { class: "panel create", onsubmit: submit, "aria-labelledby": "create-h", novalidate: true },
    el("h2", { id: "create-h" }, "Create a table"),
    el("div", { class: "row wrap" }, fieldBox("preset", "Preset", preset), fieldBox("players", "Players", players),
      fieldBox("pace", "Bot pace (seconds a move)", pace), fieldBox("turn_timer", "Turn timer", timer), fieldBox("minutes", "Timed match", minutes),
      el("div", { class: "field" }, el("label", { for: "f-public" }, "Listed in the lobby (untick: private, invite link only)"), pub)),
    el("h3", {}, "Seats"), el("p", { class: "muted" }, "Partners sit opposite each other (at 4: seats 1 and 3, 2 and 4). A bot is a name with parameters: heuristic, mcts:time=0.25, greedy, random."),
    seatsBox, fieldBox("seats", "", el("span", { id: "f-seats-none" })),
    el("datalist", { id: "bot-specs" }, ["heuristic", "mcts", "mcts:time=0.25", "greedy", "random"].map((b) => el("option", { value: b }))),
    details, formErr, el("button", { class: "primary", type: "submit", id: "create" }, "Create table"));
  fillPlayers();
  return form;
}

// ----- table -----------------------------------------------------------------------------------
function showTable(id, invite) {
  table = {
    id, invite, version: null, view: null, info: null, you: null, selected: new Set(), chat: [],
    reason: "", closing: false, retry: 0, ready: false, reveal: null, pending: false, choice: null,
    asked: false, ws: null, pinger: null, board: null, status: null, clock: null, clockAt: 0,
  };
  const t = table;
  t.status = el("span", { id: "conn", class: "muted", role: "status", "aria-live": "polite" }, "Connecting…");
  t.title = el("h1", {}, "Table");
  t.board = el("div", { id: "board" });
  main.replaceChildren(el("div", { class: "table-page" },
    el("div", { class: "row head" }, t.title, t.status, el("a", { href: "#/" }, "Lobby")),
    t.board, chatPanel()));
  tableFound(t).then((found) => { if (found && table === t) connect(); });
  t.pinger = setInterval(() => { if (t.ws && t.ws.readyState === WebSocket.OPEN) t.ws.send(JSON.stringify({ type: "ping" })); }, PING_EVERY);
}

// A new connection (e.g. once the page has a guest name, so that the server knows who it is).
function reconnect() {
  const t = table;
  const old = t.ws;
  t.ws = null;
  if (old) old.close();
  clearTimeout(t.reconnect);
  connect();
}

// Whether the table can be seen at all (a private one needs its invite code): a socket
// refused before it opens tells the page nothing.
async function tableFound(t) {
  try {
    await api("GET", `/api/tables/${encodeURIComponent(t.id)}${t.invite ? `?invite=${encodeURIComponent(t.invite)}` : ""}`);
    return true;
  } catch (x) {
    if (x.status !== 404) return true;
    t.board.replaceChildren(el("p", { role: "alert", id: "not-found" }, "No such table (or it is private: open it with its invite link)."),
      el("p", {}, el("a", { href: "#/" }, "Back to the lobby")));
    setStatus("");
    return false;
  }
}

function connect() {
  const t = table;
  const q = new URLSearchParams();
  if (t.invite) q.set("invite", t.invite);
  if (t.version !== null) q.set("since", t.version);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(t.id)}?${q}`);
  t.ws = ws;
  ws.onmessage = (e) => { if (table === t && t.ws === ws) onMessage(JSON.parse(e.data)); };
  ws.onopen = () => { t.retry = 0; t.opened = true; setStatus(""); };
  ws.onclose = (e) => {
    if (table !== t || t.closing || t.ws !== ws) return;
    if (e.code === 4404) {
      t.board.replaceChildren(el("p", { role: "alert" }, "No such table (or it is private: open it with its invite link)."));
      setStatus("");
      return;
    }
    t.retry = Math.min(t.retry + 1, 5);
    const delay = 250 * 2 ** t.retry;
    setStatus(`Connection lost; reconnecting in ${Math.max(1, Math.round(delay / 1000))} s…`);
    clearTimeout(t.reconnect);
    t.reconnect = setTimeout(async () => { if (table === t && (t.opened || await tableFound(t)) && table === t) connect(); }, delay);
  };
}

window.addEventListener("online", () => {
  const t = table;
  if (t && t.ws && t.ws.readyState !== WebSocket.OPEN && t.ws.readyState !== WebSocket.CONNECTING) { clearTimeout(t.reconnect); connect(); }
});

function send(msg) {
  if (table && table.ws && table.ws.readyState === WebSocket.OPEN) { table.ws.send(JSON.stringify(msg)); return true; }
  toast("Not connected; reconnecting…");
  return false;
}

function setStatus(text) { if (table && table.status) table.status.textContent = text; }

function mySeat() { return table && table.you && table.you.seat !== null && table.you.seat !== undefined ? table.you.seat : null; }

function onMessage(m) {
  const t = table;
  switch (m.type) {
    case "state":
      t.version = m.version; t.view = m.view; t.info = m.table; t.you = m.you; t.clock = m.clock; t.clockAt = Date.now();
      t.pending = false;
      if (m.view && m.view.scores && !t.reveal && !t.asked && m.version > 0) {
        // a hand is over but this page did not see its last event: ask for it (its reveal)
        t.asked = true;
        send({ type: "hello", protocol: PROTOCOL, since: m.version - 1 });
      }
      render(); break;
    case "event": {
      const ev = m.event;
      t.version = m.version; t.clock = m.clock; t.clockAt = Date.now();
      if (m.view && m.view.log_from !== undefined) {
        // an event's view holds only the log's new lines, and not the rules' options
        const before = (t.view && t.view.log) || [];
        if (before.length < m.view.log_from) { send({ type: "hello", protocol: PROTOCOL }); break; }
        m.view.log = before.slice(0, m.view.log_from).concat(m.view.log);
        m.view.options = t.view ? t.view.options : undefined;
      }
      t.view = m.view;
      if (m.table) t.info = m.table;
      if (ev.reveal) t.reveal = ev.reveal;
      if (ev.kind === "deal") { t.reveal = null; t.ready = false; t.reason = ""; t.selected.clear(); t.asked = false; }
      if (ev.kind === "action" && ev.seat === m.seat) {
        t.reason = "";
        // the cards of a meld, an add or a discard have left the hand: start a new selection
        if (!/^(draw|take-pile|turn-up)/.test(ev.action)) t.selected.clear();
      }
      t.you = { ...(t.you || {}), seat: m.seat };
      t.pending = false; t.choice = null;
      render(); break;
    }
    case "missed":
      for (const ev of m.events) if (ev.reveal) t.reveal = ev.reveal;
      break;
    case "table":
      t.info = m.table; render(); break;
    case "chat":
      if (m.lines) t.chat = m.lines; else if (m.line) t.chat.push(m.line);
      t.chat = t.chat.slice(-200); renderChat(); break;
    case "error":
      t.pending = false;
      if (m.code === "stale") t.reason = "The table changed before your move arrived: look again and retry.";
      else if (m.code === "rate" || m.code === "chat" || m.code === "guest") { toast(m.message); break; }
      else t.reason = m.message;
      renderReason();
      break;
    case "pong": break;
  }
}

// The hand's cards with a stable key each (the code and which copy), for selection and focus.
function handKeys(hand) {
  const seen = {};
  return hand.map((c) => { seen[c] = (seen[c] || 0) + 1; return `${c}#${seen[c]}`; });
}

function legal() { return table.view ? table.view.legal : []; }
function myTurn() { const v = table.view; return !!v && mySeat() !== null && v.turn === mySeat() && !v.scores; }
function selectedCards() {
  const v = table.view;
  if (!v) return [];
  const keys = handKeys(v.hand);
  return v.hand.filter((_, i) => table.selected.has(keys[i]));
}
function sameCards(a, b) { return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" "); }

function act(text) {
  const t = table;
  if (t.pending) return;
  t.reason = "";
  t.choice = null;
  if (send({ type: "action", version: t.version, action: text })) {
    t.pending = true;
    renderReason();
    clearTimeout(t.pendingTimer);
    t.pendingTimer = setTimeout(() => { t.pending = false; }, 4000);
  }
}

// Say why nothing was sent (a move the page can tell is incomplete).
function refuse(message) { table.reason = message; renderReason(); }

function meldOptions(sel) { return legal().filter((a) => a.startsWith("meld ") && sameCards(a.slice(5).split(" "), sel)); }

function addOptions(n, sel) {
  return legal().filter((a) => { const p = a.split(" "); return p[0] === "add" && Number(p[1]) === n && sel.includes(p[2]); });
}

function doMeld() {
  const sel = selectedCards();
  if (!sel.length) return refuse("Select the cards to meld first.");
  const options = meldOptions(sel);
  if (options.length === 1) return act(options[0]);
  if (options.length > 1) return choose(options, "Meld these cards: where does the wild stand?");
  act(`meld ${sel.join(" ")}`); // not a legal meld: the server says why
}

function doAdd(n) {
  const sel = selectedCards();
  if (!sel.length) return refuse(`Select a card to add to meld ${n} first.`);
  const options = addOptions(n, sel);
  if (options.length === 1) return act(options[0]);
  if (options.length > 1) return choose(options, `Add to meld ${n}: which way?`);
  if (sel.length > 1) return refuse(`None of the selected cards fits meld ${n}; add one card at a time.`);
  act(`add ${n} ${sel[0]}`);
}

function doDiscard() {
  const sel = selectedCards();
  if (sel.length !== 1) return refuse(sel.length ? "Select exactly one card to discard." : "Select the card to discard first.");
  act(`discard ${sel[0]}`);
}

function doMove(n) {
  const options = legal().filter((a) => a.startsWith(`move ${n} `));
  if (options.length === 1) return act(options[0]);
  if (options.length > 1) return choose(options, `Move the wild of meld ${n}`);
  act(`move ${n} low`);
}

function choiceLabel(a) {
  const p = a.split(" ");
  if (p[0] === "add") return `${cardLabel(p[2])} ${PLACES[p[3]] || ""}`.trim();
  if (p[0] === "move") return `wild to the ${p[2]} end`;
  if (p[0] === "meld") return p.slice(1).map((c) => (c === "JK" ? "joker" : rankText(c[0]) + SUITS[c[1]])).join(" ");
  return a;
}

function choose(options, title) {
  table.choice = { options, title };
  render();
  document.querySelector("#choices button")?.focus();
}

function render() {
  const t = table;
  if (!t || !t.info) return;
  const v = t.view;
  const seat = mySeat();
  const active = document.activeElement;
  const focusKey = active && active.dataset ? active.dataset.key : null;
  t.title.textContent = `${t.info.preset} · ${t.info.players} players${t.info.public ? "" : " · private"}`;
  const keys = v ? handKeys(v.hand) : [];
  for (const k of [...t.selected]) if (!keys.includes(k)) t.selected.delete(k);
  const parts = [];
  if (t.info.status === "waiting") parts.push(waitingPanel());
  else if (t.invite && !t.info.public) parts.push(invitePara());
  if (v) parts.push(board(v, seat));
  else if (t.info.status !== "waiting") parts.push(el("p", {}, "Dealing…"));
  t.board.replaceChildren(...parts);
  renderReason();
  document.title = myTurn() ? "● Your turn · Buraco" : "Buraco";
  if (focusKey) document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  const over = v && v.scores ? `${v.hand_number}` : null;
  if (over !== null && t.shownOver !== over) {
    t.shownOver = over;
    const box = document.getElementById("hand-over");
    if (box) { box.scrollIntoView({ block: "start" }); if (!focusKey || !document.activeElement || document.activeElement === document.body) box.querySelector("button")?.focus({ preventScroll: true }); }
  }
}

function inviteLink() {
  const t = table;
  return `${location.origin}/#/table/${encodeURIComponent(t.id)}${t.invite ? `?invite=${encodeURIComponent(t.invite)}` : ""}`;
}

function invitePara() {
  const link = inviteLink();
  const input = el("input", { id: "invite-link", readonly: true, value: link, "aria-label": "invite link", onfocus: (e) => e.target.select() });
  const copy = el("button", { type: "button", "data-key": "copy-invite", onclick: async () => {
    try { await navigator.clipboard.writeText(link); toast("Invite link copied."); }
    catch { input.focus(); input.select(); toast("Press Ctrl+C (or long-press) to copy the link."); }
  } }, "Copy");
  return el("p", { class: "row invite" }, el("label", { for: "invite-link" }, "Invite link"), input, copy);
}

function waitingPanel() {
  const t = table;
  const seat = mySeat();
  const rows = t.info.seats.map((s) => {
    let action = null;
    if (seat === null && (s.kind === "open" || (s.kind === "invite" && t.invite))) {
      action = me ? el("button", { class: "primary", "data-key": `sit-${s.seat}`, onclick: () => join(s.seat) }, `Sit at seat ${s.seat + 1}`) : null;
    }
    if (seat === s.seat) action = el("button", { "data-key": "leave", onclick: leave }, "Leave seat");
    const who = s.kind === "open" ? "open" : s.kind === "invite" ? "kept for an invited friend" : s.kind === "bot" ? `bot (${s.bot})` : s.name;
    return el("li", {}, el("strong", {}, `Seat ${s.seat + 1}: `), who, seat === s.seat ? " (you)" : "", " ", action);
  });
  return el("section", { class: "panel", "aria-labelledby": "wait-h" }, el("h2", { id: "wait-h" }, "Waiting for players"),
    el("ul", { class: "seat-list" }, rows),
    !me ? el("div", {}, el("p", {}, "Choose a name to sit:"), nameForm(reconnect)) : null,
    invitePara(),
    el("p", { class: "muted" }, "The match starts when every seat has a player or a bot."));
}

async function join(s) {
  try { const r = await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, { seat: s, invite: table.invite }); table.you = { ...(table.you || {}), seat: r.you }; }
  catch (x) { toast(x.message); }
}
async function leave() {
  try { await api("POST", `/api/tables/${encodeURIComponent(table.id)}/leave`); table.you = { ...(table.you || {}), seat: null }; render(); }
  catch (x) { toast(x.message); }
}

function clockText() {
  const t = table;
  if (!t.clock || t.clock.turn === null || t.clock.turn === undefined) return null;
  const s = Math.floor(t.clock.elapsed + (Date.now() - t.clockAt) / 1000);
  if (t.clock.limit) return `clock ${Math.max(0, t.clock.limit - s)} s left`;
  return `clock ${s} s`;
}

function meldMarks(m) {
  const marks = [m.clean ? "clean" : "dirty"];
  if (m.canastra) marks.push("canastra");
  if (m.bonus_points) marks.push(m.bonus_points >= 500 ? `★${m.bonus_points}` : `+${m.bonus_points}`);
  if (m.staged) marks.push("staged");
  return marks;
}

function meldNode(m, opts = {}) {
  const stands = wildStands(m);
  const marks = meldMarks(m);
  const label = `meld ${m.number}: ${m.cards.map((c, i) => (i === m.wild ? `${cardLabel(c)} (wild${stands ? ` as ${stands.label}` : ""})` : cardLabel(c))).join(", ")}; ${marks.join(", ")}`;
  const cls = ["meld", m.clean ? "clean" : "dirty"];
  if (m.canastra) cls.push("canastra");
  if (m.bonus_points >= 500) cls.push("big");
  if (opts.fits) cls.push("fits");
  const inner = [el("span", { class: "mark", "aria-hidden": "true" }, `#${m.number} ${marks.join(" ")}`),
    el("span", { class: "cards" }, m.cards.map((c, i) => cardNode(c, { wild: i === m.wild, stands: i === m.wild ? stands : null })))];
  if (opts.onclick) {
    return el("button", { type: "button", class: cls.join(" "), "data-key": `meld-${m.number}`, "data-meld": m.number,
      "aria-label": `${opts.fits ? "add to" : "try adding to"} ${label}`, onclick: opts.onclick }, inner);
  }
  return el("div", { class: cls.join(" "), role: "group", "data-meld": m.number, "aria-label": label }, inner);
}

function board(v, seat) {
  const t = table;
  const names = v.names;
  const turn = v.turn;
  const felt = el("section", { class: "felt", "aria-label": "the table" });
  const sel = seat !== null ? selectedCards() : [];
  const mine = myTurn();
  // seats
  felt.append(el("ol", { class: "seats", "aria-label": "players" }, names.map((n, i) => {
    const info = t.info.seats[i] || {};
    const flags = [];
    if (i === v.dealer) flags.push("dealer");
    if (info.kind === "bot") flags.push(`bot ${info.bot || ""}`.trim());
    if (info.kind === "guest" && !info.connected) flags.push(info.away ? "away: a bot plays" : "disconnected");
    return el("li", { class: `seat${turn === i ? " turn" : ""}${i === seat ? " mine" : ""}`, "aria-current": turn === i ? "true" : null, "data-seat": i },
      el("strong", {}, n), i === seat ? " (you)" : "", " ", backs(v.hand_sizes[i]),
      turn === i ? el("span", { class: "to-play" }, " ▶ to play") : null,
      flags.length ? el("span", { class: "flags" }, ` · ${flags.join(", ")}`) : null);
  })));
  // status line
  const clock = clockText();
  const potText = v.pots.length ? `${v.pots.length} morto${v.pots.length > 1 ? "s" : ""} left (${v.pots.join(" + ")} cards)` : "no morto left";
  felt.append(el("div", { class: "status", id: "status" },
    el("span", {}, `Hand ${v.hand_number + 1}`),
    el("span", { id: "whose" }, turn === null || turn === undefined ? "Hand over" : turn === seat ? el("strong", {}, `Your turn: ${v.phase === "draw" ? "draw or take the pile" : "meld, add or discard"}`) : `${names[turn]}'s turn`),
    clock !== null ? el("span", { class: "clock", id: "clock" }, clock) : null,
    matchClock(t.info),
    v.last_turn ? el("strong", {}, "Last turn: the stock is empty") : null));
  // stock, pile
  const canDraw = mine && v.phase === "draw";
  const stock = el("button", { type: "button", class: "stock", id: "stock", "data-key": "stock", disabled: !canDraw, onclick: () => act("draw"),
    "aria-label": `stock, ${v.stock} cards${canDraw ? ": draw" : ""}` }, el("span", { class: "back", "aria-hidden": "true" }), ` Stock ${v.stock}`);
  const pileCards = v.pile.map((c, i) => cardNode(c, { extra: i === v.pile.length - 1 ? "pile-top" : null }));
  const pile = el("button", { type: "button", class: "pile", id: "pile", "data-key": "pile", disabled: !canDraw || !v.pile_size, onclick: () => act("take-pile"),
    "aria-label": `discard pile, ${v.pile_size} cards${v.pile_open ? "" : ", closed"}${v.pile.length ? `, top ${cardLabel(v.pile[v.pile.length - 1])}` : ""}${canDraw && v.pile_size ? ": take it" : ""}` },
  el("span", { class: "pile-head" }, `Pile ${v.pile_size}${v.pile_open ? "" : " (closed: top card)"}`), el("span", { class: "pile-cards" }, pileCards.length ? pileCards : "empty"));
  felt.append(el("div", { class: "middle" }, stock, pile,
    el("div", { class: "pots" }, potText, v.taken_top ? el("div", {}, `taken from the pile this turn: ${cardLabel(v.taken_top)}${mine ? " (it may not be discarded)" : ""}`) : null)));
  // the end of a hand: its scores first, then the table as it ended
  if (v.scores) felt.append(handOver(v, seat));
  // sides and melds
  const moves = legal().filter((a) => a.startsWith("move "));
  felt.append(el("div", { class: "sides" }, v.melds.map((melds, side) => {
    const own = side === v.side;
    const seatsOf = v.sides[side].map((s) => names[s]).join(" & ");
    const facts = [`match ${v.totals[side]}`, `on the table ${v.table_points[side]}`];
    if (v.vulnerable[side]) facts.push("vulnerable");
    if (v.requirement[side]) facts.push(`needs ${v.requirement[side]} to open`);
    facts.push(v.pot_taken[side] ? "morto taken" : "morto not taken");
    const head = el("div", { class: "side-head" }, el("strong", {}, own ? `${seatsOf} (your side)` : seatsOf), el("span", { class: "facts" }, ` · ${facts.join(" · ")}`));
    const list = el("div", { class: "melds" }, melds.length ? melds.map((m) => {
      const fits = own && sel.length > 0 && addOptions(m.number, sel).length > 0;
      const node = meldNode(m, { fits, onclick: own && mine && v.phase !== "draw" && sel.length ? () => doAdd(m.number) : null });
      const myMoves = own ? moves.filter((a) => Number(a.split(" ")[1]) === m.number) : [];
      if (!myMoves.length) return node;
      return el("div", { class: "meld-wrap" }, node, el("button", { type: "button", "data-key": `move-${m.number}`, onclick: () => doMove(m.number) }, "move the wild"));
    }) : el("span", { class: "muted-light" }, "no melds"));
    return el("section", { class: `side${own ? " own" : ""}`, "aria-label": `side of ${seatsOf}` }, head, list);
  })));
  if (t.choice) felt.append(choicePanel());
  felt.append(el("div", { id: "reason", role: "alert" }));
  // my hand and actions, or a spectator's note
  if (seat !== null) felt.append(handPanel(v));
  else felt.append(el("p", { class: "watching" }, "You are watching: the players' hands are hidden."));
  if (v.log && v.log.length) {
    felt.append(el("details", { class: "log" }, el("summary", {}, `Last move: ${v.log[v.log.length - 1]}`),
      el("ol", {}, v.log.slice(-30).map((l) => el("li", {}, l)))));
  }
  return felt;
}

function choicePanel() {
  const c = table.choice;
  return el("div", { class: "panel choices", id: "choices", role: "group", "aria-label": c.title },
    el("p", {}, c.title), c.options.map((a) => el("button", { type: "button", "data-action": a, onclick: () => act(a) }, choiceLabel(a))),
    el("button", { type: "button", onclick: () => { table.choice = null; render(); } }, "Cancel"));
}

function handPanel(v) {
  const t = table;
  const hand = v.hand;
  const keys = handKeys(hand);
  const cards = hand.map((c, i) => {
    const b = cardNode(c, { button: true, pressed: t.selected.has(keys[i]), key: `card-${keys[i]}` });
    b.dataset.card = c;
    b.addEventListener("click", () => toggle(keys[i]));
    b.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        const all = [...document.querySelectorAll(".hand .card")];
        const at = all.indexOf(b);
        all[(at + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length]?.focus();
      }
    });
    return b;
  });
  const L = legal();
  const sel = selectedCards();
  const mine = myTurn();
  const drawPhase = mine && v.phase === "draw";
  const playPhase = mine && v.phase !== "draw";
  const melds = sel.length ? meldOptions(sel) : [];
  const b = (key, label, shortcut, onclick, opts = {}) => el("button", {
    type: "button", id: `act-${key}`, "data-key": `act-${key}`, class: opts.primary ? "primary" : null,
    disabled: opts.disabled, "aria-keyshortcuts": shortcut, onclick }, label, shortcut ? el("kbd", { "aria-hidden": "true" }, shortcut) : null);
  const buttons = [
    b("draw", "Draw", "d", () => act("draw"), { primary: drawPhase && L.includes("draw"), disabled: !mine }),
    b("take", "Take the pile", "t", () => act("take-pile"), { primary: drawPhase && L.includes("take-pile"), disabled: !mine || !v.pile_size }),
  ];
  if (L.includes("turn-up")) buttons.push(b("turnup", "Turn the card up", "u", () => act("turn-up")));
  buttons.push(
    b("meld", "Meld", "m", doMeld, { primary: melds.length > 0, disabled: !mine || !sel.length }),
    b("discard", "Discard", "x", doDiscard, { primary: playPhase && sel.length === 1 && L.includes(`discard ${sel[0]}`), disabled: !mine || sel.length !== 1 }));
  if (t.selected.size) buttons.push(b("clear", "Clear", "Escape", () => { t.selected.clear(); render(); }));
  let hint;
  if (!mine) hint = v.scores ? "The hand is over." : "Wait for your turn; you may select cards meanwhile.";
  else if (drawPhase) hint = "Draw from the stock or take the pile.";
  else if (!sel.length) hint = "Select cards, then Meld, Discard, or click one of your side's melds to add.";
  else if (document.querySelector(".meld.fits") || v.melds[v.side].some((m) => addOptions(m.number, sel).length)) hint = "Highlighted melds take a selected card: click one to add it.";
  else hint = sel.length === 1 ? "Discard it, or select more cards to meld." : "Meld them, or select one card to discard.";
  const typed = el("input", { id: "typed", placeholder: "meld 7H 8H 9H", maxlength: 500, autocomplete: "off", "aria-label": "an action in notation" });
  const typedForm = el("form", { class: "row typed", onsubmit: (e) => { e.preventDefault(); if (typed.value.trim()) act(typed.value.trim()); } },
    el("label", { for: "typed", class: "typed-label" }, "Or type a move:"), typed, el("button", { type: "submit" }, "Send"));
  return el("section", { class: "panel mine", "aria-labelledby": "hand-h" },
    el("div", { class: "row" }, el("h2", { id: "hand-h" }, `Your hand (${hand.length})`), v.hidden_pot ? el("span", {}, `${v.hidden_pot} morto cards face down until your partner plays`) : null,
      sel.length ? el("span", { class: "muted" }, `selected: ${sel.map((c) => (c === "JK" ? "★" : rankText(c[0]) + SUITS[c[1]])).join(" ")}`) : null),
    el("div", { class: "hand", role: "group", "aria-label": "your cards: click or press Enter to select" }, cards),
    el("div", { class: "actions", role: "toolbar", "aria-label": "moves" }, buttons),
    el("p", { class: "hint", id: "hint" }, hint),
    mine ? typedForm : null);
}

function toggle(key) {
  if (table.selected.has(key)) table.selected.delete(key); else table.selected.add(key);
  table.choice = null;
  render();
}

function renderReason() {
  const box = document.getElementById("reason");
  if (!box) return;
  box.replaceChildren();
  if (table.reason) box.append(el("p", { class: "reason" }, table.reason));
}

function sideName(v, i) { return v.sides[i].map((s) => v.names[s]).join(" & "); }

function scoresTable(v, scores) {
  return el("table", { class: "scores" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ""), scores.map((_, i) => el("th", { scope: "col" }, sideName(v, i))))),
    el("tbody", {}, SCORE_ROWS.map(([key, label]) => el("tr", { class: key === "total" ? "total" : null }, el("th", { scope: "row" }, label), scores.map((s) => el("td", {}, `${s[key] ?? 0}`))))));
}

function handsTable(v, played) {
  return el("table", { class: "scores", id: "hands-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "after"), v.sides.map((_, i) => el("th", { scope: "col" }, sideName(v, i))))),
    el("tbody", {}, played.map((h) => el("tr", {}, el("th", { scope: "row" }, `hand ${h.hand}`),
      h.totals.map((x, i) => el("td", {}, `${x}`, el("span", { class: "muted" }, ` (${h.scores[i].total >= 0 ? "+" : ""}${h.scores[i].total})`)))))));
}

function handOver(v, seat) {
  const t = table;
  const over = t.info.status === "over" || v.winner !== null;
  const box = el("section", { class: "panel hand-over", id: "hand-over", "aria-labelledby": "over-h" },
    el("h2", { id: "over-h" }, over ? "Match over" : `Hand ${v.hand_number + 1} over`), scoresTable(v, v.scores));
  if (t.reveal) {
    box.append(el("h3", {}, "Cards left in hand"), el("div", { class: "reveal" }, t.reveal.hands.map((h, i) => el("div", {},
      el("strong", {}, `${v.names[i]}: `), h.length ? h.map((c) => cardNode(c)) : "no cards"))));
    box.append(el("p", { class: "muted small" }, `The deal was committed before play (${t.reveal.commitment.slice(0, 12)}…) and is now revealed: the game record lets anyone check it.`));
  }
  const played = v.hands_played || [];
  if (played.length) box.append(el("h3", {}, "Hands"), handsTable(v, played));
  if (over) {
    const w = v.winner;
    box.append(el("p", { class: "winner" }, w !== null && w !== undefined ? `${sideName(v, w)} win the match, ${v.totals[w]} points.` : "The match is over."));
    if (t.info.game) {
      box.append(el("p", {}, el("a", { href: `/api/games/${t.info.game}/record`, download: `buraco-game-${t.info.game}.json` }, "Download the game record"),
        " · ", el("a", { href: `#/game/${t.info.game}` }, "Replay it")));
    }
    if (t.info.rematch) box.append(el("p", {}, el("a", { href: `#/table/${t.info.rematch}`, class: "button primary", id: "go-rematch" }, "Go to the rematch")));
    else if (seat !== null) box.append(el("button", { type: "button", class: "primary", id: "rematch", "data-key": "rematch", onclick: rematch }, "Rematch"));
  } else if (seat !== null) {
    box.append(el("button", { type: "button", class: "primary", id: "ready", "data-key": "ready", "aria-keyshortcuts": "r", disabled: t.ready,
      onclick: ready }, t.ready ? "Waiting for the others…" : "Ready for the next hand"));
  }
  return box;
}

function ready() {
  if (table.ready) return;
  if (send({ type: "ready" })) { table.ready = true; render(); }
}

async function rematch() {
  try { const r = await api("POST", `/api/tables/${encodeURIComponent(table.id)}/rematch`); location.hash = `#/table/${r.table.id}`; }
  catch (x) { toast(x.message); }
}

function chatPanel() {
  const input = el("input", { id: "chat-text", maxlength: 300, autocomplete: "off", "aria-label": "chat message", placeholder: me ? "Say something" : "choose a name to chat" });
  const form = el("form", { class: "row", onsubmit: (e) => {
    e.preventDefault();
    if (!me) { toast("Choose a name in the lobby to chat."); return; }
    if (input.value.trim() && send({ type: "chat", text: input.value.trim() })) input.value = "";
  } }, input, el("button", { type: "submit" }, "Send"));
  return el("section", { class: "panel chat-panel", "aria-labelledby": "chat-h" }, el("h2", { id: "chat-h" }, "Chat"),
    el("div", { id: "chat", class: "chat", role: "log", "aria-live": "polite" }), form);
}

function renderChat() {
  const box = document.getElementById("chat");
  if (!box) return;
  box.replaceChildren(...table.chat.map((l) => el("p", {}, el("strong", {}, l.name), ": ", el("span", { class: "chat-text" }, l.text))));
  box.scrollTop = box.scrollHeight;
}

document.addEventListener("keydown", (e) => {
  const t = table;
  if (!t || !t.view || e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const k = e.key;
  if (k === "Escape") { t.selected.clear(); t.choice = null; render(); return; }
  if (k === "r" && t.view.scores && mySeat() !== null) { ready(); return; }
  if (!myTurn()) return;
  const handled = {
    d: () => act("draw"), t: () => act("take-pile"), p: () => act("take-pile"), u: () => act("turn-up"),
    m: doMeld, x: doDiscard,
    a: () => {
      const sel = selectedCards();
      const fit = t.view.melds[t.view.side].filter((m) => addOptions(m.number, sel).length);
      if (fit.length === 1) doAdd(fit[0].number);
      else if (fit.length > 1) choose(fit.flatMap((m) => addOptions(m.number, sel)), "Add to which meld?");
      else refuse("No meld of your side takes the selected card.");
    },
  }[k];
  if (handled) { e.preventDefault(); handled(); }
});

setInterval(() => {
  const c = document.getElementById("clock");
  if (table && c) { const text = clockText(); if (text) c.textContent = text; }
}, 1000);

// ----- replays ---------------------------------------------------------------------------------
async function showReplay(id, params) {
  const state = { hand: Number(params.get("hand")) || 1, step: Number(params.get("step")) || 0 };
  main.replaceChildren(el("p", {}, "Loading…"));
  let info;
  try { info = await api("GET", `/api/games/${encodeURIComponent(id)}`); }
  catch (x) { main.replaceChildren(el("p", { role: "alert" }, x.message), el("a", { href: "#/" }, "Lobby")); return; }
  const names = info.names;
  const go = (hand, step) => { state.hand = hand; state.step = Math.max(0, step); show(); };
  let asked = 0;
  const show = async () => {
    const mine = ++asked;
    let p;
    try { p = await api("GET", `/api/games/${encodeURIComponent(id)}/replay?hand=${state.hand}&step=${state.step}`); }
    catch (x) { toast(x.message); return; }
    if (mine !== asked || !location.hash.startsWith("#/game/")) return; // a later step was asked for meanwhile
    state.step = p.step; state.steps = p.steps; state.hands = p.hands;
    const v = p.view;
    const active = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const nb = (key, label, onclick, disabled, shortcut) => el("button", { type: "button", "data-key": key, id: `r-${key}`, onclick, disabled, "aria-keyshortcuts": shortcut }, label);
    const nav = el("div", { class: "row replay-nav", role: "toolbar", "aria-label": "replay" },
      nb("start", "|◀ Start", () => go(p.hand, 0), p.step === 0, "Home"),
      nb("back", "◀ Back", () => go(p.hand, p.step - 1), p.step === 0, "ArrowLeft"),
      el("span", { id: "r-where", role: "status" }, `Hand ${p.hand} of ${p.hands} · move ${p.step} of ${p.steps}`),
      nb("next", "Next ▶", () => go(p.hand, p.step + 1), p.step >= p.steps, "ArrowRight"),
      nb("end", "End ▶|", () => go(p.hand, p.steps), p.step >= p.steps, "End"),
      nb("prev-hand", "Previous hand", () => go(p.hand - 1, 0), p.hand <= 1, "PageUp"),
      nb("next-hand", "Next hand", () => go(p.hand + 1, 0), p.hand >= p.hands, "PageDown"));
    const hands = el("div", { class: "replay-hands" }, p.cards.map((h, i) => el("div", { class: `seat${v.turn === i ? " turn" : ""}` },
      el("strong", {}, `${names[i]} (${h.length}): `), h.map((c) => cardNode(c)))));
    const melds = el("div", { class: "sides" }, v.melds.map((ms, side) => el("section", { class: "side", "aria-label": `side of ${sideName(v, side)}` },
      el("div", { class: "side-head" }, el("strong", {}, sideName(v, side)), ` · on the table ${v.table_points[side]}${v.pot_taken[side] ? " · morto taken" : ""}`),
      el("div", { class: "melds" }, ms.length ? ms.map((m) => meldNode(m)) : el("span", { class: "muted-light" }, "no melds")))));
    const last = p.action ? `${names[p.action[0]]}: ${p.action[1]}` : "The deal";
    main.replaceChildren(el("h1", {}, `Replay: ${info.preset}, ${names.join(", ")}`),
      el("p", {}, `Final score ${info.totals.join(" – ")} · `, el("a", { href: `/api/games/${info.id}/record`, download: `buraco-game-${info.id}.json` }, "Download the record"), " · ", el("a", { href: "#/" }, "Lobby")),
      nav, el("p", { id: "r-action", "aria-live": "polite" }, last),
      el("section", { class: "felt" },
        el("div", { class: "middle" }, el("span", { class: "stock" }, `Stock ${v.stock}`),
          el("span", { class: "pile" }, el("span", { class: "pile-head" }, `Pile ${v.pile_size}`), el("span", { class: "pile-cards" }, v.pile.map((c) => cardNode(c)))),
          el("span", { class: "pots" }, v.pots.length ? `mortos: ${v.pots.join(" + ")} cards` : "no morto left")),
        melds, hands,
        v.scores ? el("div", { class: "panel" }, el("h2", {}, "Hand over"), scoresTable(v, v.scores)) : null));
    if (active) document.querySelector(`[data-key="${CSS.escape(active)}"]`)?.focus();
    history.replaceState(null, "", `#/game/${encodeURIComponent(id)}?hand=${p.hand}&step=${p.step}`);
  };
  replayKeys = (e) => {
    const keys = { ArrowRight: [0, 1], ArrowLeft: [0, -1], Home: [0, -1e9], End: [0, 1e9], PageDown: [1, 0], PageUp: [-1, 0] };
    const k = keys[e.key];
    if (!k) return;
    e.preventDefault();
    if (k[0]) { const h = state.hand + k[0]; if (h >= 1 && h <= state.hands) go(h, 0); }
    else go(state.hand, Math.min(state.steps ?? 0, state.step + k[1]));
  };
  show();
}
document.addEventListener("keydown", (e) => {
  if (replayKeys && location.hash.startsWith("#/game/") && !["INPUT", "SELECT"].includes(e.target.tagName) && !e.ctrlKey && !e.metaKey && !e.altKey) replayKeys(e);
});

// ----- start -----------------------------------------------------------------------------------
const four = document.getElementById("four-colour");
four.checked = localStorage.getItem("four-colour") === "1";
document.body.classList.toggle("four", four.checked);
four.addEventListener("change", () => { localStorage.setItem("four-colour", four.checked ? "1" : "0"); document.body.classList.toggle("four", four.checked); });
window.addEventListener("hashchange", () => {
  // the replay page rewrites its own address as it steps; that is not a new page
  if (location.hash.startsWith("#/game/") && replayKeys && route.lastGame === location.hash.split("?")[0]) return;
  route.lastGame = location.hash.startsWith("#/game/") ? location.hash.split("?")[0] : null;
  route();
});
route.lastGame = location.hash.startsWith("#/game/") ? location.hash.split("?")[0] : null;
loadMe().then(route);
