// The Puzzles mode of the board (issue 33). The puzzles, the choice of the next one
// near the person's rating and the Glicko-2 rating itself are the back end's
// (`POST puzzle`, crates/app/src/puzzles.rs; the set is built in, so the static site
// has it offline); the person's progress is kept here, in localStorage. The board
// plays the puzzle as a game of two people ("players": "both"): the person's moves
// are checked against the solution before they are sent, and the opponent's replies
// are played by this file.
//
// Hooks called by main.js (kept small on purpose): `interceptMove(move)` before a
// move is sent, `arrows()` for the board's arrows, `onState(s)` at the end of drawing
// each state, `onLanguage()` when the page's language changes. The way in is any
// element with data-open="puzzles" (index.html).
//
// Every word comes from the page's catalogues by `t()` (words.js; keys `puzzle.*`, the
// themes' `puzzle.theme.<name>`, the back end's refusals `refusal.puzzle*`). What the
// box says is kept as a function that words it, so that it can be said again in
// another language.
Jungle.puzzles = (() => {
  "use strict";
  const { stored, keep } = Jungle.base;
  const { t, applyStatic, sideName, animalName, refusalText } = Jungle.words;
  const link = Jungle.link;
  const board = Jungle.board;
  const { post } = Jungle.game;
  const { nameSeat } = Jungle.panels;
  const { close: closeWelcome } = Jungle.welcome;

  const KEY = "jungle.puzzles";
  const THEME_KEY = "jungle.puzzles.theme";
  // A puzzle's difficulty in words, by its rating (600–2600, protocol.md §9): the
  // lowest rating of each word.
  const DIFFICULTIES = [
    [2200, "veryHard"],
    [1600, "hard"],
    [1000, "medium"],
    [0, "easy"],
  ];
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
  // What the box says: the task and the feedback, each a function that words it in
  // the page's language (null: nothing), and the feedback's kind ("right", "wrong" or
  // ""). A refused progress (ask) is said under the next puzzle: `dropped`.
  let task = null;
  let feedback = null;
  let feedbackKind = "";
  let dropped = null;
  // The themes the back end offers: [{name, count}].
  let themes = [];
  // The state last drawn (onState).
  let state = null;

  function readProgress() {
    try {
      return JSON.parse(stored(KEY)) || null;
    } catch (e) {
      return null;
    }
  }

  // A browser without storage: the rating lasts as long as the page.
  function saveProgress() {
    keep(KEY, JSON.stringify(progress));
  }

  const el = (id) => document.getElementById(id);
  const themeName = (name) => t("puzzle.theme." + name);
  const difficulty = (rating) => t("puzzle.difficulty." + DIFFICULTIES.find(([low]) => rating >= low)[1]);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  function buildBox() {
    if (el("puzzle-box")) return;
    const box = document.createElement("div");
    box.id = "puzzle-box";
    box.hidden = true;
    // The words are set here and by the language switch when the language changes
    // (data-i18n* as in index.html).
    box.innerHTML = `
      <div class="puzzle-head">
        <strong data-i18n="puzzle.title"></strong>
        <button id="puzzle-leave" data-i18n="puzzle.leave" data-i18n-title="puzzle.leave.title"></button>
      </div>
      <p id="puzzle-task" aria-live="polite"></p>
      <p id="puzzle-feedback" aria-live="assertive"></p>
      <div class="buttons">
        <button id="puzzle-hint" data-i18n="puzzle.hint" data-i18n-title="puzzle.hint.title"></button>
        <button id="puzzle-retry" hidden data-i18n="puzzle.retry" data-i18n-title="puzzle.retry.title"></button>
        <button id="puzzle-solution" data-i18n="puzzle.showSolution" data-i18n-title="puzzle.showSolution.title"></button>
        <button id="puzzle-next" data-i18n="puzzle.next" data-i18n-title="puzzle.next.title"></button>
      </div>
      <dl class="puzzle-stats">
        <dt data-i18n="puzzle.rating"></dt><dd id="puzzle-rating"></dd>
        <dt data-i18n="puzzle.streak"></dt><dd id="puzzle-streak"></dd>
        <dt data-i18n="puzzle.about"></dt><dd id="puzzle-about"></dd>
        <dt data-i18n="puzzle.difficulty"></dt><dd id="puzzle-difficulty"></dd>
      </dl>
      <div class="row">
        <label for="puzzle-theme" data-i18n="puzzle.theme"></label>
        <select id="puzzle-theme"><option value="" data-i18n="puzzle.theme.any"></option></select>
      </div>`;
    applyStatic(box);
    const controls = el("controls");
    controls.insertBefore(box, controls.firstChild);
    el("puzzle-leave").addEventListener("click", leave);
    el("puzzle-hint").addEventListener("click", hint);
    el("puzzle-retry").addEventListener("click", retry);
    el("puzzle-solution").addEventListener("click", showSolution);
    el("puzzle-next").addEventListener("click", () => next());
    el("puzzle-theme").addEventListener("change", () => {
      keep(THEME_KEY, el("puzzle-theme").value);
      next();
    });
  }

  // Says the task (unless `said` is null: it stays) and the feedback, each a function
  // that words it (`() => t("puzzle.right")`).
  function say(said, heard, kind) {
    if (said !== null) task = said;
    feedback = heard || null;
    feedbackKind = kind || "";
    sayAgain();
  }

  function sayAgain() {
    el("puzzle-task").textContent = task ? task() : "";
    const f = el("puzzle-feedback");
    f.textContent = feedback ? feedback() : "";
    f.className = feedbackKind;
  }

  function renderStats() {
    const r = progress && progress.rating;
    const rating = r ? Math.round(r.rating) : 1500;
    let text = t("puzzle.rating.value", { rating, deviation: Math.round(r ? r.deviation : 350) });
    if (lastRating !== null && lastRating !== rating) {
      const d = rating - lastRating;
      text = t("puzzle.rating.change", { value: text, change: (d > 0 ? "+" : "−") + Math.abs(d) });
    }
    el("puzzle-rating").textContent = text;
    el("puzzle-streak").textContent = progress
      ? t("puzzle.streak.value", {
          streak: progress.streak,
          best: progress.best_streak,
          solved: progress.solved,
          failed: progress.failed,
        })
      : "0";
    el("puzzle-about").textContent = puzzle
      ? t("puzzle.about.value", { id: puzzle.id, themes: puzzle.themes.map(themeName).join(t("puzzle.themes.join")) })
      : "";
    // The puzzle's rating is told once it is over.
    el("puzzle-difficulty").textContent = !puzzle
      ? ""
      : over
        ? t("puzzle.difficulty.rated", { difficulty: difficulty(puzzle.rating), rating: puzzle.rating })
        : difficulty(puzzle.rating);
    el("puzzle-hint").disabled = over || !puzzle;
    el("puzzle-solution").disabled = over || !puzzle;
    document.body.dataset.puzzleStreak = progress ? progress.streak : 0;
    document.body.dataset.puzzleRating = rating;
  }

  function fillThemes(offered) {
    const select = el("puzzle-theme");
    if (select.options.length > 1) return;
    themes = offered;
    const kept = stored(THEME_KEY) || "";
    for (const theme of themes) {
      const o = document.createElement("option");
      o.value = theme.name;
      select.appendChild(o);
    }
    nameThemes();
    if ([...select.options].some((o) => o.value === kept)) select.value = kept;
  }

  function nameThemes() {
    const select = el("puzzle-theme");
    select.options[0].textContent = t("puzzle.theme.any");
    for (const theme of themes) {
      const o = [...select.options].find((o) => o.value === theme.name);
      if (o) o.textContent = t("puzzle.theme.count", { theme: themeName(theme.name), count: theme.count });
    }
  }

  // A refused request, as a function that words it in the page's language (words.js's
  // refusalText: the catalogues word the back end's code), or what went wrong on the
  // way.
  function refusal(answer) {
    if (answer.status === 0) return () => answer.text;
    let data = null;
    try {
      data = JSON.parse(answer.text);
    } catch (e) {
      data = null;
    }
    return () => (data && refusalText(data)) || t("error.failed", { status: answer.status });
  }

  // Asks for `body`; a progress the back end cannot read (a damaged store) is
  // dropped (`dropped` says why) and the request made again without it.
  async function ask(body) {
    let answer = await link.request("puzzle", body);
    if (answer.status === 400 && body.progress && codeOf(answer) === "puzzleProgress") {
      const why = refusal(answer);
      dropped = () => t("puzzle.dropped", { reason: why() });
      progress = null;
      delete body.progress;
      delete body.finished;
      answer = await link.request("puzzle", body);
    }
    return answer;
  }

  function codeOf(answer) {
    try {
      return JSON.parse(answer.text).code;
    } catch (e) {
      return null;
    }
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
      const answer = await ask(body);
      if (answer.status !== 200) {
        const why = refusal(answer);
        say(null, () => t("puzzle.loadFailed", { reason: why() }), "wrong");
        return;
      }
      const data = JSON.parse(answer.text);
      progress = data.progress;
      saveProgress();
      fillThemes(data.themes);
      if (!data.puzzle) {
        say(() => t("puzzle.noneOfTheme"), null, "");
        return;
      }
      lastRating = null;
      await setUp(data.puzzle);
      if (dropped) {
        say(null, dropped, "wrong");
        dropped = null;
      }
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
    const answer = await ask(body);
    if (answer.status === 200) {
      progress = JSON.parse(answer.text).progress;
      saveProgress();
      lastRating = before;
      if (dropped) say(null, dropped, "wrong");
      dropped = null;
    } else {
      say(null, refusal(answer), "wrong");
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
    board.setFlipped(p.solver === "blue");
    await post("new", { players: "both", fen: p.fen, rules: p.rules });
    for (const m of p.before) await post("move", { move: m });
    el("puzzle-retry").hidden = true;
    say(taskWords(), null, "");
    renderStats();
    board.drawArrows();
    document.body.dataset.puzzle = p.id;
    document.body.dataset.puzzleState = "playing";
  }

  // The task, worded when it is said (the side by words.js's sideName).
  function taskWords() {
    const p = puzzle;
    const moves = (p.solution.length + 1) / 2;
    if (p.goal !== "win") return () => t("puzzle.task.draw", { side: sideName(p.solver) });
    if (moves === 1) return () => t("puzzle.task.win.one", { side: sideName(p.solver) });
    return () => t("puzzle.task.win.many", { side: sideName(p.solver), moves });
  }

  function legal(move) {
    // state.legal: for each square, the moves' targets ({to, capture, jump}).
    return !!state && (state.legal[move.slice(0, 2)] || []).some((t) => (t.to || t) === move.slice(2, 4));
  }

  // Called by main.js before it sends a move; true when this file took care of it.
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
      say(null, () => t("puzzle.right"), "right");
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
      say(null, () => t("puzzle.wrong", { move }), "wrong");
      document.body.dataset.puzzleState = "wrong";
    } finally {
      busy = false;
    }
  }

  async function solved() {
    over = true;
    el("puzzle-retry").hidden = true;
    const clean = !flawed && !hinted;
    say(null, () => (clean ? t("puzzle.solved") : t("puzzle.solvedWithHelp")), "right");
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
    say(null, () => t("puzzle.tryAgain"), "");
    document.body.dataset.puzzleState = "playing";
  }

  function hint() {
    if (!puzzle || over) return;
    hinted = true;
    clearHint();
    const from = puzzle.solution[step].slice(0, 2);
    board.mark(from, "puzzle-hint");
    const piece = state && state.board[board.squareIndex(from)];
    if (piece) {
      say(null, () => t("puzzle.hintText", { animal: animalName(piece.animal), square: from }), "");
    }
  }

  function clearHint() {
    board.unmark("puzzle-hint");
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
    board.drawArrows();
    say(null, () => t("puzzle.solution", { moves: rest.join(" ") }), "wrong");
    try {
      await count(false);
    } finally {
      document.body.dataset.puzzleState = "shown";
    }
  }

  // The language changed: the box says the same in the new one (its static words are
  // the language switch's, data-i18n).
  function onLanguage() {
    if (!el("puzzle-box")) return;
    sayAgain();
    nameThemes();
    renderStats();
  }

  function arrows() {
    return active ? shownArrows : [];
  }

  function onState(s) {
    state = s;
    if (!active) return;
    document.body.classList.add("puzzle-mode");
    // Both sides are "you" to the board (two people); the side that answers is the
    // puzzle's, so its label names only the side.
    if (!puzzle) return;
    const other = puzzle.solver === "red" ? "blue" : "red";
    nameSeat(other, sideName(other));
  }

  async function open() {
    // Opened from the header or by the address: the first screen makes way.
    closeWelcome();
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
    board.drawArrows();
  }

  document.addEventListener("DOMContentLoaded", () => {
    buildBox();
    for (const b of document.querySelectorAll('[data-open="puzzles"]')) b.addEventListener("click", open);
    if (location.hash === "#puzzles") open();
  });

  // The puzzle on the board (the browser tests read its solution).
  const current = () => puzzle;

  return { interceptMove, arrows, onState, onLanguage, open, leave, current };
})();
