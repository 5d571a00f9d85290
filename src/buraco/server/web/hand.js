// Your hand as you arrange it: sorted by suit or by rank, or in your own order by dragging a
// card (mouse) or by tapping it and then the card it goes before (touch), or with Shift and
// the arrow keys. The order is kept for the hand (in this tab, across a reload).

const SUIT_ORDER = "SHCD"; // black and red alternate
const RANK_ORDER = "3456789TJQKA2";

/** The hand's cards with a stable key each (the code and which copy). @param {string[]} hand */
export function handKeys(hand) {
  /** @type {Record<string, number>} */
  const seen = {};
  return hand.map((c) => { seen[c] = (seen[c] || 0) + 1; return `${c}#${seen[c]}`; });
}

/** @param {string} key */
export function codeOf(key) { return key.split("#")[0]; }

/** @param {string} code @param {string} how "suit" or "rank" */
function sortKey(code, how) {
  if (code === "JK") return [99, 99]; // jokers last
  const suit = SUIT_ORDER.indexOf(code[1]);
  const rank = RANK_ORDER.indexOf(code[0]);
  return how === "suit" ? [suit, rank] : [rank, suit];
}

/** @param {string[]} keys @param {string} how */
export function sortKeys(keys, how) {
  return [...keys].sort((a, b) => {
    const x = sortKey(codeOf(a), how);
    const y = sortKey(codeOf(b), how);
    return x[0] - y[0] || x[1] - y[1] || (a < b ? -1 : a > b ? 1 : 0);
  });
}

/**
 * The hand's keys in the order shown: the player's arrangement, cards new to the hand
 * placed by the sort in force (else at the end), cards gone dropped.
 * @param {{order: string[] | null, sort: string | null}} arrangement
 * @param {string[]} hand the hand as the server sends it
 */
export function arrange(arrangement, hand) {
  const keys = handKeys(hand);
  if (arrangement.sort) return sortKeys(keys, arrangement.sort);
  const kept = (arrangement.order || []).filter((k) => keys.includes(k));
  return kept.concat(keys.filter((k) => !kept.includes(k)));
}

/**
 * Move a card before another (or to the end with `before` null): a custom order.
 * @param {string[]} shown @param {string} key @param {string | null} before
 */
export function moveKey(shown, key, before) {
  const rest = shown.filter((k) => k !== key);
  const at = before === null ? rest.length : rest.indexOf(before);
  rest.splice(at < 0 ? rest.length : at, 0, key);
  return rest;
}

/** Where an arrangement is kept for a table's hand. @param {string} table @param {number} hand */
function storageKey(table, hand) { return `buraco-hand:${table}:${hand}`; }

/** The arrangement kept for a table's hand (none: the server's order). @param {string} table @param {number} hand */
export function loadArrangement(table, hand) {
  try {
    const raw = sessionStorage.getItem(storageKey(table, hand));
    const got = raw ? JSON.parse(raw) : null;
    if (got && (got.sort === null || got.sort === "suit" || got.sort === "rank") && (got.order === null || Array.isArray(got.order))) return got;
  } catch { /* a broken entry: start again */ }
  return { order: null, sort: null };
}

/** @param {string} table @param {number} hand @param {{order: string[] | null, sort: string | null}} arrangement */
export function saveArrangement(table, hand, arrangement) {
  try { sessionStorage.setItem(storageKey(table, hand), JSON.stringify(arrangement)); } catch { /* storage full or off */ }
}
