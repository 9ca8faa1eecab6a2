// Cards in the browser, for display only: tiers for sorting (as baohuang/engine/cards.py,
// RULES §1), faces and the two hand orders. No rules live here: the server judges every
// play, and 提示 (hints) come from the engine in the seat's view (`view.hints`).

export const RANKS = "3456789TJQKA2";
const SUITS = "SHCD";
const SMALL_JOKER = 13; // tier values, as engine/cards.py
const BIG_JOKER = 14;
const BAOZI = 15;

/** The tier (single-card order) of a card in a preset: 3=0 … 2=12, SJ 13, BJ 14, 保子 15. */
export function tier(card, preset) {
  if (card === "SJ" || card === "SJ*") return SMALL_JOKER;
  if (card === "BJ" || card === "BJ*") return BIG_JOKER;
  if (card === "4H*") return preset === "qingdao" ? BAOZI : RANKS.indexOf("4");
  return RANKS.indexOf(card[0]);
}

export const isJoker = (card) => card[1] === "J";
export const isMarked = (card) => card.endsWith("*");

const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };

/** The marks a card may carry (RULES §1): the emperor's 皇, lianzhong's 保, qingdao's 保子. */
const MARKS = { "BJ*": "crown", "SJ*": "sword", "4H*": "baozi" };

/** How a card is drawn: rank text, suit symbol, colour, joker kind and mark. */
export function face(card) {
  const mark = MARKS[card] || null;
  if (isJoker(card)) {
    const big = card[0] === "B";
    return { rank: "", suit: "", red: big, joker: big ? "big" : "small", mark };
  }
  const rank = card[0] === "T" ? "10" : card[0];
  return { rank, suit: SUIT_SYMBOL[card[1]], red: card[1] === "H" || card[1] === "D", joker: null, mark };
}

function sortKey(card, preset) {
  const suit = SUITS.includes(card[1]) ? card[1] : "S";
  return [-tier(card, preset), SUITS.indexOf(suit), isMarked(card) ? 1 : 0];
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** High to low by tier, then suit (as the engine sorts a hand). */
export function sortByRank(cards, preset) {
  return [...cards].sort((a, b) => compareKeys(sortKey(a, preset), sortKey(b, preset)));
}

/** Grouped by how many copies of the rank are held (most first), then high to low. */
export function sortByCount(cards, preset) {
  const counts = new Map();
  for (const card of cards) counts.set(tier(card, preset), (counts.get(tier(card, preset)) || 0) + 1);
  return [...cards].sort((a, b) => {
    const ca = counts.get(tier(a, preset));
    const cb = counts.get(tier(b, preset));
    if (ca !== cb) return cb - ca;
    return compareKeys(sortKey(a, preset), sortKey(b, preset));
  });
}
