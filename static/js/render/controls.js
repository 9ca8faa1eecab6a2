// Your turn's buttons under the hand: 出牌 / 提示 / 过 / 让, then 托管, sort and clear.
// When nothing in the hand beats the top set the bar says so and offers 要不起 (pass)
// in place of 过; 出牌 and 提示 stay, disabled, so the bar never jumps.

import { $, el, replaceIfChanged, setText } from "../dom.js";
import { cannotBeat, may, mySeat, myTurn, running, view } from "../store.js";

export function renderControls(ctx, handlers) {
  const { store, ui, T } = ctx;
  const v = view(store);
  const nodes = [];
  const seated = mySeat(store) !== null;
  const busy = ctx.busy();
  const reason = busy ? ctx.busyReason() : null;
  const button = (label, action, onclick, extra = {}) => el("button", {
    type: "button", class: extra.class || "", disabled: extra.disabled || false,
    title: extra.disabled && reason ? reason : null,
    dataset: { action }, onclick, text: label, "aria-keyshortcuts": extra.keys });
  const seat = seated ? store.seats[mySeat(store)] : null;
  const stuck = cannotBeat(store);
  if (v && running(store) && seat && !seat.trustee && v.phase === "playing" && myTurn(store)) {
    const leading = !v.table.top;
    if (may(store, "play") || leading || stuck) {
      nodes.push(button(T.play, "play", handlers.play, { class: stuck ? "" : "primary", disabled: busy || stuck || !ui.selected.size, keys: "Enter" }));
      nodes.push(button(T.hint, "hint", handlers.hint, { disabled: stuck, keys: "H" }));
    }
    if (may(store, "pass")) {
      nodes.push(button(stuck ? T.cannotBeat : T.pass, "pass", () => ctx.act({ type: "pass" }),
        { class: stuck ? "primary big" : "", disabled: busy, keys: "P" }));
    }
    if (may(store, "yield")) nodes.push(button(T.yield, "yield", () => ctx.act({ type: "yield" }), { disabled: busy }));
  }
  if (v && v.hand && v.hand.length) {
    nodes.push(button(ui.sort === "count" ? T.sortRank : T.sortCount, "sort", handlers.sort, { class: "quiet" }));
    nodes.push(button(T.clear, "clear", handlers.clear, { class: "quiet", disabled: !ui.selected.size }));
  }
  if (v && running(store) && seat && !seat.trustee) {
    nodes.push(button(T.trusteeOn, "trustee", () => ctx.send({ type: "trustee", on: true }), { class: "quiet", disabled: !ctx.online() }));
  }
  const root = $("table");
  root.dataset.cannotBeat = stuck ? "1" : "0";
  const signature = nodes.map((node) => `${node.dataset.action}|${node.textContent}|${node.disabled}|${node.className}`).join(";");
  const controls = $("controls");
  const focused = document.activeElement && controls.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  if (replaceIfChanged(controls, signature, () => nodes) && focused) controls.querySelector(`[data-action="${focused}"]`)?.focus();
  setText($("turn-note"), stuck ? T.noBeat : "");
}
