// The buraco web client: lobby, table and replays, in modules by concern. It talks to the
// server only through the documented REST API and WebSocket protocol (docs/protocol.md).
// Every user-supplied string is put in the page as text (textContent), never as HTML; every
// string a person reads comes from the catalogs (i18n.js). No inline styles: the page is
// served with a strict Content-Security-Policy.
import { isOn, setOn } from "./alerts.js";
import { closeTable, showTable } from "./connection.js";
import { el } from "./dom.js";
import { currentLanguage, loadLanguage, offeredLanguages, t } from "./i18n.js";
import { loadMe, renderMe, showLobby } from "./lobby.js";
import { showBoard, showProfile } from "./ratings.js";
import { showReplay } from "./replay.js";
import { app } from "./state.js";
import { refit, render } from "./table.js";
import { showTournament, showTournaments } from "./tournaments.js";

/** @type {string | null} the game page last shown, to tell a replay's own steps from a new page */
let lastGame = null;

function route() {
  clearInterval(app.lobbyTimer);
  app.replayKeys = null;
  closeTable();
  document.title = t("title.page");
  const hash = location.hash || "#/";
  const [path, query] = hash.slice(1).split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "table" && parts[1]) return showTable(decodeURIComponent(parts[1]), params.get("invite"));
  if (parts[0] === "game" && parts[1]) return showReplay(parts[1], params);
  if (parts[0] === "ratings") return showBoard(params.get("preset") || "aberto", Number(params.get("players") || 4));
  if (parts[0] === "player" && parts[1]) return showProfile(decodeURIComponent(parts[1]));
  if (parts[0] === "tournaments") return showTournaments();
  if (parts[0] === "tournament" && parts[1]) return showTournament(decodeURIComponent(parts[1]), params.get("secret"));
  return showLobby(params.get("games") || "mine");
}

/** The header's words, its language menu and four-colour switch, in the page's language. */
function renderHeader() {
  const choose = /** @type {HTMLSelectElement} */ (el("select", { id: "language", "aria-label": t("header.language") },
    offeredLanguages().map((l) => el("option", { value: l.tag, selected: l.tag === currentLanguage() }, l.name))));
  choose.addEventListener("change", async () => {
    // a cookie, so that the server too greets this browser in its language
    document.cookie = `lang=${encodeURIComponent(choose.value)}; path=/; max-age=31536000; samesite=lax`;
    await loadLanguage(choose.value);
    renderHeader();
    renderMe();
    // the open page again in the new language (a table keeps its connection)
    if (app.table) render(); else route();
  });
  const four = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "four-colour", checked: localStorage.getItem("four-colour") === "1" }));
  document.body.classList.toggle("four", four.checked);
  four.addEventListener("change", () => { localStorage.setItem("four-colour", four.checked ? "1" : "0"); document.body.classList.toggle("four", four.checked); });
  /** @param {string} name @param {string} label */
  const alertSwitch = (name, label) => {
    const box = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: `alert-${name}`, checked: isOn(name) }));
    box.addEventListener("change", async () => { await setOn(name, box.checked); box.checked = isOn(name); });
    return el("label", { class: "opt" }, box, ` ${label}`);
  };
  // on a small screen the options fold into a menu, opened by its button
  const menu = /** @type {HTMLButtonElement} */ (document.getElementById("menu"));
  menu.textContent = t("header.menu");
  menu.onclick = () => {
    const open = menu.getAttribute("aria-expanded") !== "true";
    menu.setAttribute("aria-expanded", open ? "true" : "false");
    document.body.classList.toggle("menu-open", open);
  };
  /** @type {HTMLElement} */ (document.getElementById("options")).replaceChildren(
    el("a", { href: "#/ratings", id: "ratings-link" }, t("header.ratings")),
    el("a", { href: "#/tournaments", id: "tournaments-link" }, t("header.tournaments")),
    el("label", { class: "opt" }, four, ` ${t("header.four-colour")}`),
    alertSwitch("sound", t("header.sound")), alertSwitch("notify", t("header.notify")), choose);
}

window.addEventListener("resize", refit);
window.addEventListener("hashchange", () => {
  // a new page closes the header's menu
  document.body.classList.remove("menu-open");
  document.getElementById("menu")?.setAttribute("aria-expanded", "false");
  // the replay page rewrites its own address as it steps; that is not a new page
  const game = location.hash.startsWith("#/game/") ? location.hash.split("?")[0] : null;
  if (game && app.replayKeys && lastGame === game) return;
  lastGame = game;
  route();
});
lastGame = location.hash.startsWith("#/game/") ? location.hash.split("?")[0] : null;

await loadLanguage(null);
renderHeader();
await loadMe();
route();
