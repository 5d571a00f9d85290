// A finished game's replay, move by move, every hand shown.
import { api } from "./api.js";
import { cardNode, meldNode, scoresTable, sideName } from "./cards.js";
import { el, toast } from "./dom.js";
import { actionWords, t, usePreset } from "./i18n.js";
import { app, main } from "./state.js";

/** The replay page of a game. @param {string} id @param {URLSearchParams} params */
export async function showReplay(id, params) {
  /** @type {{hand: number, step: number, steps?: number, hands?: number}} */
  const state = { hand: Number(params.get("hand")) || 1, step: Number(params.get("step")) || 0 };
  // a private table's game: its invite code, for who holds it and not a seat
  const invite = params.get("invite");
  const also = invite ? `invite=${encodeURIComponent(invite)}` : "";
  main.replaceChildren(el("p", {}, t("page.loading")));
  /** @type {any} */
  let info;
  try { info = await api("GET", `/api/games/${encodeURIComponent(id)}${also ? `?${also}` : ""}`); }
  catch (x) { main.replaceChildren(el("p", { role: "alert" }, /** @type {Error} */ (x).message), el("a", { href: "#/" }, t("nav.lobby"))); return; }
  usePreset(info.preset);
  const names = info.names;
  /** @param {number} hand @param {number} step */
  const go = (hand, step) => { state.hand = hand; state.step = Math.max(0, step); show(); };
  let asked = 0;
  const show = async () => {
    const mine = ++asked;
    /** @type {any} */
    let p;
    try { p = await api("GET", `/api/games/${encodeURIComponent(id)}/replay?hand=${state.hand}&step=${state.step}${also ? `&${also}` : ""}`); }
    catch (x) { toast(/** @type {Error} */ (x).message); return; }
    if (mine !== asked || !location.hash.startsWith("#/game/")) return; // a later step was asked for meanwhile
    state.step = p.step; state.steps = p.steps; state.hands = p.hands;
    const v = p.view;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const active = focused && focused.dataset ? focused.dataset.key : null;
    /** @param {string} key @param {string} label @param {() => void} onclick @param {boolean} disabled @param {string} shortcut */
    const nb = (key, label, onclick, disabled, shortcut) => el("button", { type: "button", "data-key": key, id: `r-${key}`, onclick, disabled, "aria-keyshortcuts": shortcut }, label);
    const nav = el("div", { class: "row replay-nav", role: "toolbar", "aria-label": t("replay.label") },
      nb("start", t("replay.start"), () => go(p.hand, 0), p.step === 0, "Home"),
      nb("back", t("replay.back"), () => go(p.hand, p.step - 1), p.step === 0, "ArrowLeft"),
      el("span", { id: "r-where", role: "status" }, t("replay.where", { hand: p.hand, hands: p.hands, step: p.step, steps: p.steps })),
      nb("next", t("replay.next"), () => go(p.hand, p.step + 1), p.step >= p.steps, "ArrowRight"),
      nb("end", t("replay.end"), () => go(p.hand, p.steps), p.step >= p.steps, "End"),
      nb("prev-hand", t("replay.prev-hand"), () => go(p.hand - 1, 0), p.hand <= 1, "PageUp"),
      nb("next-hand", t("replay.next-hand"), () => go(p.hand + 1, 0), p.hand >= p.hands, "PageDown"));
    const hands = el("div", { class: "replay-hands" }, p.cards.map((/** @type {string[]} */ h, /** @type {number} */ i) => el("div", { class: `seat${v.turn === i ? " turn" : ""}` },
      el("strong", {}, `${names[i]} (${h.length}): `), h.map((c) => cardNode(c)))));
    const melds = el("div", { class: "sides" }, v.melds.map((/** @type {any[]} */ ms, /** @type {number} */ side) => el("section", { class: "side", "aria-label": t("side.label", { names: sideName(v, side) }) },
      el("div", { class: "side-head" }, el("strong", {}, sideName(v, side)), ` · ${t("side.on-table", { n: v.table_points[side] })}${v.pot_taken[side] ? ` · ${t("side.pot-taken")}` : ""}`),
      el("div", { class: "melds" }, ms.length ? ms.map((m) => meldNode(m)) : el("span", { class: "muted-light" }, t("side.no-melds"))))));
    const last = p.action ? t("replay.action", { name: names[p.action[0]], action: actionWords(p.action[1]) }) : t("replay.deal");
    main.replaceChildren(el("h1", {}, t("replay.title", { preset: info.preset, names: names.join(", ") })),
      el("p", {}, `${t("replay.final", { score: info.totals.join(" – ") })} · `, el("a", { href: `/api/games/${info.id}/record${also ? `?${also}` : ""}`, download: `buraco-game-${info.id}.json` }, t("replay.download")), " · ", el("a", { href: "#/" }, t("nav.lobby"))),
      nav, el("p", { id: "r-action", "aria-live": "polite" }, last),
      el("section", { class: "felt" },
        el("div", { class: "middle" }, el("span", { class: "stock" }, t("table.stock", { n: v.stock })),
          el("span", { class: "pile" }, el("span", { class: "pile-head" }, t("table.pile", { n: v.pile_size })), el("span", { class: "pile-cards" }, v.pile.map((/** @type {string} */ c) => cardNode(c)))),
          el("span", { class: "pots" }, v.pots.length ? t("replay.pots", { cards: v.pots.join(" + ") }) : t("table.no-pot-left"))),
        melds, hands,
        v.scores ? el("div", { class: "panel" }, el("h2", {}, t("table.hand-over")), scoresTable(v, v.scores)) : null));
    if (active) /** @type {HTMLElement | null} */ (document.querySelector(`[data-key="${CSS.escape(active)}"]`))?.focus();
    history.replaceState(null, "", `#/game/${encodeURIComponent(id)}?hand=${p.hand}&step=${p.step}${also ? `&${also}` : ""}`);
  };
  app.replayKeys = (e) => {
    /** @type {Record<string, [number, number]>} */
    const keys = { ArrowRight: [0, 1], ArrowLeft: [0, -1], Home: [0, -1e9], End: [0, 1e9], PageDown: [1, 0], PageUp: [-1, 0] };
    const k = keys[e.key];
    if (!k) return;
    e.preventDefault();
    if (k[0]) { const h = state.hand + k[0]; if (h >= 1 && h <= (state.hands ?? 1)) go(h, 0); }
    else go(state.hand, Math.min(state.steps ?? 0, state.step + k[1]));
  };
  show();
}

document.addEventListener("keydown", (e) => {
  const tag = /** @type {HTMLElement} */ (e.target).tagName;
  if (app.replayKeys && location.hash.startsWith("#/game/") && !["INPUT", "SELECT"].includes(tag) && !e.ctrlKey && !e.metaKey && !e.altKey) app.replayKeys(e);
});
