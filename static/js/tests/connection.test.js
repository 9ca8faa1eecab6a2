// The heartbeat, with a fake socket and Node's mock clock: a silent connection is shown
// as lost within 3 s, dropped and reopened after 6 s; any frame heard brings it back.
import { test, mock } from "node:test";
import assert from "node:assert/strict";

class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; FakeSocket.made.push(this); }
  open() { this.readyState = 1; this.onopen(); }
  send(text) { this.sent.push(JSON.parse(text)); }
  hear(frame) { this.onmessage({ data: JSON.stringify(frame) }); }
  close() { this.readyState = 3; }
}
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "table.test" };
// The clock runs as a page's does: the heartbeat's timer fires every half second.
const run = (ms) => { for (let t = 0; t < ms; t += 500) mock.timers.tick(500); };

const { Connection } = await import("../connection.js");

test("a silent socket is lost at 3 s, replaced after 6 s, and a frame heard in between brings it back", () => {
  mock.timers.enable({ apis: ["setInterval", "setTimeout", "Date"], now: 1_000_000 });
  try {
    const statuses = [];
    const opened = [];
    const conn = new Connection("/ws/rooms/1/", { onStatus: (s) => statuses.push(s), onMessage() {}, onOpen: () => opened.push(1) });
    conn.connect();
    const first = FakeSocket.made.at(-1);
    assert.equal(first.url, "ws://table.test/ws/rooms/1/");
    first.open();
    assert.equal(conn.open, true);
    run(1500);
    assert.deepEqual(first.sent, [], "nothing to say for 2 s");
    run(500);
    assert.deepEqual(first.sent.map((frame) => frame.type), ["ping"], "a ping after 2 s without a word");
    run(500);
    assert.equal(statuses.at(-1), "online", "the pong may take a second");
    run(500); // 3 s without a word
    assert.equal(statuses.at(-1), "stalled");
    assert.equal(conn.open, false);
    first.hear({ type: "pong" });
    assert.equal(statuses.at(-1), "online");
    run(6500); // silent again, long enough to give up on this socket
    assert.equal(statuses.at(-1), "offline");
    assert.equal(first.readyState, 3);
    run(5000);
    const second = FakeSocket.made.at(-1);
    assert.notEqual(second, first);
    second.open();
    assert.equal(statuses.at(-1), "online");
    assert.equal(opened.length, 2); // onOpen after every (re)connect: the page re-sends there
  } finally {
    mock.timers.reset();
  }
});

test("time the page did not run (a starved machine, a background tab) is not silence", () => {
  mock.timers.enable({ apis: ["setInterval", "setTimeout", "Date"], now: 2_000_000 });
  try {
    const statuses = [];
    const conn = new Connection("/ws/rooms/1/", { onStatus: (s) => statuses.push(s), onMessage() {}, onOpen() {} });
    conn.connect();
    FakeSocket.made.at(-1).open();
    mock.timers.tick(500);
    mock.timers.setTime(Date.now() + 9000); // the clock jumps, no timer ran meanwhile
    mock.timers.tick(500);
    assert.equal(statuses.at(-1), "online");
    assert.equal(conn.open, true);
  } finally {
    mock.timers.reset();
  }
});

test("a socket that keeps hearing frames sends no ping; once they stop it pings within 2 s", () => {
  mock.timers.enable({ apis: ["setInterval", "setTimeout", "Date"], now: 3_000_000 });
  try {
    const conn = new Connection("/ws/rooms/1/", { onStatus() {}, onMessage() {}, onOpen() {} });
    conn.connect();
    const socket = FakeSocket.made.at(-1);
    socket.open();
    for (let beat = 0; beat < 10; beat += 1) { // a busy table: a frame every half second
      mock.timers.tick(500);
      socket.hear({ type: "presence", seat: { index: 0 } });
    }
    assert.deepEqual(socket.sent.filter((frame) => frame.type === "ping"), []);
    run(1500); // quiet now
    assert.deepEqual(socket.sent.filter((frame) => frame.type === "ping"), []);
    run(500);
    const pings = socket.sent.filter((frame) => frame.type === "ping");
    assert.equal(pings.length, 1);
    assert.equal(conn.open, true);
  } finally {
    mock.timers.reset();
  }
});

test("pages that lost their sockets together reopen them at moments of their own, within the back-off", () => {
  mock.timers.enable({ apis: ["setInterval", "setTimeout", "Date"], now: 4_000_000 });
  const draws = [0, 0.999];
  const random = mock.method(Math, "random", () => draws.shift());
  try {
    const pages = draws.map(() => new Connection("/ws/rooms/1/", { onStatus() {}, onMessage() {}, onOpen() {} }));
    const sockets = pages.map((page) => { page.connect(); return FakeSocket.made.at(-1); });
    sockets.forEach((socket) => socket.open());
    sockets.forEach((socket) => socket.onclose({ code: 1006 })); // their server process went away
    assert.equal(random.mock.callCount(), 2);
    const made = FakeSocket.made.length;
    mock.timers.tick(250); // half the first wait of 0.5 s: the first page only
    assert.equal(FakeSocket.made.length, made + 1);
    mock.timers.tick(249);
    assert.equal(FakeSocket.made.length, made + 1);
    mock.timers.tick(1); // all of it: the second page
    assert.equal(FakeSocket.made.length, made + 2);
  } finally {
    random.mock.restore();
    mock.timers.reset();
  }
});
