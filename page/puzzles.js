// The Puzzles mode of the board (issue 33). The puzzles, the choice of the next one
// near the person's rating and the Glicko-2 rating itself are the back end's
// (`POST puzzle`, crates/app/src/puzzles.rs; the set is built in, so the static site
// has it offline); the person's progress is kept here, in localStorage. The board
// plays the puzzle as a game of two people ("players": "both"): the person's moves
// are checked against the solution before they are sent, and the opponent's replies
// are played by this file.
//
// Hooks into app.js (kept small on purpose): `Puzzles.interceptMove(move)` before a
// move is sent, `Puzzles.arrows()` in renderArrows, `Puzzles.onState()` at the end of
// render. The way in is any element with data-open="puzzles" (index.html).
"use strict";

const Puzzles = (() => {
  const KEY = "jungle.puzzles";
  const THEME_KEY = "jungle.puzzles.theme";
  const THEME_NAMES = {
    den: "Den attack",
    trap: "Trap capture",
    jump: "River jump",
    "rat-elephant": "Rat takes elephant",
    "blocked-jump": "Blocked jump",
    "no-moves": "No legal move left",
    "last-animal": "Last animal",
    endgame: "Endgame (tables)",
    "chase-7-3": "Anti-chase 7-3",
    "chase-17-5": "Anti-chase 17-5",
  };
  // How long the board waits before it plays the opponent's reply (ms).
  const REPLY_DELAY = 450;

  let active = false;
  let puzzle = null;
  // Index in puzzle.solution of the person's next move.
  let step = 0;
  // Something went wrong, a hint or the solution was asked for: not a clean solve.
  let flawed = false;
  let hinted = false;
  // The result was counted (solved, or failed by showing the solution).
  let counted = false;
  let over = false;
  let busy = false;
  let shownArrows = [];
  let progress = readProgress();
  let lastRating = null;

  function readProgress() {
    try {
      return JSON.parse(localStorage.getItem(KEY)) || null;
    } catch (e) {
      return null;
    }
  }

  function saveProgress() {
    try {
      localStorage.setItem(KEY, JSON.stringify(progress));
    } catch (e) {
      // A browser without storage: the rating lasts as long as the page.
    }
  }

  const el = (id) => document.getElementById(id);
  const sideName = (c) => (c === "red" ? "Red" : "Blue");
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  function buildBox() {
    if (el("puzzle-box")) return;
    const box = document.createElement("div");
    box.id = "puzzle-box";
    box.hidden = true;
    box.innerHTML = `
      <div class="puzzle-head">
        <strong>Puzzles</strong>
        <button id="puzzle-leave" title="Back to playing games">Back to play</button>
      </div>
      <p id="puzzle-task" aria-live="polite"></p>
      <p id="puzzle-feedback" aria-live="assertive"></p>
      <div class="buttons">
        <button id="puzzle-hint" title="Show which animal moves">Hint</button>
        <button id="puzzle-retry" hidden title="Try the move again">Retry</button>
        <button id="puzzle-solution" title="Show the solution on the board as arrows">Show solution</button>
        <button id="puzzle-next" title="The next puzzle near your rating">Next puzzle</button>
      </div>
      <dl class="puzzle-stats">
        <dt>Your rating</dt><dd id="puzzle-rating"></dd>
        <dt>Streak</dt><dd id="puzzle-streak"></dd>
        <dt>Puzzle</dt><dd id="puzzle-about"></dd>
      </dl>
      <div class="row">
        <label for="puzzle-theme">Theme</label>
        <select id="puzzle-theme"><option value="">Any</option></select>
      </div>`;
    const controls = el("controls");
    controls.insertBefore(box, controls.firstChild);
    el("puzzle-leave").addEventListener("click", leave);
    el("puzzle-hint").addEventListener("click", hint);
    el("puzzle-retry").addEventListener("click", retry);
    el("puzzle-solution").addEventListener("click", showSolution);
    el("puzzle-next").addEventListener("click", () => next());
    el("puzzle-theme").addEventListener("change", () => {
      try {
        localStorage.setItem(THEME_KEY, el("puzzle-theme").value);
      } catch (e) {
        // No storage: the choice lasts as long as the page.
      }
      next();
    });
  }

  function say(task, feedback, kind) {
    if (task !== null) el("puzzle-task").textContent = task;
    const f = el("puzzle-feedback");
    f.textContent = feedback || "";
    f.className = kind || "";
  }

  function renderStats() {
    const r = progress && progress.rating;
    const rating = r ? Math.round(r.rating) : 1500;
    let text = rating + " ±" + Math.round(r ? r.deviation : 350);
    if (lastRating !== null && lastRating !== rating) {
      const d = rating - lastRating;
      text += " (" + (d > 0 ? "+" : "") + d + ")";
    }
    el("puzzle-rating").textContent = text;
    el("puzzle-streak").textContent = progress
      ? progress.streak + " (best " + progress.best_streak + ", solved " + progress.solved + ", failed " + progress.failed + ")"
      : "0";
    el("puzzle-about").textContent = puzzle
      ? "#" + puzzle.id + (over ? " · rated " + puzzle.rating : "") + " · " +
        puzzle.themes.map((t) => THEME_NAMES[t] || t).join(", ")
      : "";
    el("puzzle-hint").disabled = over || !puzzle;
    el("puzzle-solution").disabled = over || !puzzle;
    document.body.dataset.puzzleStreak = progress ? progress.streak : 0;
    document.body.dataset.puzzleRating = rating;
  }

  function fillThemes(themes) {
    const select = el("puzzle-theme");
    if (select.options.length > 1) return;
    let kept = "";
    try {
      kept = localStorage.getItem(THEME_KEY) || "";
    } catch (e) {
      kept = "";
    }
    for (const t of themes) {
      const o = document.createElement("option");
      o.value = t.name;
      o.textContent = (THEME_NAMES[t.name] || t.name) + " (" + t.count + ")";
      select.appendChild(o);
    }
    if ([...select.options].some((o) => o.value === kept)) select.value = kept;
  }

  // Asks the back end for the next puzzle (counting `finished` first) and sets it up.
  async function next(finished) {
    if (busy) return;
    busy = true;
    try {
      // Leaving a puzzle after a wrong move counts it as failed.
      if (!finished && puzzle && flawed && !counted) finished = { id: puzzle.id, solved: false };
      const body = { seed: Math.floor(Math.random() * 2 ** 31) };
      if (progress) body.progress = progress;
      const theme = el("puzzle-theme").value;
      if (theme) body.theme = theme;
      if (finished) body.finished = finished;
      const answer = await backend.request("puzzle", body);
      if (answer.status !== 200) {
        say(null, "The puzzles could not be loaded: " + answer.text, "wrong");
        return;
      }
      const data = JSON.parse(answer.text);
      progress = data.progress;
      saveProgress();
      fillThemes(data.themes);
      if (!data.puzzle) {
        say("No puzzle of this theme.", "", "");
        return;
      }
      lastRating = null;
      await setUp(data.puzzle);
    } finally {
      busy = false;
    }
  }

  // Counts the puzzle now (solved or not) and shows the rating's change.
  async function count(solved) {
    if (counted) return;
    counted = true;
    const before = Math.round(progress ? progress.rating.rating : 1500);
    const body = { finished: { id: puzzle.id, solved }, seed: 0 };
    if (progress) body.progress = progress;
    const answer = await backend.request("puzzle", body);
    if (answer.status === 200) {
      progress = JSON.parse(answer.text).progress;
      saveProgress();
      lastRating = before;
    }
    renderStats();
  }

  async function setUp(p) {
    puzzle = p;
    step = 0;
    flawed = false;
    hinted = false;
    counted = false;
    over = false;
    shownArrows = [];
    // The puzzle's side plays at the bottom.
    flipped = p.solver === "blue";
    buildBoard();
    await post("new", { players: "both", fen: p.fen, rules: p.rules });
    for (const m of p.before) await post("move", { move: m });
    el("puzzle-retry").hidden = true;
    say(taskText(), "", "");
    renderStats();
    renderArrows();
    document.body.dataset.puzzle = p.id;
    document.body.dataset.puzzleState = "playing";
  }

  function taskText() {
    const side = sideName(puzzle.solver);
    const moves = (puzzle.solution.length + 1) / 2;
    return puzzle.goal === "win"
      ? side + " to play and win" + (moves > 1 ? " (" + moves + " moves)" : " in one move") + "."
      : side + " to play: find the only move that does not lose.";
  }

  function legal(move) {
    // state.legal: for each square, the moves' targets ({to, capture, jump}).
    return !!state && (state.legal[move.slice(0, 2)] || []).some((t) => (t.to || t) === move.slice(2, 4));
  }

  // Called by app.js before it sends a move; true when this file took care of it.
  function interceptMove(move) {
    if (!active || !puzzle) return false;
    if (busy || over) return true;
    if (!legal(move)) return false; // the page says why it is not legal
    if (move === puzzle.solution[step]) {
      right(move);
    } else {
      other(move);
    }
    return true;
  }

  async function right(move) {
    busy = true;
    try {
      clearHint();
      await post("move", { move });
      step += 1;
      if (step >= puzzle.solution.length) {
        await solved();
        return;
      }
      say(null, "Right! Keep going.", "right");
      await sleep(REPLY_DELAY);
      await post("move", { move: puzzle.solution[step] });
      step += 1;
    } finally {
      busy = false;
    }
  }

  // A move that is not the stored one is right only when it wins the game at once (the
  // verifier accepts every such move); the rules core says so after playing it.
  async function other(move) {
    busy = true;
    try {
      clearHint();
      const s = await post("move", { move });
      if (s && s.result && s.result.winner === puzzle.solver && puzzle.goal === "win") {
        step = puzzle.solution.length;
        await solved();
        return;
      }
      if (s) await post("undo");
      flawed = true;
      el("puzzle-retry").hidden = false;
      say(null, move + " is not it. Retry, or show the solution.", "wrong");
      document.body.dataset.puzzleState = "wrong";
    } finally {
      busy = false;
    }
  }

  async function solved() {
    over = true;
    el("puzzle-retry").hidden = true;
    const clean = !flawed && !hinted;
    say(null, clean ? "Solved!" : "Solved, with help: it counts as not solved.", "right");
    // The state says "solved" once the rating and the streak are counted (the tests
    // and the page read them then).
    try {
      await count(clean);
    } finally {
      document.body.dataset.puzzleState = "solved";
    }
  }

  function retry() {
    el("puzzle-retry").hidden = true;
    say(null, "Try again.", "");
    document.body.dataset.puzzleState = "playing";
  }

  function hint() {
    if (!puzzle || over) return;
    hinted = true;
    clearHint();
    const from = puzzle.solution[step].slice(0, 2);
    const cell = document.querySelector('#board .cell[data-sq="' + from + '"]');
    if (cell) cell.classList.add("puzzle-hint");
    say(null, "The animal on " + from + " moves.", "");
  }

  function clearHint() {
    for (const c of document.querySelectorAll("#board .puzzle-hint")) c.classList.remove("puzzle-hint");
  }

  // The rest of the line as arrows: the person's moves in blue, the replies in yellow.
  async function showSolution() {
    if (!puzzle || over) return;
    over = true;
    flawed = true;
    clearHint();
    el("puzzle-retry").hidden = true;
    const rest = puzzle.solution.slice(step);
    shownArrows = rest.map((m, i) => [m, i % 2 === 0 ? "best-arrow" : "hint-arrow"]);
    renderArrows();
    say(null, "The solution: " + rest.join(" ") + ".", "wrong");
    try {
      await count(false);
    } finally {
      document.body.dataset.puzzleState = "shown";
    }
  }

  function arrows() {
    return active ? shownArrows : [];
  }

  function onState() {
    if (!active) return;
    document.body.classList.add("puzzle-mode");
  }

  async function open() {
    // Opened from the header or by the address: the first screen makes way.
    if (typeof closeWelcome === "function") closeWelcome();
    buildBox();
    active = true;
    document.body.classList.add("puzzle-mode");
    el("puzzle-box").hidden = false;
    renderStats();
    if (!puzzle) {
      await next();
    } else {
      await setUp(puzzle);
    }
  }

  function leave() {
    active = false;
    shownArrows = [];
    clearHint();
    document.body.classList.remove("puzzle-mode");
    el("puzzle-box").hidden = true;
    delete document.body.dataset.puzzle;
    renderArrows();
  }

  document.addEventListener("DOMContentLoaded", () => {
    buildBox();
    for (const b of document.querySelectorAll('[data-open="puzzles"]')) b.addEventListener("click", open);
    if (location.hash === "#puzzles") open();
  });

  // The puzzle on the board (the browser tests read its solution).
  const current = () => puzzle;

  return { interceptMove, arrows, onState, open, leave, current };
})();

// The first screen's way in ("Puzzles", app.js) finds the mode here.
window.JunglePuzzles = Puzzles;
