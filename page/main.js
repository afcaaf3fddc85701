// Jungle's board page. Its back end (the server, or the worker of the static site:
// link.js) owns the game and checks every move: this page only shows the state it is
// sent and asks for changes. This last module joins the others: it draws each state
// (the board, what was seen and heard, the panels, the lesson and the puzzle), hands
// the board's moves to the puzzle or the back end, and starts the page.

import "./errors.js";
import { base } from "./base.js";
import { words } from "./words.js";
import { link } from "./link.js";
import { board } from "./board.js";
import { game } from "./game.js";
import { aside } from "./aside.js";
import { panels } from "./panels.js";
import { effects } from "./effects.js";
import { welcome } from "./welcome.js";
import { online } from "./online.js";
import { players } from "./players.js";
import { lessons } from "./learn.js";
import { puzzles } from "./puzzles.js";
import { places } from "./places.js";
import { controls } from "./controls.js";

const { $ } = base;

function render(s, prev) {
  const rulesChanged = game.rulesChanged(prev, s);
  if (rulesChanged) board.deselect();
  const change = prev && !rulesChanged ? effects.changeBetween(prev, s) : null;
  board.draw({
    pieces: s.board,
    terrain: s.terrain,
    legal: s.legal,
    forbidden: s.forbidden,
    lastMove: s.lastMove,
    hint: s.hint,
  });
  // A lesson's moves played before its task, and a game brought back, go without a
  // sound.
  if (change && !lessons.quiet() && !aside.quiet()) effects.showChange(change);
  panels.render(s);
  board.drawArrows();
  $("tip").hidden = lessons.active() || !!s.online || !!s.result || s.moves.length > 0 || !game.personColor() || Object.keys(s.legal).length === 0;
  lessons.check(s);
  puzzles.onState(s);
  online.render(s);
  document.body.dataset.version = s.version;
}

// A move made on the board.
function playMove(move) {
  game.post("move", { move }).then((ok) => {
    if (!ok) lessons.moveRefused();
  });
}

game.onState(render);
game.onAnalysis((a) => {
  panels.renderAnalysis(a);
  if (game.state()) board.drawArrows();
});
// The puzzle's arrows (its solution shown) after the game's.
board.arrowsFrom(game.arrows, puzzles.arrows);

document.addEventListener("DOMContentLoaded", () => {
  controls.setUpLanguage();
  controls.foldForPhone();
  board.setUp({
    move(m) {
      if (!puzzles.interceptMove(m)) playMove(m);
    },
    blocked: panels.explainWhyNot,
  });
  controls.setUp();
  panels.setUpRulesDialog();
  // A page opened at a lesson or a puzzle goes there (the first screen makes way).
  places.setUp();
  // An online game's page (/play/ID, /watch/ID) opens at the game.
  online.setUp();
  // The account, and a page opened at a profile or the leaderboards.
  players.setUp();
  if (!online.inGame && !players.atPage) welcome.setUp({ learn: lessons.open, puzzles });
  lessons.setUp();
  link.request("state", null).then((a) => {
    if (a.status === 200) game.receive(JSON.parse(a.text));
  });
  game.connect();
});

// The modules, for the browser tests and the console (the page itself never reads
// this).
window.Jungle = { base, words, link, board, game, aside, panels, effects, welcome, online, players, lessons, puzzles, places, controls };
