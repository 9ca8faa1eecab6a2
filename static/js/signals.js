// Telling you it is your turn when you are not looking: the tab's title, a short chime made
// with Web Audio (off with the mute toggle, remembered in this browser), a buzz on phones
// that allow it, and a tick each second of the last five. While a hand runs the screen is
// kept awake where the browser offers the Wake Lock API.

const MUTE_KEY = "bh-mute";
let audio = null;
let wasMyTurn = false;
let lastTick = null;
let wakeLock = null;
let wantAwake = false;

export const muted = () => localStorage.getItem(MUTE_KEY) === "1";

function tone(frequency, seconds, volume = 0.08) {
  if (muted()) return;
  try {
    audio = audio || new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + seconds);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + seconds);
  } catch {
    // No audio here (or not yet allowed by a gesture): the title and the ring still tell.
  }
}

/** Call on every render: reacts to the change from "not my turn" to "my turn". */
export function turnSignals({ mine, title, turnTitle }) {
  document.title = mine ? `${turnTitle} · ${title}` : title;
  document.documentElement.dataset.turnSignal = mine ? "1" : "0";
  if (mine && !wasMyTurn) {
    tone(880, 0.18);
    setTimeout(() => tone(1320, 0.22), 160);
    if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(120);
  }
  if (!mine) lastTick = null;
  wasMyTurn = mine;
}

/** Called by the timer: one tick per second in the last 5 s of your own decision. */
export function lastSeconds(mine, msLeft) {
  if (!mine || msLeft === null || msLeft > 5000 || msLeft <= 0) return;
  const second = Math.ceil(msLeft / 1000);
  if (second !== lastTick) {
    lastTick = second;
    tone(660, 0.05, 0.05);
  }
}

async function lock() {
  if (!wantAwake || wakeLock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    wakeLock.addEventListener("release", () => { wakeLock = null; });
  } catch {
    wakeLock = null; // refused (battery saver, no gesture yet): the screen may sleep
  }
}

/** Keep the screen on while `on` (a hand runs); let it sleep otherwise. */
export function keepAwake(on) {
  wantAwake = on;
  if (on) lock();
  else if (wakeLock) wakeLock.release().catch(() => {});
}

document.addEventListener("visibilitychange", () => lock());
