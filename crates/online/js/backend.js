// The page's back end under `jungle serve` (docs/online.md, "The page"), a carrier: at
// the site's root the visitor's own back end (local/backend.js: the browser's engine,
// or the server's) with the online requests (`online.*`, online/api.js) added; at
// /play/ID and /watch/ID the server's game, which the server says (online/game.js
// folds its messages, online/view.js makes the page's state of it, online/socket.js
// carries the commands): no game of its own, no rule. A finished game's review is the
// visitor's own back end's (online/review.js). What a back end provides: page/link.js.
import { backend as local } from "./local/backend.js";
import { answer, refusal, onlineRequest, seatIn, playersIn, recordOf } from "./online/api.js";
import { game, receive, commandOf } from "./online/game.js";
import { gameSocket } from "./online/socket.js";
import { view, browse } from "./online/view.js";
import { reviewer } from "./online/review.js";

const at = /^\/(play|watch)\/([A-Za-z0-9]{1,40})\/?$/.exec(location.pathname);
const gameId = at ? at[2] : null;

let handlers = null;
let welcomed = false;
let whenWelcomed = null;
const firstWelcome = new Promise((resolve) => (whenWelcomed = resolve));
const socket = gameSocket(gameId, { hello, message: (m) => receive(m, folded) && show(), closed });
const review = reviewer(local, gameId, () => handlers, show);
// What the fold of an event answers (online/game.js).
const folded = { settle: socket.settle, settleOldest: socket.settleOldest, notice: (n) => handlers.notice(n), gap: socket.reconnect, seated: learnPlayers, welcome: onWelcome };

function pageState() {
  return view({ connected: socket.connected(), waitingMove: socket.waiting("move"), review: review.state() });
}

function show() {
  if (welcomed && handlers && game.g) handlers.state(pageState());
}

function closed() {
  handlers.error("conn.reconnecting");
  show();
}

function hello() {
  return { t: "hello", token: game.token, since: game.g ? game.g.v : null };
}

// The accounts in the seats, read again when a seat is taken (events name no one).
async function learnPlayers() {
  const players = await playersIn(gameId);
  if (!players) return;
  game.g.players = players;
  show();
}

function onWelcome() {
  socket.welcomed();
  welcomed = true;
  whenWelcomed();
  handlers.open();
  socket.resend(game.g.moves);
}

// A request of the page's in a game: its moves and commands go to the server and are
// answered when their events come back; the positions browsed are the server's; once
// the game is over its review is the visitor's own back end's.
async function gameRequest(action, body) {
  if (action === "state") return firstWelcome.then(() => answer(200, pageState()));
  if (action === "record") return recordOf(gameId);
  if (action === "move" && !(game.g && game.g.you)) return refusal("watching", "you are watching this game");
  const msg = commandOf(action, body);
  if (msg) {
    const a = await socket.command(msg.t, msg);
    return a.status === 200 ? answer(200, pageState()) : a;
  }
  if (action === "goto" && !review.state()) {
    return browse(Number(body && body.ply)) ? answer(200, pageState()) : refusal("bad_ply", "no such ply");
  }
  if (["goto", "review", "analysis"].includes(action) && game.g && game.g.status === "over") {
    return review.request(action, body, pageState);
  }
  return refusal("inGame", "not during an online game");
}

export const backend = {
  name: "online",
  // Where the visitor's own games run: "engine" (the browser) or "server".
  local: local.name,
  async request(action, body) {
    return (await onlineRequest(action, body)) || (gameId ? gameRequest(action, body) : local.request(action, body));
  },
  connect(h) {
    handlers = h;
    if (!gameId) return local.connect(h);
    seatIn(gameId, at[1] === "play").then(({ token, note }) => {
      game.token = token;
      game.note = note;
      if (note === "no_game") {
        h.error("online.noGame");
        h.notice({ kind: "error", code: "online.noGame", text: "There is no such game." });
        return;
      }
      socket.start();
    });
  },
};
