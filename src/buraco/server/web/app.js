// The buraco web client: lobby, table and replays. It talks to the server only through the
// documented REST API and WebSocket protocol (docs/protocol.md). Every user-supplied string is
// put in the page as text (textContent), never as HTML.

const PROTOCOL = 1;
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

const main = document.getElementById("main");
let me = null;          // {id, name}
let presets = null;     // GET /api/presets
let table = null;       // the current table page's state
let lobbyTimer = null;

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
  for (const c of children.flat()) {
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

function cardLabel(code) {
  if (code === "JK") return "joker";
  const r = code[0], s = code[1];
  return `${RANK_NAMES[r] || r} of ${SUIT_NAMES[s]}`;
}

function cardNode(code, opts = {}) {
  const tag = opts.button ? "button" : "span";
  const rank = code === "JK" ? "★" : (code[0] === "T" ? "10" : code[0]);
  const suit = code === "JK" ? "" : SUITS[code[1]];
  const cls = ["card"];
  if (code === "JK") cls.push("joker");
  else { cls.push(`s-${code[1]}`); if (code[1] === "H" || code[1] === "D") cls.push("red"); }
  if (opts.wild) cls.push("wild");
  const attrs = { class: cls.join(" "), "aria-label": cardLabel(code) + (opts.wild ? " (wild)" : ""), title: cardLabel(code) };
  if (opts.button) { attrs.type = "button"; attrs["aria-pressed"] = opts.pressed ? "true" : "false"; }
  return el(tag, attrs, rank + suit);
}

function route() {
  clearInterval(lobbyTimer);
  if (table && table.ws) { table.closing = true; table.ws.close(); }
  table = null;
  const hash = location.hash || "#/";
  const [path, query] = hash.slice(1).split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "table" && parts[1]) return showTable(parts[1], params.get("invite"));
  if (parts[0] === "game" && parts[1]) return showReplay(parts[1]);
  return showLobby();
}

// ----- who am I --------------------------------------------------------------------------------
async function loadMe() {
  try { me = await api("GET", "/api/me"); } catch { me = null; }
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
  const form = el("form", { class: "row", onsubmit: async (e) => {
    e.preventDefault();
    try { me = await api("POST", "/api/guests", { name: input.value }); renderMe(); onDone(); }
    catch (x) { err.textContent = x.message; }
  } }, el("label", { for: "name" }, "Your name"), input, el("button", { class: "primary", type: "submit" }, me ? "Rename" : "Play"), err);
  return form;
}

// ----- lobby -----------------------------------------------------------------------------------
async function showLobby() {
  main.replaceChildren(el("h1", {}, "Buraco online"));
  if (!presets) presets = await api("GET", "/api/presets");
  main.append(el("section", { class: "panel" }, el("h2", {}, me ? "Your name" : "Choose a name to play"), nameForm(showLobby)));
  const tablesBox = el("section", { class: "panel", "aria-labelledby": "tables-h" }, el("h2", { id: "tables-h" }, "Tables"));
  const list = el("div");
  tablesBox.append(list);
  main.append(tablesBox);
  if (me) main.append(createForm());
  const gamesBox = el("section", { class: "panel" }, el("h2", {}, "Finished games"));
  main.append(gamesBox);
  const refresh = async () => {
    try {
      const data = await api("GET", "/api/tables");
      list.replaceChildren(tablesTable(data.tables));
    } catch (x) { list.replaceChildren(el("p", {}, x.message)); }
  };
  refresh();
  lobbyTimer = setInterval(refresh, 5000);
  try {
    const games = await api("GET", me ? "/api/games?mine=true" : "/api/games");
    gamesBox.append(el("p", { class: "muted" }, me ? "Your games" : "Recent games"), gamesTable(games.games));
  } catch (x) { gamesBox.append(el("p", {}, x.message)); }
}

function tablesTable(tables) {
  if (!tables.length) return el("p", { class: "muted" }, "No public tables yet: create one.");
  const rows = tables.map((t) => el("tr", {},
    el("td", {}, t.preset), el("td", {}, `${t.players}`),
    el("td", {}, t.seats.map((s) => s.name).join(", ")),
    el("td", {}, t.status === "waiting" ? `${t.open_seats.length} open` : `playing, hand ${t.hand}`),
    el("td", {}, el("a", { href: `#/table/${t.id}` }, t.status === "waiting" && t.open_seats.length ? "Join" : "Watch"))));
  return el("table", { class: "list" }, el("thead", {}, el("tr", {}, ["Preset", "Players", "Seats", "State", ""].map((h) => el("th", {}, h)))), el("tbody", {}, rows));
}

function gamesTable(games) {
  if (!games.length) return el("p", { class: "muted" }, "None yet.");
  const rows = games.map((g) => el("tr", {},
    el("td", {}, g.preset), el("td", {}, g.names.join(", ")), el("td", {}, g.totals.join(" – ")),
    el("td", {}, `${g.hands} hands`),
    el("td", {}, el("a", { href: `#/game/${g.id}` }, "Replay"), " ", el("a", { href: `/api/games/${g.id}/record`, download: "" }, "Record"))));
  return el("table", { class: "list" }, el("tbody", {}, rows));
}

function createForm() {
  const errs = {};
  const fieldBox = (name, label, input, help) => {
    errs[name] = el("span", { class: "err", role: "alert", id: `err-${name}` });
    input.setAttribute("aria-describedby", `err-${name}`);
    return el("div", { class: "field" }, el("label", { for: input.id }, label), input, help ? el("span", { class: "muted" }, help) : null, errs[name]);
  };
  const preset = el("select", { id: "f-preset" }, presets.presets.map((p) => el("option", { value: p.name }, `${p.name}: ${p.title}`)));
  const players = el("select", { id: "f-players" });
  const seatsBox = el("div", { class: "grid" });
  const optsBox = el("div", { class: "grid" });
  const pub = el("input", { id: "f-public", type: "checkbox", checked: true });
  const pace = el("input", { id: "f-pace", type: "number", min: 0, max: 5, step: 0.5, value: 1 });
  const timer = el("select", { id: "f-timer" }, [0, 30, 60, 120].map((s) => el("option", { value: s }, s ? `${s} s` : "off")));
  const optInputs = {};
  const fillPlayers = () => {
    const p = presets.presets.find((x) => x.name === preset.value);
    players.replaceChildren(...p.players.map((n) => el("option", { value: n, selected: n === 4 }, `${n}`)));
    fillSeats(); fillOptions();
  };
  const fillSeats = () => {
    seatsBox.replaceChildren();
    const n = Number(players.value);
    for (let i = 0; i < n; i++) {
      const kind = el("select", { id: `f-seat-${i}`, "aria-label": `seat ${i + 1}` },
        ["me", "bot", "open", "invite"].map((k) => el("option", { value: k, selected: (i === 0 && k === "me") || (i > 0 && k === "bot") }, { me: "me", bot: "bot", open: "open to anyone", invite: "kept for a friend (invite link)" }[k])));
      const bot = el("input", { id: `f-bot-${i}`, value: "heuristic", maxlength: 200, "aria-label": `seat ${i + 1} bot` });
      kind.addEventListener("change", () => { bot.hidden = kind.value !== "bot"; });
      if (i === 0) bot.hidden = true;
      seatsBox.append(el("div", { class: "field" }, el("label", { for: kind.id }, `Seat ${i + 1}`), kind, bot));
    }
  };
  const fillOptions = () => {
    optsBox.replaceChildren();
    const p = presets.presets.find((x) => x.name === preset.value);
    const defaults = p.defaults[players.value] || {};
    for (const o of presets.options) {
      const id = `f-opt-${o.name}`;
      const d = defaults[o.name];
      let input;
      if (o.type === "bool") input = el("input", { id, type: "checkbox", checked: !!d });
      else if (o.type === "choice") input = el("select", { id }, o.choices.map((c) => el("option", { value: c, selected: c === d }, c)));
      else if (o.type === "int") input = el("input", { id, type: "number", min: o.min, max: o.max, value: d ?? "" });
      else input = el("input", { id, value: Array.isArray(d) ? d.join(",") : (d ?? "") });
      input.dataset.default = JSON.stringify(d ?? null);
      optInputs[o.name] = { input, o };
      optsBox.append(fieldBox(o.name, o.name, input, o.help));
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
      let v;
      if (o.type === "bool") v = input.checked;
      else if (o.type === "int") v = input.value === "" ? null : Number(input.value);
      else if (o.type === "sizes") v = input.value.split(/[ ,]+/).filter(Boolean).map(Number);
      else v = input.value;
      if (JSON.stringify(v) !== input.dataset.default) options[name] = v;
    }
    const seats = [];
    for (let i = 0; i < Number(players.value); i++) {
      const kind = document.getElementById(`f-seat-${i}`).value;
      seats.push(kind === "bot" ? { kind, bot: document.getElementById(`f-bot-${i}`).value } : { kind });
    }
    try {
      const made = await api("POST", "/api/tables", { preset: preset.value, players: Number(players.value), options, seats, public: pub.checked, pace: Number(pace.value), turn_timer: Number(timer.value) });
      location.hash = made.link.slice(1);
    } catch (x) {
      if (x.field && errs[x.field]) { errs[x.field].textContent = x.message; document.getElementById(`f-opt-${x.field}`)?.focus(); }
      else formErr.textContent = x.message;
    }
  };
  const form = el("form", { class: "panel", onsubmit: submit, "aria-labelledby": "create-h" },
    el("h2", { id: "create-h" }, "Create a table"),
    el("div", { class: "row" }, fieldBox("preset", "Preset", preset), fieldBox("players", "Players", players), fieldBox("pace", "Bot pace (s)", pace), fieldBox("turn_timer", "Turn timer", timer),
      el("div", { class: "field" }, el("label", { for: "f-public" }, "Listed in the lobby"), pub)),
    el("h3", {}, "Seats"), seatsBox, errs.seats = el("span", { class: "err", role: "alert" }),
    el("details", {}, el("summary", {}, "Rule options"), optsBox),
    formErr, el("button", { class: "primary", type: "submit" }, "Create table"));
  fillPlayers();
  return form;
}

// ----- table -----------------------------------------------------------------------------------
function showTable(id, invite) {
  table = { id, invite, version: null, view: null, info: null, you: null, selected: new Set(), chat: [], reason: "", closing: false, retry: 0, feed: [] };
  main.replaceChildren(el("p", {}, "Connecting…"));
  connect();
}

function connect() {
  const t = table;
  const q = new URLSearchParams();
  if (t.invite) q.set("invite", t.invite);
  if (t.version !== null) q.set("since", t.version);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(t.id)}?${q}`);
  t.ws = ws;
  ws.onmessage = (e) => { if (table === t) onMessage(JSON.parse(e.data)); };
  ws.onopen = () => { t.retry = 0; };
  ws.onclose = (e) => {
    if (table !== t || t.closing) return;
    if (e.code === 4404) { main.replaceChildren(el("p", {}, "No such table (or it is private: open it with its invite link)."), el("a", { href: "#/" }, "Back to the lobby")); return; }
    t.retry = Math.min(t.retry + 1, 6);
    const delay = 500 * 2 ** t.retry;
    setStatus(`Connection lost; reconnecting in ${Math.round(delay / 1000)} s…`);
    setTimeout(() => { if (table === t) connect(); }, delay);
  };
}

function send(msg) {
  if (table && table.ws && table.ws.readyState === WebSocket.OPEN) table.ws.send(JSON.stringify(msg));
  else toast("Not connected; retrying…");
}

function setStatus(text) {
  const s = document.getElementById("conn");
  if (s) s.textContent = text;
}

function onMessage(m) {
  const t = table;
  switch (m.type) {
    case "state":
      t.version = m.version; t.view = m.view; t.info = m.table; t.you = m.you; t.clock = m.clock; t.clockAt = Date.now();
      pruneSelection(); render(); break;
    case "event":
      t.version = m.version; t.view = m.view; t.clock = m.clock; t.clockAt = Date.now();
      if (m.table) t.info = m.table;
      if (m.event.reveal) t.reveal = m.event.reveal;
      if (m.event.kind === "deal") { t.reveal = null; t.ready = false; }
      t.you = { ...t.you, seat: m.seat };
      t.reason = ""; pruneSelection(); render(); break;
    case "missed":
      t.feed.push(`${m.events.length} events while you were away`); break;
    case "table":
      t.info = m.table; render(); break;
    case "chat":
      if (m.lines) t.chat = m.lines; else t.chat.push(m.line);
      t.chat = t.chat.slice(-100); renderChat(); break;
    case "error":
      t.reason = m.message; t.pending = false; renderReason();
      if (m.code !== "stale") toast(m.message);
      break;
    case "pong": break;
  }
}

function pruneSelection() {
  const hand = table.view ? table.view.hand : [];
  for (const i of [...table.selected]) if (i >= hand.length) table.selected.delete(i);
  if (!table.view || !table.view.legal.length) table.selected.clear();
}

function legal() { return table.view ? table.view.legal : []; }
function selectedCards() { const h = table.view.hand; return [...table.selected].sort((a, b) => a - b).map((i) => h[i]); }
function sameCards(a, b) { return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" "); }

function act(text) {
  if (table.pending) return;
  table.pending = true;
  table.reason = "";
  send({ type: "action", version: table.version, action: text });
  setTimeout(() => { table.pending = false; }, 1500);
}

function meldOptions() {
  const sel = selectedCards();
  if (sel.length < 3) return [];
  return legal().filter((a) => a.startsWith("meld ") && sameCards(a.slice(5).split(" "), sel));
}

function addOptions() {
  const sel = selectedCards();
  if (sel.length !== 1) return [];
  return legal().filter((a) => { const p = a.split(" "); return p[0] === "add" && p[2] === sel[0]; });
}

function render() {
  const t = table;
  if (!t.info) return;
  const v = t.view;
  const seat = t.you ? t.you.seat : null;
  const box = el("div", { class: "table-page" });
  box.append(el("div", { class: "row" }, el("h1", {}, `${t.info.preset} · ${t.info.players} players`), el("span", { id: "conn", class: "muted", "aria-live": "polite" }, ""), el("a", { href: "#/" }, "Lobby")));
  if (t.info.status === "waiting") box.append(waitingPanel());
  if (v) box.append(board(v, seat));
  box.append(chatPanel());
  main.replaceChildren(box);
  renderChat();
  renderReason();
}

function waitingPanel() {
  const t = table;
  const seat = t.you ? t.you.seat : null;
  const rows = t.info.seats.map((s) => {
    let action = null;
    if (seat === null && (s.kind === "open" || (s.kind === "invite" && t.invite))) {
      action = me ? el("button", { onclick: () => join(s.seat) }, `Sit at seat ${s.seat + 1}`) : el("span", { class: "muted" }, "choose a name in the lobby to sit");
    }
    if (seat === s.seat) action = el("button", { onclick: leave }, "Leave seat");
    const who = s.kind === "open" ? "open" : s.kind === "invite" ? "kept for an invited friend" : s.kind === "bot" ? `bot (${s.bot})` : s.name;
    return el("li", {}, `Seat ${s.seat + 1}: `, who, " ", action);
  });
  const link = `${location.origin}/#/table/${t.id}${t.invite ? `?invite=${encodeURIComponent(t.invite)}` : ""}`;
  return el("section", { class: "panel" }, el("h2", {}, "Waiting for players"),
    el("ul", {}, rows),
    el("p", {}, "Invite link: ", el("input", { readonly: true, value: link, size: 50, "aria-label": "invite link", onfocus: (e) => e.target.select() })),
    el("p", { class: "muted" }, "The match starts when every seat has a player or a bot."));
}

async function join(s) {
  try { const r = await api("POST", `/api/tables/${table.id}/join`, { seat: s, invite: table.invite }); table.you = { ...table.you, seat: r.you }; }
  catch (x) { toast(x.message); }
}
async function leave() {
  try { await api("POST", `/api/tables/${table.id}/leave`); table.you = { ...table.you, seat: null }; render(); }
  catch (x) { toast(x.message); }
}

function board(v, seat) {
  const t = table;
  const felt = el("section", { class: "felt", "aria-label": "table" });
  const names = v.names;
  const turn = v.turn;
  // seats
  felt.append(el("div", { class: "seats" }, names.map((n, i) => {
    const info = t.info.seats[i] || {};
    const flags = [];
    if (i === v.dealer) flags.push("dealer");
    if (info.kind === "bot") flags.push("bot");
    if (info.kind === "guest" && !info.connected) flags.push(info.away ? "away: a bot plays" : "disconnected");
    return el("div", { class: `seat${turn === i ? " turn" : ""}`, "aria-current": turn === i ? "true" : null },
      el("strong", {}, n), i === seat ? " (you)" : "", ` · ${v.hand_sizes[i]} cards`, flags.length ? el("span", { class: "away" }, ` · ${flags.join(", ")}`) : null);
  })));
  // status line
  const clock = t.clock && t.clock.turn !== null ? Math.floor(t.clock.elapsed + (Date.now() - t.clockAt) / 1000) : null;
  felt.append(el("div", { class: "status" },
    el("span", {}, `Hand ${v.hand_number + 1}`),
    el("span", {}, `Stock ${v.stock}`),
    el("span", {}, `Mortos ${v.pots.length ? v.pots.join(" + ") + " cards" : "all taken"}`),
    el("span", {}, turn === null ? "Hand over" : `${turn === seat ? "Your" : names[turn] + "'s"} turn (${v.phase})`),
    clock !== null ? el("span", { class: "clock" }, `clock ${clock}s${t.clock.limit ? ` / ${t.clock.limit}s` : ""}`) : null,
    v.last_turn ? el("span", {}, "last turn") : null));
  // sides and melds
  const fits = new Map();
  for (const a of addOptions()) { const n = Number(a.split(" ")[1]); if (!fits.has(n)) fits.set(n, []); fits.get(n).push(a); }
  const moves = legal().filter((a) => a.startsWith("move "));
  felt.append(el("div", { class: "sides" }, v.melds.map((melds, side) => {
    const own = side === v.side;
    const seatsOf = v.sides[side].map((s) => names[s]).join(" & ");
    const head = el("div", {}, el("strong", {}, seatsOf), ` · total ${v.totals[side]} · table ${v.table_points[side]}`,
      v.vulnerable[side] ? " · vulnerable" : "", v.requirement[side] ? ` · needs ${v.requirement[side]} to open` : "",
      v.pot_taken[side] ? " · morto taken" : "");
    const list = el("div", { class: "melds" }, melds.map((m) => {
      const fit = own ? fits.get(m.number) : null;
      const marks = [`#${m.number}`, m.clean ? "clean" : "dirty"];
      if (m.canastra) marks.push("canastra");
      if (m.bonus_points) marks.push(`+${m.bonus_points}`);
      if (m.staged) marks.push("staged");
      const label = `meld ${m.number}: ${m.cards.map(cardLabel).join(", ")}; ${marks.slice(1).join(", ")}`;
      const node = el(fit ? "button" : "div", { class: `meld${fit ? " fits" : ""}`, "aria-label": fit ? `add to ${label}` : label, type: fit ? "button" : null,
        onclick: fit ? () => chooseOrAct(fit, `Add to meld ${m.number}`) : null },
        el("span", { class: "mark" }, marks.join(" ")),
        el("span", { class: "cards" }, m.cards.map((c, i) => cardNode(c, { wild: i === m.wild }))));
      const myMoves = own ? moves.filter((a) => Number(a.split(" ")[1]) === m.number) : [];
      if (!myMoves.length) return node;
      return el("div", {}, node, myMoves.map((a) => el("button", { onclick: () => act(a) }, `move wild ${a.split(" ")[2]}`)));
    }));
    return el("div", { class: "side", "aria-label": `melds of ${seatsOf}` }, head, list);
  })));
  // pile
  felt.append(el("div", {}, el("strong", {}, `Pile (${v.pile_size})`), v.pile_open ? "" : " · closed: the top card shows",
    el("div", { class: "pile", "aria-label": "discard pile" }, v.pile.map((c) => cardNode(c))), v.taken_top ? el("span", {}, ` · taken top: ${cardLabel(v.taken_top)}`) : null));
  // my hand and actions
  if (seat !== null && seat !== undefined) felt.append(handPanel(v));
  else felt.append(el("p", {}, "Watching: hands are hidden."));
  felt.append(el("div", { id: "reason", "aria-live": "assertive" }));
  if (v.scores) felt.append(handOver(v, seat));
  return felt;
}

function handPanel(v) {
  const t = table;
  const hand = v.hand;
  const cards = hand.map((c, i) => {
    const b = cardNode(c, { button: true, pressed: t.selected.has(i) });
    b.dataset.index = i;
    b.addEventListener("click", () => { toggle(i); });
    b.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        const next = (i + (e.key === "ArrowRight" ? 1 : hand.length - 1)) % hand.length;
        document.querySelector(`.hand [data-index="${next}"]`)?.focus();
      }
    });
    return b;
  });
  const L = legal();
  const sel = selectedCards();
  const melds = meldOptions();
  const discard = sel.length === 1 && L.includes(`discard ${sel[0]}`) ? `discard ${sel[0]}` : null;
  const buttons = [];
  if (L.includes("draw")) buttons.push(el("button", { class: "primary", onclick: () => act("draw"), "aria-keyshortcuts": "d" }, "Draw (d)"));
  if (L.includes("take-pile")) buttons.push(el("button", { onclick: () => act("take-pile"), "aria-keyshortcuts": "p" }, "Take the pile (p)"));
  if (L.includes("turn-up")) buttons.push(el("button", { onclick: () => act("turn-up") }, "Turn up"));
  buttons.push(el("button", { onclick: () => chooseOrAct(melds, "Meld"), disabled: !melds.length, "aria-keyshortcuts": "m" }, "Meld (m)"));
  buttons.push(el("button", { onclick: () => discard && act(discard), disabled: !discard, "aria-keyshortcuts": "x" }, "Discard (x)"));
  if (t.selected.size) buttons.push(el("button", { onclick: () => { t.selected.clear(); render(); } }, "Clear (Esc)"));
  const typed = el("input", { id: "typed", placeholder: "or type an action: meld 7H 8H 9H", maxlength: 500, "aria-label": "action in notation" });
  const typedForm = el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); if (typed.value.trim()) act(typed.value.trim()); } }, typed, el("button", { type: "submit" }, "Send"));
  const hint = !L.length ? "Not your turn." : sel.length === 1 && addOptions().length ? "Highlighted melds take this card: click one to add it." : "Select cards, then Meld, Discard, or a highlighted meld.";
  return el("section", { class: "panel", "aria-label": "your hand" },
    el("div", { class: "row" }, el("strong", {}, `Your hand (${hand.length})`), v.hidden_pot ? ` · ${v.hidden_pot} morto cards still face down` : ""),
    el("div", { class: "hand", role: "group", "aria-label": "your cards" }, cards),
    el("div", { class: "actions" }, buttons), el("p", { class: "muted" }, hint), L.length ? typedForm : null);
}

function toggle(i) {
  if (table.selected.has(i)) table.selected.delete(i); else table.selected.add(i);
  render();
  document.querySelector(`.hand [data-index="${i}"]`)?.focus();
}

function chooseOrAct(options, title) {
  if (!options.length) return;
  if (options.length === 1) { act(options[0]); return; }
  const box = document.getElementById("reason");
  box.replaceChildren(el("div", { class: "panel choices", role: "dialog", "aria-label": title }, el("p", {}, `${title}: which way?`),
    options.map((a) => el("button", { onclick: () => act(a) }, a)), el("button", { onclick: () => box.replaceChildren() }, "Cancel")));
  box.querySelector("button")?.focus();
}

function renderReason() {
  const box = document.getElementById("reason");
  if (box && table.reason) box.replaceChildren(el("p", { class: "reason" }, table.reason));
}

function handOver(v, seat) {
  const t = table;
  const rows = ["melds", "bonuses", "hand", "pot", "going_out", "cut", "rounding", "total"];
  const sideName = (i) => v.sides[i].map((s) => v.names[s]).join(" & ");
  const tableNode = el("table", { class: "scores" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), v.scores.map((_, i) => el("th", {}, sideName(i))))),
    el("tbody", {}, rows.map((r) => el("tr", {}, el("th", {}, r.replace("_", " ")), v.scores.map((s) => el("td", {}, `${s[r] ?? ""}`))))));
  const box = el("section", { class: "panel", "aria-label": "end of hand" }, el("h2", {}, "Hand over"), tableNode);
  if (t.reveal) {
    box.append(el("p", { class: "muted" }, `Deal commitment ${t.reveal.commitment.slice(0, 16)}… revealed salt ${t.reveal.salt.slice(0, 8)}…`));
    box.append(el("div", {}, t.reveal.hands.map((h, i) => el("div", {}, `${v.names[i]}: `, h.length ? h.map((c) => cardNode(c)) : "no cards"))));
  }
  const played = v.hands_played || [];
  if (played.length > 1 || v.winner !== null) {
    box.append(el("h3", {}, "Hands"), el("table", { class: "scores" }, el("tbody", {}, played.map((h) => el("tr", {}, el("th", {}, `hand ${h.hand}`), h.totals.map((x) => el("td", {}, `${x}`)))))));
  }
  if (t.info.status === "over" || v.winner !== null) {
    box.append(el("p", {}, v.winner !== null ? `${sideName(v.winner)} win the match.` : "The match is over."));
    if (t.info.game) box.append(el("p", {}, el("a", { href: `/api/games/${t.info.game}/record`, download: "" }, "Download the game record"), " · ", el("a", { href: `#/game/${t.info.game}` }, "Replay")));
    if (t.info.rematch) box.append(el("a", { href: `#/table/${t.info.rematch}`, class: "primary" }, "Go to the rematch"));
    else if (seat !== null && seat !== undefined) box.append(el("button", { class: "primary", onclick: rematch }, "Rematch"));
  } else if (seat !== null && seat !== undefined) {
    box.append(el("button", { class: "primary", disabled: t.ready, onclick: () => { t.ready = true; send({ type: "ready" }); render(); } }, t.ready ? "Waiting for the others…" : "Next hand"));
  }
  return box;
}

async function rematch() {
  try { const r = await api("POST", `/api/tables/${table.id}/rematch`); location.hash = `#/table/${r.table.id}`; }
  catch (x) { toast(x.message); }
}

function chatPanel() {
  const input = el("input", { id: "chat-text", maxlength: 300, "aria-label": "chat message", placeholder: me ? "Say something" : "choose a name to chat" });
  const form = el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) { send({ type: "chat", text: input.value }); input.value = ""; } } }, input, el("button", { type: "submit", disabled: !me }, "Send"));
  return el("section", { class: "panel", "aria-label": "chat" }, el("h2", {}, "Chat"), el("div", { id: "chat", class: "chat", "aria-live": "polite" }), form);
}

function renderChat() {
  const box = document.getElementById("chat");
  if (!box) return;
  box.replaceChildren(...table.chat.map((l) => el("p", {}, el("strong", {}, l.name), ": ", l.text)));
  box.scrollTop = box.scrollHeight;
}

document.addEventListener("keydown", (e) => {
  if (!table || !table.view || e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const L = legal();
  if (e.key === "Escape") { table.selected.clear(); render(); }
  else if (e.key === "d" && L.includes("draw")) act("draw");
  else if (e.key === "p" && L.includes("take-pile")) act("take-pile");
  else if (e.key === "m") chooseOrAct(meldOptions(), "Meld");
  else if (e.key === "x") { const s = selectedCards(); if (s.length === 1 && L.includes(`discard ${s[0]}`)) act(`discard ${s[0]}`); }
});

setInterval(() => { if (table && table.clock && table.clock.turn !== null) { const c = document.querySelector(".clock"); if (c) { const s = Math.floor(table.clock.elapsed + (Date.now() - table.clockAt) / 1000); c.textContent = `clock ${s}s${table.clock.limit ? ` / ${table.clock.limit}s` : ""}`; } } }, 1000);

// ----- replays ---------------------------------------------------------------------------------
async function showReplay(id) {
  const state = { hand: 1, step: 0 };
  main.replaceChildren(el("p", {}, "Loading…"));
  let info;
  try { info = await api("GET", `/api/games/${encodeURIComponent(id)}`); }
  catch (x) { main.replaceChildren(el("p", {}, x.message), el("a", { href: "#/" }, "Lobby")); return; }
  const show = async () => {
    const p = await api("GET", `/api/games/${encodeURIComponent(id)}/replay?hand=${state.hand}&step=${state.step}`);
    state.step = p.step; state.steps = p.steps; state.hands = p.hands;
    const v = p.view;
    const nav = el("div", { class: "row" },
      el("button", { onclick: () => { state.step = 0; show(); } }, "⏮ start"),
      el("button", { "aria-keyshortcuts": "ArrowLeft", onclick: () => { state.step = Math.max(0, state.step - 1); show(); } }, "◀ back"),
      el("span", {}, `hand ${p.hand} of ${p.hands} · step ${p.step} of ${p.steps}`),
      el("button", { "aria-keyshortcuts": "ArrowRight", onclick: () => { state.step += 1; show(); } }, "next ▶"),
      el("button", { onclick: () => { state.step = p.steps; show(); } }, "end ⏭"),
      el("button", { disabled: p.hand <= 1, onclick: () => { state.hand -= 1; state.step = 0; show(); } }, "previous hand"),
      el("button", { disabled: p.hand >= p.hands, onclick: () => { state.hand += 1; state.step = 0; show(); } }, "next hand"));
    const hands = el("div", {}, p.cards.map((h, i) => el("div", {}, el("strong", {}, `${v.names[i]}: `), h.map((c) => cardNode(c)))));
    const melds = el("div", { class: "sides" }, v.melds.map((ms, side) => el("div", { class: "side" }, el("strong", {}, v.sides[side].map((s) => v.names[s]).join(" & ")),
      el("div", { class: "melds" }, ms.map((m) => el("div", { class: "meld" }, el("span", { class: "mark" }, `#${m.number} ${m.clean ? "clean" : "dirty"}${m.canastra ? " canastra" : ""}`), el("span", { class: "cards" }, m.cards.map((c, i) => cardNode(c, { wild: i === m.wild })))))))));
    main.replaceChildren(el("h1", {}, `Replay: ${info.preset}, ${info.names.join(", ")}`),
      el("p", {}, el("a", { href: `/api/games/${info.id}/record`, download: "" }, "Download the record"), " · ", el("a", { href: "#/" }, "Lobby")),
      nav, el("p", {}, p.action ? `Last: seat ${p.action[0] + 1} ${p.action[1]}` : "The deal"),
      el("section", { class: "felt" }, el("div", {}, `Stock ${v.stock} · pile: `, el("span", { class: "pile" }, v.pile.map((c) => cardNode(c)))), melds, hands));
  };
  replayKeys = (e) => {
    if (e.key === "ArrowRight") { state.step += 1; show(); }
    if (e.key === "ArrowLeft") { state.step = Math.max(0, state.step - 1); show(); }
  };
  show();
}
let replayKeys = null;
document.addEventListener("keydown", (e) => { if (replayKeys && location.hash.startsWith("#/game/") && e.target.tagName !== "INPUT") replayKeys(e); });

// ----- start -----------------------------------------------------------------------------------
const four = document.getElementById("four-colour");
four.checked = localStorage.getItem("four-colour") === "1";
document.body.classList.toggle("four", four.checked);
four.addEventListener("change", () => { localStorage.setItem("four-colour", four.checked ? "1" : "0"); document.body.classList.toggle("four", four.checked); });
window.addEventListener("hashchange", route);
loadMe().then(route);
