// Your own cards: one or two rows of overlapping cards (selection.js lays them out). Tap a
// card to toggle it; press and drag across cards (touch or mouse) to select or unselect
// the run you cross; Space/Enter on a focused card toggles it too.

import { $, el } from "../dom.js";
import { sortByCount, sortByRank } from "../cards.js";
import { keyed, keysOf, layout, swipe } from "../selection.js";
import { view } from "../store.js";
import { cardNode } from "./card.js";

export function shownCards(store, ui) {
  const v = view(store);
  if (!v || !v.hand) return [];
  return ui.sort === "count" ? sortByCount(v.hand, v.preset) : sortByRank(v.hand, v.preset);
}

export function selectedCards(store, ui) {
  return keyed(shownCards(store, ui)).filter(({ key }) => ui.selected.has(key)).map(({ card }) => card);
}

export function selectCards(store, ui, cards) {
  ui.selected = keysOf(shownCards(store, ui), cards);
}

// The hand box's width as the last layout left it (kept by a ResizeObserver, `wireHand`):
// read in a render, after the seats and the centre were redrawn, clientWidth would make
// the browser lay the page out at once, then again for the frame.
let boxWidth = 0;

export function renderHand(ctx) {
  const { store, ui, T } = ctx;
  const v = view(store);
  const cards = shownCards(store, ui);
  const handKey = v && v.hand ? v.hand.join(" ") : "";
  if (handKey !== ui.handKey) {
    ui.dealt = !ui.handKey && Boolean(handKey); // a fresh hand: deal it in
    ui.handKey = handKey;
    ui.selected = new Set();
    ui.hintList = null;
  }
  $("mine").hidden = !v || !v.hand;
  const box = $("hand");
  const width = boxWidth || window.innerWidth;
  // Rebuilt only when the cards or the layout change: a frame arriving mid-swipe keeps
  // the nodes under the finger; the selection is only a class.
  const signature = `${handKey}|${ui.sort}|${width}`;
  if (signature === ui.handSignature) {
    showSelection(box, ui);
    return;
  }
  ui.handSignature = signature;
  const style = getComputedStyle(box);
  const cardWidth = parseFloat(style.getPropertyValue("--card-w-px")) || 46;
  const minStrip = parseFloat(style.getPropertyValue("--min-strip-px")) || 15;
  const plan = layout(cards.length, width, cardWidth, minStrip);
  box.style.setProperty("--strip", `${plan.step}px`);
  const all = keyed(cards);
  const rows = [];
  for (let r = 0; r < plan.rows; r++) {
    rows.push(el("div", { class: "hand-row" }, all.slice(r * plan.perRow, (r + 1) * plan.perRow).map(({ card, key }, i) => {
      const node = cardNode(card, T, { tag: "button", key, selected: ui.selected.has(key) });
      node.style.setProperty("--i", r * plan.perRow + i);
      return node;
    })));
  }
  box.replaceChildren(...rows);
  box.classList.toggle("dealing", Boolean(ui.dealt));
  ui.dealt = false;
}

function showSelection(box, ui) {
  for (const node of box.querySelectorAll("button.card")) {
    const on = ui.selected.has(node.dataset.key);
    node.classList.toggle("selected", on);
    node.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

/** The window was resized: the cards' size follows its height, and the box's width may
 * have changed with it. Measured at once (a resize is rare): the ResizeObserver below
 * reports only after the next layout, and the cards would be laid out for the old width
 * until then. */
export function handResized(ctx) {
  boxWidth = $("hand").clientWidth;
  ctx.ui.handSignature = null;
  renderHand(ctx);
}

/** Pointer and key handling on the hand box, wired once. `changed()` redraws the rest. */
export function wireHand(ctx, changed) {
  const box = $("hand");
  const { ui } = ctx;
  // After a layout that changed the box's width without a window resize (the page's
  // first, a panel opened): lay the cards out again for it. A resized window is measured
  // at once (`handResized`).
  new ResizeObserver(() => {
    if (box.clientWidth === boxWidth) return;
    boxWidth = box.clientWidth;
    renderHand(ctx);
  }).observe(box);
  let drag = null; // {before, keys, from, to, on, pointer}
  const cardAt = (x, y) => {
    const node = document.elementFromPoint(x, y);
    return node && box.contains(node) ? node.closest("button.card") : null;
  };
  const order = () => [...box.querySelectorAll("button.card")].map((node) => node.dataset.key);
  const show = () => {
    showSelection(box, ui);
    changed();
  };
  box.addEventListener("pointerdown", (event) => {
    const card = event.target.closest("button.card");
    if (!card || event.button > 0) return;
    const keys = order();
    const from = keys.indexOf(card.dataset.key);
    drag = { before: new Set(ui.selected), keys, from, to: from, on: !ui.selected.has(card.dataset.key), pointer: event.pointerId };
    ui.selected = swipe(drag.before, keys, from, from, drag.on);
    show();
    event.preventDefault(); // no text selection, no focus jump while dragging
  });
  box.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const card = cardAt(event.clientX, event.clientY);
    if (!card) return;
    const to = drag.keys.indexOf(card.dataset.key);
    if (to < 0 || to === drag.to) return;
    drag.to = to;
    ui.selected = swipe(drag.before, drag.keys, drag.from, to, drag.on);
    show();
  });
  const end = (event) => { if (drag && event.pointerId === drag.pointer) drag = null; };
  box.addEventListener("pointerup", end);
  box.addEventListener("pointercancel", end);
  box.addEventListener("click", (event) => {
    // Pointer taps were handled on pointerdown; a click with detail 0 is Space/Enter.
    const card = event.target.closest("button.card");
    if (!card || event.detail !== 0) return;
    const key = card.dataset.key;
    if (ui.selected.has(key)) ui.selected.delete(key); else ui.selected.add(key);
    show();
  });
}
