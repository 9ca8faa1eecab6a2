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

/** How a card is drawn: rank text, suit symbol, colour and any mark. */
export function face(card) {
  if (isJoker(card)) {
    const big = card[0] === "B";
    // 大王 / 小王, written down the card's corner like a rank over a suit.
    const rank = big ? "大" : "小";
    return { rank, suit: "王", red: big, joker: big ? "big" : "small", marked: isMarked(card), label: `${rank}王${isMarked(card) ? "*" : ""}` };
  }
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = SUIT_SYMBOL[card[1]];
  return { rank, suit, red: card[1] === "H" || card[1] === "D", joker: null, marked: isMarked(card), label: `${suit}${rank}${isMarked(card) ? "*" : ""}` };
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
