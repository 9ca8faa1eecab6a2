// The round log drawer (出牌记录: this round's plays, passes and yields in order, and 上一轮
// one tap away) and the 记牌器 panel (how many of each rank this seat has not seen). Both
// come whole from the seat's view (engine views.py: `log`, `counter`); nothing is counted
// or remembered here.

import { $, el, replaceIfChanged } from "../dom.js";
import { cardsName, fmt, seatName } from "../i18n.js";
import { seatPlayer, view } from "../store.js";
import { cardRow } from "./card.js";

const COUNTER_NAMES = { "4H*": "baozi", BJ: "bigJoker", SJ: "smallJoker" };

export function renderHistory(ctx) {
  const { store, ui, T } = ctx;
  const v = view(store);
  const log = v && v.log;
  const panel = $("history");
  panel.hidden = !log;
  if (!log) return;
  const showPrevious = Boolean(ui.previousRound && log.previous);
  const name = (index) => seatName(T, seatPlayer(store, index), index);
  const entries = showPrevious ? log.previous.entries : log.round;
  const signature = JSON.stringify([showPrevious, entries, v.counter, log.previous && log.previous.winner]);
  replaceIfChanged($("history-body"), signature, () => [
    el("div", { class: "history-tabs", role: "group" },
      tab(ctx, T.thisRound, !showPrevious, false),
      tab(ctx, T.previousRound, showPrevious, true, !log.previous),
      // the open drawer covers its toggle on a phone: it closes from inside
      el("button", { type: "button", class: "small close", dataset: { action: "close-history" },
        onclick: () => { panel.open = false; }, text: T.close })),
    el("ol", { class: "round-log", id: "round-log", dataset: { which: showPrevious ? "previous" : "current" } },
      entries.length ? entries.map((entry) => line(T, entry, name)) : [el("li", { class: "empty", text: T.roundEmpty })]),
    showPrevious ? el("p", { class: "winner", text: fmt(T.roundWonBy, { name: name(log.previous.winner) }) }) : null,
    v.counter ? counter(T, v.counter) : null,
  ]);
}

function tab(ctx, text, current, previous, disabled = false) {
  return el("button", { type: "button", class: "small", "aria-pressed": current ? "true" : "false", disabled,
    dataset: { action: previous ? "previous-round" : "this-round" },
    onclick: () => { ctx.ui.previousRound = previous; renderHistory(ctx); }, text });
}

function line(T, entry, name) {
  const what = entry.type === "play"
    ? [cardRow(entry.cards, T), el("span", { class: "visually-hidden", text: cardsName(T, entry.cards) })]
    : [el("span", { class: "pass", text: entry.type === "pass" ? T.passed : T.yielded })];
  const who = name(entry.seat); // cut short in its column (history.css): the whole is its tooltip
  return el("li", { dataset: { seat: String(entry.seat), type: entry.type } }, el("span", { class: "who", title: who, text: who }), ...what);
}

function counter(T, counts) {
  return el("section", { class: "counter", id: "counter", "aria-label": T.counter },
    el("h3", { text: T.counter }),
    el("ul", {}, Object.entries(counts).map(([key, n]) => el("li", { dataset: { key, n: String(n) }, class: n ? "" : "gone" },
      el("span", { class: "rank", text: COUNTER_NAMES[key] ? T.cardNames[COUNTER_NAMES[key]] : (key === "T" ? "10" : key) }),
      el("span", { class: "n", text: String(n) })))));
}
