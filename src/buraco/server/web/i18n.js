// Languages: every string a person reads comes from the server's catalogs (one gettext file
// per language, served as JSON by GET /api/i18n), never from this code. A text's {name} is a
// parameter; {@name} is a term of the game, worded as the language and the preset say it
// (term.pot is "morto" in aberto and "pozzetto" in italiano).

/** @type {Record<string, string>} */
let catalog = {};
let language = "en";
/** @type {{tag: string, name: string}[]} */
let languages = [];
/** The preset whose terms are used (the open table's), or null. @type {string | null} */
let preset = null;

/** The language in use, as a BCP 47 tag (en, pt-BR, es, it). */
export function currentLanguage() { return language; }
/** The languages offered, each with its name in itself. */
export function offeredLanguages() { return languages; }
/** Use the terms of this preset (null: the general ones). @param {string | null} name */
export function usePreset(name) { preset = name; }

/**
 * Load the catalog of a language (null: the one the browser asks for, or the one chosen
 * before on this device) and set the page's language.
 * @param {string | null} wanted
 */
export async function loadLanguage(wanted) {
  const q = wanted ? `?lang=${encodeURIComponent(wanted)}` : "";
  const res = await fetch(`/api/i18n${q}`, { credentials: "same-origin" });
  const data = await res.json();
  catalog = data.messages;
  language = data.language;
  languages = data.languages;
  document.documentElement.lang = language;
}

/** @param {string} key */
function lookup(key) {
  if (preset) {
    const own = catalog[`${key}@${preset}`];
    if (own !== undefined) return own;
  }
  return catalog[key];
}

/**
 * The text of a key with its parameters filled in; the key itself when the catalog lacks it
 * (a test keeps every catalog complete).
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const text = lookup(key);
  if (text === undefined) return key;
  return text.replace(/\{(@?)([\w]+)\}/g, (whole, at, name) => {
    if (at) return t(`term.${name}`);
    return name in params ? String(params[name]) : whole;
  });
}

/**
 * A text that depends on a count: the key's plural form for the language (key.one,
 * key.other, ...), with {n} the count.
 * @param {string} key
 * @param {number} n
 * @param {Record<string, any>} [params]
 */
export function tn(key, n, params = {}) {
  const form = new Intl.PluralRules(language).select(n);
  const k = lookup(`${key}.${form}`) !== undefined ? `${key}.${form}` : `${key}.other`;
  return t(k, { n, ...params });
}

/** A card's short text in this language: "10♦", "K♠", or the joker's name. @param {string} code */
export function cardText(code) {
  if (code === "JK") return t("card.joker");
  return t(`card.rank.${code[0]}.short`) + t(`card.suit.${code[1]}.symbol`);
}

/** A card's full name, for screen readers and titles ("10 of diamonds"). @param {string} code */
export function cardName(code) {
  if (code === "JK") return t("card.joker");
  return t("card.name", { rank: t(`card.rank.${code[0]}`), suit: t(`card.suit.${code[1]}`) });
}

/** An action of the notation in words ("add 1 JK low" → "joker on meld 1, at the low end"). @param {string} text */
export function actionWords(text) {
  const p = text.split(" ");
  switch (p[0]) {
    case "draw": return t("action.draw");
    case "take-pile": return t("action.take-pile");
    case "turn-up": return t("action.turn-up");
    case "discard": return t("action.discard", { card: cardText(p[1]) });
    case "meld": return t("action.meld", { cards: p.slice(1).map(cardText).join(" ") });
    case "add": return t(p[3] ? `action.add.${p[3]}` : "action.add", { meld: p[1], card: cardText(p[2]) });
    case "move": return t(`action.move.${p[2]}`, { meld: p[1] });
    default: return text;
  }
}

/**
 * A refusal of the engine (docs/notation.md#refusals-as-data) worded in this language.
 * @param {{code: string, params: Record<string, any>}} refusal
 */
export function refusalWords(refusal) {
  /** @type {Record<string, any>} */
  const shown = {};
  for (const [name, value] of Object.entries(refusal.params || {})) {
    if (name === "card" || name === "top") shown[name] = cardText(value);
    else if ((name === "cards" || name === "meld_cards") && Array.isArray(value)) shown[name] = value.map(cardText).join(" ");
    else if (name === "choices") shown[name] = value.map(actionWords).join(" · ");
    else if (name === "place" || name === "end") shown[name] = t(`end.${value}`);
    else if (name === "rank") shown[name] = t(`card.rank.${value}.short`);
    else if (name === "allowed") shown[name] = [...value].map((r) => t(`card.rank.${r}.short`)).join(" ");
    else if (name === "option") shown[name] = optionName(value);
    else if (name === "preset") shown[name] = presetName(value);
    else if (name === "presets") shown[name] = value.map(presetName).join(", ");
    else if (name === "values" && Array.isArray(value) && typeof refusal.params.option === "string") shown[name] = value.map((/** @type {any} */ v) => optionValue(refusal.params.option, v)).join(", ");
    else if (name === "value" && typeof value === "string" && typeof refusal.params.option === "string") shown[name] = optionValue(refusal.params.option, value);
    else if (name === "values" || name === "options") shown[name] = value.join(", ");
    else if (name === "counts") shown[name] = value.join(" / ");
    else shown[name] = value;
  }
  const key = `refusal.${refusal.code}`;
  return lookup(key) === undefined ? refusal.code : t(key, shown);
}

/** @param {string} name an option's identifier, shown as its label where the catalog has one */
function optionName(name) {
  return lookup(`option.${name}`) === undefined ? name : `“${t(`option.${name}`)}”`;
}

/**
 * An option's value in this language (a choice's words where the catalog has them).
 * @param {string} name the option's identifier
 * @param {any} value
 * @returns {string}
 */
export function optionValue(name, value) {
  const key = `option.${name}.value.${value}`;
  return lookup(key) === undefined ? `${value}` : t(key);
}

/** @param {string} preset */
function presetName(preset) {
  return lookup(`preset.${preset}`) === undefined ? preset : t(`preset.${preset}`);
}

/**
 * A server's refusal (an error frame or a REST error, docs/protocol.md) in this language:
 * the engine's refusal when there is one, else the wording of its key with its parameters,
 * else of its code, else the server's English message.
 * @param {{code: string, key?: string, params?: Record<string, any>, message: string, refusal?: {code: string, params: Record<string, any>}}} error
 */
export function errorWords(error) {
  if (error.refusal && error.refusal.code !== "notation") return refusalWords(error.refusal);
  /** @type {Record<string, any>} */
  const shown = {};
  for (const [name, value] of Object.entries(error.params || {})) {
    if (name === "seat") shown[name] = Number(value) + 1; // seats count from 1 on the page
    else shown[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  for (const key of [`error.${error.key}`, `error.${error.code}`]) {
    if (lookup(key) !== undefined) return t(key, shown);
  }
  return error.message;
}

/**
 * An entry of the hand's feed (docs/protocol.md, `feed`) in words: "Ana discarded 5♣".
 * @param {{seat: number, action: string | null, card: string | null, cards: string[], taken: number, note: string | null, params: Record<string, any>}} e
 * @param {string[]} names
 */
export function feedWords(e, names) {
  const name = names[e.seat];
  if (e.action === null) {
    const key = `feed.note.${e.note}`;
    return lookup(key) === undefined ? (e.note || "") : t(key, { name, ...e.params });
  }
  const p = e.action.split(" ");
  switch (p[0]) {
    case "draw": return e.card ? t("feed.draw-card", { name, card: cardText(e.card) }) : t("feed.draw", { name });
    case "take-pile": return tn("feed.take-pile", e.taken, { name });
    case "turn-up": return t("feed.turn-up", { name, card: cardText(String(e.params.card || "")) });
    case "discard": return t("feed.discard", { name, card: cardText(p[1]) });
    case "meld": return t("feed.meld", { name, cards: p.slice(1).map(cardText).join(" ") });
    case "add": return t("feed.add", { name, card: cardText(p[2]), meld: p[1] });
    case "move": return t("feed.move", { name, meld: p[1] });
    default: return `${name}: ${e.action}`;
  }
}
