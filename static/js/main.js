// The live table, wired: the socket feeds the store (store.js), each panel draws itself
// from it (render/*.js). The page never decides the rules: buttons come from the view's
// `may` / `choices`, and refusals are worded from their codes (i18n.js).

import { $, setText } from "./dom.js";
import { Connection, newClientId } from "./connection.js";
import { apply, begin, createStore, mySeat, myTurn, msLeft, readyLeft, resend, running, view } from "./store.js";
import { keepAwake, lastSeconds, muted, turnSignals } from "./signals.js";
import { renderBanner } from "./render/banner.js";
import { renderCenter, tickReady } from "./render/center.js";
import { addChat, renderChat, showChat, wireChat } from "./render/chat.js";
import { renderControls } from "./render/controls.js";
import { confirmDialog } from "./render/dialog.js";
import { handResized, renderHand, selectCards, selectedCards, wireHand } from "./render/hand.js";
import { renderHistory } from "./render/history.js";
import { renderPrompt } from "./render/prompts.js";
import { renderRoomHands, wireRoomInfo } from "./render/room.js";
import { renderSeats, tickSeats } from "./render/seats.js";
import { renderSheet } from "./render/sheet.js";

const config = JSON.parse($("table-config").textContent);
const T = JSON.parse($("table-text").textContent);
const root = $("table");
const title = document.title;

const store = createStore(config.seat);
const ui = {
  sort: localStorage.getItem("bh-sort") || "rank",
  selected: new Set(), handKey: "", hintList: null, hintIndex: -1,
  picker: false, notice: "", sheetDismissed: null, joined: false,
};

const conn = new Connection(config.ws, {
  onStatus(status) {
    root.dataset.conn = status;
    $("conn").textContent = T.connection[status] || "";
    $("conn").title = T.connection[status] || "";
    $("conn").className = `conn ${status}`;
    render();
  },
  onOpen() {
    if (store.hand) conn.send({ type: "sync", hand: store.hand.id, version: store.hand.version });
    const again = resend(store); // same client_id: the server never applies it twice
    if (again) conn.send(again);
  },
  onMessage(message) {
    const result = apply(store, message);
    if (result.sync) conn.send(result.sync);
    if (message.type === "snapshot") {
      if (Array.isArray(message.chat)) showChat(message.chat, T); // absent: keep what is shown
      ui.hintList = null;
      maybeJoin();
    }
    if (message.type === "event" && "view" in message) ui.hintList = null; // the set to beat may have changed
    if (message.type === "error") {
      root.dataset.error = message.code;
      ui.notice = "error";
      if (message.code === "stale_version") ui.hintList = null;
    }
    if (message.type === "chat") addChat(message, T);
    if (result.render) renderSoon();
  },
});

const ctx = {
  store, ui, T, config,
  online: () => conn.open,
  // The line was up and is being opened again (not when the server closed it for good:
  // the room dissolved, no such room, spectators not allowed).
  reconnecting: () => Boolean(conn.everOpen) && !conn.open && conn.status !== "closed",
  busy: () => Boolean(store.pending) || !conn.open,
  busyReason: () => (!conn.open ? T.connectionLost : T.waitingAnswer),
  send(frame) { conn.send({ ...frame, client_id: newClientId(frame.type) }); },
  act(action) {
    ui.notice = "";
    root.dataset.error = "";
    const frame = begin(store, action, newClientId("a"));
    if (frame) conn.send(frame);
    render();
  },
  confirm: (message, yes) => confirmDialog(T, message, yes),
};

const handlers = {
  play() {
    const cards = selectedCards(store, ui);
    if (cards.length) ctx.act({ type: "play", cards: cards.join(" ") });
  },
  hint() {
    // The engine's suggestions for this seat now, in the order a player wants them.
    if (!ui.hintList) {
      ui.hintList = (view(store) && view(store).hints) || [];
      ui.hintIndex = -1;
    }
    if (!ui.hintList.length) { ui.notice = T.noHint; render(); return; }
    ui.hintIndex = (ui.hintIndex + 1) % ui.hintList.length;
    selectCards(store, ui, ui.hintList[ui.hintIndex]);
    render();
  },
  sort() {
    ui.sort = ui.sort === "count" ? "rank" : "count";
    localStorage.setItem("bh-sort", ui.sort);
    render();
  },
  clear() {
    ui.selected = new Set();
    render();
  },
};

// Frames come in bursts (a catch-up after a reconnect, bots and 托管 playing fast): the
// table is drawn once per animation frame, not once per frame received, or a phone would
// lay out the whole table a hundred times in a row. A page's own clicks draw at once. The
// timer is a floor for a page whose animation frames are paused (hidden, or starved).
let drawQueued = false;
function renderSoon() {
  if (drawQueued) return;
  drawQueued = true;
  const draw = () => { if (drawQueued) render(); };
  if (!document.hidden) requestAnimationFrame(draw);
  setTimeout(draw, 200);
}

function render() {
  drawQueued = false;
  const v = view(store);
  root.dataset.phase = v ? v.phase : "none";
  root.dataset.version = store.hand ? store.hand.version : "";
  root.dataset.hand = store.hand ? store.hand.id : "";
  root.dataset.running = running(store) ? "1" : "0";
  root.dataset.myTurn = myTurn(store) ? "1" : "0";
  root.dataset.role = store.you ? store.you.role : "";
  root.dataset.pending = store.pending ? store.pending.client_id : "";
  setText($("hand-no"), store.hand ? T.handNumber.replace("%(n)s", store.hand.number) : "");
  $("watching").hidden = !(store.you && store.you.role && store.you.role !== "player");
  renderSeats(ctx);
  renderCenter(ctx);
  renderPrompt(ctx);
  renderHand(ctx);
  renderControls(ctx, handlers);
  renderBanner(ctx);
  renderSheet(ctx);
  renderChat(ctx);
  renderHistory(ctx);
  renderRoomHands(ctx);
  $("leave-button").hidden = mySeat(store) === null || (store.room && store.room.status === "dissolved");
  const mine = myTurn(store);
  turnSignals({ mine, title, turnTitle: T.turnTitle });
  keepAwake(running(store) && mySeat(store) !== null);
}

function maybeJoin() {
  if (ui.joined || !new URLSearchParams(location.search).has("join")) return;
  ui.joined = true;
  if (store.you && store.you.role !== "player" && config.player && !running(store)) ctx.send({ type: "sit", seat: null });
  history.replaceState(null, "", location.pathname);
}

// -- the bar's toggles -------------------------------------------------------------------

$("scores-button").addEventListener("click", () => {
  ui.sheetDismissed = null;
  ui.sheetSignature = null;
  renderSheet(ctx);
});

$("leave-button").addEventListener("click", async () => {
  if (running(store) && !(await ctx.confirm(T.leaveMidHand, T.leave))) return;
  ctx.send({ type: "leave" });
});

function toggle(id, key, apply) {
  const button = $(id);
  const show = () => { const on = apply(); button.setAttribute("aria-pressed", on ? "true" : "false"); };
  button.addEventListener("click", () => { localStorage.setItem(key, localStorage.getItem(key) === "1" ? "0" : "1"); show(); });
  show();
}
toggle("mute-button", "bh-mute", () => muted());
toggle("colours-button", "bh-four-colours", () => {
  const on = localStorage.getItem("bh-four-colours") === "1";
  root.classList.toggle("four-colours", on);
  return on;
});

// Keys: ←/→ move between cards (Space/Enter on a card toggles it); H hint, P pass,
// Enter (with no button focused) plays the selection. Every key has a visible button too.
const SHORTCUTS = { h: "hint", p: "pass", Enter: "play" };
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select, dialog")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const action = SHORTCUTS[event.key];
  if (action && !(event.key === "Enter" && event.target.closest("button, a"))) {
    const button = $("controls").querySelector(`[data-action="${action}"]:not([disabled])`);
    if (button) {
      button.click();
      event.preventDefault();
    }
    return;
  }
  if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const cards = [...$("hand").querySelectorAll("button.card")];
    const at = cards.indexOf(document.activeElement);
    if (at < 0) return;
    cards[Math.max(0, Math.min(cards.length - 1, at + (event.key === "ArrowRight" ? 1 : -1)))].focus();
    event.preventDefault();
  }
});

wireHand(ctx, () => { renderControls(ctx, handlers); });
wireChat(ctx);
wireRoomInfo();
window.addEventListener("resize", () => { handResized(ctx); renderControls(ctx, handlers); });
setInterval(() => {
  tickSeats(store, T);
  tickReady(store, T);
  const readyOver = readyLeft(store) === 0; // late seats may be freed from now: show the buttons
  if (readyOver !== Boolean(ui.readyOver)) { ui.readyOver = readyOver; render(); }
  lastSeconds(myTurn(store), msLeft(store));
}, 250);
conn.connect();
window.bhTable = { store, conn, ui, render }; // for the browser tests and debugging
