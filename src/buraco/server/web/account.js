// Accounts (docs/online.md#accounts): sign in, register, keep a guest's name with a password,
// sign out here or everywhere, change the password, download or delete what is stored.
import { api } from "./api.js";
import { el, toast } from "./dom.js";
import { t } from "./i18n.js";
import { app } from "./state.js";

/**
 * The lobby's account panel, as this browser's player stands: nobody yet, a guest, or an
 * account. `onChange` redraws the lobby after a change of who this browser is.
 * @param {() => void} onChange
 */
export function accountPanel(onChange) {
  const me = app.me;
  const box = el("section", { class: "panel account", id: "account", "aria-labelledby": "account-h" },
    el("h2", { id: "account-h" }, t("account.title")));
  if (me && me.account) {
    box.append(
      el("p", { id: "account-state" }, t("account.signed-in", { name: me.name })),
      el("div", { class: "row" },
        button("signout", t("account.sign-out"), () => post("/api/account/signout", {}, onChange, true)),
        button("signout-all", t("account.sign-out-all"), () => post("/api/account/signout-all", {}, onChange, true)),
        el("a", { class: "button", id: "export", href: "/api/account/export", download: "buraco-account.json" }, t("account.export"))),
      passwordForm(),
      deleteForm(onChange));
    return box;
  }
  if (me) {
    box.append(el("p", { class: "muted" }, t("account.keep-note", { name: me.name })),
      form("claim", t("account.keep"), false, (values) => post("/api/account/claim", { password: values.password }, onChange)));
  }
  box.append(el("h3", {}, t("account.have-one")),
    form("signin", t("account.sign-in"), true, (values) => post("/api/account/signin", values, onChange)));
  if (!me) {
    box.append(el("h3", {}, t("account.new")),
      form("register", t("account.register"), true, (values) => post("/api/account/register", values, onChange)));
  }
  return box;
}

/** @param {string} id @param {string} label @param {() => void} onclick */
function button(id, label, onclick) {
  return el("button", { type: "button", id, onclick }, label);
}

/**
 * POST a change of account; on success this browser's player is asked again and the lobby redrawn.
 * @param {string} path @param {Record<string, string>} body @param {() => void} onChange @param {boolean} [signedOut]
 */
async function post(path, body, onChange, signedOut = false) {
  try {
    const got = await api("POST", path, body);
    app.me = signedOut ? null : got && got.id ? got : app.me;
    onChange();
  } catch (x) { toast(/** @type {Error} */ (x).message); }
}

/**
 * A form of a name (when `withName`) and a password.
 * @param {string} id @param {string} submit @param {boolean} withName
 * @param {(values: {name: string, password: string}) => Promise<void>} run
 */
function form(id, submit, withName, run) {
  const name = /** @type {HTMLInputElement} */ (el("input", { id: `${id}-name`, maxlength: 40, required: true, autocomplete: "username" }));
  const password = /** @type {HTMLInputElement} */ (el("input", { id: `${id}-password`, type: "password", minlength: 8, maxlength: 200, required: true,
    autocomplete: id === "signin" ? "current-password" : "new-password" }));
  return el("form", { class: "row", id: `${id}-form`, onsubmit: (/** @type {Event} */ e) => {
    e.preventDefault();
    run({ name: name.value, password: password.value });
  } },
  withName ? el("label", { for: `${id}-name` }, t("account.name")) : null, withName ? name : null,
  el("label", { for: `${id}-password` }, t("account.password")), password,
  el("button", { type: "submit", id: `${id}-submit` }, submit));
}

function passwordForm() {
  const now = /** @type {HTMLInputElement} */ (el("input", { id: "pw-now", type: "password", maxlength: 200, required: true, autocomplete: "current-password" }));
  const next = /** @type {HTMLInputElement} */ (el("input", { id: "pw-new", type: "password", minlength: 8, maxlength: 200, required: true, autocomplete: "new-password" }));
  return el("form", { class: "row", id: "password-form", onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      await api("POST", "/api/account/password", { password: now.value, new_password: next.value });
      now.value = next.value = "";
      toast(t("account.password-changed"));
    } catch (x) { toast(/** @type {Error} */ (x).message); }
  } },
  el("label", { for: "pw-now" }, t("account.password-now")), now,
  el("label", { for: "pw-new" }, t("account.password-new")), next,
  el("button", { type: "submit", id: "password-submit" }, t("account.change-password")));
}

/** Deleting the account: the password confirms it. @param {() => void} onChange */
function deleteForm(onChange) {
  const password = /** @type {HTMLInputElement} */ (el("input", { id: "delete-password", type: "password", maxlength: 200, required: true, autocomplete: "current-password" }));
  return el("details", { class: "danger" }, el("summary", {}, t("account.delete")),
    el("p", {}, t("account.delete-note")),
    el("form", { class: "row", id: "delete-form", onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      post("/api/account/delete", { password: password.value }, onChange, true);
    } },
    el("label", { for: "delete-password" }, t("account.password")), password,
    el("button", { type: "submit", class: "danger", id: "delete-submit" }, t("account.delete-yes"))));
}
