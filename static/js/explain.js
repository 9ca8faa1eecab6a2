// The score sheet's explanation: one line per hand, worded from the engine's terms
// (result.explain, baohuang/engine/explain.py) in the page's language. Pure: no DOM.

import { fmt, plural } from "./i18n.js";

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const paren = (n) => (n < 0 ? `(${n})` : String(n));

/** "g = 6 − (1 + 4) = 1; 明保 ×2 → 皇 +4, 保 +2, 每人 −2" and its kin for every formula.
 *  `preset` words a solo as that preset's players name it (lianzhong_classic: 暗独保, 明独保). */
export function explainLine(T, terms, preset) {
  if (!terms) return "";
  const E = T.explain;
  const parts = [formula(E, terms, { ...E.solos, ...(E.presetSolos[preset] || {}) })];
  for (const step of terms.multipliers || []) parts.push(`${E.why[step.why] || step.why} ×${step.factor}`);
  if (terms.split) parts.push(E.split);
  return `${parts.join("; ")} → ${shares(T, terms)}`;
}

function formula(E, t, solos) {
  switch (t.formula) {
    case "lianzhong_side":
      return fmt(E.lianzhongSide, { e: t.emperor_place, g: t.guard_place, base: t.base });
    case "classic_side":
      return fmt(E.classicSide, { e: paren(t.place_points.emperor), g: paren(t.place_points.guard), side: t.side });
    case "classic_solo":
    case "lianzhong_solo":
      return fmt(E.solo, { solo: solos[t.solo] || t.solo, place: t.emperor_place, points: signed(t.place_points) });
    case "classic_seized":
      return t.won ? E.seizedWon : E.seizedLost;
    case "qingdao":
      return t.outcome_by.side_sum !== undefined
        ? fmt(E.qingdaoSide, { e: t.emperor_place, g: t.guard_place, sum: t.outcome_by.side_sum })
        : fmt(E.qingdaoSolo, { place: t.emperor_place });
    default:
      return "";
  }
}

function shares(T, t) {
  const E = T.explain;
  const of = (role) => t.seats.filter((seat) => seat.role === role).map((seat) => seat.points);
  if (t.formula === "qingdao") {
    return t.doubled.length ? fmt(E.doubled, { n: t.doubled.length }) : E.byPlace;
  }
  const items = [`${T.emperor} ${signed(of("emperor")[0])}`];
  if (of("guard").length) items.push(`${T.guard} ${signed(of("guard")[0])}`);
  items.push(fmt(E.eachRebel, { n: signed(of("rebel")[0]) }));
  return items.join(T.listJoin);
}

/** A ledger line of the hand besides its scores (rooms.views.room_ledger `lines`):
 *  "bob left during the hand: -40", "bob → erin: 2 tribute cards never paid …". */
export function ledgerLine(T, line, name) {
  const L = T.ledgerLines;
  if (line.kind === "leave_penalty") return fmt(L.leave_penalty, { name: name(line.seat), points: signed(line.points) });
  if (line.kind === "tribute_points") return fmt(plural(L.tribute_points, line.cards), { from: name(line.from), to: name(line.to), n: line.cards });
  return "";
}
