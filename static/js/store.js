// The table's memory, pure: what the server said (docs/protocol.md), folded in by
// `apply(store, frame)`. No DOM, no socket: `node --test static/js/tests/` runs it.
//
// It keeps the room, the seats, the hand (id, version, view, deadline), the clock offset,
// the one action awaiting its answer (`pending`, re-sent once after a reconnect with the
// same client_id), the last result seen and the players seated when it was seen (a
// dissolved room empties its seats, but the score sheet still names the players). The
// store keeps player records (`{id, name, bot}`); the renderers word them (i18n.playerName).

export function createStore(seat = null) {
  return {
    room: null, you: { seat, role: null, player: null }, seats: [], hand: null,
    phrases: {}, offset: 0, lastEvent: null,
    pending: null, // {client_id, frame, resent}
    error: null, // the last refusal: {code, params}
    players: [null, null, null, null, null], // the last player seen at each seat
    result: null, // {hand, result, players}: the latest finished hand's sheet
  };
}

/**
 * Fold one server frame into the store (mutated in place). Returns what the caller must
 * do: `{render, sync}` — `sync` is a frame to send when the event stream has a gap.
 */
export function apply(store, frame, now = Date.now()) {
  const handler = HANDLERS[frame && frame.type];
  if (!handler) return { render: false, sync: null };
  return { render: true, sync: null, ...handler(store, frame, now) };
}

const HANDLERS = {
  snapshot(store, frame, now) {
    store.offset = frame.server_time - now;
    store.room = frame.room;
    store.you = frame.you;
    store.seats = frame.seats;
    store.hand = frame.hand;
    store.phrases = frame.phrases || store.phrases;
    rememberPlayers(store);
    rememberResult(store);
    return {};
  },
  event(store, frame) {
    const hand = store.hand;
    if (!hand || frame.hand !== hand.id || frame.version !== hand.version + 1) {
      // A gap (or another hand): catch up from the last version applied.
      return { render: false, sync: hand ? { type: "sync", hand: hand.id, version: hand.version } : null };
    }
    hand.version = frame.version;
    if ("view" in frame) {
      hand.view = frame.view;
      hand.deadline = frame.deadline;
      if (frame.view && frame.view.result) hand.running = false;
    }
    if (frame.event) store.lastEvent = frame.event;
    rememberResult(store);
    return {};
  },
  ack(store, frame) {
    answered(store, frame);
    return {};
  },
  error(store, frame) {
    answered(store, frame);
    store.error = { code: frame.code, params: frame.params || {} };
    return {};
  },
  presence(store, frame) {
    store.seats[frame.seat.index] = frame.seat;
    if (store.hand && "dissolves" in frame) store.hand.dissolves = frame.dissolves;
    rememberPlayers(store);
    return {};
  },
  pong(store, frame, now) {
    store.offset = frame.server_time - now;
    return { render: false };
  },
};

function answered(store, frame) {
  if (store.pending && frame.client_id === store.pending.client_id) store.pending = null;
}

function rememberPlayers(store) {
  for (const seat of store.seats || []) {
    if (seat && seat.player) store.players[seat.index] = seat.player;
  }
}

function rememberResult(store) {
  const hand = store.hand;
  if (hand && hand.view && hand.view.result && !(store.result && store.result.hand === hand.id)) {
    // Who played this hand (`hand.players`) names the rows; else the players last seen seated.
    const players = (hand.players || []).map((player, index) => player || store.players[index]);
    store.result = { hand: hand.id, number: hand.number, result: hand.view.result,
      players: players.length ? players : [...store.players] };
  }
}

// -- the pending action ------------------------------------------------------------------

/** Start an `act`: the frame to send, or null while another action awaits its answer. */
export function begin(store, action, clientId) {
  if (store.pending || !store.hand) return null;
  const frame = { type: "act", client_id: clientId, expected_version: store.hand.version, action };
  store.pending = { client_id: clientId, frame, resent: false };
  store.error = null;
  return frame;
}

/** After a reconnect: the pending frame to send again (same client_id), once only. */
export function resend(store) {
  if (!store.pending || store.pending.resent) return null;
  store.pending.resent = true;
  return store.pending.frame;
}

// -- what the page derives ----------------------------------------------------------------

export const view = (store) => (store.hand ? store.hand.view : null);
export const mySeat = (store) => (store.you && store.you.role === "player" ? store.you.seat : null);
export const running = (store) => Boolean(store.hand && store.hand.running && store.room && store.room.status !== "dissolved");
export const may = (store, type) => Boolean(view(store) && view(store).may && view(store).may.includes(type));

export function myTurn(store) {
  const v = view(store);
  return Boolean(v && running(store) && mySeat(store) !== null && v.actors.includes(mySeat(store)));
}

/** A seat's player, or the last player seen there (null: nobody yet). */
export function seatPlayer(store, index) {
  const seat = store.seats[index];
  if (seat && seat.player) return seat.player;
  return store.players[index] || null;
}

/** Your seat may take 托管 off (RULES §8: not once locked, not after leaving). */
export function mayCancelTrustee(seat) {
  return Boolean(seat && seat.trustee && !seat.trustee_locked && !seat.left);
}

/** The room dissolves when this hand ends: some seat is still under 托管. */
export const dissolves = (store) => Boolean(running(store) && store.hand.dissolves);

/** Following a set that nothing in the hand beats (要不起): only 过 is left. */
export function cannotBeat(store) {
  const v = view(store);
  return Boolean(myTurn(store) && v.phase === "playing" && v.table && v.table.top
    && may(store, "pass") && !(v.hints && v.hints.length));
}

/** 准备: milliseconds left of the full table's wait for ready (`room.ready_due`), by the
 * server's clock; null when the table is not waiting (not full, everyone ready, a hand). */
export function readyLeft(store, now = Date.now()) {
  const due = store.room && store.room.ready_due;
  if (!due || running(store) || store.room.status === "dissolved") return null;
  return Math.max(0, due - (now + store.offset));
}

/** You may free seat `index`: another player's, not ready when the wait for ready ran out. */
export function mayFree(store, index, now = Date.now()) {
  const seat = store.seats[index];
  return Boolean(mySeat(store) !== null && index !== mySeat(store) && seat && seat.player && !seat.ready
    && readyLeft(store, now) === 0);
}

/** The open decision's whole time in milliseconds: the room's timer for the hand's phase. */
export function decisionMs(store) {
  const timers = (store.room && store.room.options.timers) || {};
  const v = view(store);
  return ({ bidding: timers.bid, declaring: timers.declare, playing: timers.play }[v && v.phase] || 20) * 1000;
}

/** Milliseconds left on the open decision, by the server's clock, never more than its whole
 * time: the clock offset lags the server by a frame's transit, which showed 121 秒 of 120. */
export function msLeft(store, now = Date.now()) {
  const hand = store.hand;
  if (!hand || !hand.deadline) return null;
  return Math.min(decisionMs(store), Math.max(0, hand.deadline - (now + store.offset)));
}
