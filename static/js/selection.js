// Which of the hand's cards are selected, pure. Cards are keyed "card#k" (the k-th copy
// of that card in the shown order), so two 9♠ are two keys.

export function keyed(cards) {
  const seen = new Map();
  return cards.map((card) => {
    const k = seen.get(card) || 0;
    seen.set(card, k + 1);
    return { card, key: `${card}#${k}` };
  });
}

/**
 * A swipe from the card at `from` to the card at `to` (indices in the shown order): every
 * card in between takes the state `on`; the others keep what they had in `before`.
 */
export function swipe(before, keys, from, to, on) {
  const selected = new Set(before);
  const [low, high] = from <= to ? [from, to] : [to, from];
  for (let i = low; i <= high; i++) {
    if (on) selected.add(keys[i]); else selected.delete(keys[i]);
  }
  return selected;
}

/** The keys of `cards` (a hint, in any order) within the shown hand, first copies first. */
export function keysOf(shown, cards) {
  const wanted = new Map();
  for (const card of cards) wanted.set(card, (wanted.get(card) || 0) + 1);
  const keys = new Set();
  for (const { card, key } of keyed(shown)) {
    if (wanted.get(card)) { keys.add(key); wanted.set(card, wanted.get(card) - 1); }
  }
  return keys;
}

/**
 * How a hand of `count` cards is laid out in `width` px: at most `maxRows` rows of equal
 * length, each card showing a strip of `step` px (the last of a row shows whole). The
 * strip never goes below `minStrip` unless more rows are not allowed.
 */
export function layout(count, width, cardWidth, minStrip, maxRows = 2) {
  if (count <= 0) return { rows: 0, perRow: 0, step: cardWidth };
  const fit = Math.max(1, Math.floor((width - cardWidth) / minStrip) + 1);
  const rows = Math.min(maxRows, Math.ceil(count / fit));
  const perRow = Math.ceil(count / rows);
  const step = perRow > 1 ? Math.min(cardWidth * 0.66, (width - cardWidth) / (perRow - 1)) : cardWidth;
  return { rows, perRow, step: Math.max(1, Math.floor(step * 10) / 10) };
}
