// One card face, drawn with CSS (static/css/cards.css) and two SVG joker pictures in
// static/img/. Everything a player must read — rank, suit and the marks 皇 / 保 / 保子 —
// sits in the card's left strip, the part an overlapping card never covers.

import { el } from "../dom.js";
import { face } from "../cards.js";
import { cardName } from "../i18n.js";

// The seal on a marked card is part of its picture, in both languages, as the word JOKER
// is on a joker; the card's accessible name says what it is in the page's language.
const STAMP = { crown: "皇", sword: "保", baozi: "保子" };

/**
 * @param {string} card  RULES §1 notation, e.g. "4H*"
 * @param {object} T     the catalogue (names the card for screen readers)
 * @param {object} opts  {tag: "span"|"button", selected, key}
 */
export function cardNode(card, T, { tag = "span", selected = false, key = null } = {}) {
  const f = face(card);
  const classes = ["card", f.joker ? `joker joker-${f.joker}` : `suit-${card[1]}`, f.red ? "red" : "black",
    f.mark ? `marked mark-${f.mark}` : "", selected ? "selected" : ""].filter(Boolean).join(" ");
  const name = cardName(T, card);
  const attrs = { class: classes, dataset: { card } };
  if (tag === "button") {
    Object.assign(attrs, { type: "button", "aria-pressed": selected ? "true" : "false", "aria-label": name });
    if (key) attrs.dataset.key = key;
  } else {
    Object.assign(attrs, { role: "img", "aria-label": name, title: name });
  }
  const strip = el("span", { class: "strip", "aria-hidden": "true" },
    f.joker ? el("span", { class: "rank joker-word", text: "JOKER" }) : el("span", { class: f.rank === "10" ? "rank ten" : "rank", text: f.rank }),
    f.joker ? null : el("span", { class: "suit", text: f.suit }),
    f.mark ? el("span", { class: "stamp", text: STAMP[f.mark] }) : null);
  const art = el("span", { class: "art", "aria-hidden": "true", text: f.joker ? "" : f.suit });
  return el(tag, attrs, el("span", { class: "face" }, strip, art));
}

/** A row of overlapping small cards (a set on the table, a bundle). */
export function cardRow(cards, T, size = "mini") {
  return el("span", { class: `cards ${size}` }, cards.map((card) => cardNode(card, T)));
}
