// What the pages share: who this browser is, the presets, the open table, the page's root.

export const app = {
  /** @type {{id: string, name: string, account?: boolean} | null} */
  me: null,
  /** @type {any} GET /api/presets */
  presets: null,
  /** @type {any} the table page's state, or null on another page */
  table: null,
  /** @type {number | undefined} */
  lobbyTimer: undefined,
  /** @type {((e: KeyboardEvent) => void) | null} */
  replayKeys: null,
};

export const main = /** @type {HTMLElement} */ (document.getElementById("main"));
