// The live table: keeps what the server said (snapshot + events, docs/protocol.md) and
// draws it. It never decides the rules: buttons come from the view's `may` / `choices`,
// and an illegal play is explained with the server's own message.

import { face, sortByCount, sortByRank } from "./cards.js";
import { Connection, newClientId } from "./connection.js";
import { renderScoreSheet } from "./scoresheet.js";

const config = JSON.parse(document.getElementById("table-config").textContent);
const T = JSON.parse(document.getElementById("table-text").textContent);
const $ = (id) => document.getElementById(id);
const root = $("table");

const store = {
  room: null, you: { seat: config.seat, role: null, player: null }, seats: [],
  hand: null, // {id, number, running, version, deadline, view}
  offset: 0, // server clock minus ours, from server_time
  lastEvent: null,
};
const ui = {
  sort: localStorage.getItem("bh-sort") || "rank",
  selected: new Set(), // keys "card#k" (k-th copy of that card in the hand)
  handKey: "",
  hintList: null, hintIndex: -1,
  picker: false, seizeArmed: false,
  notice: "", noticeKind: "",
  sheetShownFor: null, sheetDismissed: null,
  joined: false,
};

const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => values[key] ?? "");
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
};

// -- connection ------------------------------------------------------------------------

const conn = new Connection(config.ws, {
  onStatus(status) {
    root.dataset.conn = status;
    $("conn").textContent = T[status] || status;
    $("conn").className = `conn ${status}`;
    renderControls();
    renderChat();
  },
  onOpen() {
    if (store.hand) conn.send({ type: "sync", hand: store.hand.id, version: store.hand.version });
  },
  onMessage(message) {
    const handler = handlers[message.type];
    if (handler) handler(message);
  },
});

const handlers = {
  snapshot(message) {
    store.offset = message.server_time - Date.now();
    store.room = message.room;
    store.you = message.you;
    store.seats = message.seats;
    store.hand = message.hand;
    store.phrases = message.phrases || {};
    if (Array.isArray(message.chat)) showChat(message.chat); // absent: keep what is shown
    ui.hintList = null;
    maybeJoin();
    render();
  },
  event(message) {
    const hand = store.hand;
    if (!hand || message.hand !== hand.id || message.version !== hand.version + 1) {
      // A gap (or another hand): catch up from the last version we applied.
      if (hand) conn.send({ type: "sync", hand: hand.id, version: hand.version });
      return;
    }
    hand.version = message.version;
    if ("view" in message) {
      hand.view = message.view;
      ui.hintList = null; // the set to beat may have changed
      hand.deadline = message.deadline;
      if (message.view && message.view.result) hand.running = false;
    }
    if (message.event) store.lastEvent = message.event;
    render();
  },
  ack() {
    renderControls();
  },
  error(message) {
    root.dataset.error = message.code;
    const known = T.errors[message.code];
    const sentence = message.message || message.code;
    setNotice(known && known !== sentence ? `${known} (${sentence})` : sentence, "error");
    if (message.code === "stale_version") ui.hintList = null;
    renderControls();
  },
  presence(message) {
    const seat = message.seat;
    store.seats[seat.index] = seat;
    renderSeats();
    renderControls();
  },
  pong(message) {
    store.offset = message.server_time - Date.now();
  },
  chat(message) {
    addChat(message);
  },
};

function send(frame) {
  conn.send({ ...frame, client_id: newClientId(frame.type) });
}

function act(action) {
  if (!store.hand) return;
  setNotice("");
  root.dataset.error = "";
  if (conn.act(action, store.hand.version)) renderControls();
}

// -- derived facts -----------------------------------------------------------------------

const view = () => (store.hand ? store.hand.view : null);
const mySeat = () => (store.you && store.you.role === "player" ? store.you.seat : null);
const running = () => Boolean(store.hand && store.hand.running && store.room && store.room.status !== "dissolved");
const seatName = (index) => {
  const seat = store.seats[index];
  return seat && seat.player ? seat.player.name : `#${index + 1}`;
};
const may = (type) => Boolean(view() && view().may && view().may.includes(type));
const myTurn = () => {
  const v = view();
  return Boolean(v && running() && mySeat() !== null && v.actors.includes(mySeat()));
};

function timerSeconds(phase) {
  const timers = (store.room && store.room.options.timers) || {};
  return { bidding: timers.bid, declaring: timers.declare, playing: timers.play }[phase] || 20;
}

// -- rendering ---------------------------------------------------------------------------

function render() {
  const v = view();
  root.dataset.phase = v ? v.phase : "none";
  root.dataset.version = store.hand ? store.hand.version : "";
  root.dataset.hand = store.hand ? store.hand.id : "";
  root.dataset.running = running() ? "1" : "0";
  root.dataset.myTurn = myTurn() ? "1" : "0";
  root.dataset.role = store.you ? store.you.role : "";
  const watching = store.you && store.you.role !== "player" ? ` · ${T.spectating}` : "";
  $("hand-no").textContent = (store.hand ? fmt(T.hand, { n: store.hand.number }) : "") + watching;
  renderSeats();
  renderCenter();
  renderPrompt();
  renderHand();
  renderControls();
  renderSheet();
  renderChat();
}

function seatAt(position) {
  const base = mySeat() ?? (store.you && store.you.seat) ?? 0;
  return (base + position) % 5;
}

function cardNode(card, { small = false, selected = false, key = null, onclick = null, tag = "span" } = {}) {
  const f = face(card);
  const classes = ["card", small ? "mini" : "", f.red ? "red" : "black", f.joker ? `joker ${f.joker}` : "",
    f.marked ? "marked" : "", selected ? "selected" : ""].filter(Boolean).join(" ");
  const label = f.label;
  const attrs = { class: classes, dataset: { card } };
  if (tag === "button") {
    Object.assign(attrs, { type: "button", "aria-pressed": selected ? "true" : "false", "aria-label": label, onclick });
    if (key) attrs.dataset.key = key;
  } else {
    attrs.title = label;
  }
  return el(tag, attrs,
    el("span", { class: "rank", text: f.rank }),
    f.suit ? el("span", { class: "suit", text: f.suit }) : null,
    f.marked ? el("span", { class: "mark", text: card === "BJ*" ? "皇" : "保" }) : null);
}

function cardRow(cards, small = true) {
  return el("span", { class: "cards" }, cards.map((card) => cardNode(card, { small })));
}

function renderSeats() {
  const v = view();
  for (let position = 0; position < 5; position++) {
    const index = seatAt(position);
    const box = $(`seat-pos-${position}`);
    box.replaceChildren(...seatContent(index, v).filter(Boolean));
    const seat = store.seats[index] || {};
    const turn = Boolean(v && running() && v.actors.includes(index));
    box.className = ["seat", `pos-${position}`, index === mySeat() ? "me" : "", turn ? "turn" : "",
      seat.player ? "" : "empty", seat.player && !seat.online && !seat.player.bot ? "offline" : "",
      seat.trustee ? "trustee" : ""].filter(Boolean).join(" ");
    box.dataset.seat = index;
  }
}

function seatContent(index, v) {
  const seat = store.seats[index];
  if (!seat || !seat.player) return emptySeat(index);
  const roles = v ? v.roles : {};
  const badges = [];
  if (v && roles.emperor === index) badges.push(el("span", { class: "badge emperor", title: T.emperorTitle, text: T.emperor }));
  if (v && roles.guard === index && roles.emperor !== index) badges.push(el("span", { class: "badge guard", title: T.guardTitle, text: T.guard }));
  if (v && roles.solo && roles.emperor === index) badges.push(el("span", { class: "badge solo", title: T.soloTitle, text: T.solo }));
  if (v && v.hoes.includes(index)) badges.push(el("span", { class: "badge hoe", title: T.hoeTitle, text: T.hoe }));
  if (seat.player.bot) badges.push(el("span", { class: "badge bot", text: T.bot }));
  if (seat.trustee) badges.push(el("span", { class: "badge trustee", title: seat.trustee_locked ? T.trusteeLocked : T.trustee, text: T.trusteeOn }));
  if (seat.left) badges.push(el("span", { class: "badge left", text: T.left }));
  const place = v ? v.places.indexOf(index) : -1;
  if (place >= 0) badges.push(el("span", { class: "badge place", text: T.places[place] }));
  const declared = v ? v.declared.filter((entry) => entry.seat === index).map((entry) => T.declared[entry.what] || entry.what) : [];
  for (const what of declared) badges.push(el("span", { class: "badge declared", text: what }));

  const online = seat.player.bot || seat.online;
  const count = v ? v.counts[index] : null;
  const turn = Boolean(v && running() && v.actors.includes(index));
  return [
    el("div", { class: "avatar" },
      svg("svg", { class: "ring", viewBox: "0 0 44 44", "aria-hidden": "true" },
        svg("circle", { cx: 22, cy: 22, r: 19, class: "track" }),
        svg("circle", { cx: 22, cy: 22, r: 19, class: "left", "stroke-dasharray": "119.4", "stroke-dashoffset": "0" })),
      el("span", { class: "count", title: T.cardsLeft.replace("%(n)s", count ?? ""), text: count ?? "" }),
      el("span", { class: `dot ${online ? "on" : "off"}`, title: online ? T.online : T.offlineSeat })),
    el("div", { class: "who" },
      el("span", { class: "name", text: seat.player.name + (index === mySeat() ? ` (${T.you})` : "") }),
      el("span", { class: "badges" }, badges)),
    turn ? el("div", { class: "timer", dataset: { seat: index } }) : null,
    el("div", { class: "last" }, lastAction(index, v)),
  ];
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function emptySeat(index) {
  const nodes = [el("div", { class: "who" }, el("span", { class: "name", text: T.empty }))];
  const between = !running() && store.room && store.room.status !== "dissolved";
  if (between && config.player && mySeat() === null) {
    nodes.push(el("button", { type: "button", class: "small primary", dataset: { action: "sit", seat: index },
      onclick: () => send({ type: "sit", seat: index }), text: T.sit }));
  }
  if (between && config.player && config.creator === config.player && config.allowBots) {
    nodes.push(el("form", { method: "post", action: config.botUrl, class: "inline" },
      el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
      el("button", { type: "submit", class: "small", dataset: { action: "bot" }, text: T.addBot })));
  }
  if (!config.player && index === 0) nodes.push(el("a", { href: `${config.lobbyUrl}?next=${location.pathname}`, text: T.signInToSit }));
  return nodes;
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function lastAction(index, v) {
  if (!v || !v.table) return null;
  const last = v.table.last[index];
  if (!last) return null;
  if (last.type === "play") return cardRow(last.cards);
  return el("span", { class: `said ${last.type}`, text: last.type === "pass" ? T.passed : T.yielded });
}

function renderCenter() {
  const v = view();
  const center = $("center");
  const nodes = [];
  if (store.room && store.room.status === "dissolved") {
    nodes.push(el("p", { class: "status", text: T.dissolved }), el("a", { class: "button", href: config.lobbyUrl, text: T.backToLobby }));
  } else if (!v || !running()) {
    const seated = store.seats.filter((seat) => seat.player).length;
    if (!v || !v.result) nodes.push(el("p", { class: "status", text: seated < 5 ? fmt(T.waiting, { n: seated }) : T.ready }));
    if (v && v.result) nodes.push(el("p", { class: "status", text: v.result.void ? T.void : T.ended }));
    if (mySeat() !== null && seated === 5) {
      nodes.push(el("button", { type: "button", class: "primary", dataset: { action: "start" },
        onclick: () => send({ type: "start" }), text: v && v.result ? T.nextHand : T.start }));
    }
    if (store.you && store.you.role !== "player") nodes.push(el("p", { class: "hint", text: T.spectating }));
  } else if (v.phase === "bidding") {
    nodes.push(...biddingInfo(v));
  } else if (v.phase === "declaring") {
    const pending = v.window.pending.map(seatName).join("、");
    nodes.push(el("p", { class: "status", text: T.declaring }), el("p", { text: fmt(T.waitingFor, { names: pending }) }));
  } else if (v.phase === "playing") {
    const table = v.table;
    if (table.top) {
      nodes.push(el("div", { class: "top-set", dataset: { seat: table.top.seat } },
        el("span", { class: "owner", text: seatName(table.top.seat) }), cardRow(table.top.cards, false)));
    }
    const turnText = v.turn === mySeat() ? (table.top ? T.yourTurn : T.yourLead)
      : fmt(table.top ? T.turnOf : T.leads, { name: seatName(v.turn) });
    nodes.push(el("p", { class: "status", text: turnText }));
  }
  if (v && v.roles && v.roles.called) nodes.push(el("p", { class: "called" }, `${T.called}: `, cardNode(v.roles.called, { small: true })));
  if (v && v.deal && running() && v.phase !== "playing") nodes.push(dealInfo(v.deal));
  center.replaceChildren(...nodes.filter(Boolean));
}

function biddingInfo(v) {
  const bidding = v.bidding;
  const nodes = [el("p", { class: "status", text: T.bidding })];
  if (v.preset === "classic") {
    nodes.push(el("p", { text: fmt(bidding.forced ? T.forced : T.crownHolder, { name: seatName(bidding.forced ? v.turn : bidding.crown) }) }));
    if (bidding.declined.length) nodes.push(el("p", { class: "small", text: fmt(T.declinedBy, { names: bidding.declined.map(seatName).join("、") }) }));
  } else {
    nodes.push(el("p", { text: fmt(T.offered, { name: seatName(v.turn) }) }));
    if (bidding.bundle.length) nodes.push(el("div", { class: "bundle" }, el("span", { class: "label", text: T.bundle }), cardRow(bidding.bundle)));
  }
  return nodes;
}

function dealInfo(deal) {
  const lines = [];
  if (deal.tribute_paid.length) {
    lines.push(el("p", { class: "label", text: T.tributePaid }));
    for (const paid of deal.tribute_paid) {
      lines.push(el("p", { class: "transfer tribute" }, `${seatName(paid.from)} → ${seatName(paid.to)} `, paid.card ? cardNode(paid.card, { small: true }) : "🂠"));
    }
  }
  if (deal.threes.length) {
    lines.push(el("p", { class: "label", text: T.threes }));
    for (const three of deal.threes) {
      lines.push(el("p", { class: "transfer three" }, `${seatName(three.seller)} → ${seatName(three.buyer)} 3`,
        three.paid ? [" ⇄ ", cardNode(three.paid, { small: true })] : ""));
    }
  }
  return lines.length ? el("div", { class: "deal-info", id: "deal-info" }, lines) : "";
}

// -- bidding and declaration prompts -----------------------------------------------------------

function renderPrompt() {
  const v = view();
  const prompt = $("prompt");
  const buttons = [];
  const mine = mySeat() !== null ? store.seats[mySeat()] : null;
  if (v && running() && mine && !mine.trustee && v.phase !== "playing") {
    const busy = Boolean(conn.pending) || !conn.open;
    const button = (label, action, extra = {}) => el("button", {
      type: "button", class: extra.class || "", disabled: busy, dataset: { action: action.type, ...(extra.dataset || {}) },
      onclick: extra.onclick || (() => act(action)), text: label });
    if (v.phase === "bidding") {
      if (may("call")) {
        buttons.push(button(T.call, { type: "call" }, { class: "primary", onclick: () => { ui.picker = !ui.picker; renderPrompt(); } }));
      }
      if (may("accept")) buttons.push(button(T.accept, { type: "accept" }, { class: "primary" }));
      if (may("decline")) buttons.push(button(v.preset === "classic" ? T.declineClassic : T.declineBundle, { type: "decline" }));
      if (may("seize")) {
        buttons.push(button(ui.seizeArmed ? T.seizeConfirm : T.seize, { type: "seize" }, {
          class: ui.seizeArmed ? "danger" : "",
          onclick: () => {
            if (ui.seizeArmed) { ui.seizeArmed = false; act({ type: "seize" }); return; }
            ui.seizeArmed = true; renderPrompt();
            setTimeout(() => { ui.seizeArmed = false; renderPrompt(); }, 4000);
          },
        }));
      }
    } else if (v.phase === "declaring" && may("declare")) {
      for (const what of v.choices.declare) {
        buttons.push(button(T.declare[what] || what, { type: "declare", what }, {
          class: what === "none" || what === "an_bao" || what === "dark_solo" ? "" : "primary", dataset: { what } }));
      }
    }
  }
  const picker = ui.picker && may("call") ? el("div", { class: "picker", role: "group", "aria-label": T.callPick },
    el("span", { class: "label", text: T.callPick }),
    view().choices.call.map((card) => el("button", { type: "button", class: "pick", dataset: { action: "call-card", card },
      onclick: () => { ui.picker = false; act({ type: "call", card }); } }, cardNode(card, { small: true }))),
    el("button", { type: "button", class: "small", onclick: () => { ui.picker = false; renderPrompt(); }, text: T.cancel })) : null;
  if (!may("call")) ui.picker = false;
  prompt.hidden = !buttons.length;
  const signature = [...buttons, ...(picker ? [picker] : [])].map((node) => `${node.dataset.action || ""}|${node.textContent}|${node.disabled}`).join(";");
  if (signature === ui.promptSignature) return;
  ui.promptSignature = signature;
  prompt.replaceChildren(el("div", { class: "buttons" }, buttons), picker || "");
}

// -- own hand -----------------------------------------------------------------------------

function handCards() {
  const v = view();
  if (!v || !v.hand) return [];
  return ui.sort === "count" ? sortByCount(v.hand, v.preset) : sortByRank(v.hand, v.preset);
}

function keyed(cards) {
  const seen = new Map();
  return cards.map((card) => {
    const k = seen.get(card) || 0;
    seen.set(card, k + 1);
    return { card, key: `${card}#${k}` };
  });
}

function renderHand() {
  const v = view();
  const cards = handCards();
  const handKey = v && v.hand ? v.hand.join(" ") : "";
  if (handKey !== ui.handKey) {
    ui.handKey = handKey;
    ui.selected.clear();
    ui.hintList = null;
  }
  $("mine").hidden = !v || !v.hand;
  const container = $("hand");
  const signature = `${handKey}|${ui.sort}|${[...ui.selected].sort().join(",")}`;
  if (signature === ui.handSignature) return;
  ui.handSignature = signature;
  container.replaceChildren(...keyed(cards).map(({ card, key }) => cardNode(card, {
    tag: "button", key, selected: ui.selected.has(key), onclick: () => toggle(key),
  })));
  container.classList.toggle("count", ui.sort === "count");
}

function toggle(key) {
  if (ui.selected.has(key)) ui.selected.delete(key); else ui.selected.add(key);
  const button = $("hand").querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (button) {
    button.classList.toggle("selected", ui.selected.has(key));
    button.setAttribute("aria-pressed", ui.selected.has(key) ? "true" : "false");
  }
  ui.handSignature = `${ui.handKey}|${ui.sort}|${[...ui.selected].sort().join(",")}`;
  renderControls();
}

function selectedCards() {
  return keyed(handCards()).filter(({ key }) => ui.selected.has(key)).map(({ card }) => card);
}

function selectCards(cards) {
  ui.selected.clear();
  const wanted = new Map();
  for (const card of cards) wanted.set(card, (wanted.get(card) || 0) + 1);
  for (const { card, key } of keyed(handCards())) {
    if (wanted.get(card)) { ui.selected.add(key); wanted.set(card, wanted.get(card) - 1); }
  }
  renderHand();
  renderControls();
}

function nextHint() {
  const v = view();
  if (!ui.hintList) {
    // The engine's suggestions for this seat now (one legal play per rank, low to high).
    ui.hintList = v.hints || [];
    ui.hintIndex = -1;
  }
  if (!ui.hintList.length) { setNotice(T.noHint, "info"); return; }
  ui.hintIndex = (ui.hintIndex + 1) % ui.hintList.length;
  selectCards(ui.hintList[ui.hintIndex]);
}

// -- action buttons ------------------------------------------------------------------------

function renderControls() {
  const v = view();
  const controls = $("controls");
  const nodes = [];
  const seated = mySeat() !== null;
  const busy = Boolean(conn.pending) || !conn.open;
  const button = (label, action, onclick, extra = {}) => el("button", {
    type: "button", class: extra.class || "", disabled: extra.disabled || false,
    dataset: { action }, onclick, text: label, "aria-keyshortcuts": extra.keys });
  const seat = seated ? store.seats[mySeat()] : null;
  if (v && running() && seated && seat && !seat.trustee && v.phase === "playing" && myTurn()) {
    const leading = !v.table.top;
    if (may("play") || leading) {
      nodes.push(button(T.play, "play", playSelected, { class: "primary", disabled: busy || !ui.selected.size, keys: "Enter" }));
      nodes.push(button(T.hint, "hint", nextHint, { keys: "H" }));
    }
    if (may("pass")) nodes.push(button(T.pass, "pass", () => act({ type: "pass" }), { disabled: busy, keys: "P" }));
    if (may("yield")) nodes.push(button(T.yield, "yield", () => act({ type: "yield" }), { disabled: busy }));
  }
  if (v && running() && seated && seat) {
    const locked = seat.trustee && seat.trustee_locked;
    nodes.push(button(seat.trustee ? T.trusteeOff : T.trusteeOn, "trustee",
      () => send({ type: "trustee", on: !seat.trustee }),
      { class: seat.trustee ? "active" : "", disabled: locked || !conn.open }));
  }
  if (v && v.hand && v.hand.length) {
    nodes.push(button(ui.sort === "count" ? T.sortRank : T.sortCount, "sort", () => {
      ui.sort = ui.sort === "count" ? "rank" : "count";
      localStorage.setItem("bh-sort", ui.sort);
      renderHand(); renderControls();
    }, { class: "quiet" }));
    if (ui.selected.size) nodes.push(button(T.clear, "clear", () => { ui.selected.clear(); renderHand(); renderControls(); }, { class: "quiet" }));
  }
  // Rebuild only when something changed: a stable toolbar keeps focus and clicks steady.
  const signature = nodes.map((node) => `${node.dataset.action}|${node.textContent}|${node.disabled}|${node.className}`).join(";");
  if (signature !== ui.controlsSignature) {
    ui.controlsSignature = signature;
    const focused = document.activeElement && controls.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    controls.replaceChildren(...nodes);
    if (focused) controls.querySelector(`[data-action="${focused}"]`)?.focus();
  }
  $("notice").textContent = ui.notice;
  $("notice").className = `notice ${ui.noticeKind}`;
  const leave = $("leave-button");
  leave.hidden = !seated || (store.room && store.room.status === "dissolved");
}

function playSelected() {
  const cards = selectedCards();
  if (!cards.length) return;
  act({ type: "play", cards: cards.join(" ") });
}

function setNotice(text, kind = "") {
  ui.notice = text;
  ui.noticeKind = kind;
  const notice = $("notice");
  notice.textContent = text;
  notice.className = `notice ${kind}`;
}

// -- end of hand -------------------------------------------------------------------------------

function renderSheet() {
  const v = view();
  const dialog = $("score-sheet");
  const ended = Boolean(store.hand && v && v.result && !store.hand.running);
  $("scores-button").hidden = !ended;
  if (!ended) {
    if (dialog.open) dialog.close();
    return;
  }
  if (v.result.void) return;
  const buttons = [];
  const seated = store.seats.filter((seat) => seat.player).length;
  if (mySeat() !== null && seated === 5 && store.room.status === "open") {
    buttons.push(el("button", { type: "button", class: "primary", dataset: { action: "start" },
      onclick: () => { dialog.close(); send({ type: "start" }); }, text: T.nextHand }));
  }
  buttons.push(el("button", { type: "button", dataset: { action: "close-sheet" },
    onclick: () => { ui.sheetDismissed = store.hand.id; dialog.close(); }, text: T.close }));
  renderScoreSheet({ body: $("score-body"), buttons: $("score-buttons"), T, view: v, seatName, buttonsList: buttons,
    ledgerUrl: `/rooms/${config.room}/ledger/`, handId: store.hand.id });
  if (!dialog.open && ui.sheetDismissed !== store.hand.id) dialog.showModal();
}

$("scores-button").addEventListener("click", () => {
  ui.sheetDismissed = null;
  renderSheet();
});

$("leave-button").addEventListener("click", () => {
  if (running() && !window.confirm(T.leaveMidHand)) return;
  send({ type: "leave" });
});

// -- chat -------------------------------------------------------------------------------------
// Lines are built with textContent only (chat text is whatever people typed). A snapshot
// carrying `chat` (the room's recent records, oldest first) replaces the lines; each live
// `chat` frame appends one.

const CHAT_LINES = 100;
const chat = { unread: 0, phrasesKey: null };

const chatKey = (record) => `${record.player ? record.player.id : ""}|${record.at ?? ""}|${record.text ?? ""}`;

function chatLine(record) {
  const name = (record.player && record.player.name) || "?";
  const who = record.seat === null || record.seat === undefined ? name : `#${record.seat + 1} ${name}`;
  const at = typeof record.at === "number" ? new Date(record.at).toLocaleTimeString() : undefined;
  return el("li", { class: record.phrase ? "phrase" : "", title: at, dataset: { key: chatKey(record) } },
    el("span", { class: "who", text: `${who}:` }), " ", el("span", { class: "said", text: String(record.text ?? "") }));
}

function scrollChat() {
  const lines = $("chat-lines");
  lines.scrollTop = lines.scrollHeight;
}

function showChat(records) {
  // The lines become exactly `records`. A snapshot usually repeats what is shown (it comes
  // with every seat change): keep the lines that stay and append only the new ones, so a
  // screen reader (aria-live, additions) does not read the whole chat out again.
  const lines = $("chat-lines");
  records = records.slice(-CHAT_LINES);
  const keys = records.map(chatKey);
  const shown = [...lines.children].map((node) => node.dataset.key);
  let kept = Math.min(shown.length, keys.length);
  const same = (k) => keys.slice(0, k).every((key, i) => key === shown[shown.length - k + i]);
  while (kept > 0 && !same(kept)) kept -= 1;
  const drop = shown.length - kept;
  for (let i = 0; i < drop; i++) lines.firstElementChild.remove();
  lines.append(...records.slice(kept).map(chatLine));
  scrollChat();
}

function addChat(record) {
  const lines = $("chat-lines");
  // A frame published just before a snapshot may repeat that snapshot's last records.
  const key = chatKey(record);
  for (let node = lines.lastElementChild, n = 0; node && n < 30; node = node.previousElementSibling, n++) {
    if (node.dataset.key === key) return;
  }
  lines.append(chatLine(record));
  while (lines.children.length > CHAT_LINES) lines.firstElementChild.remove();
  scrollChat();
  if (!$("chat").open) {
    chat.unread += 1;
    renderUnread();
  }
}

function renderUnread() {
  const badge = $("chat-unread");
  badge.hidden = !chat.unread;
  badge.textContent = chat.unread ? fmt(T.chatUnread, { n: chat.unread }) : "";
}

function renderChat() {
  // Anyone signed in may chat (docs/protocol.md); anonymous spectators only read.
  const canChat = Boolean(store.you && store.you.player);
  $("chat-form").hidden = !canChat;
  $("chat-phrases").hidden = !canChat;
  const phrases = store.phrases || {};
  const key = JSON.stringify(phrases);
  if (key !== chat.phrasesKey) {
    chat.phrasesKey = key;
    $("chat-phrases").replaceChildren(...Object.entries(phrases).map(([id, text]) => el("button", {
      type: "button", class: "small", dataset: { phrase: id }, onclick: () => sendChat({ phrase: id }), text })));
  }
  const offline = !conn.open;
  $("chat-send").disabled = offline;
  for (const button of $("chat-phrases").querySelectorAll("button")) button.disabled = offline;
}

function sendChat(body) {
  if (!conn.open) return false;
  send({ type: "chat", ...body });
  return true;
}

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) {
    input.value = "";
    return;
  }
  if (sendChat({ text })) input.value = "";
});

if (localStorage.getItem("bh-chat") === "closed") $("chat").open = false;
$("chat").addEventListener("toggle", () => {
  localStorage.setItem("bh-chat", $("chat").open ? "open" : "closed");
  if (!$("chat").open) return;
  chat.unread = 0;
  renderUnread();
  scrollChat();
});

// -- joining from the lobby, timers, keys ------------------------------------------------------

function maybeJoin() {
  if (ui.joined || !new URLSearchParams(location.search).has("join")) return;
  ui.joined = true;
  if (store.you && store.you.role !== "player" && config.player && !running()) send({ type: "sit", seat: null });
  history.replaceState(null, "", location.pathname);
}

function tick() {
  const v = view();
  const hand = store.hand;
  const total = timerSeconds(v && v.phase) * 1000;
  for (const box of document.querySelectorAll(".seat")) {
    const ring = box.querySelector(".ring .left");
    const timer = box.querySelector(".timer");
    if (!ring) continue;
    if (!box.classList.contains("turn") || !hand || !hand.deadline) {
      ring.style.strokeDashoffset = "0";
      box.classList.remove("urgent");
      continue;
    }
    const left = Math.max(0, hand.deadline - (Date.now() + store.offset));
    ring.style.strokeDashoffset = String(119.4 * (1 - Math.min(1, left / total)));
    box.classList.toggle("urgent", left < 5000);
    if (timer) {
      const seconds = Math.ceil(left / 1000);
      timer.textContent = box.classList.contains("offline") ? fmt(T.secondsToTrustee, { s: seconds }) : `${seconds}s`;
    }
  }
}

// Keys: ←/→ move between cards (Space/Enter on a card selects it); H hint, P pass,
// Enter (with no button focused) plays the selection. Every key has a visible button too.
const SHORTCUTS = { h: "hint", p: "pass", Enter: "play" };

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select, dialog")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const action = SHORTCUTS[event.key];
  if (action && !(event.key === "Enter" && event.target.closest("button, a"))) {
    const button = $("controls").querySelector(`[data-action="${action}"]:not([disabled])`);
    if (button) {
      button.click();
      event.preventDefault();
    }
    return;
  }
  if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const cards = [...$("hand").querySelectorAll("button.card")];
    const at = cards.indexOf(document.activeElement);
    if (at < 0) return;
    const next = cards[Math.max(0, Math.min(cards.length - 1, at + (event.key === "ArrowRight" ? 1 : -1)))];
    next.focus();
    event.preventDefault();
  }
});

setInterval(tick, 250);
conn.connect();
window.bhTable = { store, conn, ui }; // for the browser tests and debugging
