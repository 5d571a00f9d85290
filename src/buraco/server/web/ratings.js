// Ratings (docs/online.md#ratings): the leaderboard of a preset and player count, a player's
// profile with their rating's history as a chart, their games and head-to-head.
import { api } from "./api.js";
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { gamesTable } from "./lobby.js";
import { app, main } from "./state.js";

/** A player's rating beside their name (nothing without one). @param {number | null | undefined} rating */
export function ratingBadge(rating) {
  if (rating === null || rating === undefined) return null;
  return el("span", { class: "rating", title: t("ratings.rating") }, ` (${rating})`);
}

/** The board's choices: every preset with each of its player counts. */
function boards() {
  /** @type {{preset: string, players: number}[]} */
  const out = [];
  for (const p of (app.presets && app.presets.presets) || []) {
    for (const n of p.players) out.push({ preset: p.name, players: n });
  }
  return out;
}

/** The leaderboard page. @param {string} preset @param {number} players */
export async function showBoard(preset, players) {
  main.replaceChildren(el("h1", {}, t("ratings.title")));
  try {
    if (!app.presets) app.presets = await api("GET", "/api/presets");
    const data = await api("GET", `/api/ratings?preset=${encodeURIComponent(preset)}&players=${players}`);
    const choose = /** @type {HTMLSelectElement} */ (el("select", { id: "board-choice", "aria-label": t("ratings.which") },
      boards().map((b) => el("option", { value: `${b.preset}/${b.players}`, selected: b.preset === preset && b.players === players },
        t("ratings.board", { preset: t(`preset.${b.preset}`), n: b.players })))));
    choose.addEventListener("change", () => {
      const [p, n] = choose.value.split("/");
      location.hash = `#/ratings?preset=${p}&players=${n}`;
    });
    main.append(el("p", {}, choose), el("p", { class: "muted" }, t("ratings.model")));
    if (data.you) main.append(el("p", { id: "your-place" }, t("ratings.your-place", { place: data.you.place, total: data.total, rating: data.you.rating })));
    if (!data.rows.length) { main.append(el("p", { class: "muted", id: "board-empty" }, t("ratings.none"))); return; }
    const heads = [t("ratings.col.place"), t("ratings.col.player"), t("ratings.col.rating"), t("ratings.col.games")];
    main.append(el("table", { class: "list", id: "board" },
      el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, data.rows.map((/** @type {any} */ r) => el("tr", { class: data.you && r.id === data.you.id ? "me" : "" },
        el("td", {}, `${r.place}`),
        el("td", {}, el("a", { href: `#/player/${encodeURIComponent(r.id)}` }, r.name)),
        el("td", {}, `${r.rating}`, r.provisional ? el("span", { class: "muted" }, ` ${t("ratings.provisional")}`) : null),
        el("td", {}, `${r.games}`))))));
  } catch (x) { main.append(el("p", { role: "alert" }, /** @type {Error} */ (x).message)); }
}

/** A player's page. @param {string} id */
export async function showProfile(id) {
  main.replaceChildren();
  try {
    const p = await api("GET", `/api/players/${encodeURIComponent(id)}`);
    main.append(el("h1", {}, p.name));
    const ratings = p.ratings.map((/** @type {any} */ r) => el("li", {},
      t("ratings.board", { preset: t(`preset.${r.preset}`), n: r.players }), ": ", el("strong", {}, `${r.rating}`),
      " ", tn("ratings.games", r.games), r.provisional ? ` ${t("ratings.provisional")}` : ""));
    main.append(el("section", { class: "panel", "aria-labelledby": "p-ratings" }, el("h2", { id: "p-ratings" }, t("ratings.title")),
      ratings.length ? el("ul", { id: "profile-ratings" }, ratings) : el("p", { class: "muted" }, t("ratings.none-yet"))));
    if (p.history.length) {
      main.append(el("section", { class: "panel", "aria-labelledby": "p-history" }, el("h2", { id: "p-history" }, t("ratings.history")),
        chart(p.history)));
    }
    if (p.opponents.length) {
      const heads = [t("ratings.col.player"), t("ratings.col.games"), t("ratings.col.won"), t("ratings.col.lost")];
      main.append(el("section", { class: "panel", "aria-labelledby": "p-h2h" }, el("h2", { id: "p-h2h" }, t("ratings.head-to-head")),
        el("table", { class: "list" }, el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", {}, p.opponents.map((/** @type {any} */ o) => el("tr", {},
            el("td", {}, el("a", { href: `#/player/${encodeURIComponent(o.id)}` }, o.name)),
            el("td", {}, `${o.games}`), el("td", {}, `${o.won}`), el("td", {}, `${o.lost}`)))))));
    }
    main.append(el("section", { class: "panel", "aria-labelledby": "p-games" }, el("h2", { id: "p-games" }, t("lobby.finished")), gamesTable(p.games)));
  } catch (x) { main.append(el("p", { role: "alert" }, /** @type {Error} */ (x).message)); }
}

/**
 * The rating after each rated game as a line (an SVG chart), with a table of the same
 * figures for screen readers.
 * @param {{game: number, rating: number, change: number, preset: string, players: number}[]} history
 */
function chart(history) {
  const w = 600, h = 160, pad = 24;
  const values = history.map((x) => x.rating);
  const low = Math.min(0, ...values), top = Math.max(0, ...values);
  const high = top === low ? low + 1 : top;
  const x = (/** @type {number} */ i) => pad + (history.length > 1 ? (i * (w - 2 * pad)) / (history.length - 1) : (w - 2 * pad) / 2);
  const y = (/** @type {number} */ v) => h - pad - ((v - low) * (h - 2 * pad)) / (high - low || 1);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("ratings.chart", { n: history.length, last: values[values.length - 1] }));
  // the scale: a line at 0 (where everyone starts), the lowest and highest ratings written
  const zero = document.createElementNS(ns, "line");
  zero.setAttribute("x1", `${pad}`); zero.setAttribute("x2", `${w - pad}`);
  zero.setAttribute("y1", `${y(0)}`); zero.setAttribute("y2", `${y(0)}`);
  zero.setAttribute("stroke", "currentColor"); zero.setAttribute("stroke-dasharray", "4 4"); zero.setAttribute("opacity", "0.5");
  svg.append(zero);
  for (const v of new Set([low, 0, top])) {
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", "2"); label.setAttribute("y", `${y(v) + 4}`); label.setAttribute("font-size", "11");
    label.setAttribute("fill", "currentColor");
    label.textContent = `${v}`;
    svg.append(label);
  }
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i)},${y(v)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  values.forEach((v, i) => {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", `${x(i)}`); dot.setAttribute("cy", `${y(v)}`); dot.setAttribute("r", "3");
    svg.append(dot);
  });
  const rows = history.map((e) => el("tr", {}, el("td", {}, el("a", { href: `#/game/${e.game}` }, `#${e.game}`)),
    el("td", {}, `${e.rating}`), el("td", {}, `${e.change > 0 ? "+" : ""}${e.change}`)));
  const figures = el("details", {}, el("summary", {}, t("ratings.figures")),
    el("table", { class: "list" }, el("thead", {}, el("tr", {}, [t("ratings.col.game"), t("ratings.col.rating"), t("ratings.col.change")].map((c) => el("th", { scope: "col" }, c)))),
      el("tbody", {}, rows)));
  return el("div", { id: "rating-chart" }, svg, figures);
}
