// A game's websocket (docs/online.md, "The page"): the connection, its reconnection
// after 0.3, 1, 2, 4, then every 8 s, and the commands in flight, each answered once:
// by its event (the fold settles it), by the server's acknowledgement or refusal, or
// after a reconnection by the catch-up (`resend`).
import { answer, refusal } from "./api.js";

// Reconnection waits (ms), the last repeated.
const BACKOFF = [300, 1000, 2000, 4000, 8000];

// The websocket of game `gameId`. `hooks.hello()` gives each connection's first
// message, `hooks.message(m)` takes each message read, `hooks.closed()` hears of a
// close (a reconnection follows).
export function gameSocket(gameId, hooks) {
  let socket = null;
  // Caught up since the last (re)connection (`welcomed`).
  let up = false;
  let attempts = 0;
  // Commands sent and not yet answered, oldest first: { kind, msg, resolve }.
  let pending = [];

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  function read(text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch (err) {
      return;
    }
    try {
      hooks.message(m);
    } catch (err) {
      window.jungleErrors.push(String(err));
    }
  }

  function open() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/games/" + gameId + "/ws";
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify(hooks.hello()));
    ws.onmessage = (e) => read(e.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      up = false;
      hooks.closed();
      const wait = BACKOFF[Math.min(attempts, BACKOFF.length - 1)];
      attempts++;
      setTimeout(open, wait);
    };
  }

  // Answers the oldest command of `kind` in flight with `result`.
  function settle(kind, result) {
    const i = pending.findIndex((p) => p.kind === kind);
    if (i < 0) return;
    const [p] = pending.splice(i, 1);
    p.resolve(result);
  }

  // The commands sent before the connection dropped that the catch-up did not answer
  // (the server acted on none of them, or its answer was lost): sent again, in their
  // order. The server acknowledges a move it already has, and refuses a command that
  // no longer applies (a draw offer in a finished game), so each is answered once. A
  // move the catch-up holds as a whole state (the game's `moves` now) rather than as
  // its event is answered from that state.
  function resend(moves) {
    const left = [];
    for (const p of pending) {
      if (p.kind === "move" && p.msg.ply < moves.length && moves[p.msg.ply] === p.msg.mv) {
        p.resolve(answer(200, null));
      } else if (p.kind === "move" && p.msg.ply !== moves.length) {
        p.resolve(refusal("bad_ply", "the game moved on before this move reached the server"));
      } else {
        send(p.msg);
        left.push(p);
      }
    }
    pending = left;
  }

  function leave() {
    const ws = socket;
    socket = null;
    up = false;
    if (ws) ws.close();
  }

  return {
    settle,
    resend,
    connected: () => up,
    // Opens the connection and pings every 15 s (the clock's offset, and a dead
    // connection found). A page left for another (kept by the browser to come back to)
    // leaves its seat: the opponent sees it gone; back, it connects again.
    start() {
      open();
      setInterval(() => send({ t: "ping" }), 15000);
      window.addEventListener("pagehide", leave);
      window.addEventListener("pageshow", (e) => {
        if (e.persisted && !socket) open();
      });
    },
    // The catch-up is done (`welcome`): the connection is up.
    welcomed() {
      up = true;
      attempts = 0;
    },
    // A gap in the versions: this connection closes, the next asks from the last seen.
    reconnect() {
      if (socket) socket.close();
    },
    // Sends a command; its Promise is answered by `settle` (or `resend`).
    command(kind, msg) {
      return new Promise((resolve) => {
        if (!send(msg)) {
          resolve(refusal("offline", "not connected"));
          return;
        }
        pending.push({ kind, msg, resolve });
      });
    },
    waiting: (kind) => pending.some((p) => p.kind === kind),
    // A refusal that names no command answers the oldest.
    settleOldest(result) {
      const p = pending.shift();
      if (p) p.resolve(result);
    },
  };
}
