// The room's WebSocket (docs/protocol.md): reconnects on its own, resyncs with the last
// version it applied, and re-sends an unanswered action with the same client_id so the
// server can answer it without applying it twice.

const FATAL_CLOSES = new Set([4403, 4404, 4410]); // spectators_not_allowed, no_room, room_closed
const PING_EVERY = 20000;

let counter = 0;
export function newClientId(prefix = "c") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}-${counter}`;
}

export class Connection {
  /**
   * @param {string} path  e.g. "/ws/rooms/7/"
   * @param {object} hooks onMessage(msg), onStatus("connecting"|"online"|"offline"|"closed"),
   *                       onOpen() (called after every (re)connect, before the pending re-send)
   */
  constructor(path, hooks) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}`;
    this.hooks = hooks;
    this.pending = null; // the one action awaiting its ack: {client_id, frame}
    this.retries = 0;
    this.socket = null;
    this.stopped = false;
  }

  connect() {
    this.hooks.onStatus("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retries = 0;
      this.hooks.onStatus("online");
      this.hooks.onOpen();
      if (this.pending) this.sendFrame(this.pending.frame); // same client_id: never applied twice
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping", t: Date.now() }), PING_EVERY);
    };
    socket.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data && this.pending && data.client_id === this.pending.client_id
          && (data.type === "ack" || data.type === "error")) {
        this.pending = null;
      }
      this.hooks.onMessage(data);
    };
    socket.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.socket !== socket) return;
      if (this.stopped || FATAL_CLOSES.has(event.code)) {
        this.hooks.onStatus("closed", event.code);
        return;
      }
      this.hooks.onStatus("offline");
      // Back off 0.5 s, 1 s, 2 s … up to 5 s; a 1008 (too many messages) waits the longest.
      const delay = event.code === 1008 ? 5000 : Math.min(5000, 500 * 2 ** this.retries);
      this.retries += 1;
      setTimeout(() => this.connect(), delay);
    };
  }

  get open() {
    return this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  sendFrame(frame) {
    if (this.open) this.socket.send(JSON.stringify(frame));
  }

  /** A message that needs no re-send (sit, start, trustee, sync …). */
  send(frame) {
    this.sendFrame(frame);
  }

  /** An `act`: one at a time; kept until acked or refused, re-sent after a reconnect. */
  act(action, expectedVersion) {
    if (this.pending) return null;
    const clientId = newClientId("a");
    const frame = { type: "act", client_id: clientId, expected_version: expectedVersion, action };
    this.pending = { client_id: clientId, frame };
    this.sendFrame(frame);
    return clientId;
  }

  /** Forget the unanswered action (a snapshot showed the hand moved on without it). */
  dropPending() {
    this.pending = null;
  }

  /** For tests and debugging: drop the socket as a network failure would. */
  breakSocket() {
    if (this.socket) this.socket.close(4000, "test");
  }
}
