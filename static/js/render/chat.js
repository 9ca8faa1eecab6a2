// The chat drawer: lines built with textContent only (chat text is whatever people typed).
// A snapshot carrying `chat` (the room's recent records, oldest first) replaces the lines;
// each live `chat` frame appends one. Closed by default on the table (it would cover the
// hand); the toggle shows how many lines came in meanwhile.

import { $, el, setText } from "../dom.js";
import { fmt, playerName } from "../i18n.js";

const CHAT_LINES = 100;
const chat = { unread: 0, phrasesKey: null };

const chatKey = (record) => `${record.player ? record.player.id : ""}|${record.at ?? ""}|${record.text ?? ""}`;

function chatLine(record, T) {
  const name = playerName(T, record.player) || "?";
  const who = record.seat === null || record.seat === undefined ? name : `#${record.seat + 1} ${name}`;
  const at = typeof record.at === "number" ? new Date(record.at).toLocaleTimeString() : undefined;
  return el("li", { class: record.phrase ? "phrase" : "", title: at, dataset: { key: chatKey(record) } },
    el("span", { class: "who", text: `${who}:` }), " ", el("span", { class: "said", text: String((record.phrase && T.phrases[record.phrase]) || record.text || "") }));
}

function scrollChat() {
  const lines = $("chat-lines");
  lines.scrollTop = lines.scrollHeight;
}

/** The lines become exactly `records`; the ones already shown stay (a screen reader,
 * aria-live additions, does not read the whole chat out again). */
export function showChat(records, T) {
  const lines = $("chat-lines");
  records = records.slice(-CHAT_LINES);
  const keys = records.map(chatKey);
  const shown = [...lines.children].map((node) => node.dataset.key);
  let kept = Math.min(shown.length, keys.length);
  const same = (k) => keys.slice(0, k).every((key, i) => key === shown[shown.length - k + i]);
  while (kept > 0 && !same(kept)) kept -= 1;
  const drop = shown.length - kept;
  for (let i = 0; i < drop; i++) lines.firstElementChild.remove();
  lines.append(...records.slice(kept).map((record) => chatLine(record, T)));
  scrollChat();
}

export function addChat(record, T) {
  const lines = $("chat-lines");
  // A frame published just before a snapshot may repeat that snapshot's last records.
  const key = chatKey(record);
  for (let node = lines.lastElementChild, n = 0; node && n < 30; node = node.previousElementSibling, n++) {
    if (node.dataset.key === key) return;
  }
  lines.append(chatLine(record, T));
  while (lines.children.length > CHAT_LINES) lines.firstElementChild.remove();
  scrollChat();
  if (!$("chat").open) {
    chat.unread += 1;
    renderUnread(T);
  }
}

function renderUnread(T) {
  const badge = $("chat-unread");
  badge.hidden = !chat.unread;
  setText(badge, chat.unread ? fmt(T.chatUnread, { n: chat.unread }) : "");
}

export function renderChat(ctx) {
  // Anyone signed in may chat (docs/protocol.md); anonymous spectators only read.
  const { store } = ctx;
  const canChat = Boolean(store.you && store.you.player);
  $("chat-form").hidden = !canChat;
  $("chat-phrases").hidden = !canChat;
  const phrases = store.phrases || {};
  const key = JSON.stringify(phrases);
  if (key !== chat.phrasesKey) {
    chat.phrasesKey = key;
    $("chat-phrases").replaceChildren(...Object.entries(phrases).map(([id, text]) => el("button", {
      type: "button", class: "small", dataset: { phrase: id }, onclick: () => sendChat(ctx, { phrase: id }), text: ctx.T.phrases[id] || text })));
  }
  const offline = !ctx.online();
  $("chat-send").disabled = offline;
  for (const button of $("chat-phrases").querySelectorAll("button")) button.disabled = offline;
}

function sendChat(ctx, body) {
  if (!ctx.online()) return false;
  ctx.send({ type: "chat", ...body });
  return true;
}

export function wireChat(ctx) {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) {
      input.value = "";
      return;
    }
    if (sendChat(ctx, { text })) input.value = "";
  });
  $("chat").open = localStorage.getItem("bh-chat") === "open";
  $("chat").addEventListener("toggle", () => {
    localStorage.setItem("bh-chat", $("chat").open ? "open" : "closed");
    if (!$("chat").open) return;
    chat.unread = 0;
    renderUnread(ctx.T);
    scrollChat();
  });
}
