// Telling you it is your turn: a short sound and a browser notification, each off until you
// switch it on (the choice is kept in this browser).
import { t } from "./i18n.js";

const SOUND = "sound";
const NOTIFY = "notify";

/** Whether an alert is switched on. @param {string} name "sound" or "notify" */
export function isOn(name) { return localStorage.getItem(`alert-${name}`) === "1"; }

/** Switch an alert on or off (asking the browser's permission for notifications). @param {string} name @param {boolean} on */
export async function setOn(name, on) {
  if (on && name === NOTIFY && "Notification" in window && Notification.permission === "default") {
    await Notification.requestPermission();
  }
  localStorage.setItem(`alert-${name}`, on ? "1" : "0");
}

/** @type {AudioContext | null} */
let audio = null;

function beep() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch { /* no sound on this device */ }
}

/** It has just become your turn: the alerts that are on. @param {string} where the table, in words */
export function yourTurn(where) {
  if (isOn(SOUND)) {
    beep();
    // how many turns were announced, for whoever checks the page
    document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  }
  if (isOn(NOTIFY) && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification(t("alert.your-turn"), { body: where, tag: "buraco-turn" }); } catch { /* not allowed here */ }
  }
}
