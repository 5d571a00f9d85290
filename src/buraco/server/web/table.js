// The table page: the seats, the stock and the pile, the melds, your hand and its moves, a
// hand's end, and the chat.
import { ratingBadge } from "./ratings.js";
import { yourTurn } from "./alerts.js";
import { api } from "./api.js";
import { alone, backs, cardNode, meldNode, scoresTable, sideName } from "./cards.js";
import { el, toast } from "./dom.js";
import { actionWords, cardName, cardText, feedWords, t, tn, usePreset } from "./i18n.js";
import { arrange, codeOf, handKeys, loadArrangement, moveKey, saveArrangement, sortKeys } from "./hand.js";
import { nameForm } from "./lobby.js";
import { rulesPanel } from "./rules.js";
import { reconnect, send } from "./socket.js";
import { app } from "./state.js";

// a timed match: the minutes left (the match ends with the hand in play when they run out)
/** @param {any} info */
function matchClock(info) {
  if (!info || !info.minutes || !info.started_at) return null;
  const left = Math.ceil((info.started_at + 60 * info.minutes - Date.now() / 1000) / 60);
  const text = left > 0 ? tn("clock.match-left", left) : t("clock.match-last-hand");
  return el("span", { class: "match-clock", id: "match-clock" }, text);
}

function mySeat() { const tb = app.table; return tb && tb.you && tb.you.seat !== null && tb.you.seat !== undefined ? tb.you.seat : null; }


/** @returns {string[]} */
function legal() { return app.table.view ? app.table.view.legal : []; }
function myTurn() { const v = app.table.view; return !!v && mySeat() !== null && v.turn === mySeat() && !v.scores; }
/** @returns {string[]} */
function selectedCards() {
  const v = app.table.view;
  if (!v) return [];
  const keys = handKeys(v.hand);
  return v.hand.filter((/** @type {string} */ _, /** @type {number} */ i) => app.table.selected.has(keys[i]));
}
/** @param {string[]} a @param {string[]} b */
function sameCards(a, b) { return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" "); }

/** Send an action of the notation. @param {string} text */
function act(text) {
  const tb = app.table;
  if (tb.pending) return;
  tb.reason = "";
  tb.choice = null;
  if (send({ type: "action", version: tb.version, action: text })) {
    tb.pending = true;
    renderReason();
    clearTimeout(tb.pendingTimer);
    tb.pendingTimer = setTimeout(() => { tb.pending = false; }, 4000);
  }
}

// Say why nothing was sent (a move the page can tell is incomplete).
/** @param {string} message */
function refuse(message) { app.table.reason = message; renderReason(); }

/** @param {string[]} sel */
function meldOptions(sel) { return legal().filter((a) => a.startsWith("meld ") && sameCards(a.slice(5).split(" "), sel)); }

/** @param {number} n @param {string[]} sel */
function addOptions(n, sel) {
  return legal().filter((a) => { const p = a.split(" "); return p[0] === "add" && Number(p[1]) === n && sel.includes(p[2]); });
}

function doMeld() {
  const sel = selectedCards();
  if (!sel.length) return refuse(t("hint.select-to-meld"));
  const options = meldOptions(sel);
  if (options.length === 1) return act(options[0]);
  if (options.length > 1) return choose(options, t("choice.meld-wild"));
  // not a legal meld: the server says why, about the cards and not their order (low to high,
  // the wilds last, as the notation writes a run)
  act(`meld ${[...sel].sort((a, b) => meldRank(a) - meldRank(b)).join(" ")}`);
}

/** A card's place when a selection is written as a meld: by rank, wilds last. @param {string} code */
function meldRank(code) { return code === "JK" || code[0] === "2" ? 99 : "A3456789TJQK".indexOf(code[0]); }

/** @param {number} n */
function doAdd(n) {
  const sel = selectedCards();
  if (!sel.length) return refuse(t("hint.select-to-add", { meld: n }));
  const options = addOptions(n, sel);
  if (options.length === 1) return act(options[0]);
  if (options.length > 1) return choose(options, t("choice.add-which-way", { meld: n }));
  if (sel.length > 1) return refuse(t("hint.none-fits", { meld: n }));
  act(`add ${n} ${sel[0]}`);
}

function doDiscard() {
  const sel = selectedCards();
  // before drawing, the step missing is the draw (one card selected: the engine says so)
  if (sel.length !== 1 && app.table.view && app.table.view.phase === "draw") return refuse(t("hint.draw"));
  if (sel.length !== 1) return refuse(sel.length ? t("hint.one-to-discard") : t("hint.select-to-discard"));
  const cost = openingCost();
  const action = `discard ${sel[0]}`;
  // a discard now that fails the opening: say what it costs before it is sent
  if (cost) askFirst(cost, t("confirm.discard-anyway"), () => act(action));
  else act(action);
}

/** What discarding now would cost: an opening staged short of the minimum (null: nothing). */
function openingCost() {
  const v = app.table.view;
  const need = v.requirement[v.side];
  const staged = v.detail ? v.detail.staged_value : 0;
  if (!need || !staged || staged >= need) return null;
  const penalty = (v.options && v.options.failed_opening_penalty) || 0;
  return penalty
    ? t("confirm.opening-short-raised", { value: staged, need, now: need + penalty })
    : t("confirm.opening-short", { value: staged, need });
}

/**
 * Ask before doing something that cannot be taken back: the question, the button that
 * does it (beside Cancel), and what it does. A question about a move goes with the next
 * event (the position it was about is gone); one about the match (leaving, resigning)
 * stays while the others play on, until it is answered.
 * @param {string} text @param {string} yes @param {() => void} run
 * @param {boolean} [lasting] whether the question outlives the table's next event
 */
function askFirst(text, yes, run, lasting = false) {
  app.table.confirm = { text, yes, run, lasting };
  render();
  /** @type {HTMLElement | null} */ (document.querySelector("#confirm button"))?.focus();
}

/** Post to one of the table's REST actions (leave, resign), then `after`; a refusal is shown. @param {string} what @param {() => void} [after] */
async function tableAction(what, after) {
  try { await api("POST", `/api/tables/${encodeURIComponent(app.table.id)}/${what}`); if (after) after(); }
  catch (x) { toast(/** @type {Error} */ (x).message); }
}

/** Leaving a match in play: the stand-in bot takes the seat for good (asked first). */
function askLeave() {
  askFirst(t("leave.confirm", { bot: "heuristic" }), t("leave.yes"), () => tableAction("leave", () => { location.hash = "#/"; }), true);
}

/** Conceding the match: your side loses it now (asked first). */
function askResign() {
  askFirst(t(app.table && app.table.view && alone(app.table.view) ? "resign.confirm.alone" : "resign.confirm"), t("resign.yes"), () => tableAction("resign"), true);
}

function confirmPanel() {
  const c = app.table.confirm;
  const cancel = () => { app.table.confirm = null; render(); };
  return el("div", { class: "panel choices confirm", id: "confirm", role: "alertdialog", "aria-labelledby": "confirm-text" },
    el("p", { id: "confirm-text" }, c.text),
    el("button", { type: "button", class: "primary", id: "confirm-yes", onclick: () => { app.table.confirm = null; c.run(); } }, c.yes),
    el("button", { type: "button", id: "confirm-no", onclick: cancel }, t("choice.cancel")));
}

/** @param {number} n */
function doMove(n) {
  const options = legal().filter((a) => a.startsWith(`move ${n} `));
  if (options.length === 1) return act(options[0]);
  if (options.length > 1) return choose(options, t("choice.move-wild", { meld: n }));
  act(`move ${n} low`);
}

/** Ask the server what the heuristic bot would play here; say it and select its cards. */
async function doHint() {
  const tb = app.table;
  let got;
  try { got = await api("GET", `/api/tables/${encodeURIComponent(tb.id)}/hint`); }
  catch (x) { refuse(/** @type {Error} */ (x).message); return; }
  if (app.table !== tb || got.version !== tb.version) return; // the table moved on meanwhile
  const p = got.action.split(" ");
  const cards = p[0] === "meld" ? p.slice(1) : p[0] === "discard" ? [p[1]] : p[0] === "add" ? [p[2]] : [];
  if (cards.length) {
    tb.selected.clear();
    const keys = handKeys(tb.view.hand);
    for (const c of cards) {
      const key = keys.find((k) => codeOf(k) === c && !tb.selected.has(k));
      if (key) tb.selected.add(key);
    }
  }
  tb.reason = t("hint.suggest", { action: actionWords(got.action) });
  render();
}

/** @param {string[]} options @param {string} title */
function choose(options, title) {
  app.table.reason = ""; // an earlier refusal is not about this choice
  app.table.choice = { options, title };
  render();
  /** @type {HTMLElement | null} */ (document.querySelector("#choices button"))?.focus();
}

/** Draw the table page from its state. */
export function render() {
  const tb = app.table;
  if (!tb || !tb.info) return;
  // a card being dragged keeps its hand: what came meanwhile is drawn when it is dropped
  if (tb.dragging) { tb.renderLater = true; return; }
  usePreset(tb.info.preset);
  const v = tb.view;
  const seat = mySeat();
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusKey = active && active.dataset ? active.dataset.key : null;
  tb.title.textContent = t(tb.info.public ? "table.heading" : "table.heading-private", { preset: tb.info.preset, players: tb.info.players });
  if (tb.info.tournament) tb.title.textContent += ` · ${t("table.tournament", { turn: tb.info.tournament.turn, table: tb.info.tournament.table })}`;
  const keys = v ? handKeys(v.hand) : [];
  for (const k of [...tb.selected]) if (!keys.includes(k)) tb.selected.delete(k);
  const parts = [];
  // a rated table whose match is not rated, or will not be: the server says why
  if (tb.info.unrated) parts.push(el("p", { class: "notice", id: "unrated", role: "status" }, t(`notice.${tb.info.unrated.key}`, tb.info.unrated.params)));
  if (tb.info.status === "waiting") parts.push(waitingPanel());
  else if (tb.invite && !tb.info.public) parts.push(invitePara());
  if (v) parts.push(board(v, seat));
  else if (tb.info.status !== "waiting") parts.push(el("p", {}, t("table.dealing")));
  tb.board.replaceChildren(...parts);
  fitPlay();
  renderReason();
  document.title = myTurn() ? t("title.your-turn") : t("title.page");
  // a turn of yours begins: the sound and notification, if switched on
  if (myTurn() && !tb.wasMyTurn) { yourTurn(tb.title.textContent || ""); bringPlayIntoView(); }
  tb.wasMyTurn = myTurn();
  if (focusKey) /** @type {HTMLElement | null} */ (document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`))?.focus();
  const over = v && v.scores ? `${v.hand_number}` : null;
  if (over !== null && tb.shownOver !== over) {
    tb.shownOver = over;
    const box = document.getElementById("hand-over");
    if (box) {
      box.scrollIntoView({ block: "start" });
      if (!focusKey || !document.activeElement || document.activeElement === document.body) /** @type {HTMLElement | null} */ (box.querySelector("button"))?.focus({ preventScroll: true });
    }
  }
}

/**
 * Sizes the play area to the screen below where it starts (app.css: --play-top), so that
 * the seats, the stock, the pile, the hand and the actions fit the screen at once.
 */
export function fitPlay() {
  const play = document.getElementById("play");
  if (!play) return;
  const top = play.getBoundingClientRect().top + window.scrollY;
  document.documentElement.style.setProperty("--play-top", `${Math.round(top)}px`);
}

/** After the screen changes size (a phone turned): the play area refitted, in view in your turn. */
export function refit() {
  fitPlay();
  if (app.table && myTurn()) bringPlayIntoView();
}

/** At the start of your turn, the whole play area in view (a short screen scrolls to it). */
function bringPlayIntoView() {
  const play = document.getElementById("play");
  if (!play || play.classList.contains("over")) return;
  const box = play.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight + 1) play.scrollIntoView({ block: box.height > window.innerHeight ? "start" : "end" });
}

function inviteLink() {
  const tb = app.table;
  return `${location.origin}/#/table/${encodeURIComponent(tb.id)}${tb.invite ? `?invite=${encodeURIComponent(tb.invite)}` : ""}`;
}

function invitePara() {
  const link = inviteLink();
  const input = /** @type {HTMLInputElement} */ (el("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("invite.link"), onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() }));
  const copy = el("button", { type: "button", "data-key": "copy-invite", onclick: async () => {
    try { await navigator.clipboard.writeText(link); toast(t("invite.copied")); }
    catch { input.focus(); input.select(); toast(t("invite.copy-by-hand")); }
  } }, t("invite.copy"));
  return el("p", { class: "row invite" }, el("label", { for: "invite-link" }, t("invite.link-label")), input, copy);
}

function waitingPanel() {
  const tb = app.table;
  const seat = mySeat();
  const rows = tb.info.seats.map((/** @type {any} */ s) => {
    let action = null;
    if (seat === null && (s.kind === "open" || (s.kind === "invite" && tb.invite))) {
      action = app.me ? el("button", { class: "primary", "data-key": `sit-${s.seat}`, onclick: () => join(s.seat) }, t("wait.sit", { seat: s.seat + 1 })) : null;
    }
    if (seat === s.seat) action = el("button", { "data-key": "leave", onclick: leave }, t("wait.leave"));
    const who = s.kind === "open" ? t("seat.open") : s.kind === "invite" ? t("seat.invited") : s.kind === "bot" ? t("seat.bot", { bot: s.bot })
      : s.kind === "offer" ? t("seat.offered", { name: s.name }) : s.name;
    return el("li", {}, el("strong", {}, t("wait.seat", { seat: s.seat + 1 })), " ", who, seat === s.seat ? ` ${t("seat.you")}` : "", " ", action);
  });
  return el("section", { class: "panel", "aria-labelledby": "wait-h" }, el("h2", { id: "wait-h" }, t("wait.title")),
    el("ul", { class: "seat-list" }, rows),
    !app.me ? el("div", {}, el("p", {}, t("wait.choose-name")), nameForm(reconnect)) : null,
    invitePara(),
    el("p", { class: "muted" }, t("wait.note")));
}

/** @param {number} s */
async function join(s) {
  const tb = app.table;
  try { const r = await api("POST", `/api/tables/${encodeURIComponent(tb.id)}/join`, { seat: s, invite: tb.invite }); tb.you = { ...(tb.you || {}), seat: r.you }; }
  catch (x) { toast(/** @type {Error} */ (x).message); }
}
async function leave() {
  const tb = app.table;
  try { await api("POST", `/api/tables/${encodeURIComponent(tb.id)}/leave`); tb.you = { ...(tb.you || {}), seat: null }; render(); }
  catch (x) { toast(/** @type {Error} */ (x).message); }
}

/** Between hands: the seconds before the next deal, in words (null when none is due). */
function nextDealText() {
  const tb = app.table;
  if (!tb.clock || tb.clock.next_deal === null || tb.clock.next_deal === undefined) return null;
  const left = Math.max(0, Math.ceil(tb.clock.next_deal - (Date.now() - tb.clockAt) / 1000));
  return t("over.next-deal", { n: left });
}

/** The seconds left of the turn timer (null: no timer, or no turn). */
function secondsLeft() {
  const tb = app.table;
  if (!tb.clock || tb.clock.turn === null || tb.clock.turn === undefined || !tb.clock.limit) return null;
  return Math.max(0, tb.clock.limit - Math.floor(tb.clock.elapsed + (Date.now() - tb.clockAt) / 1000));
}

const WARN_AT = 10;
/** Seconds left of your turn when the page warns you. */

function clockText() {
  const tb = app.table;
  if (!tb.clock || tb.clock.turn === null || tb.clock.turn === undefined) return null;
  const left = secondsLeft();
  if (left !== null) {
    return left <= WARN_AT && myTurn() ? t("clock.hurry", { n: left }) : t("clock.left", { n: left });
  }
  return t("clock.elapsed", { n: Math.floor(tb.clock.elapsed + (Date.now() - tb.clockAt) / 1000) });
}

/**
 * What the latest turn did, to highlight until the next: the feed's entries since the last
 * draw (the turn in play once its player has drawn, else the one before).
 * @param {any} v
 */
function latestTurn(v) {
  const feed = v.feed || [];
  let at = feed.length - 1;
  while (at > 0 && !(feed[at].action && /^(draw|take-pile|turn-up)/.test(feed[at].action))) at--;
  const entries = at >= 0 ? feed.slice(at) : [];
  /** @type {Map<number, Set<number>>} melds made, per side */
  const melded = new Map();
  /** @type {Map<string, string>} "side:meld" -> the card added */
  const added = new Map();
  let discard = false;
  /** @type {string | null} */
  let drawn = null;
  for (const e of entries) {
    if (!e.action) continue;
    const side = v.sides.findIndex((/** @type {number[]} */ s) => s.includes(e.seat));
    const p = e.action.split(" ");
    discard = p[0] === "discard";
    if (p[0] === "draw" && e.card && e.seat === v.seat) drawn = e.card;
    if (p[0] === "add") added.set(`${side}:${p[1]}`, p[2]);
    if (p[0] === "meld") {
      // the newest meld of the side that holds these cards
      const cards = /** @type {string[]} */ (p.slice(1));
      const melds = v.melds[side] || [];
      for (let i = melds.length - 1; i >= 0; i--) {
        /** @type {string[]} */
        const left = [...melds[i].cards];
        if (cards.every((c) => { const k = left.indexOf(c); if (k < 0) return false; left.splice(k, 1); return true; })) {
          if (!melded.has(side)) melded.set(side, new Set());
          melded.get(side)?.add(melds[i].number);
          break;
        }
      }
    }
  }
  return { melded, added, discard, drawn };
}

/**
 * Whether a seat's player is away (a bot plays for them): as the server said, or since the
 * grace period it gave has run out. @param {any} info a seat of the table summary
 */
function isAway(info) {
  if (info.away) return true;
  if (info.away_in === null || info.away_in === undefined || !app.table.infoAt) return false;
  return Date.now() - app.table.infoAt >= info.away_in * 1000;
}

/**
 * Where each seat sits around the table, counted clockwise from yours (at the bottom):
 * partners face each other. b, l, t, r: bottom, left, top, right; tl, tr, bl, br: corners.
 * @type {Record<number, string[]>}
 */
const RING = { 2: ["b", "t"], 3: ["b", "l", "r"], 4: ["b", "l", "t", "r"], 5: ["b", "l", "tl", "tr", "r"], 6: ["b", "bl", "tl", "t", "tr", "br"] };

/** @param {any} v @param {number | null} seat */
function board(v, seat) {
  const tb = app.table;
  const names = v.names;
  const turn = v.turn;
  const felt = el("section", { class: "felt", "aria-label": t("table.felt") });
  const sel = seat !== null ? selectedCards() : [];
  const mine = myTurn();
  const fresh = latestTurn(v);
  const feed = v.feed || [];
  // seats
  // the seats around the table, from where you sit (a watcher: from the first seat)
  const n = names.length;
  const spots = RING[n] || RING[4];
  const base = seat ?? 0;
  const seatNodes = names.map((/** @type {string} */ who, /** @type {number} */ i) => {
    const info = tb.info.seats[i] || {};
    const flags = [];
    if (i === v.dealer) flags.push(t("seat.dealer"));
    if (info.kind === "bot") flags.push(t("seat.bot", { bot: info.bot || "" }));
    if (info.kind === "guest" && !info.connected) flags.push(isAway(info) ? t("seat.away") : t("seat.disconnected"));
    if (seat !== null && i !== seat && v.sides[v.side].includes(i)) flags.push(t("seat.partner"));
    const last = [...feed].reverse().find((/** @type {any} */ e) => e.seat === i && e.action);
    const spot = spots[(i - base + n) % n] || "b";
    return el("div", { class: `seat at-${spot}${turn === i ? " turn" : ""}${i === seat ? " mine" : ""}`, role: "group",
      "aria-label": t("seat.label", { name: who }), "aria-current": turn === i ? "true" : null, "data-seat": i },
    el("strong", {}, who), ratingBadge(info.rating), i === seat ? ` ${t("seat.you")}` : "", " ", backs(v.hand_sizes[i]),
    turn === i ? el("span", { class: "to-play" }, ` ▶ ${t("seat.to-play")}`) : null,
    flags.length ? el("span", { class: "flags" }, ` · ${flags.join(", ")}`) : null,
    last ? el("span", { class: "did" }, feedWords(last, names)) : null);
  });
  // status line
  const clock = clockText();
  const potText = v.pots.length ? tn("table.pots-left", v.pots.length, { cards: v.pots.join(" + ") }) : t("table.no-pot-left");
  let whose;
  if (turn === null || turn === undefined) whose = t("table.hand-over");
  else if (turn === seat) whose = el("strong", {}, v.phase === "draw" ? t("table.your-turn-draw") : t("table.your-turn-play"));
  else whose = t("table.their-turn", { name: names[turn] });
  // the play area: the table (status, seats, stock and pile, melds) and your hand, sized to the
  // screen so that a whole turn is played without scrolling (the melds scroll in their place)
  const tableSide = el("div", { class: "table-side" });
  const handSide = el("div", { class: "hand-side" });
  tableSide.append(el("div", { class: "status", id: "status" },
    el("span", {}, t("table.hand-number", { n: v.hand_number + 1 })),
    el("span", { id: "whose" }, whose),
    clock !== null ? el("span", { class: `clock${warnNow() ? " warn" : ""}`, id: "clock", role: warnNow() ? "alert" : null }, clock) : null,
    matchClock(tb.info),
    v.last_turn ? el("strong", {}, t("table.last-turn")) : null,
    seat !== null && tb.info.status === "playing"
      ? [el("button", { type: "button", id: "leave-match", "data-key": "leave-match", onclick: askLeave }, t("leave.button")),
        el("button", { type: "button", id: "resign", "data-key": "resign", onclick: askResign }, t("resign.button"))]
      : null));
  // stock, pile
  const canDraw = mine && v.phase === "draw";
  const canTake = canDraw && legal().includes("take-pile"); // in fechado, only when its top card melds
  const stock = el("button", { type: "button", class: "stock", id: "stock", "data-key": "stock", disabled: !canDraw, onclick: () => act("draw"),
    "aria-label": canDraw ? tn("table.stock-draw", v.stock) : tn("table.stock-label", v.stock) }, el("span", { class: "back", "aria-hidden": "true" }), ` ${t("table.stock", { n: v.stock })}`);
  const pileCards = v.pile.map((/** @type {string} */ c, /** @type {number} */ i) => cardNode(c, { extra: i === v.pile.length - 1 ? (fresh.discard ? "pile-top fresh" : "pile-top") : null }));
  const pileParts = [tn("table.pile-label", v.pile_size)];
  if (!v.pile_open) pileParts.push(t("table.pile-closed-label"));
  if (v.pile.length) pileParts.push(t("table.pile-top-label", { card: cardName(v.pile[v.pile.length - 1]) }));
  if (canTake) pileParts.push(t("table.pile-take-label"));
  const pile = el("button", { type: "button", class: "pile", id: "pile", "data-key": "pile", disabled: !canTake, onclick: () => act("take-pile"),
    "aria-label": pileParts.join(", ") },
  el("span", { class: "pile-head" }, v.pile_open ? t("table.pile", { n: v.pile_size }) : t("table.pile-closed", { n: v.pile_size })),
  el("span", { class: "pile-cards" }, pileCards.length ? pileCards : t("table.empty")));
  const middle = el("div", { class: "middle" }, stock, pile,
    el("div", { class: "pots" }, potText, v.taken_top ? el("div", {}, t(mine ? "table.taken-top-mine" : "table.taken-top", { card: cardName(v.taken_top) })) : null));
  tableSide.append(el("div", { class: `ring ring-${n}`, role: "group", "aria-label": t("table.players") }, seatNodes, middle));
  // the end of a hand: its scores first, then the table as it ended
  if (v.scores) tableSide.append(handOver(v, seat));
  // sides and melds
  const moves = legal().filter((a) => a.startsWith("move "));
  tableSide.append(el("div", { class: "sides" }, v.melds.map((/** @type {any[]} */ melds, /** @type {number} */ side) => {
    const own = side === v.side;
    const seatsOf = sideName(v, side);
    const facts = [t("side.match", { n: v.totals[side] }), t("side.on-table", { n: v.table_points[side] })];
    if (v.vulnerable[side]) facts.push(t("side.vulnerable"));
    if (v.requirement[side]) facts.push(t("side.needs", { n: v.requirement[side] }));
    facts.push(v.pot_taken[side] ? t("side.pot-taken") : t("side.pot-not-taken"));
    const head = el("div", { class: "side-head" }, el("strong", {}, own ? t(alone(v) ? "side.yours.alone" : "side.yours", { names: seatsOf }) : seatsOf), el("span", { class: "facts" }, ` · ${facts.join(" · ")}`));
    const list = el("div", { class: "melds" }, melds.length ? melds.map((m) => {
      const fits = own && sel.length > 0 && addOptions(m.number, sel).length > 0;
      const node = meldNode(m, { fits, onclick: own && mine && v.phase !== "draw" && sel.length ? () => doAdd(m.number) : null,
        fresh: fresh.melded.get(side)?.has(m.number), freshCard: fresh.added.get(`${side}:${m.number}`) });
      const myMoves = own ? moves.filter((a) => Number(a.split(" ")[1]) === m.number) : [];
      if (!myMoves.length) return node;
      return el("div", { class: "meld-wrap" }, node, el("button", { type: "button", "data-key": `move-${m.number}`, onclick: () => doMove(m.number) }, t("side.move-wild")));
    }) : el("span", { class: "muted-light" }, t("side.no-melds")));
    return el("section", { class: `side${own ? " own" : ""}`, "aria-label": t("side.label", { names: seatsOf }) }, head, list);
  })));
  if (tb.choice) handSide.append(choicePanel());
  if (tb.confirm) handSide.append(confirmPanel());
  handSide.append(el("div", { id: "reason", role: "alert" }));
  // my hand and actions, or a spectator's note
  if (seat !== null) handSide.append(handPanel(v, fresh.drawn));
  else handSide.append(el("p", { class: "watching" }, t("table.watching")));
  felt.append(el("div", { class: `play${v.scores ? " over" : ""}`, id: "play" }, tableSide, handSide));
  if (v.options) felt.append(rulesPanel(v.options, tb.info.preset));
  if (feed.length) {
    felt.append(el("details", { class: "log" }, el("summary", {}, t("table.last-move", { move: feedWords(feed[feed.length - 1], names) })),
      // the newest first, numbered from the start of the hand
      el("ol", { reversed: true }, feed.slice(-30).reverse().map((/** @type {any} */ e) => el("li", {}, feedWords(e, names))))));
  }
  return felt;
}

const RUN_POSITIONS = "A23456789TJQKA";

/**
 * What the wild of a meld written in the notation stands for ("7♥", or a rank for a set);
 * null without a wild. A run is written low to high with its wild where it stands.
 * @param {string[]} cards
 */
export function wildFor(cards) {
  const naturals = cards.filter((c) => c !== "JK" && c[0] !== "2");
  if (!naturals.length) return null;
  // a set: its natural cards of one rank (one natural alone: a set unless a 2 of its suit
  // beside it makes a run with it)
  const set = naturals.length >= 2
    ? naturals.every((c) => c[0] === naturals[0][0])
    : !cards.some((c) => c[0] === "2" && c[1] === naturals[0][1]);
  if (set) {
    const wild = cards.find((c) => c === "JK" || c[0] === "2");
    return wild ? { wild, stands: t(`card.rank.${naturals[0][0]}.short`) } : null;
  }
  const suit = naturals[0][1];
  const first = cards.findIndex((c) => c === naturals[0]);
  let low = RUN_POSITIONS.indexOf(naturals[0][0]) - first;
  if (naturals[0][0] === "A" && first > 0) low = 13 - first; // a high ace
  for (let i = 0; i < cards.length; i++) {
    const c = cards[i];
    const rank = RUN_POSITIONS[low + i];
    const natural = c === `${rank}${suit}` || (c[0] === "A" && rank === "A" && c[1] === suit);
    if (!natural && (c === "JK" || c[0] === "2") && rank) return { wild: c, stands: cardText(rank + suit) };
  }
  return null;
}

/** A choice's words: a meld's cards with what its wild stands for, an add's placement, a wild's move. @param {string} a */
function choiceLabel(a) {
  const p = a.split(" ");
  if (p[0] === "meld") {
    const cards = p.slice(1);
    const shown = cards.map(cardText).join(" ");
    const w = wildFor(cards);
    return w ? t("choice.wild-as", { cards: shown, wild: cardText(w.wild), stands: w.stands }) : shown;
  }
  return actionWords(a);
}

function choicePanel() {
  const c = app.table.choice;
  return el("div", { class: "panel choices", id: "choices", role: "group", "aria-label": c.title },
    el("p", {}, c.title), c.options.map((/** @type {string} */ a) => el("button", { type: "button", "data-action": a, onclick: () => act(a) }, choiceLabel(a))),
    el("button", { type: "button", onclick: () => { app.table.choice = null; render(); } }, t("choice.cancel")));
}

/** The most cards the hand shows in one row (15 fit a 360-pixel phone). */
const HAND_ROW = 15;

/** Your hand and its moves; `drawn`: the card you drew this turn, to mark. @param {any} v @param {string | null} drawn */
function handPanel(v, drawn) {
  const tb = app.table;
  const hand = v.hand;
  const serverKeys = handKeys(hand);
  const drawnKey = drawn && mySeat() === v.turn ? serverKeys[hand.lastIndexOf(drawn)] : null;
  const arrangement = arrangementOf(v);
  const shown = arrange(arrangement, hand);
  /** @param {string[]} order */
  const rearrange = (order) => {
    arrangement.order = order; arrangement.sort = null; tb.picked = null;
    saveArrangement(tb.id, v.hand_number, arrangement);
    render();
  };
  const cards = shown.map((key, i) => {
    const c = codeOf(key);
    const b = cardNode(c, { button: true, pressed: tb.selected.has(key), key: `card-${key}`, extra: [key === drawnKey ? "fresh" : "", key === tb.picked ? "picked" : ""].join(" ").trim() || null });
    b.dataset.card = c;
    b.draggable = true;
    b.addEventListener("click", () => {
      if (!tb.arranging) { toggle(key); return; }
      // arranging by taps: the first tap picks a card, the next puts it before the one tapped
      if (tb.picked === null) { tb.picked = key; render(); } else if (tb.picked === key) { tb.picked = null; render(); } else rearrange(moveKey(shown, tb.picked, key));
    });
    b.addEventListener("dragstart", (e) => { e.dataTransfer?.setData("text/plain", key); tb.dragging = true; });
    b.addEventListener("dragend", () => {
      tb.dragging = false;
      if (tb.renderLater) { tb.renderLater = false; render(); }
    });
    b.addEventListener("dragover", (e) => { e.preventDefault(); });
    b.addEventListener("drop", (e) => {
      e.preventDefault();
      const moved = e.dataTransfer?.getData("text/plain");
      if (moved && moved !== key && shown.includes(moved)) rearrange(moveKey(shown, moved, key));
    });
    b.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        if (e.shiftKey) { // move the card itself
          const to = i + (e.key === "ArrowRight" ? 2 : -1);
          if (to >= 0 && to <= shown.length) rearrange(moveKey(shown, key, shown[to] ?? null));
          return;
        }
        const all = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".hand .card")]);
        const at = all.indexOf(b);
        all[(at + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length]?.focus();
      }
    });
    return b;
  });
  /** @param {string} how */
  const sortBy = (how) => {
    arrangement.sort = how; arrangement.order = sortKeys(serverKeys, how); tb.picked = null;
    saveArrangement(tb.id, v.hand_number, arrangement);
    render();
  };
  const arrangeBar = el("div", { class: "row arrange", role: "group", "aria-label": t("hand.arrange-label") },
    el("button", { type: "button", id: "sort-suit", "data-key": "sort-suit", "aria-pressed": arrangement.sort === "suit" ? "true" : "false", onclick: () => sortBy("suit") }, t("hand.sort-suit")),
    el("button", { type: "button", id: "sort-rank", "data-key": "sort-rank", "aria-pressed": arrangement.sort === "rank" ? "true" : "false", onclick: () => sortBy("rank") }, t("hand.sort-rank")),
    el("button", { type: "button", id: "arrange", "data-key": "arrange", "aria-pressed": tb.arranging ? "true" : "false",
      onclick: () => { tb.arranging = !tb.arranging; tb.picked = null; render(); } }, t("hand.arrange")),
    tb.arranging ? el("span", { class: "muted", id: "arrange-help" }, tb.picked ? t("hand.arrange-put") : t("hand.arrange-pick")) : null);
  const L = legal();
  const sel = selectedCards();
  const mine = myTurn();
  const drawPhase = mine && v.phase === "draw";
  const playPhase = mine && v.phase !== "draw";
  const melds = sel.length ? meldOptions(sel) : [];
  /** @param {string} key @param {string} label @param {string | null} shortcut @param {() => void} onclick @param {{primary?: boolean, disabled?: boolean}} [opts] */
  const b = (key, label, shortcut, onclick, opts = {}) => el("button", {
    type: "button", id: `act-${key}`, "data-key": `act-${key}`, class: opts.primary ? "primary" : null,
    disabled: opts.disabled, "aria-keyshortcuts": shortcut, onclick }, label, shortcut ? el("kbd", { "aria-hidden": "true" }, shortcut) : null);
  const buttons = [
    // only in the draw phase, and the pile only when the rules let you take it
    b("draw", t("act.draw"), "d", () => act("draw"), { primary: drawPhase && L.includes("draw"), disabled: !drawPhase || !L.includes("draw") }),
    b("take", t("act.take"), "t", () => act("take-pile"), { primary: drawPhase && L.includes("take-pile"), disabled: !drawPhase || !L.includes("take-pile") }),
  ];
  if (L.includes("turn-up")) buttons.push(b("turnup", t("act.turn-up"), "u", () => act("turn-up")));
  buttons.push(
    b("meld", t("act.meld"), "m", doMeld, { primary: melds.length > 0, disabled: !mine || !sel.length }),
    b("discard", t("act.discard"), "x", doDiscard, { primary: playPhase && sel.length === 1 && L.includes(`discard ${sel[0]}`), disabled: !mine || sel.length !== 1 }));
  buttons.push(b("hint", t("act.hint"), "h", doHint, { disabled: !mine }));
  if (tb.selected.size) buttons.push(b("clear", t("act.clear"), "Escape", () => { tb.selected.clear(); render(); }));
  let hint;
  if (!mine) hint = v.scores ? t("hint.hand-over") : t("hint.wait");
  else if (drawPhase) hint = t("hint.draw");
  else if (!sel.length) hint = t(alone(v) ? "hint.select.alone" : "hint.select");
  else if (document.querySelector(".meld.fits") || v.melds[v.side].some((/** @type {any} */ m) => addOptions(m.number, sel).length)) hint = t("hint.highlighted");
  else if (sel.length === 1) hint = t("hint.discard-or-more");
  else if (sel.length === 2) hint = t("hint.meld-needs-three");
  else hint = melds.length ? t("hint.meld-or-one") : t("hint.no-meld");
  const typed = /** @type {HTMLInputElement} */ (el("input", { id: "typed", placeholder: "meld 7H 8H 9H", maxlength: 500, autocomplete: "off", "aria-label": t("typed.label") }));
  const typedForm = el("form", { class: "row typed", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); if (typed.value.trim()) act(typed.value.trim()); } },
    el("label", { for: "typed", class: "typed-label" }, t("typed.prompt")), typed, el("button", { type: "submit" }, t("typed.send")));
  // one row of cards overlapping as far as they must (app.css reads each row's count); a
  // hand of more than HAND_ROW cards in two rows, so that every card's corner stays readable
  const rows = cards.length > HAND_ROW ? [cards.slice(0, Math.ceil(cards.length / 2)), cards.slice(Math.ceil(cards.length / 2))] : [cards];
  const handRow = el("div", { class: `hand${tb.arranging ? " arranging" : ""}`, role: "group", "aria-label": t("hand.label") },
    rows.map((row) => {
      const node = el("div", { class: "hand-row" }, row);
      node.style.setProperty("--n", String(Math.max(row.length, 2)));
      return node;
    }));
  return el("section", { class: "panel mine", "aria-labelledby": "hand-h" },
    el("div", { class: "row hand-head" }, el("h2", { id: "hand-h" }, t("hand.title", { n: hand.length })), v.hidden_pot ? el("span", { class: "small" }, tn("hand.hidden-pot", v.hidden_pot)) : null,
      sel.length ? el("span", { class: "muted selected" }, t("hand.selected", { cards: sel.map(cardText).join(" ") })) : null, arrangeBar),
    handRow,
    el("div", { class: "actions", role: "toolbar", "aria-label": t("act.label") }, buttons),
    el("p", { class: "hint", id: "hint" }, hint),
    mine ? typedForm : null);
}

/**
 * The arrangement of the hand in play (kept per table and hand).
 * @param {any} v
 * @returns {{order: string[] | null, sort: string | null}}
 */
function arrangementOf(v) {
  const tb = app.table;
  if (!tb.arrangement || tb.arrangementHand !== v.hand_number) {
    tb.arrangement = loadArrangement(tb.id, v.hand_number);
    tb.arrangementHand = v.hand_number;
  }
  return tb.arrangement;
}

/** @param {string} key */
function toggle(key) {
  const tb = app.table;
  if (tb.selected.has(key)) tb.selected.delete(key); else tb.selected.add(key);
  tb.choice = null;
  render();
}

/** Show why the last move was refused (or nothing). */
export function renderReason() {
  const box = document.getElementById("reason");
  if (!box) return;
  box.replaceChildren();
  if (app.table.reason) box.append(el("p", { class: "reason" }, app.table.reason));
}

/** @param {any} v @param {any[]} played */
function handsTable(v, played) {
  return el("table", { class: "scores", id: "hands-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("over.after")), v.sides.map((/** @type {any} */ _, /** @type {number} */ i) => el("th", { scope: "col" }, sideName(v, i))))),
    el("tbody", {}, played.map((h) => el("tr", {}, el("th", { scope: "row" }, t("over.hand", { n: h.hand })),
      h.totals.map((/** @type {number} */ x, /** @type {number} */ i) => el("td", {}, `${x}`, el("span", { class: "muted" }, ` (${h.scores[i].total >= 0 ? "+" : ""}${h.scores[i].total})`)))))));
}

/** @param {any} v @param {number | null} seat */
function handOver(v, seat) {
  const tb = app.table;
  const over = tb.info.status === "over" || v.winner !== null;
  const box = el("section", { class: "panel hand-over", id: "hand-over", "aria-labelledby": "over-h" },
    el("h2", { id: "over-h" }, over ? t("over.match") : t("over.hand-title", { n: v.hand_number + 1 })));
  const ended = (v.hands_played || [])[v.hand_number];
  if (ended) {
    const how = ended.ended_by === "going-out" && ended.went_out !== null
      ? t(alone(v) ? "over.ended.going-out.alone" : "over.ended.going-out", { names: sideName(v, ended.went_out) })
      : t(`over.ended.${ended.ended_by}`);
    box.append(el("p", { class: "ended", id: "ended" }, how));
  }
  box.append(scoresTable(v, v.scores));
  if (tb.reveal && tb.reveal.hands) {
    box.append(el("h3", {}, t("over.cards-left")), el("div", { class: "reveal" }, tb.reveal.hands.map((/** @type {string[]} */ h, /** @type {number} */ i) => el("div", {},
      el("strong", {}, `${v.names[i]}: `), h.length ? h.map((c) => cardNode(c)) : t("over.no-cards")))));
    box.append(el("p", { class: "muted small" }, t("over.commitment", { hash: `${tb.reveal.commitment.slice(0, 12)}…` })));
  }
  const played = v.hands_played || [];
  if (played.length) box.append(el("h3", {}, t("over.hands")), handsTable(v, played));
  if (over) {
    const w = v.winner;
    box.append(el("p", { class: "winner" }, w !== null && w !== undefined ? t(alone(v) ? "over.winner.alone" : "over.winner", { names: sideName(v, w), n: v.totals[w] }) : t("over.match-over")));
    if (tb.info.game) {
      // a private table's game is shown to who holds its invite (the link carries it on)
      const invite = tb.invite && !tb.info.public ? `?invite=${encodeURIComponent(tb.invite)}` : "";
      box.append(el("p", {}, el("a", { href: `/api/games/${tb.info.game}/record${invite}`, download: `buraco-game-${tb.info.game}.json` }, t("over.download")),
        " · ", el("a", { href: `#/game/${tb.info.game}${invite}` }, t("over.replay"))));
    }
    if (tb.info.tournament) box.append(backToTournament(tb.info.tournament));
    else if (tb.info.rematch) box.append(rematchOffer(tb.info.rematch, seat));
    else if (seat !== null) box.append(el("button", { type: "button", class: "primary", id: "rematch", "data-key": "rematch", onclick: rematch }, t("over.rematch")));
  } else {
    if (seat !== null) {
      box.append(el("button", { type: "button", class: "primary", id: "ready", "data-key": "ready", "aria-keyshortcuts": "r", disabled: tb.ready,
        onclick: ready }, tb.ready ? t("over.waiting") : t("over.ready")));
    }
    const next = nextDealText();
    if (next !== null) box.append(el("p", { class: "next-deal", id: "next-deal" }, next));
  }
  return box;
}

/** The way back from a tournament's table to its page. @param {{id: string, turn: number, table: number}} tour */
function backToTournament(tour) {
  return el("p", {}, el("a", { href: `#/tournament/${encodeURIComponent(tour.id)}`, class: "button primary", id: "back-to-tournament" },
    t("over.back-to-tournament", { turn: tour.turn, table: tour.table })));
}

/**
 * The rematch as this page sees it: an offer to accept or decline when your seat there is
 * offered to you, else the way to it.
 * @param {string} id the rematch table @param {number | null} seat
 */
function rematchOffer(id, seat) {
  const tb = app.table;
  const go = el("p", {}, el("a", { href: `#/table/${id}`, class: "button primary", id: "go-rematch" }, t("over.go-rematch")));
  if (seat === null) return go;
  if (!tb.rematchSeen || tb.rematchSeen.id !== id) {
    tb.rematchSeen = { id, kind: null };
    api("GET", `/api/tables/${encodeURIComponent(id)}`)
      .then((got) => { if (app.table === tb) { tb.rematchSeen = { id, kind: got.table.seats[seat].kind }; render(); } })
      .catch(() => { /* gone: nothing to offer */ });
    return el("p", {}, t("over.rematch-looking"));
  }
  if (tb.rematchSeen.kind === "declined") return el("p", { id: "declined" }, t("over.rematch-declined"));
  if (tb.rematchSeen.kind !== "offer") return go;
  const accept = async () => {
    try { await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat }); location.hash = `#/table/${id}`; }
    catch (x) { toast(/** @type {Error} */ (x).message); }
  };
  const decline = async () => {
    try { await api("POST", `/api/tables/${encodeURIComponent(id)}/decline`); tb.rematchSeen = { id, kind: "declined" }; render(); }
    catch (x) { toast(/** @type {Error} */ (x).message); }
  };
  return el("div", { class: "offer", id: "rematch-offer", role: "group", "aria-labelledby": "offer-text" },
    el("p", { id: "offer-text" }, t("over.rematch-offered")),
    el("button", { type: "button", class: "primary", id: "rematch-accept", onclick: accept }, t("over.rematch-accept")),
    " ",
    el("button", { type: "button", id: "rematch-decline", onclick: decline }, t("over.rematch-decline")));
}

function ready() {
  const tb = app.table;
  if (tb.ready) return;
  if (send({ type: "ready" })) { tb.ready = true; render(); }
}

async function rematch() {
  try { const r = await api("POST", `/api/tables/${encodeURIComponent(app.table.id)}/rematch`); location.hash = `#/table/${r.table.id}`; }
  catch (x) { toast(/** @type {Error} */ (x).message); }
}

const CHAT_MAX = 300;
/** The longest chat line the server takes (docs/protocol.md). */

/** The chat box of a table page, with its length counter, and the mark of unread lines. */
export function chatPanel() {
  const input = /** @type {HTMLInputElement} */ (el("input", { id: "chat-text", maxlength: CHAT_MAX, autocomplete: "off", "aria-label": t("chat.label"), "aria-describedby": "chat-count", placeholder: app.me ? t("chat.placeholder") : t("chat.need-name") }));
  const count = el("span", { id: "chat-count", class: "muted chat-count" }, t("chat.limit", { n: 0, max: CHAT_MAX }));
  input.addEventListener("input", () => {
    count.textContent = t("chat.limit", { n: input.value.length, max: CHAT_MAX });
    count.classList.toggle("full", input.value.length >= CHAT_MAX);
  });
  const form = el("form", { class: "row", onsubmit: (/** @type {Event} */ e) => {
    e.preventDefault();
    if (!app.me) { toast(t("chat.choose-name")); return; }
    if (input.value.trim() && send({ type: "chat", text: input.value.trim() })) {
      input.value = "";
      count.textContent = t("chat.limit", { n: 0, max: CHAT_MAX });
      count.classList.remove("full");
    }
  } }, input, count, el("button", { type: "submit" }, t("chat.send")));
  const panel = el("section", { class: "panel chat-panel", id: "chat-panel", "aria-labelledby": "chat-h" }, el("h2", { id: "chat-h" }, t("chat.title")),
    el("div", { id: "chat", class: "chat", role: "log", "aria-live": "polite" }), form);
  const unread = el("button", { type: "button", id: "chat-unread", class: "chat-unread", hidden: true,
    onclick: () => panel.scrollIntoView({ behavior: "smooth", block: "end" }) });
  // lines that come while the chat is out of sight (less than half of it on the screen) are
  // counted on a button that shows it
  new IntersectionObserver((seen) => {
    chatSeen = seen.some((x) => x.intersectionRatio >= 0.5);
    if (chatSeen) { unreadLines = 0; unread.hidden = true; }
  }, { threshold: [0, 0.5, 1] }).observe(panel);
  return [panel, unread];
}

let chatSeen = true;
let unreadLines = 0;

/** Show the chat's lines; `fresh`: one new line came (counted if the chat is out of sight). @param {boolean} [fresh] */
export function renderChat(fresh = false) {
  const box = document.getElementById("chat");
  if (!box) return;
  box.replaceChildren(...app.table.chat.map((/** @type {any} */ l) => el("p", {}, el("strong", {}, l.name), ": ", el("span", { class: "chat-text" }, l.text))));
  box.scrollTop = box.scrollHeight;
  const unread = document.getElementById("chat-unread");
  if (fresh && !chatSeen && unread) {
    unreadLines += 1;
    unread.textContent = tn("chat.unread", unreadLines);
    unread.hidden = false;
  }
}

document.addEventListener("keydown", (e) => {
  const tb = app.table;
  if (!tb || !tb.view || e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = /** @type {HTMLElement} */ (e.target).tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const k = e.key;
  if (k === "Escape") { tb.selected.clear(); tb.choice = null; render(); return; }
  if (k === "r" && tb.view.scores && mySeat() !== null) { ready(); return; }
  if (!myTurn()) return;
  /** @type {Record<string, () => void>} */
  const keys = {
    d: () => act("draw"), t: () => act("take-pile"), p: () => act("take-pile"), u: () => act("turn-up"),
    m: doMeld, x: doDiscard, h: doHint,
    a: () => {
      const sel = selectedCards();
      const fit = tb.view.melds[tb.view.side].filter((/** @type {any} */ m) => addOptions(m.number, sel).length);
      if (fit.length === 1) doAdd(fit[0].number);
      else if (fit.length > 1) choose(fit.flatMap((/** @type {any} */ m) => addOptions(m.number, sel)), t("choice.add-which-meld"));
      else refuse(t(alone(tb.view) ? "hint.no-meld-takes.alone" : "hint.no-meld-takes"));
    },
  };
  const handled = keys[k];
  if (handled) { e.preventDefault(); handled(); }
});

/** Whether your turn's time is nearly out. */
function warnNow() {
  const left = secondsLeft();
  return left !== null && left <= WARN_AT && myTurn();
}

setInterval(() => {
  if (!app.table) return;
  const c = document.getElementById("clock");
  if (c) {
    const text = clockText();
    if (text) c.textContent = text;
    if (warnNow() !== c.classList.contains("warn")) render(); // the warning starts (or ends)
  }
  const seats = app.table.info ? app.table.info.seats : [];
  if (seats.some((/** @type {any} */ s) => !s.away && s.away_in && isAway(s)) && !app.table.awayShown) { app.table.awayShown = true; render(); }
  const next = document.getElementById("next-deal");
  if (next) { const text = nextDealText(); if (text) next.textContent = text; }
}, 1000);
