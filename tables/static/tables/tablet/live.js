// The table's live channel (/ws/tables/<id>/): listen only, reconnect with capped
// exponential backoff and jitter, and say at once when the link is down.

export const CLOSE_REFUSED = 4403;

export class TableSocket {
  constructor({ url, onMessage, onLink, minDelayMs = 500, maxDelayMs = 10000 }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onLink = onLink; // (up: boolean) => void
    this.minDelayMs = minDelayMs;
    this.maxDelayMs = maxDelayMs;
    this.attempt = 0;
    this.socket = null;
    this.timer = null;
  }

  start() {
    this.connect();
    // The browser knows before the socket does that the network went away.
    window.addEventListener("offline", () => this.drop());
    window.addEventListener("online", () => this.connect());
  }

  connect() {
    clearTimeout(this.timer);
    if (this.socket) return;
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (err) {
      this.retry(null);
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.onLink(true);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (message && typeof message === "object") this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.onLink(false);
      this.retry(event.code);
    });
  }

  drop() {
    if (!this.socket) return;
    const socket = this.socket;
    this.socket = null;
    socket.close();
    this.onLink(false);
    this.retry(null);
  }

  retry(code) {
    const base = code === CLOSE_REFUSED ? this.maxDelayMs : Math.min(this.maxDelayMs, this.minDelayMs * 2 ** this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), base / 2 + Math.random() * (base / 2));
  }
}
