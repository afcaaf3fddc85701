// The server's game as its messages say it (docs/online.md, "The websocket"):
// its `state`, then each event folded in (fields replaced, each move appended with
// its position and kind), the server's clock offset, and since when each seat has had
// no one. No rule here: the position, the moves, the side to move and the result are
// the server's.
import { answer, refusal, keepSeat } from "./api.js";

export const game = {
  // The last `state`, the events since folded in (null before the first).
  g: null,
  // This browser's seat token (null: watching), and a note for the page
  // ("seats_taken", "noSeat", "no_game").
  token: null,
  note: null,
  // Server time minus this browser's (ms), from `state` and `pong`.
  offset: 0,
  // The local time the clocks' figures were true at.
  clockAt: Date.now(),
  // When this browser last saw the opponent's move (the lag credit's think time).
  turnSeen: Date.now(),
  // Since when each seat has had no one (local ms): the server's time when it left,
  // else when this page first saw it empty (a claim is the server's to allow).
  absent: { red: null, blue: null },
};

function setClock(clock, serverAt) {
  game.g.clock = clock;
  game.clockAt = serverAt - game.offset;
}

// The board's part of a message: where each animal may go now.
function setBoard(b) {
  if (!b) return;
  game.g.legal = b.legal || {};
  game.g.forbidden = b.forbidden || {};
}

function onState(m) {
  const g = (game.g = m);
  g.terrain = m.board.terrain;
  g.fens = m.board.fens;
  g.kinds = m.board.kinds;
  setBoard(m.board);
  game.offset = m.now - Date.now();
  setClock(m.clock, m.now);
  onPresence(Object.assign({ gone_since: m.gone_since }, m.presence));
}

function onPresence(m) {
  const g = game.g;
  g.presence = { red: !!m.red, blue: !!m.blue };
  for (const side of ["red", "blue"]) {
    const left = m.gone_since && m.gone_since[side];
    if (g.presence[side]) game.absent[side] = null;
    else if (left) game.absent[side] = left - game.offset;
    else if (game.absent[side] === null) game.absent[side] = Date.now();
  }
}

const done = answer(200, null);

// The page's commands in a game, as the websocket's.
const COMMANDS = { resign: "resign", abort: "abort", offerDraw: "draw_offer", acceptDraw: "draw_accept", declineDraw: "draw_decline", rematch: "rematch", claim: "claim" };

// The websocket's message of the page's request `action` (null: not a command): a
// move is for the ply now, with the time since this browser saw the opponent's move.
export function commandOf(action, body) {
  if (action === "move") return { t: "move", ply: game.g.moves.length, mv: String(body.move || ""), think_ms: Math.max(0, Date.now() - game.turnSeen) };
  if (!COMMANDS[action]) return null;
  return action === "claim" ? { t: "claim", draw: !!body.draw } : { t: COMMANDS[action] };
}

// Folds the server's message `m` in; `to` hears what it answers (as for `onEvent`,
// and `settleOldest(answer)` the oldest command in flight, `welcome()` the catch-up
// done). False when the page has nothing new to show.
export function receive(m, to) {
  // Nothing but a refusal comes before the game's state.
  if (!game.g && m.t !== "state" && m.t !== "refused") return false;
  if (m.t === "state") onState(m);
  else if (m.t === "event") onEvent(m, to);
  else if (m.t === "presence") onPresence(m);
  else if (m.t === "pong") game.offset = m.now - Date.now();
  else if (m.t === "ack") to.settle("move", done);
  else if (m.t === "refused") return onRefused(m, to);
  else if (m.t === "welcome") {
    game.g.you = m.you;
    to.welcome();
  }
  return true;
}

function onRefused(m, to) {
  if (m.code === "no_seat") {
    // The kept token holds no seat here: the page watches.
    game.token = null;
    game.note = "noSeat";
    return false;
  }
  // A refusal names the command it answers (`to`); one that cannot (a message the
  // server could not read) answers the oldest.
  const r = refusal(m.code, m.reason, m.args);
  if (m.to) to.settle(m.to, r);
  else to.settleOldest(r);
  return true;
}

// Folds event `m` in; `to` hears what it answers: `settle(kind, answer)` a command in
// flight, `notice(n)` a notice for the page, `seated()` a seat taken, `gap()` a
// version missed (the catch-up is asked again).
function onEvent(m, to) {
  const g = game.g;
  if (!g || m.v <= g.v) return;
  if (m.v !== g.v + 1) {
    to.gap();
    return;
  }
  const e = m.e || {};
  const mover = g.to_move;
  Object.assign(g, { v: m.v, status: m.status, fen: m.fen, to_move: m.to_move });
  setClock(m.clock, m.at);
  setBoard(m.board);
  if (e.kind === "seated") {
    g.seated = Object.assign({}, g.seated, { [e.side]: true });
    to.seated();
  } else if (e.kind === "move" && e.ply === g.moves.length) {
    g.moves = g.moves.concat([e.mv]);
    g.fens = g.fens.concat([m.fen]);
    g.kinds = g.kinds.concat([m.board.kind]);
    if (g.draw_offer && g.draw_offer !== mover) g.draw_offer = null;
    if (mover !== g.you) game.turnSeen = Date.now();
    if (mover === g.you) to.settle("move", done);
  } else if (e.kind === "draw_offer") {
    g.draw_offer = e.side;
    if (e.side === g.you) to.settle("draw_offer", done);
  } else if (e.kind === "draw_decline") {
    g.draw_offer = null;
    if (e.side === g.you) to.settle("draw_decline", done);
    // The one who offered is told.
    else if (g.you) to.notice({ kind: "info", code: "online.drawDeclined", text: "Your friend declined the draw." });
  } else if (e.kind === "rematch_offer") {
    g.rematch_offer = e.side;
    if (e.side === g.you) to.settle("rematch", done);
  } else if (e.kind === "rematch") {
    g.rematch = e.game;
    // The new game's seat is the other colour with the same token.
    if (g.you && game.token) keepSeat({ id: e.game, side: g.you === "red" ? "blue" : "red", token: game.token });
    to.settle("rematch", done);
  } else if (e.kind === "end") {
    g.result = m.result;
    g.draw_offer = null;
    // The commands that can end a game (a draw offered to a side that has offered
    // one is agreed).
    for (const kind of ["resign", "abort", "claim", "draw_accept", "draw_offer"]) to.settle(kind, done);
  }
  if (g.status === "over") {
    g.clock = Object.assign({}, g.clock, { running: null });
    g.deadline = null;
    to.settle("move", refusal("game_over", "the game is over"));
  }
}
