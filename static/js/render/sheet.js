// The score sheet at the end of a hand — also after the room dissolved, when the seats
// are empty: the names are the ones seated when the hand ended (store.result). Places,
// roles, each seat's score, the hand's other ledger lines (−40 for leaving, 进贡 turned
// into points), the room's running ledger, qingdao's tribute owed, and the way on: the
// next hand, or back to the lobby.

import { $, el } from "../dom.js";
import { fmt, plural, seatName } from "../i18n.js";
import { explainLine, ledgerLine } from "../explain.js";
import { mySeat, view } from "../store.js";
import { cardRow } from "./card.js";

const ledgerCache = new Map(); // sheet signature → the ledger read for it (a leave or a dissolve changes both)

export function renderSheet(ctx) {
  const { store, ui, T, config } = ctx;
  const dialog = $("score-sheet");
  const sheet = store.result;
  const running = Boolean(store.hand && store.hand.running) && store.room && store.room.status !== "dissolved";
  $("scores-button").hidden = !sheet || sheet.result.void;
  if (!sheet || sheet.result.void || running) {
    if (dialog.open && running) dialog.close();
    return;
  }
  const dissolved = store.room && store.room.status === "dissolved";
  const name = (index) => seatName(T, sheet.players[index], index);
  const buttons = [];
  const me = mySeat(store) === null ? null : store.seats[mySeat(store)];
  if (!dissolved && me && !me.ready) { // 准备 for the next hand
    buttons.push(el("button", { type: "button", class: "primary", dataset: { action: "ready" },
      onclick: () => { ui.sheetDismissed = sheet.hand; dialog.close(); ctx.send({ type: "ready" }); }, text: T.nextHand }));
  }
  if (dissolved) buttons.push(el("a", { class: "button primary", href: config.lobbyUrl, dataset: { action: "lobby" }, text: T.backToLobby }));
  buttons.push(el("a", { class: "button", href: `/hands/${sheet.hand}/`, dataset: { action: "replay" }, text: T.replayLink }));
  buttons.push(el("button", { type: "button", dataset: { action: "close-sheet" },
    onclick: () => { ui.sheetDismissed = sheet.hand; dialog.close(); }, text: T.close }));
  const signature = `${sheet.hand}|${dissolved}|${buttons.length}`;
  if (ui.sheetSignature !== signature) {
    ui.sheetSignature = signature;
    $("score-body").replaceChildren(...body(ctx, sheet.result, name, dissolved));
    $("score-buttons").replaceChildren(...buttons);
    loadLedger(`/rooms/${config.room}/ledger/?hand=${sheet.hand}`, signature).then((ledger) => {
      const slot = $("room-ledger");
      if (slot && ledger) slot.replaceChildren(ledgerTable(ledger.players));
      const lines = $("ledger-lines");
      if (lines && ledger) {
        lines.hidden = !ledger.lines.length;
        lines.querySelector("ul").replaceChildren(...ledger.lines.map((line) =>
          el("li", { dataset: { kind: line.kind }, text: ledgerLine(T, line, name) })));
      }
    });
  }
  if (!dialog.open && ui.sheetDismissed !== sheet.hand) dialog.showModal();
}

function body(ctx, result, name, dissolved) {
  const { T } = ctx;
  const rows = [];
  result.places.forEach((seat, place) => {
    if (seat === null) return;
    const roles = [];
    if (result.emperor === seat) roles.push(T.emperorTitle);
    if (result.guard === seat && result.guard !== result.emperor) roles.push(T.guardTitle);
    if (result.solo && result.emperor === seat) roles.push(T.soloTitle);
    if (result.menzan.includes(seat)) roles.push(T.menzan);
    const score = result.scores[seat];
    rows.push(el("tr", { dataset: { seat } }, el("td", { text: T.places[place] }), el("td", { class: "player name", text: name(seat) }),
      el("td", { class: "roles", text: roles.join(T.listJoin) }), el("td", { class: `num ${sign(score)}`, text: signed(score) })));
  });
  const declared = result.declared.map((entry) => `${name(entry.seat)} ${T.declared[entry.what] || ""}`);
  const nodes = [
    dissolved ? el("p", { class: "dissolved", text: T.dissolved }) : null,
    el("p", { class: "outcome", text: (T.outcome[result.outcome] || "") + (declared.length ? ` · ${declared.join(T.listJoin)}` : "") }),
    el("table", { class: "list scores" },
      el("thead", {}, el("tr", {}, ...[T.place, T.player, T.role].map((text) => el("th", { scope: "col", text })),
        el("th", { scope: "col", class: "num", text: T.score }))),
      el("tbody", {}, rows)),
    result.explain ? el("p", { class: "explain", id: "explain", text: explainLine(T, result.explain, ctx.store.hand && ctx.store.hand.view.preset) }) : null,
    el("section", { class: "ledger-lines", id: "ledger-lines", hidden: true }, el("h3", { text: T.ledgerLinesTitle }), el("ul")),
    showdown(ctx, name),
  ];
  const owed = (result.tribute || []).filter((debt) => debt.cards > 0);
  if (owed.length) {
    nodes.push(el("h3", { text: T.tributeOwed }), el("ul", { class: "tribute" },
      owed.map((debt) => el("li", { text: fmt(plural(T.tributeCards, debt.cards), { from: name(debt.from), to: name(debt.to), n: debt.cards }) }))));
  }
  nodes.push(el("h3", { text: T.ledger }), el("div", { class: "ledger", id: "room-ledger", text: "…" }));
  return nodes.filter(Boolean);
}

/** 摊牌: every seat's remaining cards once the hand has ended (the view's `showdown`). */
function showdown(ctx, name) {
  const v = view(ctx.store);
  const held = v && v.showdown;
  if (!held || !held.some((cards) => cards.length)) return null;
  return el("section", { class: "showdown", id: "showdown" }, el("h3", { text: ctx.T.showdown }),
    el("ul", {}, held.map((cards, seat) => (cards.length
      ? el("li", { dataset: { seat: String(seat) } }, el("span", { class: "player", text: name(seat) }), cardRow(cards, ctx.T))
      : null))));
}

const sign = (n) => (n > 0 ? "plus" : n < 0 ? "minus" : "");
const signed = (n) => (n > 0 ? `+${n}` : String(n));

async function loadLedger(url, key) {
  if (!ledgerCache.has(key)) {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      ledgerCache.set(key, await response.json());
    } catch {
      return null;
    }
  }
  return ledgerCache.get(key);
}

function ledgerTable(players) {
  return el("table", { class: "list" }, el("tbody", {}, players.map((row) => el("tr", {},
    el("td", { class: "name", text: row.name }), el("td", { class: `num ${sign(row.points)}`, text: signed(row.points) })))));
}
