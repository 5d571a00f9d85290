// Building the page: elements from tags, attributes and children. Every string is put in
// the page as text (textContent), never as HTML.

/**
 * An element with attributes (`class`, `text`, `on<event>` handlers, the rest as attributes)
 * and children (nodes, or strings as text).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** A short message at the foot of the page, for five seconds. @param {string} message */
export function toast(message) {
  const t = /** @type {HTMLElement} */ (document.getElementById("toast"));
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}
/** @type {number | undefined} */
toast.timer = undefined;
