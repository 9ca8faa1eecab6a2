// Your turn's buttons under the hand: 出牌 / 提示 / 过 / 让, then 托管, sort and clear.
// When nothing in the hand beats the top set the bar says so and offers 要不起 (pass)
// in place of 过; 出牌 and 提示 stay, disabled, so the bar never jumps.
//
// The bar is one line on every phone. Where its words wrap it (English on a phone
// upright: "Can't beat it", "By count", "Auto-play"), it takes shorter ones, whose full
// words stay the buttons' names for screen readers; on the narrowest phones, if even those
// wrap, a bar that cannot beat the set leaves out its disabled 出牌 and 提示.

import { $, el, replaceIfChanged, setText } from "../dom.js";
import { cannotBeat, may, mySeat, myTurn, running, view } from "../store.js";

const LONG = 0, SHORT = 1, FEWEST = 2; // the bar's forms, tried in this order
const fitted = { key: null, form: LONG }; // the form that fitted the last bar, at the bar's width then

export function renderControls(ctx, handlers) {
  const controls = $("controls");
  const long = buttons(ctx, handlers, LONG);
  const key = `${signature(long)}@${controls.clientWidth}`;
  const focused = document.activeElement && controls.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  const show = (form) => {
    const nodes = form === LONG ? long : buttons(ctx, handlers, form);
    if (replaceIfChanged(controls, signature(nodes), () => nodes) && focused) {
      controls.querySelector(`[data-action="${focused}"]`)?.focus();
    }
  };
  let form = fitted.key === key ? fitted.form : LONG;
  show(form);
  if (fitted.key !== key) { // a new bar, or a new width: measured once
    while (form < FEWEST && wraps(controls)) show(++form);
    Object.assign(fitted, { key, form });
  }
  const stuck = cannotBeat(ctx.store);
  $("table").dataset.cannotBeat = stuck ? "1" : "0";
  setText($("turn-note"), stuck ? ctx.T.noBeat : "");
}

function buttons(ctx, handlers, form) {
  const { store, ui, T } = ctx;
  const v = view(store);
  const nodes = [];
  const seated = mySeat(store) !== null;
  const busy = ctx.busy();
  const reason = busy ? ctx.busyReason() : null;
  // `label` and, in a shorter form of the bar, `short` (the label then names the button)
  const button = (label, action, onclick, extra = {}) => {
    const shown = form >= SHORT && extra.short && extra.short !== label ? extra.short : label;
    return el("button", {
      type: "button", class: extra.class || "", disabled: extra.disabled || false,
      title: extra.disabled && reason ? reason : shown === label ? null : label,
      "aria-label": shown === label ? null : label,
      dataset: { action }, onclick, text: shown, "aria-keyshortcuts": extra.keys });
  };
  const seat = seated ? store.seats[mySeat(store)] : null;
  const stuck = cannotBeat(store);
  if (v && running(store) && seat && !seat.trustee && v.phase === "playing" && myTurn(store)) {
    const leading = !v.table.top;
    if ((may(store, "play") || leading || stuck) && !(stuck && form === FEWEST)) {
      nodes.push(button(T.play, "play", handlers.play, { class: stuck ? "" : "primary", disabled: busy || stuck || !ui.selected.size, keys: "Enter" }));
      nodes.push(button(T.hint, "hint", handlers.hint, { disabled: stuck, keys: "H" }));
    }
    if (may(store, "pass")) {
      nodes.push(button(stuck ? T.cannotBeat : T.pass, "pass", () => ctx.act({ type: "pass" }),
        { class: stuck ? "primary big" : "", disabled: busy, keys: "P", short: T.pass }));
    }
    if (may(store, "yield")) nodes.push(button(T.yield, "yield", () => ctx.act({ type: "yield" }), { disabled: busy }));
  }
  if (v && v.hand && v.hand.length) {
    nodes.push(button(ui.sort === "count" ? T.sortRank : T.sortCount, "sort", handlers.sort, { class: "quiet", short: T.sort }));
    nodes.push(button(T.clear, "clear", handlers.clear, { class: "quiet", disabled: !ui.selected.size }));
  }
  if (v && running(store) && seat && !seat.trustee) {
    nodes.push(button(T.trusteeOn, "trustee", () => ctx.send({ type: "trustee", on: true }),
      { class: "quiet", disabled: !ctx.online(), short: T.trusteeBadge }));
  }
  return nodes;
}

const signature = (nodes) => nodes.map((node) => `${node.dataset.action}|${node.textContent}|${node.disabled}|${node.className}|${node.title}`).join(";");

/** Whether the bar's buttons take more than one line. */
function wraps(controls) {
  const tops = [...controls.children].map((node) => node.offsetTop);
  return tops.some((top) => top > tops[0] + 2);
}
