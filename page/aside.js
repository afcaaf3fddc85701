// ----- the game set aside ------------------------------------------------------------
// A lesson or a puzzle takes the board for a position of its own; the person's game
// waits meanwhile and comes back as it was when they leave: the same start and rules,
// the same moves (and the one shown), the same players, level and thinking time, the
// board turned as it was. The
// back end keeps one game, so this module keeps what rebuilds it: `setAside()` when
// a lesson or a puzzle opens (once: from one to another the first game stays kept),
// `bringBack()` when it is left. The moves are played again in silence (`quiet()`).
// The kept game lasts the tab's session (sessionStorage): a reload in a lesson or a
// puzzle still brings it back. A lesson or a puzzle opened while the game is still
// being built again (a quick click after "Back to playing") keeps the whole game and
// stops the rebuilding, which would otherwise play the game's moves and players over
// the new position.

import { board } from "./board.js";
import { game } from "./game.js";


// The game set aside: { startFen, rules, moves, ply, players, level, movetimeMs,
// levelsSupported, flipped }, or null.
const KEY = "jungle.aside";
let kept = read();
let replaying = false;
// The bringBack() under way, until the game's players are set: { game }; null
// else. A new one for each call, so that an older one still awaiting its answer
// knows it was stopped even when the same game comes back again.
let returning = null;

function read() {
  try {
    const g = JSON.parse(sessionStorage.getItem(KEY));
    return g && Array.isArray(g.moves) ? g : null;
  } catch (e) {
    return null;
  }
}

// A browser without storage: the kept game lasts as long as the page.
function save() {
  try {
    if (kept) sessionStorage.setItem(KEY, JSON.stringify(kept));
    else sessionStorage.removeItem(KEY);
  } catch (e) {
    // No storage.
  }
}

// Keeps the game shown, unless one is kept already; the game being brought back,
// whole, when it is not built yet.
function setAside() {
  if (returning) {
    kept = returning.game;
    returning = null;
    save();
    return;
  }
  const s = game.state();
  if (kept || !s) return;
  kept = {
    startFen: s.startFen,
    rules: { variant: s.variant, dogSwims: s.dogSwims, trappedLoseAttack: s.trappedLoseAttack },
    moves: s.moves.slice(),
    ply: s.ply,
    players: s.players,
    level: s.level,
    movetimeMs: s.movetimeMs,
    levelsSupported: s.levelsSupported,
    flipped: board.isFlipped(),
  };
  save();
}

// Builds the kept game again: a game of two people from its start, its moves, the
// ply shown, then its players and level (an engine to move then answers, as it
// would have). Without a kept game, a new one with the players shown.
async function bringBack() {
  const g = kept;
  kept = null;
  save();
  if (!g) {
    const s = game.state();
    await game.post("new", { players: s && s.players !== "both" ? s.players : "red" });
    return;
  }
  board.setFlipped(g.flipped);
  game.redraw();
  const trip = { game: g };
  returning = trip;
  // False once a lesson or a puzzle has taken the board again (setAside).
  const stillReturning = () => returning === trip;
  replaying = true;
  try {
    let ok = await game.post("new", { players: "both", fen: g.startFen, rules: g.rules });
    for (const move of g.moves) {
      if (ok && stillReturning()) ok = await game.post("move", { move });
    }
    if (ok && stillReturning() && g.ply < g.moves.length) ok = await game.post("goto", { ply: g.ply });
  } finally {
    replaying = false;
  }
  if (!stillReturning()) return;
  const settings = { players: g.players, movetimeMs: g.movetimeMs };
  if (g.levelsSupported) settings.level = g.level;
  try {
    await game.post("settings", settings);
  } finally {
    if (stillReturning()) returning = null;
  }
}

// The kept game is let go (a new game takes the board instead); it is returned, for
// the new game to be played as it was (its players, level and thinking time).
function forget() {
  const g = kept;
  kept = null;
  save();
  return g;
}

export const aside = {
  setAside,
  bringBack,
  forget,
  // The kept game's moves are being played again: no slide, no sound.
  quiet: () => replaying,
  // A game is kept (a lesson or a puzzle has the board).
  kept: () => kept !== null,
};
