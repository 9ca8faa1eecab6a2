// Every word the table shows comes from the page's catalogue (`table_text()` in
// rooms/views.py, translated by Django into the chosen language). The server sends codes
// and parameters; this module words them. No engine sentence and no card notation
// (`BJ*`, `4H`) ever reaches the player.

import { isJoker } from "./cards.js";

/** `%(name)s` placeholders, as in Django's catalogues, filled with strings or nodes (a list
 * of them spread in its place): the parts for `el()`, so that a name can be a node of its own
 * (center.js). */
export function fill(text, values = {}) {
  return String(text).split(/%\((\w+)\)s/).flatMap((part, i) => (i % 2 ? values[part] ?? "" : part));
}

/** The same, as one string. */
export function fmt(text, values = {}) {
  return fill(text, values).join("");
}

/** Of a text counting `%(n)s` (rooms/table_text.py `_forms`), the form for `n` in the
 * page's language: "1 card", "2 cards". A plain string is its own only form. */
export function plural(text, n, lang = globalThis.document ? document.documentElement.lang : "en") {
  if (typeof text === "string") return text;
  return text[new Intl.PluralRules(lang || "en").select(n)] ?? text.other;
}

/** A player as people see it: the name as sent, or for a bot (`player.bot`, stored by
 * its number) 机器人 3 / Bot 3. Every name the table shows goes through here. */
export function playerName(T, player) {
  if (!player) return "";
  return player.bot ? fmt(T.botName, { number: player.name }) : String(player.name ?? "");
}

/** Who sits at seat `index`: its player's name, or "Seat 3" when nobody was seen there. */
export function seatName(T, player, index) {
  return player ? playerName(T, player) : fmt(T.seatNumber, { n: index + 1 });
}

/** A card as players name it: 红桃4, 大王, 皇牌 (大王) / "4 of hearts", "big joker". */
export function cardName(T, card) {
  const names = T.cardNames;
  if (card === "BJ*") return names.crown;
  if (card === "SJ*") return names.sword;
  if (card === "4H*") return names.baozi;
  if (isJoker(card)) return card[0] === "B" ? names.bigJoker : names.smallJoker;
  const rank = card[0] === "T" ? "10" : card[0];
  return fmt(names.card, { rank, suit: names.suits[card[1]] });
}

/** A list of cards by name: "红桃4、黑桃4" — for parameters such as `cards`. */
export function cardsName(T, cards) {
  const list = Array.isArray(cards) ? cards : String(cards).split(/\s+/).filter(Boolean);
  return list.map((card) => cardName(T, card)).join(T.listJoin);
}

// Parameters that hold cards are named before they are put in a sentence.
const CARD_PARAMS = new Set(["card", "cards", "top", "called"]);

/**
 * A refusal in the page's words: the catalogue's sentence for `code` with its parameters
 * (cards named as players name them), or a generic sentence for a code it does not know.
 * The server's own `message` is never shown: it may be engine English.
 */
export function errorText(T, code, params = {}) {
  let template = T.errors[code];
  // Some codes have one sentence per reason (`params.why`, docs/protocol.md "Error codes").
  if (template && typeof template === "object") template = template[params?.why] ?? template.default;
  if (!template) return fmt(T.errorGeneric, { code: "" }).trim();
  const values = {};
  for (const [key, value] of Object.entries(params || {})) {
    values[key] = CARD_PARAMS.has(key) ? cardsName(T, value) : value;
  }
  return fmt(template, values);
}
