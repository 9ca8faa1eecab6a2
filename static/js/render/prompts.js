// Bidding and declaration buttons. Choices that cannot be taken back and are not the
// move the table is waiting for (抢庄 while others bid, 抢独) ask first in a dialog —
// never by a second tap on the same spot.

import { $, el, replaceIfChanged } from "../dom.js";
import { may, mySeat, running, view } from "../store.js";
import { cardNode } from "./card.js";

const SILENT = new Set(["none", "an_bao", "dark_solo"]); // the answers silence gives (RULES §8)
const CONFIRM = { seize: "seizeConfirm", grab_solo: "grabSoloConfirm" };

export function renderPrompt(ctx) {
  const { store, ui, T } = ctx;
  const v = view(store);
  const prompt = $("prompt");
  const buttons = [];
  const mine = mySeat(store) !== null ? store.seats[mySeat(store)] : null;
  const busy = ctx.busy();
  const button = (label, action, extra = {}) => el("button", {
    type: "button", class: extra.class || "", disabled: busy, title: busy ? ctx.busyReason() : null,
    dataset: { action: action.type, ...(extra.dataset || {}) },
    onclick: extra.onclick || (() => ctx.act(action)), text: label });
  const confirmed = (key, action) => async () => {
    if (await ctx.confirm(T[CONFIRM[key]], T.confirmYes)) ctx.act(action);
  };
  if (v && running(store) && mine && !mine.trustee && v.phase !== "playing") {
    if (v.phase === "bidding") {
      if (may(store, "call")) {
        buttons.push(button(v.bidding.throne ? T.callThrone : T.call, { type: "call" }, { class: "primary", onclick: () => picking(ctx, true) }));
      }
      // Where the crown card travels alone (叫庄, 让位) accepting needs a call, and an
      // accept with no call is 明独保 (lianzhong_classic); with a bundle it takes the throne.
      const crown = "crown" in v.bidding;
      const selfRule = crown && may(store, "accept");
      if (may(store, "accept")) buttons.push(button(selfRule ? T.acceptOpenSolo : T.accept, { type: "accept" }, { class: "primary" }));
      if (may(store, "decline")) buttons.push(button(!crown ? T.declineBundle : selfRule ? T.declineThrone : T.declineClassic, { type: "decline" }));
      if (may(store, "seize")) buttons.push(button(T.seize, { type: "seize" }, { class: "danger", onclick: confirmed("seize", { type: "seize" }) }));
    } else if (v.phase === "declaring" && may(store, "declare")) {
      for (const what of v.choices.declare) {
        const action = { type: "declare", what };
        buttons.push(button(T.declare[what] || "", action, {
          class: SILENT.has(what) ? "" : "primary", dataset: { what },
          onclick: CONFIRM[what] ? confirmed(what, action) : undefined }));
      }
    }
  }
  if (!may(store, "call")) ui.picker = false;
  const picker = ui.picker ? el("div", { class: "picker", role: "group", "aria-label": T.callPick },
    el("span", { class: "label", text: T.callPick }),
    v.choices.call.map((card) => el("button", { type: "button", class: "pick", dataset: { action: "call-card", card },
      onclick: () => { ui.picker = false; ctx.act({ type: "call", card }); } }, cardNode(card, T), fourNote(T, v, card))),
    el("button", { type: "button", class: "small", dataset: { action: "cancel-call" }, onclick: () => picking(ctx, false), text: T.cancel })) : null;
  prompt.hidden = !buttons.length;
  // The picker takes the bids' place (its Cancel brings them back): one line less on a phone.
  const shown = picker ? [picker] : buttons;
  const signature = shown.map((node) => `${node.dataset.action || ""}|${node.textContent}|${node.disabled}`).join(";");
  replaceIfChanged(prompt, signature, () => [picker || el("div", { class: "buttons" }, buttons)]);
}

/** Open or close the card picker, keeping the keyboard's place: on its first card, or back on 叫牌. */
function picking(ctx, open) {
  ctx.ui.picker = open;
  renderPrompt(ctx);
  $("prompt").querySelector(open ? ".pick" : "[data-action=call]")?.focus();
}

/** Calling a card held four times is a solo: 独保 (classic), 暗独保 (lianzhong_classic). */
function fourNote(T, v, card) {
  const copies = v.hand.filter((held) => held.replace("*", "") === card).length;
  return copies === 4 ? el("span", { class: "four-note", text: v.bidding.throne ? T.darkSoloCall : T.soloCall }) : null;
}
