// ----- the first screen ------------------------------------------------------------
// A first visit shows the ways in over the board: play, learn, puzzles. A first
// visit has no game yet: the back end's game (under `jungle gui`, whoever played
// last, finished or not) makes way for a new one at Beginner, the person Red, and
// "Play" starts a new one again (another tab may have played meanwhile); the tip
// under the board says what to do first.

import { base } from "./base.js";
import { words } from "./words.js";
import { game } from "./game.js";

const { $, stored, keep } = base;
const { post } = game;
const { t } = words;

const WELCOMED_KEY = "jungle.welcomed";

function close() {
  $("welcome").hidden = true;
  keep(WELCOMED_KEY, "1");
}

// A new game of the first visit's: the person Red against the engine at Beginner,
// the default rules.
async function newGame() {
  const s = await post("new", { players: "red", rules: { variant: "jungle", dogSwims: false, trappedLoseAttack: false } });
  if (s && s.levelsSupported && s.level !== 1) await post("settings", { level: 1 });
}

// `ways.learn()` opens the lessons; `ways.puzzles`, the Puzzles mode (`open()`), if
// the page has it.
function setUp(ways) {
  const first = stored(WELCOMED_KEY) === null;
  $("welcome").hidden = !first;
  // Learn and Puzzles set their positions after the new game, not under it.
  const fresh = first ? newGame() : Promise.resolve();
  $("welcome-play").addEventListener("click", () => {
    close();
    newGame();
  });
  $("welcome-learn").addEventListener("click", () => {
    close();
    fresh.then(() => ways.learn());
  });
  const p = ways.puzzles && typeof ways.puzzles.open === "function" ? ways.puzzles : null;
  $("welcome-puzzles").disabled = !p;
  // Its subtitle says what puzzles are (or, without them, "coming soon").
  if (p) $("welcome-puzzles-sub").dataset.i18n = "welcome.puzzles.sub";
  $("welcome-puzzles-sub").textContent = t($("welcome-puzzles-sub").dataset.i18n);
  if (p) {
    $("welcome-puzzles").addEventListener("click", () => {
      close();
      fresh.then(() => p.open());
    });
  }
}

export const welcome = { setUp, close };
