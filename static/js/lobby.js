// The lobby's room list refreshes itself: every few seconds while the page is shown, the
// server's rendering of the list (rooms/_room_list.html) replaces the one on the page.

const EVERY_MS = 4000;

function startRoomList(list) {
  let last = list.innerHTML.trim();
  async function refresh() {
    if (document.visibilityState !== "visible") return;
    try {
      const response = await fetch(list.dataset.url, { credentials: "same-origin" });
      if (!response.ok) return;
      const html = (await response.text()).trim();
      if (html !== last) {
        list.innerHTML = html;
        last = html;
      }
    } catch {
      // Offline for a moment: the next round tries again.
    }
  }
  document.addEventListener("visibilitychange", refresh);
  return setInterval(refresh, EVERY_MS);
}

const list = document.getElementById("room-list");
if (list) startRoomList(list);
