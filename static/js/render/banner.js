// The strip above the hand that says why you cannot act now: the connection is down
// (连接中断, reconnecting), or your seat is under 托管 — with one tap to take it back while
// the rules allow (at most 3 entries a hand, RULES §8) and the warning that the room is
// dissolved if any seat is still under 托管 when the hand ends. Refusals show here too.

import { $, el, replaceIfChanged } from "../dom.js";
import { errorText, fmt } from "../i18n.js";
import { dissolves, mayCancelTrustee, mySeat, running } from "../store.js";

export function renderBanner(ctx) {
  const { store, T, ui } = ctx;
  const nodes = [];
  const kinds = [];
  if (ctx.reconnecting()) {
    kinds.push("offline");
    nodes.push(el("p", { class: "banner offline", id: "offline-banner", role: "alert" },
      el("strong", { text: T.connectionLost }), " ", el("span", { text: T.reconnecting })));
  }
  const seat = mySeat(store) !== null ? store.seats[mySeat(store)] : null;
  const warning = dissolves(store) ? el("p", { class: "warning", id: "dissolve-warning", text: T.dissolveWarning }) : null;
  if (running(store) && seat && seat.trustee) {
    kinds.push("trustee");
    const cancel = mayCancelTrustee(seat);
    nodes.push(el("div", { class: "banner trustee", id: "trustee-banner", role: "status" },
      el("p", {}, el("strong", { text: T.trusteeNow }), " ",
        el("span", { text: cancel ? fmt(T.trusteeExplain, { n: seat.trustee_entries ?? 1 }) : T.trusteeLocked })),
      cancel ? el("button", { type: "button", class: "primary", dataset: { action: "trustee-off" },
        disabled: !ctx.online(), onclick: () => ctx.send({ type: "trustee", on: false }), text: T.trusteeOff }) : null,
      warning));
  } else if (warning) {
    kinds.push("others");
    nodes.push(el("div", { class: "banner others" }, warning));
  }
  const signature = `${kinds.join(",")}|${seat ? `${seat.trustee}${seat.trustee_locked}${seat.trustee_entries}` : ""}|${dissolves(store)}|${ctx.online()}`;
  replaceIfChanged($("banners"), signature, () => nodes);
  const notice = $("notice");
  const error = ui.notice === "error" && store.error ? errorText(T, store.error.code, store.error.params) : ui.notice === "error" ? "" : ui.notice;
  notice.textContent = error;
  notice.className = `notice ${ui.notice === "error" ? "error" : ui.notice ? "info" : ""}`;
}
