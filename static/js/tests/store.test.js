// node --test static/js/tests/ — the pure modules of the table page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { apply, begin, cannotBeat, createStore, decisionMs, dissolves, mayCancelTrustee, mayFree, msLeft, readyLeft, resend,
  seatPlayer } from "../store.js";

const seats = (names) => names.map((name, index) => ({ index, player: name ? { id: index, name, bot: false } : null,
  online: true, trustee: false, trustee_locked: false, left: false }));

function snapshot(overrides = {}) {
  return {
    type: "snapshot", server_time: 1000, room: { id: 1, status: "playing", options: { timers: {} } },
    you: { player: { id: 0, name: "alice" }, seat: 0, role: "player" },
    seats: seats(["alice", "bob", "carol", "dave", "erin"]),
    hand: { id: 7, number: 1, running: true, version: 3, deadline: null,
      view: { phase: "playing", actors: [0], may: ["play", "pass"], hints: [["9S"]], table: { top: { seat: 4, cards: ["8S"] } } } },
    ...overrides,
  };
}

test("an event at the next version is applied; one further ahead asks for a sync", () => {
  const store = createStore(0);
  apply(store, snapshot(), 900);
  assert.equal(store.offset, 100);
  const next = apply(store, { type: "event", hand: 7, version: 4, view: { phase: "playing", actors: [1] }, deadline: 5 });
  assert.equal(next.sync, null);
  assert.equal(store.hand.version, 4);
  assert.deepEqual(store.hand.view.actors, [1]);
  const gap = apply(store, { type: "event", hand: 7, version: 6, view: {} });
  assert.deepEqual(gap.sync, { type: "sync", hand: 7, version: 4 });
  assert.equal(store.hand.version, 4);
  assert.equal(gap.render, false);
});

test("an event of another hand is not applied", () => {
  const store = createStore(0);
  apply(store, snapshot());
  const other = apply(store, { type: "event", hand: 8, version: 4, view: {} });
  assert.deepEqual(other.sync, { type: "sync", hand: 7, version: 3 });
  assert.equal(store.hand.version, 3);
});

test("the pending action is kept until its ack, and re-sent once with the same client_id", () => {
  const store = createStore(0);
  apply(store, snapshot());
  const frame = begin(store, { type: "pass" }, "a-1");
  assert.deepEqual(frame, { type: "act", client_id: "a-1", expected_version: 3, action: { type: "pass" } });
  assert.equal(begin(store, { type: "pass" }, "a-2"), null); // one at a time
  assert.equal(resend(store), frame);
  assert.equal(resend(store), null); // once only
  apply(store, { type: "ack", client_id: "other" });
  assert.equal(store.pending.client_id, "a-1");
  apply(store, { type: "ack", client_id: "a-1", version: 4 });
  assert.equal(store.pending, null);
});

test("a refusal clears the pending action and keeps its code and parameters", () => {
  const store = createStore(0);
  apply(store, snapshot());
  begin(store, { type: "play", cards: "4H" }, "a-1");
  apply(store, { type: "error", code: "wrong_size", params: { size: 1 }, client_id: "a-1" });
  assert.equal(store.pending, null);
  assert.deepEqual(store.error, { code: "wrong_size", params: { size: 1 } });
});

test("the score sheet keeps the names seated when the hand ended, after the room dissolved", () => {
  const store = createStore(0);
  apply(store, snapshot());
  const result = { places: [0, 1, 2, 3, 4], scores: [2, 1, -1, -1, -1] };
  apply(store, { type: "event", hand: 7, version: 4, view: { phase: "ended", actors: [], result }, deadline: null });
  assert.equal(store.hand.running, false);
  apply(store, snapshot({ room: { id: 1, status: "dissolved", options: {} }, seats: seats([null, null, null, null, null]),
    you: { player: { id: 0, name: "alice" }, seat: null, role: "spectator" },
    hand: { id: 7, number: 1, running: false, version: 4, view: { phase: "ended", actors: [], result } } }));
  assert.deepEqual(store.result.players.map((player) => player.name), ["alice", "bob", "carol", "dave", "erin"]);
  assert.equal(seatPlayer(store, 2).name, "carol");
});

test("要不起: following, with no hint, only 过 is left", () => {
  const store = createStore(0);
  apply(store, snapshot());
  assert.equal(cannotBeat(store), false);
  store.hand.view.hints = [];
  assert.equal(cannotBeat(store), true);
  store.hand.view.table.top = null; // a lead can always be played
  assert.equal(cannotBeat(store), false);
});

test("presence replaces one seat; pong only moves the clock", () => {
  const store = createStore(0);
  apply(store, snapshot());
  apply(store, { type: "presence", seat: { ...store.seats[2], online: false } });
  assert.equal(store.seats[2].online, false);
  assert.equal(apply(store, { type: "pong", server_time: 5000 }, 4000).render, false);
  assert.equal(store.offset, 1000);
  assert.equal(apply(store, { type: "nonsense" }).render, false);
});

test("the sheet is named from hand.players when the snapshot carries them", () => {
  const store = createStore(0);
  apply(store, snapshot({ seats: seats([null, null, null, null, null]),
    hand: { id: 9, number: 2, running: false, version: 8, players: [{ name: "ann" }, { name: "ben" }, null, { name: "dan" }, { name: "eve" }],
      view: { phase: "ended", actors: [], result: { places: [0, 1, 2, 3, 4], scores: [0, 0, 0, 0, 0] } } } }));
  assert.deepEqual(store.result.players.map((player) => player && player.name), ["ann", "ben", null, "dan", "eve"]);
});

test("a presence frame carries whether the room dissolves at the hand's end", () => {
  const store = createStore(0);
  apply(store, snapshot());
  assert.equal(dissolves(store), false);
  apply(store, { type: "presence", seat: { ...store.seats[3], trustee: true }, dissolves: true });
  assert.equal(dissolves(store), true);
  assert.equal(mayCancelTrustee(store.seats[3]), true);
  assert.equal(mayCancelTrustee({ ...store.seats[3], trustee_locked: true }), false);
  assert.equal(mayCancelTrustee({ ...store.seats[3], left: true }), false);
});

test("准备: the wait for ready counts down by the server's clock; then another seat not ready may be freed", () => {
  const store = createStore(0);
  const between = { room: { id: 1, status: "open", options: { timers: {} }, ready_due: 31000 }, hand: null };
  apply(store, snapshot(between), 900); // the server's clock runs 100 ms ahead
  store.seats[0].ready = true;
  store.seats[1].ready = true;
  assert.equal(readyLeft(store, 900), 30000);
  assert.equal(mayFree(store, 4, 900), false); // too early
  assert.equal(readyLeft(store, 40000), 0);
  assert.equal(mayFree(store, 4, 40000), true);
  assert.equal(mayFree(store, 1, 40000), false); // bob is ready
  assert.equal(mayFree(store, 0, 40000), false); // your own seat: leave instead
  apply(store, { type: "presence", seat: { ...store.seats[4], ready: true } });
  assert.equal(mayFree(store, 4, 40000), false);
  const watching = createStore(null);
  apply(watching, snapshot({ ...between, you: { player: null, seat: null, role: "spectator" } }), 900);
  assert.equal(mayFree(watching, 4, 40000), false); // only a seated player frees a seat
  apply(store, snapshot()); // a hand is running: no wait for ready
  assert.equal(readyLeft(store, 40000), null);
});

test("the time left on a decision is by the server's clock and never more than the room's timer", () => {
  const store = createStore(0);
  const room = { id: 1, status: "playing", options: { timers: { bid: 15, declare: 8, play: 120 } } };
  // The page set its clock by the server's at 1000; the decision opened 40 ms later by the
  // server's clock (a frame's transit, a move applied after the clock was read).
  const frame = snapshot({ room, server_time: 1000 });
  frame.hand.deadline = 1040 + 120000;
  apply(store, frame, 900);
  assert.equal(decisionMs(store), 120000);
  assert.equal(msLeft(store, 900), 120000); // not 120040, which showed as 121 秒
  assert.equal(msLeft(store, 900 + 30000), 90040);
  assert.equal(msLeft(store, 900 + 200000), 0);
  store.hand.view.phase = "declaring";
  assert.equal(decisionMs(store), 8000);
  assert.equal(msLeft(store, 900), 8000);
  store.hand.deadline = null;
  assert.equal(msLeft(store, 900), null);
});
