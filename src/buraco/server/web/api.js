// The REST API (docs/protocol.md): JSON in and out; a refusal becomes an Error whose message
// is worded from the catalogs where its code has a wording.
import { errorWords } from "./i18n.js";

/**
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    /** @type {Error & {field?: string | null, status?: number}} */
    const err = new Error(errorText(data) || `${res.status} ${res.statusText}`);
    err.field = data && data.error ? data.error.field : null;
    if (!err.field && data && Array.isArray(data.detail) && data.detail[0]) {
      const loc = data.detail[0].loc || [];
      err.field = loc[1] === "options" ? loc[2] : loc[1];
    }
    err.status = res.status;
    throw err;
  }
  return data;
}

/** @param {any} data */
function errorText(data) {
  if (!data) return "";
  if (data.error) return errorWords(data.error);
  if (Array.isArray(data.detail)) return data.detail.map((/** @type {any} */ d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ");
  return String(data.detail || "");
}
