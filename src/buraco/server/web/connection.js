// A table's WebSocket (docs/protocol.md): connecting, reconnecting with the last version
// seen, sending, and folding each frame into the table page's state.
import { api } from "./api.js";
import { el, toast } from "./dom.js";
import { actionWords, errorWords, t, usePreset } from "./i18n.js";
import { loadMe } from "./lobby.js";
import { renewWith, send } from "./socket.js";
import { app, main } from "./state.js";
import { chatPanel, render, renderChat, renderReason } from "./table.js";

export const PROTOCOL = 2;
const PING_EVERY = 25000;
/** The close code of a socket whose session has ended (signed out). */
const SIGNED_OUT = 4401;

/** Open the table page. @param {string} id @param {string | null} invite */
export function showTable(id, invite) {
  app.table = {
    id, invite, version: null, view: null, info: null, you: null, selected: new Set(), chat: [],
    reason: "", closing: false, retry: 0, ready: false, reveal: null, pending: false, choice: null, confirm: null,
    asked: false, ws: null, pinger: null, board: null, status: null, clock: null, clockAt: 0,
    dragging: false, renderLater: false,
  };
  const tb = app.table;
  tb.status = el("span", { id: "conn", class: "muted", role: "status", "aria-live": "polite" }, t("conn.connecting"));
  tb.title = el("h1", {}, t("table.title"));
  tb.board = el("div", { id: "board" });
  main.replaceChildren(el("div", { class: "table-page" },
    el("div", { class: "row head" }, tb.title, tb.status, el("a", { href: "#/" }, t("nav.lobby"))),
    tb.board, chatPanel()));
  tableFound(tb).then((found) => { if (found && app.table === tb) connect(); });
  tb.pinger = setInterval(() => { if (tb.ws && tb.ws.readyState === WebSocket.OPEN) tb.ws.send(JSON.stringify({ type: "ping" })); }, PING_EVERY);
}

/** Close the table page's connection (the page is left). */
export function closeTable() {
  const tb = app.table;
  if (tb && tb.ws) { tb.closing = true; tb.ws.close(); }
  if (tb) clearInterval(tb.pinger);
  app.table = null;
  usePreset(null);
}

/** A new connection (e.g. once the page has a guest name, so that the server knows who it is). */
function reconnect() {
  const tb = app.table;
  const old = tb.ws;
  tb.ws = null;
  if (old) old.close();
  clearTimeout(tb.reconnect);
  connect();
}

// Whether the table can be seen at all (a private one needs its invite code): a socket
// refused before it opens tells the page nothing.
/** @param {any} tb */
async function tableFound(tb) {
  try {
    await api("GET", `/api/tables/${encodeURIComponent(tb.id)}${tb.invite ? `?invite=${encodeURIComponent(tb.invite)}` : ""}`);
    return true;
  } catch (x) {
    if (/** @type {{status?: number}} */ (x).status !== 404) return true;
    tb.board.replaceChildren(el("p", { role: "alert", id: "not-found" }, t("table.not-found")),
      el("p", {}, el("a", { href: "#/" }, t("nav.back-to-lobby"))));
    setStatus("");
    return false;
  }
}

function connect() {
  const tb = app.table;
  const q = new URLSearchParams();
  if (tb.invite) q.set("invite", tb.invite);
  if (tb.version !== null) q.set("since", tb.version);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tb.id)}?${q}`);
  tb.ws = ws;
  ws.onmessage = (e) => { if (app.table === tb && tb.ws === ws) onMessage(JSON.parse(e.data)); };
  ws.onopen = () => { tb.retry = 0; tb.opened = true; setStatus(""); };
  ws.onclose = (e) => {
    if (app.table !== tb || tb.closing || tb.ws !== ws) return;
    if (e.code === 4404) {
      tb.board.replaceChildren(el("p", { role: "alert" }, t("table.not-found")));
      setStatus("");
      return;
    }
    if (e.code === SIGNED_OUT) { signedOut(tb); return; }
    tb.retry = Math.min(tb.retry + 1, 5);
    const delay = 250 * 2 ** tb.retry;
    setStatus(t("conn.lost", { n: Math.max(1, Math.round(delay / 1000)) }));
    clearTimeout(tb.reconnect);
    tb.reconnect = setTimeout(async () => { if (app.table === tb && (tb.opened || await tableFound(tb)) && app.table === tb) connect(); }, delay);
  };
}

// The session the socket was opened with has ended (docs/protocol.md, close code 4401).
// This browser may have a new one (a name just claimed, or signed in again in another tab,
// whose answer may reach the browser just after the close): then it reconnects; else the
// player is told, and the page does not reconnect.
/** @param {any} tb */
async function signedOut(tb) {
  for (const wait of [0, 500, 1500]) {
    await new Promise((done) => setTimeout(done, wait));
    await loadMe();
    if (app.table !== tb || tb.closing) return;
    if (app.me) { connect(); return; }
  }
  setStatus("");
  tb.board.replaceChildren(el("p", { role: "alert", id: "signed-out" }, t("conn.signed-out")),
    el("p", {}, el("a", { href: "#/" }, t("nav.back-to-lobby"))));
}

renewWith(reconnect);

window.addEventListener("online", () => {
  const tb = app.table;
  if (tb && tb.ws && tb.ws.readyState !== WebSocket.OPEN && tb.ws.readyState !== WebSocket.CONNECTING) { clearTimeout(tb.reconnect); connect(); }
});

/** @param {string} text */
function setStatus(text) { if (app.table && app.table.status) app.table.status.textContent = text; }

/** @param {any} m a frame */
function onMessage(m) {
  const tb = app.table;
  switch (m.type) {
    case "state":
      tb.version = m.version; tb.view = m.view; tb.info = m.table; tb.infoAt = Date.now(); tb.awayShown = false;
      tb.you = m.you; tb.clock = m.clock; tb.clockAt = Date.now();
      tb.pending = false;
      if (m.view && m.view.scores && !tb.reveal && !tb.asked && m.version > 0) {
        // a hand is over but this page did not see its last event: ask for it (its reveal)
        tb.asked = true;
        send({ type: "hello", protocol: PROTOCOL, since: m.version - 1 });
      }
      render(); break;
    case "event": {
      const ev = m.event;
      tb.version = m.version; tb.clock = m.clock; tb.clockAt = Date.now();
      if (m.view && m.view.log_from !== undefined) {
        // an event's view holds only the log's new lines, and not the rules' options
        const before = (tb.view && tb.view.log) || [];
        if (before.length < m.view.log_from) { send({ type: "hello", protocol: PROTOCOL }); break; }
        m.view.log = before.slice(0, m.view.log_from).concat(m.view.log);
        m.view.feed = ((tb.view && tb.view.feed) || []).slice(0, m.view.log_from).concat(m.view.feed || []);
        m.view.options = tb.view ? tb.view.options : undefined;
      }
      tb.view = m.view;
      if (m.table) { tb.info = m.table; tb.infoAt = Date.now(); tb.awayShown = false; }
      if (ev.reveal) tb.reveal = ev.reveal;
      if (ev.kind === "deal") { tb.reveal = null; tb.ready = false; tb.reason = ""; tb.selected.clear(); tb.asked = false; }
      if (ev.kind === "action" && ev.seat === m.seat) {
        tb.reason = "";
        // the cards of a meld, an add or a discard have left the hand: start a new selection
        if (!/^(draw|take-pile|turn-up)/.test(ev.action)) tb.selected.clear();
        if (ev.by === "timer" || ev.by === "away") {
          // the stand-in played for you: say so, with what it did, until your next move
          tb.reason = t(ev.by === "timer" ? "notice.timer" : "notice.away", { action: actionWords(ev.action) });
          toast(tb.reason);
        }
      }
      tb.you = { ...(tb.you || {}), seat: m.seat };
      tb.pending = false; tb.choice = null;
      if (!tb.confirm?.lasting) tb.confirm = null;
      render(); break;
    }
    case "missed":
      for (const ev of m.events) if (ev.reveal) tb.reveal = ev.reveal;
      break;
    case "table":
      tb.info = m.table; tb.infoAt = Date.now(); tb.awayShown = false; render(); break;
    case "chat":
      if (m.lines) tb.chat = m.lines; else if (m.line) tb.chat.push(m.line);
      tb.chat = tb.chat.slice(-200); renderChat(!m.lines && !!m.line); break;
    case "error":
      tb.pending = false;
      if (m.code === "rate" || m.code === "chat" || m.code === "guest") { toast(errorWords(m)); break; }
      tb.reason = errorWords(m);
      renderReason();
      break;
    case "pong": break;
  }
}
