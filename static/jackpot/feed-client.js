// The reference client of the public jackpot feed (spec/signage-feed.md).
// It keeps the socket open, drops out-of-order messages by seq, declares the feed stale
// after `staleMs` without any message or at once when its socket closes (a number nothing
// can update any more is not shown), and reconnects with exponential backoff capped at a
// few seconds: a screen is back within `maxDelayMs` of the server's return. Only a refused
// token or an unknown bank is retried at the slow `refusedDelayMs`.
// A heartbeat carries the bank's committed seq: still behind it one beat later, a message
// was lost on the way, and a new socket's snapshot brings the committed state.

export const CLOSE_REFUSED = 4403;
export const CLOSE_NO_BANK = 4404;

export class FeedClient {
  constructor({ url, protocols = [], onMessage, onFault, onResync = () => {}, staleMs = 15000, minDelayMs = 500, maxDelayMs = 4000, refusedDelayMs = 30000 }) {
    this.url = url;
    this.protocols = protocols; // e.g. ["tapis.jackpot-feed", "tapis.token.<token>"] for a player without cookies
    this.onResync = onResync;
    this.behindSeq = null;
    this.onMessage = onMessage;
    this.onFault = onFault; // (reason) => void, called when the shown amounts can no longer be trusted
    this.staleMs = staleMs;
    this.minDelayMs = minDelayMs;
    this.maxDelayMs = maxDelayMs;
    this.refusedDelayMs = refusedDelayMs;
    this.lastSeq = -1;
    this.attempt = 0;
    this.socket = null;
    this.staleTimer = null;
    this.retryTimer = null;
  }

  start() {
    this.armStaleTimer();
    this.connect();
  }

  connect() {
    clearTimeout(this.retryTimer);
    let socket;
    try {
      socket = this.protocols.length ? new WebSocket(this.url, this.protocols) : new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect(null);
      return;
    }
    this.socket = socket;
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === CLOSE_REFUSED || event.code === CLOSE_NO_BANK) {
        this.onFault(event.code === CLOSE_REFUSED ? "refused" : "no-bank");
      } else {
        this.onFault("closed");
      }
      this.scheduleReconnect(event.code);
    });
  }

  scheduleReconnect(code) {
    // A refused token or an unknown bank will not heal quickly: retry at the slowest pace.
    const permanent = code === CLOSE_REFUSED || code === CLOSE_NO_BANK;
    const base = permanent ? this.refusedDelayMs : Math.min(this.maxDelayMs, this.minDelayMs * 2 ** this.attempt);
    this.attempt += 1;
    const delay = base / 2 + Math.random() * (base / 2); // jitter: screens do not reconnect in lockstep
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (err) {
      return;
    }
    if (typeof message !== "object" || message === null || typeof message.seq !== "number") return;
    this.armStaleTimer();
    if (message.type === "heartbeat") {
      // Not a change: it never moves lastSeq, it tells what lastSeq should be by now.
      if (message.seq <= this.lastSeq) {
        this.behindSeq = null;
      } else if (this.behindSeq !== null && this.lastSeq < this.behindSeq) {
        this.resync();
        return;
      } else {
        this.behindSeq = message.seq; // maybe still on its way: give it one beat
      }
      this.onMessage(message);
      return;
    }
    if (message.type === "snapshot") {
      // A snapshot is the whole state: it always applies and restarts the sequence.
      this.attempt = 0;
      this.lastSeq = message.seq;
    } else if (message.seq < this.lastSeq) {
      return;
    } else {
      this.lastSeq = message.seq;
    }
    this.onMessage(message);
  }

  resync() {
    // Drop this socket (it missed a message) and open a new one at once: its snapshot is
    // the committed state. The amounts on screen stay: they are only one change behind.
    this.behindSeq = null;
    this.onResync();
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
    this.connect();
  }

  armStaleTimer() {
    clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      this.onFault("stale");
      // A silent socket may be half-open: drop it and start again.
      if (this.socket) {
        const socket = this.socket;
        this.socket = null;
        socket.close();
        this.scheduleReconnect(null);
      }
    }, this.staleMs);
  }
}
