// The room panel (房间设置): the room's settings and its replays, rendered by the server
// (rooms/room_info.py); a hand that ends while the page is open joins the replays.

import { $, el } from "../dom.js";
import { fmt } from "../i18n.js";

export function wireRoomInfo() {
  const dialog = $("room-info");
  $("room-info-button").addEventListener("click", () => {
    $("menu").open = false;
    dialog.showModal();
  });
  $("room-info-close").addEventListener("click", () => dialog.close());
}

/** Adds the hand just ended to the replays, for its players (anyone with public records). */
export function renderRoomHands(ctx) {
  const { store, config, T } = ctx;
  const sheet = store.result;
  const list = $("room-hands");
  if (!sheet || list.querySelector(`[data-hand="${sheet.hand}"]`)) return;
  const played = (sheet.players || []).some((player) => player && player.id === config.player);
  if (!config.publicRecords && !played) return; // as the server decides (selectors.record_visible)
  for (const empty of list.querySelectorAll(".empty")) empty.remove();
  list.prepend(el("li", { dataset: { hand: String(sheet.hand) } },
    el("a", { href: `/hands/${sheet.hand}/`, text: fmt(T.handNumber, { n: sheet.number }) })));
}
