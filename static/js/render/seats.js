// The five seats round the table in play order: you at the bottom, your 下家 (who plays
// after you) to the right, then round the top to your 上家 on the left. Each shows the
// name, cards left (报牌), role badges, online state, the countdown ring and what the
// seat last did this round.

import { $, el, replaceIfChanged, setText, svg } from "../dom.js";
import { fmt, playerName } from "../i18n.js";
import { decisionMs, mayFree, msLeft, mySeat, running, view } from "../store.js";
import { cardRow } from "./card.js";

export function seatAt(store, position) {
  const base = mySeat(store) ?? (store.you && store.you.seat) ?? 0;
  return (base + position) % 5;
}

export function renderSeats(ctx) {
  const { store, T } = ctx;
  const v = view(store);
  for (let position = 0; position < 5; position++) {
    const index = seatAt(store, position);
    const box = $(`seat-pos-${position}`);
    const seat = store.seats[index] || {};
    const turn = Boolean(v && running(store) && v.actors.includes(index));
    // A seat is drawn again only when what it shows changed (a move changes two or three of
    // the five): the browser restyles, lays out and paints only those.
    const nodes = seatContent(ctx, index, v, turn).filter(Boolean);
    replaceIfChanged(box, nodes.map((node) => node.outerHTML).join(""), () => nodes);
    box.className = ["seat", `pos-${position}`, index === mySeat(store) ? "me" : "", turn ? "turn" : "",
      seat.player ? "" : "empty", seat.player && seat.player.bot ? "bot" : "", seat.player && !seat.online && !seat.player.bot ? "offline" : "",
      seat.trustee ? "trustee" : ""].filter(Boolean).join(" ");
    box.dataset.seat = index;
  }
  tickSeats(store, T); // the new countdown shows its seconds at once, not at the next tick
}

function badges(ctx, index, v, seat) {
  const { T } = ctx;
  const list = [];
  const node = (kind, text, title) => el("span", { class: `badge ${kind}`, title, text });
  const badge = (...args) => list.push(node(...args));
  const roles = v ? v.roles : {};
  const said = v ? v.declared.filter((e) => e.seat === index).map((e) => e.what) : [];
  // A declaration naming the seat's role is said on the role's badge (明保 on 保子's, 明独 or
  // 抢独 on 独's, 反 on 锄头's): one badge less on the seat's line.
  const onRole = [];
  const role = (kind, text, title, whats) => {
    const what = said.find((each) => whats.includes(each));
    if (what) onRole.push(what);
    badge(kind, what ? T.declared[what] : text, title);
  };
  if (v && roles.emperor === index) badge("emperor", T.emperor, T.emperorTitle);
  if (v && roles.guard === index && roles.emperor !== index) role("guard", T.guard, T.guardTitle, ["ming_bao"]);
  if (v && roles.solo && roles.emperor === index) role("solo", T.solo, T.soloTitle, ["open_solo", "grab_solo"]);
  if (v && v.hoes.includes(index)) role("hoe", T.hoe, T.hoeTitle, ["rebel"]);
  if (seat.trustee) badge("trustee", T.trusteeBadge, seat.trustee_locked ? T.trusteeLocked : trusteeTitle(ctx));
  if (seat.left) badge("left", T.left);
  if (seat.ready && !running(ctx.store)) badge("ready", T.readyBadge, T.readyTitle);
  for (const what of said) if (!onRole.includes(what)) badge("declared", T.declared[what] || "");
  if (seat.player.level) { // last, in a box of its own: it gives way first (static/css/table.css)
    list.push(el("span", { class: "level-box" }, node("level", T.levels[seat.player.level] || "", T.levelTitle)));
  }
  return list;
}

// The 托管 badge's title names the room's 托管 level (room option trustee_level).
function trusteeTitle({ store, T }) {
  const level = store.room && store.room.options && store.room.options.trustee_level;
  return level ? `${T.trustee} · ${fmt(T.trusteeLevel, { level: T.levels[level] || "" })}` : T.trustee;
}

function seatContent(ctx, index, v, turn) {
  const { store, T } = ctx;
  const seat = store.seats[index];
  if (!seat || !seat.player) return emptySeat(ctx, index);
  const online = seat.player.bot || seat.online;
  const count = v ? v.counts[index] : null;
  // A seat that went out shows its place (头科 …) in its ring, where its count was 0: one
  // badge less on its line.
  const place = v ? v.places.indexOf(index) : -1;
  const name = playerName(T, seat.player);
  return [
    el("div", { class: "avatar" },
      svg("svg", { class: "ring", viewBox: "0 0 44 44", "aria-hidden": "true" },
        svg("circle", { cx: 22, cy: 22, r: 19, class: "track" }),
        svg("circle", { cx: 22, cy: 22, r: 19, class: "left", "stroke-dasharray": "119.4", "stroke-dashoffset": "0" })),
      place >= 0
        ? el("span", { class: "count place", title: fmt(T.placeTitle, { place: T.places[place] }), text: T.places[place] })
        : el("span", { class: "count", title: fmt(T.cardsLeft, { n: count ?? "" }), text: count ?? "" }),
      el("span", { class: `dot ${online ? "on" : "off"}`, title: online ? T.online : T.offlineSeat })),
    el("div", { class: "who" },
      el("span", { class: "name", title: name, text: name + (index === mySeat(store) ? ` (${T.you})` : "") }),
      el("span", { class: "badges" }, badges(ctx, index, v, seat))),
    turn ? el("div", { class: "timer", dataset: { seat: index } }) : null,
    el("div", { class: "last" }, lastAction(ctx, index, v)),
    mayFree(store, index) ? freeButton(ctx, index, name) : null,
  ];
}

/** Free a seat whose player did not press 准备 in time (asked first: it unseats someone). */
function freeButton(ctx, index, name) {
  const { T } = ctx;
  return el("button", { type: "button", class: "small", dataset: { action: "free", seat: index },
    onclick: async () => {
      if (await ctx.confirm(fmt(T.freeConfirm, { name }), T.freeSeat)) ctx.send({ type: "free", seat: index });
    }, text: T.freeSeat });
}

function emptySeat(ctx, index) {
  const { store, T, config } = ctx;
  const nodes = [el("div", { class: "who" }, el("span", { class: "name", text: T.empty }))];
  const between = !running(store) && store.room && store.room.status !== "dissolved";
  if (between && config.player && mySeat(store) === null) {
    nodes.push(el("button", { type: "button", class: "small primary", dataset: { action: "sit", seat: index },
      onclick: () => ctx.send({ type: "sit", seat: index }), text: T.sit }));
  }
  if (between && config.player && config.creator === config.player && config.allowBots) {
    nodes.push(el("form", { method: "post", action: config.botUrl, class: "inline" },
      el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
      el("input", { type: "hidden", name: "seat", value: index }),
      levelChoice(T),
      el("button", { type: "submit", class: "small", dataset: { action: "bot" }, text: T.addBot })));
  }
  if (!config.player && index === seatAt(store, 0)) {
    nodes.push(el("a", { href: `${config.lobbyUrl}?next=${location.pathname}`, text: T.signInToSit }));
  }
  return nodes;
}

// The new bot's level (入门 / 普通 / 高手): 普通 first, then the last one chosen (the seats
// are drawn again on every frame).
let botLevel = "normal";
function levelChoice(T) {
  return el("select", { name: "level", class: "small", "aria-label": T.levelTitle,
    onchange: (event) => { botLevel = event.target.value; } },
  ...Object.entries(T.levels).map(([level, label]) =>
    el("option", { value: level, text: label, selected: level === botLevel })));
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function lastAction(ctx, index, v) {
  if (!v || !v.table) return null;
  const last = v.table.last[index];
  if (!last) return null;
  if (last.type === "play") return cardRow(last.cards, ctx.T);
  return el("span", { class: `said ${last.type}`, text: last.type === "pass" ? ctx.T.passed : ctx.T.yielded });
}

/** The countdown, four times a second: the ring empties; the last 5 s turn it red. */
export function tickSeats(store, T, now = Date.now()) {
  const total = decisionMs(store);
  const left = msLeft(store, now);
  for (const box of document.querySelectorAll(".seat")) {
    const ring = box.querySelector(".ring .left");
    if (!ring) continue;
    const timer = box.querySelector(".timer");
    if (!box.classList.contains("turn") || left === null) {
      ring.style.strokeDashoffset = "0";
      box.classList.remove("urgent");
      continue;
    }
    ring.style.strokeDashoffset = String(119.4 * (1 - Math.min(1, left / total)));
    box.classList.toggle("urgent", left <= 5000);
    if (timer) {
      const seconds = Math.ceil(left / 1000);
      setText(timer, box.classList.contains("offline") ? fmt(T.secondsToTrustee, { s: seconds }) : fmt(T.seconds, { s: seconds }));
    }
  }
}
