// The page's state of the server's game (docs/online.md, "The page"): the
// board app's state as the page reads it (docs/board.md), from the game as game.js
// folds it, at the ply browsed or the last, with the server's game under `online`.
import { game } from "./game.js";

// The animals of a position string's letters (upper case Red's).
const ANIMALS = { R: ["rat", 1], C: ["cat", 2], D: ["dog", 3], W: ["wolf", 4], P: ["leopard", 5], T: ["tiger", 6], L: ["lion", 7], E: ["elephant", 8] };

let seq = 0;
// The ply shown (the move list browsed), null: the last.
let shown = null;

// Shows the game's position after `ply` moves (as the server sent it): false if there
// is no such ply.
export function browse(ply) {
  const g = game.g;
  if (!g || !(ply >= 0 && ply <= g.moves.length)) return false;
  shown = ply === g.moves.length ? null : ply;
  return true;
}

// The animals of a position string, square by square from a1 (as the board draws
// them: the notation read, no rule).
function pieces(fen) {
  const out = [];
  const ranks = String(fen).split(" ")[0].split("/").reverse();
  for (const rank of ranks) {
    for (const c of rank) {
      if (/[1-7]/.test(c)) {
        for (let i = 0; i < Number(c); i++) out.push(null);
        continue;
      }
      const [animal, value] = ANIMALS[c.toUpperCase()] || ["rat", 1];
      out.push({ color: c === c.toUpperCase() ? "red" : "blue", animal, rank: value, letter: c });
    }
  }
  return out;
}

// The part of the page's state that is the online game's; `now`: the connection's
// { connected, waitingMove, review }.
function onlinePart(now) {
  const g = game.g;
  const opponent = g.you ? (g.you === "red" ? "blue" : "red") : null;
  return {
    id: g.id,
    you: g.you,
    watching: !g.you,
    status: g.status,
    tc: g.tc,
    rules: g.rules,
    toMove: g.to_move,
    plies: g.moves.length,
    seated: g.seated,
    rated: !!g.rated,
    players: g.players || { red: null, blue: null },
    clock: { red: g.clock.red, blue: g.clock.blue, running: g.clock.running, at: game.clockAt },
    deadline: g.deadline === null || g.deadline === undefined ? null : g.deadline - game.offset,
    drawOffer: g.draw_offer || null,
    rematchOffer: g.rematch_offer || null,
    rematch: g.rematch || null,
    result: g.result,
    presence: g.presence,
    goneSince: opponent ? game.absent[opponent] : null,
    connected: now.connected,
    waitingMove: now.waitingMove,
    note: game.note,
    reviewed: !!now.review,
    playUrl: location.origin + "/play/" + g.id,
    watchUrl: location.origin + "/watch/" + g.id,
  };
}

// The page's state (the finished game's review's, once asked for, with `online`).
export function view(now) {
  const g = game.g;
  if (now.review) return Object.assign({}, now.review, { version: ++seq, online: onlinePart(now) });
  const ply = shown === null ? g.moves.length : shown;
  const last = ply === g.moves.length;
  const fen = last ? g.fen : g.fens[ply];
  // Moves are offered only on this seat's turn, at the last position, connected, no
  // move of its own waiting.
  const move = !!(g.you && now.connected && g.status === "playing" && g.to_move === g.you && last && !now.waitingMove);
  return {
    version: ++seq,
    rules: g.rules,
    variant: g.variant,
    dogSwims: g.dog_swims,
    trappedLoseAttack: g.trapped_lose_attack,
    fen,
    startFen: g.fens[0],
    moves: g.moves,
    moveKinds: g.kinds,
    ply,
    firstMover: "red",
    sideToMove: fen.split(" ")[1] === "b" ? "blue" : "red",
    board: pieces(fen),
    terrain: g.terrain,
    legal: move ? g.legal : {},
    forbidden: move ? g.forbidden : {},
    lastMove: ply > 0 ? g.moves[ply - 1] : null,
    result: last && g.status === "over" ? g.result : null,
    players: g.you || "both",
    seats: { red: g.you === "red" ? "You" : "", blue: g.you === "blue" ? "You" : "" },
    engines: ["", ""],
    engineIds: [null, null],
    level: 1,
    levels: [],
    levelsSupported: false,
    movetimeMs: 1000,
    thinking: null,
    hint: null,
    watch: { running: false, clocks: [0, 0], tc: { baseMs: 0, incMs: 0 } },
    analysis: { on: false, multipv: 1, ply, lines: [] },
    review: null,
    scores: [],
    notices: [],
    canUndo: false,
    canRedo: false,
    judge: null,
    online: onlinePart(now),
  };
}
