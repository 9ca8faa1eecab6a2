// The room's WebSocket (docs/protocol.md): a heartbeat, reconnecting on its own. It knows
// nothing of the game: main.js re-sends the store's pending action after a reconnect.
//
// Heartbeat: a `ping` after every 2 s in which nothing was heard (any frame heard shows the
// line alive as a `pong` does, so a table that plays sends fewer: each costs the server a
// message, as much as a move's frame to one seat, and a phone its radio); when nothing at all
// has been heard for 3 s (a second after the ping: time for its pong) the connection is
// "stalled" (the page says 连接中断 and disables its buttons); after 6 s of silence the socket is
// dropped and a new one is opened (back-off 0.5 s … 5 s, each wait drawn between half and
// all of it, so the pages of a server process that went away do not all come back in the
// same instant). Time the page itself did not run (a starved machine, a background tab) is
// not counted as silence.

const FATAL_CLOSES = new Set([4403, 4404, 4410]); // spectators_not_allowed, no_room, room_closed
const PING_EVERY = 2000;
const STALLED_AFTER = 3000;
const DROP_AFTER = 6000;
const CHECK_EVERY = 500;

let counter = 0;
export function newClientId(prefix = "c") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}-${counter}`;
}

export class Connection {
  /**
   * @param {string} path  e.g. "/ws/rooms/7/"
   * @param {object} hooks onMessage(msg), onStatus("connecting"|"online"|"stalled"|"offline"|"closed", code),
   *                       onOpen() (after every (re)connect)
   */
  constructor(path, hooks) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}`;
    this.hooks = hooks;
    this.retries = 0;
    this.socket = null;
    this.status = "connecting";
    this.heard = 0;
    this.beat = null;
  }

  setStatus(status, code) {
    if (status === this.status && status !== "closed") return;
    this.status = status;
    this.hooks.onStatus(status, code);
  }

  connect() {
    this.setStatus(this.status === "stalled" ? "offline" : (this.everOpen ? "offline" : "connecting"));
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retries = 0;
      this.everOpen = true;
      this.heard = Date.now();
      this.lastCheck = this.heard;
      this.setStatus("online");
      this.hooks.onOpen();
      clearInterval(this.beat);
      this.beat = setInterval(() => this.heartbeat(socket), CHECK_EVERY);
    };
    socket.onmessage = (message) => {
      this.heard = Date.now();
      if (this.status === "stalled") this.setStatus("online");
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data) this.hooks.onMessage(data);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      clearInterval(this.beat);
      if (FATAL_CLOSES.has(event.code)) {
        this.setStatus("closed", event.code);
        return;
      }
      this.setStatus("offline");
      // A 1008 (too many messages) waits the longest.
      setTimeout(() => this.connect(), event.code === 1008 ? 5000 : this.backoff());
    };
  }

  heartbeat(socket) {
    if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    const asleep = now - this.lastCheck - CHECK_EVERY;
    if (asleep > CHECK_EVERY) this.heard += asleep; // the page did not run: frames may be waiting unread
    this.lastCheck = now;
    const quiet = now - this.heard;
    if (quiet >= DROP_AFTER) {
      this.drop();
      return;
    }
    if (quiet >= STALLED_AFTER) this.setStatus("stalled");
    if (now - Math.max(this.lastPing || 0, this.heard) >= PING_EVERY) {
      this.lastPing = now;
      this.send({ type: "ping", t: now });
    }
  }

  /** Give up on this socket now (it went silent) and open a new one. */
  drop() {
    const socket = this.socket;
    this.socket = null;
    clearInterval(this.beat);
    try { socket.close(4000, "silent"); } catch { /* already closing */ }
    this.setStatus("offline");
    setTimeout(() => this.connect(), this.backoff());
  }

  /** Milliseconds to wait before the next opening: 0.5 s, doubling to 5 s, with jitter. */
  backoff() {
    const full = Math.min(5000, 500 * 2 ** this.retries);
    this.retries += 1;
    return full * (0.5 + Math.random() / 2);
  }

  get open() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN && this.status === "online");
  }

  send(frame) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  /** For tests and debugging: lose the socket as a network failure would — at once, as
   * `drop` does, not after a close handshake the server may be slow to answer (meanwhile
   * the page showed itself online with every button disabled). */
  breakSocket() {
    if (this.socket) this.drop();
  }
}
