// The middle of the table: the top set and who played it, whose turn it is, the bidding
// or declaration window, the called card, qingdao's tribute and 买3 at the deal.

import { $, el, setText } from "../dom.js";
import { fill, fmt, seatName } from "../i18n.js";
import { mySeat, readyLeft, running, seatPlayer, view } from "../store.js";
import { cardNode, cardRow } from "./card.js";

export function renderCenter(ctx) {
  const { store, T, config } = ctx;
  const v = view(store);
  // A seat's name in the centre's lines: cut short with an ellipsis past a bot's name's
  // width (the whole name is its tooltip, and what screen readers hear). With four
  // 20-letter names the deal's lines took two lines each and the centre scrolled 168 px.
  const name = (index) => {
    const whole = seatName(T, seatPlayer(store, index), index);
    return el("span", { class: "nick", title: whole, text: whole });
  };
  const names = (seats) => seats.flatMap((index, i) => (i ? [T.listJoin, name(index)] : [name(index)]));
  const nodes = [];
  if (store.room && store.room.status === "dissolved") {
    nodes.push(el("p", { class: "status", text: T.dissolved }),
      el("a", { class: "button", href: config.lobbyUrl, dataset: { action: "lobby" }, text: T.backToLobby }));
  } else if (!v || !running(store)) {
    nodes.push(...betweenHands(ctx, v, names));
  } else if (v.phase === "bidding") {
    nodes.push(...bidding(ctx, v, name, names));
  } else if (v.phase === "declaring") {
    nodes.push(el("p", { class: "status", text: T.declaring }),
      el("p", { class: "pending" }, fill(T.waitingFor, { names: names(v.window.pending) })));
  } else if (v.phase === "playing") {
    const table = v.table;
    if (table.top) {
      // long: more cards than fit beside the owner's name on the shortest screens (table.css)
      const top = el("div", { class: table.top.cards.length > 6 ? "top-set long" : "top-set", id: "top-set", dataset: { seat: table.top.seat } },
        el("span", { class: "owner" }, name(table.top.seat)), cardRow(table.top.cards, T, "big"));
      const key = `${table.top.seat}|${table.top.cards.join(" ")}`;
      if (key !== ctx.ui.topKey) top.classList.add("enter"); // just played: slide in
      ctx.ui.topKey = key;
      nodes.push(top);
    }
    const mine = v.turn === mySeat(store);
    const words = mine ? (table.top ? T.yourTurn : T.yourLead) : fill(table.top ? T.turnOf : T.leads, { name: name(v.turn) });
    nodes.push(el("p", { class: `status${mine ? " mine" : ""}` }, words));
  }
  if (v && v.roles && v.roles.called) nodes.push(el("p", { class: "called" }, `${T.called}: `, cardNode(v.roles.called, T)));
  if (v && v.deal && running(store) && v.phase !== "playing") nodes.push(dealInfo(ctx, v.deal, name));
  $("center").replaceChildren(...nodes.filter(Boolean));
}

/** Between hands: who is still to press 准备, your Ready button (or its taking back) and
 * the countdown of the full table's wait for ready. */
function betweenHands(ctx, v, names) {
  const { store, T } = ctx;
  const nodes = [];
  const seated = store.seats.filter((seat) => seat.player).length;
  if (v && v.result) nodes.push(el("p", { class: "status", text: v.result.void ? T.void : T.ended }));
  const late = store.seats.filter((seat) => seat.player && !seat.ready).map((seat) => seat.index);
  nodes.push(el("p", { class: "status" }, seated < 5 ? fmt(T.waiting, { n: seated }) : fill(T.waitingReady, { names: names(late) })));
  const me = mySeat(store) === null ? null : store.seats[mySeat(store)];
  if (me) {
    nodes.push(me.ready
      ? el("button", { type: "button", dataset: { action: "unready" },
        onclick: () => ctx.send({ type: "ready", on: false }), text: T.unready })
      : el("button", { type: "button", class: "primary", dataset: { action: "ready" },
        onclick: () => ctx.send({ type: "ready" }), text: T.readyButton }));
  }
  const left = readyLeft(store);
  if (left !== null) nodes.push(el("p", { class: "ready-clock", id: "ready-clock", text: readyClockText(T, left) }));
  if (store.you && store.you.role !== "player") nodes.push(el("p", { class: "hint", text: T.spectating }));
  return nodes;
}

/** The wait for ready, counted down four times a second (#ready-clock). */
export function tickReady(store, T, now = Date.now()) {
  const clock = $("ready-clock");
  const left = readyLeft(store, now);
  if (clock && left !== null) setText(clock, readyClockText(T, left));
}

const readyClockText = (T, left) => (left > 0 ? fmt(T.readyClock, { s: Math.ceil(left / 1000) }) : T.readyOver);

function bidding(ctx, v, name, names) {
  const { T } = ctx;
  const b = v.bidding;
  const nodes = [el("p", { class: "status", text: T.bidding })];
  if ("crown" in b) { // the crown card travels alone: classic 叫庄 / 逼庄, lianzhong_classic 让位 (b.throne)
    const [holder, forced, declined] = b.throne ? [T.throneHolder, T.forcedThrone, T.yieldedBy] : [T.crownHolder, T.forced, T.declinedBy];
    nodes.push(el("p", {}, fill(b.forced ? forced : holder, { name: name(b.forced ? v.turn : b.crown) })));
    if (b.declined.length) nodes.push(el("p", { class: "small" }, fill(declined, { names: names(b.declined) })));
  } else {
    nodes.push(el("p", {}, fill(T.offered, { name: name(v.turn) })));
    if (b.bundle.length) nodes.push(el("div", { class: "bundle" }, el("span", { class: "label", text: T.bundle }), cardRow(b.bundle, T)));
  }
  return nodes;
}

function dealInfo(ctx, deal, name) {
  const { T } = ctx;
  const lines = [];
  if (deal.tribute_paid.length) {
    lines.push(el("p", { class: "label", text: T.tributePaid }));
    for (const paid of deal.tribute_paid) {
      lines.push(el("p", { class: "transfer tribute" }, name(paid.from), " → ", name(paid.to), " ",
        paid.card ? cardNode(paid.card, T) : el("span", { class: "card back", role: "img", "aria-label": T.hiddenCard })));
    }
  }
  if (deal.threes.length) {
    lines.push(el("p", { class: "label", text: T.threes }));
    for (const three of deal.threes) {
      lines.push(el("p", { class: "transfer three" }, fill(T.boughtThree, { seller: name(three.seller), buyer: name(three.buyer) }),
        three.paid ? el("span", { class: "paid" }, "⇄", cardNode(three.paid, T)) : ""));
    }
  }
  return lines.length ? el("div", { class: "deal-info", id: "deal-info" }, lines) : "";
}
