// The strip above the hand that says why you cannot act now: the connection is down
// (连接中断, reconnecting), or your seat is under 托管 — with one tap to take it back while
// the rules allow (at most 3 entries a hand, RULES §8) and the warning that the room is
// dissolved if any seat is still under 托管 when the hand ends. Refusals show here too.

import { $, el, replaceIfChanged } from "../dom.js";
import { errorText } from "../i18n.js";
import { mySeat, running } from "../store.js";

export function renderBanner(ctx) {
  const { store, T, ui } = ctx;
  const nodes = [];
  const kinds = [];
  if (!ctx.online() && ctx.everOnline()) {
    kinds.push("offline");
    nodes.push(el("p", { class: "banner offline", id: "offline-banner", role: "alert" },
      el("strong", { text: T.connectionLost }), " ", el("span", { text: T.reconnecting })));
  }
  const seat = mySeat(store) !== null ? store.seats[mySeat(store)] : null;
  if (running(store) && seat && seat.trustee) {
    kinds.push("trustee");
    nodes.push(el("div", { class: "banner trustee", id: "trustee-banner", role: "status" },
      el("p", {}, el("strong", { text: T.trusteeNow }), " ", el("span", { text: seat.trustee_locked ? T.trusteeLocked : T.trusteeExplain })),
      seat.trustee_locked ? null : el("button", { type: "button", class: "primary", dataset: { action: "trustee-off" },
        disabled: !ctx.online(), onclick: () => ctx.send({ type: "trustee", on: false }), text: T.trusteeOff }),
      el("p", { class: "warning", text: T.dissolveWarning })));
  } else if (running(store) && store.seats.some((s) => s && s.trustee && s.player && !s.player.bot)) {
    kinds.push("others");
    nodes.push(el("p", { class: "banner others", id: "dissolve-warning", text: T.dissolveWarning }));
  }
  const signature = `${kinds.join(",")}|${seat ? `${seat.trustee}${seat.trustee_locked}` : ""}|${ctx.online()}`;
  replaceIfChanged($("banners"), signature, () => nodes);
  const notice = $("notice");
  const error = ui.notice === "error" && store.error ? errorText(T, store.error.code, store.error.params) : ui.notice === "error" ? "" : ui.notice;
  notice.textContent = error;
  notice.className = `notice ${ui.notice === "error" ? "error" : ui.notice ? "info" : ""}`;
}
