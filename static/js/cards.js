// Cards, sets and hints in the browser — a port of baohuang/engine/cards.py and sets.py
// (RULES §1, §2) for display and for 提示 (hints). The server stays the judge: a hint
// only picks cards, and the server's answer to 出牌 is what counts.

export const RANKS = "3456789TJQKA2";
const SUITS = "SHCD";
const SMALL_JOKER = 13; // tier values, as engine/cards.py
const BIG_JOKER = 14;
const BAOZI = 15;
const THREE = 0;
const SIX = 3;

/** The tier (single-card order) of a card in a preset: 3=0 … 2=12, SJ 13, BJ 14, 保子 15. */
export function tier(card, preset) {
  if (card === "SJ" || card === "SJ*") return SMALL_JOKER;
  if (card === "BJ" || card === "BJ*") return BIG_JOKER;
  if (card === "4H*") return preset === "qingdao" ? BAOZI : RANKS.indexOf("4");
  return RANKS.indexOf(card[0]);
}

export const isJoker = (card) => card[1] === "J";
export const isMarked = (card) => card.endsWith("*");
export const identity = (card) => (isMarked(card) ? card.slice(0, -1) : card);

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

// -- sets (一套牌) ----------------------------------------------------------------------

/** A set's shape {size, base, cls, naturals, small, big, bao}, or null when it is not a set. */
export function shapeOf(cards, preset) {
  if (!cards.length) return null;
  const tiers = new Map();
  for (const card of cards) tiers.set(tier(card, preset), (tiers.get(tier(card, preset)) || 0) + 1);
  const naturals = [...tiers.keys()].filter((t) => t < SMALL_JOKER);
  if (naturals.length > 1) return null;
  if (preset === "qingdao" && tiers.has(THREE) && cards.length > 1) return null;
  if ((tiers.get(BAOZI) || 0) > 1) return null;
  const base = naturals.length ? naturals[0] : Math.min(...tiers.keys());
  return shapeFromComposition(
    base, tiers.get(base),
    base < SMALL_JOKER ? tiers.get(SMALL_JOKER) || 0 : 0,
    base < BIG_JOKER ? tiers.get(BIG_JOKER) || 0 : 0,
    base < BAOZI ? tiers.get(BAOZI) || 0 : 0);
}

function shapeFromComposition(base, naturals, small, big, bao) {
  const cls = bao ? "bao" : big ? "big" : small ? "small" : "plain";
  return { size: naturals + small + big + bao, base, cls, naturals, small, big, bao };
}

const highJokers = (s) => (s.base >= BIG_JOKER ? s.naturals : 0) + s.big + s.bao;

/** T beats S (上牌, RULES §2): same size, higher base, and S's attachment class allows it. */
export function beats(t, s) {
  if (t.size !== s.size || t.base <= s.base) return false;
  if (s.cls === "plain") return true;
  if (s.cls === "small") return highJokers(t) >= s.small;
  if (s.cls === "big") return t.cls === "bao";
  return false;
}

// -- hints (提示) -----------------------------------------------------------------------

function grouped(hand, preset, avoid) {
  const groups = Array.from({ length: BAOZI + 1 }, () => []);
  for (const card of hand) groups[tier(card, preset)].push(card);
  const order = (card) => [isMarked(card) ? 1 : 0, avoid.has(identity(card)) ? 1 : 0, SUITS.indexOf(card[1]), card];
  for (const group of groups) group.sort((a, b) => compareKeys(order(a), order(b)));
  return groups;
}

/** Tiers the last-set rules restrict (qingdao's 3, lianzhong 憋6): tier → composition or null. */
function forcedTiers(groups, handSize, preset, top, holdSixes) {
  const forced = new Map();
  if (preset === "qingdao" && groups[THREE].length) {
    forced.set(THREE, top === null && handSize === 1 ? [THREE, 1, 0, 0, 0] : null);
  }
  if (holdSixes && preset === "lianzhong" && groups[SIX].length) {
    let onlySixes = true;
    for (let t = 0; t < SMALL_JOKER; t++) if (t !== SIX && groups[t].length) onlySixes = false;
    forced.set(SIX, onlySixes
      ? [SIX, groups[SIX].length, groups[SMALL_JOKER].length, groups[BIG_JOKER].length, groups[BAOZI].length]
      : null);
  }
  return forced;
}

function cardsOf(groups, [base, n, x, y, b]) {
  return [...groups[BAOZI].slice(0, b), ...groups[BIG_JOKER].slice(0, y),
    ...groups[SMALL_JOKER].slice(0, x), ...groups[base].slice(0, n)];
}

/** The cheapest composition of `base` that beats `top`, or null (engine's play_order). */
function cheapestFollow(groups, base, top) {
  const size = top.size;
  const needBao = top.cls === "big";
  const needHigh = top.cls === "small" ? top.small : 0;
  const maxX = base < SMALL_JOKER ? groups[SMALL_JOKER].length : 0;
  const maxY = base < BIG_JOKER ? groups[BIG_JOKER].length : 0;
  const maxB = base < BAOZI ? groups[BAOZI].length : 0;
  const baseIsHigh = base >= BIG_JOKER;
  for (let n = Math.min(groups[base].length, size); n >= 1; n--) {
    // Most naturals first: attachments are spent only when the naturals run short.
    const rest = size - n;
    for (let b = needBao ? 1 : 0; b <= Math.min(maxB, rest); b++) {
      for (let y = 0; y <= Math.min(maxY, rest - b); y++) {
        const x = rest - b - y;
        if (x > maxX) continue;
        if (needHigh && y + b + (baseIsHigh ? n : 0) < needHigh) continue;
        const comp = [base, n, x, y, b];
        if (beats(shapeFromComposition(...comp), top)) return comp;
      }
    }
  }
  return null;
}

/**
 * Suggested plays for 提示, one per base rank, cheapest first.
 * Leading (top = null): each rank's whole group, low to high (no jokers attached).
 * Following: for each rank that can beat the top set, its cheapest composition.
 * `topCards` is the set on the table or null; `holdSixes` the seat's 憋6 binding.
 */
export function hints(hand, preset, topCards, { holdSixes = false, avoid = [] } = {}) {
  const groups = grouped(hand, preset, new Set(avoid));
  const top = topCards ? shapeOf(topCards, preset) : null;
  const forced = forcedTiers(groups, hand.length, preset, top, holdSixes);
  const plays = [];
  for (let base = 0; base <= BAOZI; base++) {
    if (!groups[base].length) continue;
    if (top && base <= top.base) continue;
    let comp;
    if (forced.has(base)) {
      comp = forced.get(base);
      if (comp && top && !beats(shapeFromComposition(...comp), top)) comp = null;
    } else if (top) {
      comp = cheapestFollow(groups, base, top);
    } else {
      comp = [base, groups[base].length, 0, 0, 0];
    }
    if (comp) plays.push(cardsOf(groups, comp));
  }
  return plays;
}
