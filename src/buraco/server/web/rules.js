// The rules of the table, in the page's language, from the options in force (overrides
// included), as the terminal game's help screen gives them in English.
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** A list of ranks ("AJQK") in words of the page. @param {string} ranks */
function rankList(ranks) {
  if (ranks.length >= 13) return t("rules.any-rank");
  return [...ranks].map((r) => t(`card.rank.${r}.short`)).join(" ");
}

/**
 * The rules as short sentences.
 * @param {Record<string, any>} o the rules' options (a view's `options`)
 * @returns {string[]}
 */
export function rulesLines(o) {
  const lines = [];
  const players = o.players;
  if (o.sides < players) lines.push(t("rules.teams", { teams: o.sides, size: players / o.sides }));
  else lines.push(t("rules.alone", { n: o.sides }));
  lines.push(t(o.jokers_per_deck ? "rules.pack-jokers" : "rules.pack", { decks: o.decks, jokers: o.decks * o.jokers_per_deck }));
  lines.push(t("rules.points", { joker: o.joker_value, two: o.two_value, ace: o.ace_value, high: o.high_value, low: o.low_value }));
  lines.push(t(o.upcard ? "rules.deal-upcard" : "rules.deal", { n: o.hand_size, pots: o.pot_sizes.join(", ") }));
  lines.push(t("rules.turn"));
  if (o.pile_top_meld) lines.push(t("rules.pile-top-meld"));
  else if (o.keep_taken_top) lines.push(t("rules.keep-taken-top"));
  if (o.first_card_choice) lines.push(t("rules.first-card"));
  lines.push(t(o.pile_open ? "rules.pile-open" : "rules.pile-closed"));
  lines.push(t(`rules.runs.${o.aces}`));
  if (o.set_ranks) lines.push(t(o.one_set_per_rank ? "rules.sets-one" : "rules.sets", { ranks: rankList(o.set_ranks) }));
  else lines.push(t("rules.no-sets"));
  if (o.wild_moves) lines.push(t("rules.wild-moves"));
  lines.push(t("rules.canastra", { clean: o.clean_bonus, dirty: o.dirty_bonus }));
  if (o.opening_minimum) lines.push(t("rules.opening", { n: o.opening_minimum }));
  if (o.vulnerable_minimum) lines.push(t("rules.vulnerable", { n: o.vulnerable_minimum, at: o.vulnerable_at }));
  if (o.failed_opening_penalty) lines.push(t("rules.failed-opening", { n: o.failed_opening_penalty }));
  lines.push(t(o.go_out_canastra === "clean" ? "rules.go-out-clean" : "rules.go-out", { bonus: o.going_out_bonus }));
  if (o.go_out_discard === "required") lines.push(t("rules.go-out-discard"));
  if (!o.go_out_wild_discard) lines.push(t("rules.go-out-no-wild"));
  if (!o.go_out_first_turn) lines.push(t("rules.go-out-not-first"));
  lines.push(t("rules.pot", { n: o.pot_penalty }));
  lines.push(t("rules.end"));
  lines.push(o.match_hands ? t("rules.match-hands", { n: o.match_hands }) : t("rules.match-target", { n: o.target }));
  return lines;
}

/** The rules panel of a table (folded until opened). @param {Record<string, any>} options @param {string} preset */
export function rulesPanel(options, preset) {
  return el("details", { class: "rules", id: "rules" },
    el("summary", {}, t("rules.title", { preset })),
    el("ul", {}, rulesLines(options).map((line) => el("li", {}, line))));
}
