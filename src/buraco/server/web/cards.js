// Cards and melds as the page draws them.
import { el } from "./dom.js";
import { cardName, cardText, t, tn } from "./i18n.js";

const POSITIONS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

/**
 * What a meld's wild card stands for, e.g. "5♥" (run) or "K" (set); null without a wild.
 * @param {any} m a meld of a view
 * @returns {{text: string, label: string} | null}
 */
export function wildStands(m) {
  if (m.wild === null || m.wild === undefined) return null;
  const natural = m.cards.find((/** @type {string} */ c, /** @type {number} */ i) => i !== m.wild && c !== "JK");
  if (!natural) return null;
  if (m.type === "set") return { text: t(`card.rank.${natural[0]}.short`), label: t(`card.rank.${natural[0]}`) };
  const r = POSITIONS[m.low + m.wild];
  if (!r) return null;
  return { text: cardText(r + natural[1]), label: cardName(r + natural[1]) };
}

/**
 * A card: a span, or a toggle button in the hand.
 * @param {string} code
 * @param {{button?: boolean, pressed?: boolean, key?: string, wild?: boolean, stands?: {text: string, label: string} | null, extra?: string | null}} [opts]
 */
export function cardNode(code, opts = {}) {
  const tag = opts.button ? "button" : "span";
  const rank = code === "JK" ? "★" : t(`card.rank.${code[0]}.short`);
  const suit = code === "JK" ? "" : t(`card.suit.${code[1]}.symbol`);
  const cls = ["card"];
  if (code === "JK") cls.push("joker");
  else { cls.push(`s-${code[1]}`); if (code[1] === "H" || code[1] === "D") cls.push("red"); }
  if (opts.wild) cls.push("wild");
  if (opts.extra) cls.push(opts.extra);
  let label = cardName(code);
  if (opts.wild) label = opts.stands ? t("card.wild-as", { card: label, stands: opts.stands.label }) : t("card.wild", { card: label });
  /** @type {Record<string, any>} */
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

/** A face-down stack of n cards. @param {number} n */
export function backs(n) {
  return el("span", { class: "backs", "aria-label": tn("cards.count", n) }, el("span", { class: "back", "aria-hidden": "true" }), `×${n}`);
}

/** @param {any} m */
function meldMarks(m) {
  const marks = [m.clean ? t("meld.clean") : t("meld.dirty")];
  if (m.canastra) marks.push(t("term.canastra"));
  if (m.bonus_points) marks.push(m.bonus_points >= 500 ? `★${m.bonus_points}` : `+${m.bonus_points}`);
  if (m.staged) marks.push(t("meld.staged"));
  return marks;
}

/**
 * A meld; a button when a card may be added to it by clicking. `fresh`: melded in the
 * latest turn; `freshCard`: the card added to it in the latest turn.
 * @param {any} m
 * @param {{fits?: boolean, onclick?: (() => void) | null, fresh?: boolean, freshCard?: string | null}} [opts]
 */
export function meldNode(m, opts = {}) {
  const stands = wildStands(m);
  const marks = meldMarks(m);
  const cards = m.cards.map((/** @type {string} */ c, /** @type {number} */ i) => (i === m.wild
    ? (stands ? t("card.wild-as", { card: cardName(c), stands: stands.label }) : t("card.wild", { card: cardName(c) }))
    : cardName(c))).join(", ");
  const label = t("meld.label", { number: m.number, cards, marks: marks.join(", ") });
  const cls = ["meld", m.clean ? "clean" : "dirty"];
  if (m.canastra) cls.push("canastra");
  if (m.bonus_points >= 500) cls.push("big");
  if (opts.fits) cls.push("fits");
  if (opts.fresh) cls.push("fresh");
  const added = opts.freshCard ? m.cards.lastIndexOf(opts.freshCard) : -1;
  const inner = [el("span", { class: "mark", "aria-hidden": "true" }, `#${m.number} ${marks.join(" ")}`),
    el("span", { class: "cards" }, m.cards.map((/** @type {string} */ c, /** @type {number} */ i) => cardNode(c, { wild: i === m.wild, stands: i === m.wild ? stands : null, extra: i === added ? "fresh" : null })))];
  if (opts.onclick) {
    return el("button", { type: "button", class: cls.join(" "), "data-key": `meld-${m.number}`, "data-meld": m.number,
      "aria-label": opts.fits ? t("meld.add-to", { meld: label }) : t("meld.try-add-to", { meld: label }), onclick: opts.onclick }, inner);
  }
  return el("div", { class: cls.join(" "), role: "group", "data-meld": m.number, "aria-label": label }, inner);
}

/** The names of a side's players ("Ana & Bia"). @param {any} v a view @param {number} i */
export function sideName(v, i) { return v.sides[i].map((/** @type {number} */ s) => v.names[s]).join(" & "); }

const SCORE_ROWS = ["melds", "bonuses", "hand", "pot", "going_out", "cut", "rounding", "total"];

/** Whether each side is one player (2 players, or 3 in Burraco): no partner to speak of. @param {any} v */
export function alone(v) { return v.sides.every((/** @type {number[]} */ s) => s.length === 1); }

/** A hand's scores per side. @param {any} v @param {any[]} scores */
export function scoresTable(v, scores) {
  return el("table", { class: "scores" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, el("span", { class: "sr-only" }, t("score.what"))), scores.map((_, i) => el("th", { scope: "col" }, sideName(v, i))))),
    el("tbody", {}, SCORE_ROWS.map((key) => el("tr", { class: key === "total" ? "total" : null }, el("th", { scope: "row" }, t(`score.${key}`)), scores.map((s) => el("td", {}, `${s[key] ?? 0}`))))));
}
