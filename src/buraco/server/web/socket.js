// The open table's socket as the table's controls use it: send a frame, ask for a new
// connection. connection.js owns the socket and says how to renew it; this module sits
// below both it and table.js, so that neither imports the other.
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { app } from "./state.js";

/** @type {() => void} */
let renew = () => {};

/** Send a frame; false (and a notice) when not connected. @param {any} msg */
export function send(msg) {
  const tb = app.table;
  if (tb && tb.ws && tb.ws.readyState === WebSocket.OPEN) { tb.ws.send(JSON.stringify(msg)); return true; }
  toast(t("conn.not-connected"));
  return false;
}

/** A new connection (e.g. once the page has a guest name, so that the server knows who it is). */
export function reconnect() { renew(); }

/** How a new connection is opened (connection.js says, once). @param {() => void} how */
export function renewWith(how) { renew = how; }
