// The Puzzles mode of the board (issue 33). The puzzles, the choice of the next one
// near the person's rating and the Glicko-2 rating itself are the back end's
// (`POST puzzle`, crates/app/src/puzzles.rs; the set is built in, so the static site
// has it offline); the person's progress is kept here, in localStorage. The back
// end's judge (`POST judge`, crates/app/src/judge.rs) sets the puzzle on the board as
// a game of two people and judges the person's moves (sent as any move is); this file
// draws what the state's `judge` says: right (then it asks for the reply after a short
// pause), solved, wrong, the hint, the solution, how the puzzle counts.
//
// Hooks called by main.js (kept small on purpose): `interceptMove(move)` before a
// move is sent (by controls.js's move box too), `arrows()` for the board's arrows,
// `onState(s)` at the end of drawing each state, `onLanguage()` when the page's
// language changes. The way in is any
// element with data-open="puzzles" (index.html).
//
// Under `jungle serve` with a session, each counted puzzle is also sent to the
// server (`online.puzzleAttempt`), which rates the account and the puzzle (the
// account's first attempt at the puzzle only), and the next puzzle is the server's,
// near the account's puzzle rating (`online.puzzleNext`; docs/puzzles.md, "Ratings
// from people"); without a session, and offline, the local rating as before.
//
// Every word comes from the page's catalogues by `t()` (words.js; keys `puzzle.*`, the
// themes' `puzzle.theme.<name>`, the back end's refusals `refusal.puzzle*`). What the
// box says is kept as a function that words it, so that it can be said again in
// another language.

import { base } from "./base.js";
import { words } from "./words.js";
import { link } from "./link.js";
import { board } from "./board.js";
import { game } from "./game.js";
import { aside } from "./aside.js";
import { panels } from "./panels.js";
import { welcome } from "./welcome.js";

const { stored, keep } = base;
const { t, applyStatic, sideName, animalName, refusalText } = words;
const { post, redraw } = game;
const { nameSeat } = panels;
const { close: closeWelcome } = welcome;

const KEY = "jungle.puzzles";
// The puzzle tried last, from its first move until it is counted: { id, flawed }
// (a reload, then Next, counts a flawed try as failed).
const TRIED_KEY = "jungle.puzzles.tried";
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
// The result was counted (solved, or failed by showing the solution).
let counted = false;
let over = false;
let busy = false;
// A wrong move was played, or a hint taken, in this try (or before a reload: the
// stored try); the judge sees only this page's tries.
let flawed = false;
let hinted = false;
let shownArrows = [];
let progress = readProgress();
// The rating's change when the last puzzle counted (the back end's), or null.
let change = null;
// Under `jungle serve` with a session: the account's puzzle rating on the server
// ({ rating, rd, shown, … }), shown instead of the local one; null otherwise.
let account = null;
// The page is served by `jungle serve`, which may know the person.
const online = link.hostName === "online";
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
// Called when the place changes (a puzzle, or none): places.js keeps it in the
// address.
let placeChanged = () => {};

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

function readTried() {
  try {
    const tried = JSON.parse(stored(TRIED_KEY));
    return tried && typeof tried.id === "string" ? tried : null;
  } catch (e) {
    return null;
  }
}

// The puzzle on the board is tried (a move was made): kept with its flaw until it
// is counted.
function markTried() {
  if (puzzle && !counted) keep(TRIED_KEY, JSON.stringify({ id: puzzle.id, flawed: flawed || hinted }));
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
    <div class="row theme">
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
  const rating = account ? Math.round(account.rating) : r ? Math.round(r.rating) : 1500;
  let text = account
    ? t("puzzle.rating.account", { rating: account.shown, deviation: Math.round(account.rd) })
    : t("puzzle.rating.value", { rating, deviation: Math.round(r ? r.deviation : 350) });
  if (change) {
    text = t("puzzle.rating.change", { value: text, change: (change > 0 ? "+" : "−") + Math.abs(change) });
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
  // The themes tell how the puzzle is solved: they are told once it is over (as on
  // lichess), and so is its rating.
  el("puzzle-about").textContent = !puzzle
    ? ""
    : over
      ? t("puzzle.about.value", { id: puzzle.id, themes: puzzle.themes.map(themeName).join(t("puzzle.themes.join")) })
      : t("puzzle.about.id", { id: puzzle.id });
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

// Under `jungle serve`: the next puzzle the server chooses for the account (of the
// theme, or the one of `id`), or null when there is no session (the local rating
// then, as offline) or the server cannot say.
async function accountNext(theme, id, left) {
  if (!online) return null;
  const query = {};
  if (theme) query.theme = theme;
  if (id) query.id = id;
  if (left) query.left = left;
  const answer = await link.request("online.puzzleNext", query);
  if (answer.status !== 200) {
    account = null;
    return null;
  }
  const data = JSON.parse(answer.text);
  account = data.player;
  return data;
}

// Under `jungle serve` with a session: the attempt, rated by the server when it is
// the account's first at the puzzle. Its answer, or null.
async function sendAttempt(finished) {
  if (!online || !account) return null;
  const answer = await link.request("online.puzzleAttempt", { id: finished.id, solved: finished.solved });
  if (answer.status !== 200) return null;
  const data = JSON.parse(answer.text);
  account = data.player;
  return data;
}

function codeOf(answer) {
  try {
    return JSON.parse(answer.text).code;
  } catch (e) {
    return null;
  }
}

// Asks the back end for the next puzzle, or the one of `id` (counting `finished`
// first) and sets it up.
async function next(finished, id) {
  if (busy) return;
  busy = true;
  try {
    // Leaving a puzzle the judge counts as failed (a wrong move, a hint), or one
    // flawed before a reload, counts it as failed.
    const j = judged();
    if (!finished && puzzle && !counted && (flawed || (j && j.outcome === false))) {
      finished = { id: puzzle.id, solved: false };
    }
    const tried = readTried();
    if (!finished && tried && tried.flawed && tried.id !== id) finished = { id: tried.id, solved: false };
    const body = { seed: Math.floor(Math.random() * 2 ** 31) };
    if (id) body.id = id;
    // "Next" never brings back the puzzle on the board, finished or not.
    const left = !id && puzzle ? puzzle.id : null;
    if (left) body.left = left;
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
    if (finished) keep(TRIED_KEY, "");
    if (finished) await sendAttempt(finished);
    const chosen = await accountNext(theme, id, left);
    if (chosen) data.puzzle = chosen.puzzle;
    fillThemes(data.themes);
    if (!data.puzzle) {
      say(() => t("puzzle.noneOfTheme"), null, "");
      return;
    }
    // The puzzles were left while the answer came (Back, a lesson, "Leave"): the
    // board is the game's again, and a puzzle set up now would take it. (The
    // progress above is kept: it counts the puzzle finished.)
    if (!active) return;
    change = null;
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
  keep(TRIED_KEY, "");
  const body = { finished: { id: puzzle.id, solved }, seed: 0 };
  if (progress) body.progress = progress;
  const answer = await ask(body);
  if (answer.status === 200) {
    const data = JSON.parse(answer.text);
    progress = data.progress;
    saveProgress();
    change = data.change;
    const sent = await sendAttempt({ id: puzzle.id, solved });
    if (sent) change = sent.change;
    if (dropped) say(null, dropped, "wrong");
    dropped = null;
  } else {
    say(null, refusal(answer), "wrong");
  }
  renderStats();
}

async function setUp(p) {
  puzzle = p;
  // Until the judge has set it and the board is turned (the tests wait for "playing").
  document.body.dataset.puzzleState = "loading";
  counted = false;
  over = false;
  flawed = false;
  hinted = false;
  shownArrows = [];
  // Tried before the page was opened again: the flaw stays.
  const tried = readTried();
  if (tried && tried.id === p.id && tried.flawed) flawed = true;
  await post("judge", { do: "puzzle", id: p.id });
  // Left while the judge was asked ("Leave" right after "Next puzzle"): the board
  // is the game's again, so neither turn it nor mark a puzzle on it.
  if (!active) {
    post("judge", { do: "leave" });
    return;
  }
  placeChanged();
  // The puzzle's side plays at the bottom; the players' labels follow the turn (the
  // puzzle's state may have been drawn before it).
  board.setFlipped(p.solver === "blue");
  redraw();
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
  const moves = p.moves;
  if (p.goal !== "win") return () => t("puzzle.task.draw", { side: sideName(p.solver) });
  if (moves === 1) return () => t("puzzle.task.win.one", { side: sideName(p.solver) });
  return () => t("puzzle.task.win.many", { side: sideName(p.solver), moves });
}

// The judge of state `s` (the page's by default) while it judges this puzzle.
function judged(s = state) {
  const j = s && s.judge;
  return puzzle && j && j.kind === "puzzle" && j.id === puzzle.id ? j : null;
}

// Called before a move is sent; true when this file took care of it.
function interceptMove(move) {
  if (!active || !puzzle) return false;
  if (!busy && !over) tryMove(move);
  return true;
}

// The move goes to the judge as any move does; a refused one is said by game.js's post.
async function tryMove(move) {
  busy = true;
  try {
    clearHint();
    const s = await post("move", { move });
    const j = judged(s);
    const verdict = j && j.verdict;
    if (!verdict) return;
    if (verdict.answer === "solved") {
      await solved(j);
    } else if (verdict.answer === "wrong") {
      // Tried from its first move, flawed: a reload keeps the flaw.
      flawed = true;
      markTried();
      el("puzzle-retry").hidden = false;
      say(null, () => t("puzzle.wrong", { move }), "wrong");
      document.body.dataset.puzzleState = "wrong";
    } else {
      markTried();
      say(null, () => t("puzzle.right"), "right");
      await sleep(REPLY_DELAY);
      await post("judge", { do: "reply" });
    }
  } finally {
    busy = false;
  }
}

async function solved(j) {
  over = true;
  el("puzzle-retry").hidden = true;
  // A flaw from before a reload counts too (the judge sees only this page's tries).
  const clean = j.outcome === true && !flawed;
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

async function hint() {
  if (!puzzle || over) return;
  hinted = true;
  markTried();
  clearHint();
  const s = await post("judge", { do: "hint" });
  const h = judged(s) && judged(s).hint;
  if (!h) return;
  board.mark(h.square, "puzzle-hint");
  say(null, () => t("puzzle.hintText", { animal: animalName(h.animal), square: h.square }), "");
}

function clearHint() {
  board.unmark("puzzle-hint");
}

// The rest of the line as arrows: the person's moves in blue, the replies in yellow.
async function showSolution() {
  if (!puzzle || over) return;
  over = true;
  clearHint();
  el("puzzle-retry").hidden = true;
  const s = await post("judge", { do: "solution" });
  const j = judged(s);
  const rest = (j && j.solution) || [];
  shownArrows = rest.map((m, i) => [m, i % 2 === 0 ? "best-arrow" : "hint-arrow"]);
  board.drawArrows();
  say(null, () => t("puzzle.solution", { moves: rest.join(" ") }), "wrong");
  try {
    await count(!!j && j.outcome === true && !flawed);
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

// Opens the Puzzles mode: at the puzzle of `id` when one is given (the address),
// else where it was or at the next puzzle.
async function open(id) {
  if (typeof id !== "string") id = null;
  // Opened from the header or by the address: the first screen makes way.
  closeWelcome();
  buildBox();
  // The person's game waits for the end of the puzzles (aside.js).
  if (!active) aside.setAside();
  active = true;
  document.body.classList.add("puzzle-mode");
  el("puzzle-box").hidden = false;
  renderStats();
  if (id && (!puzzle || puzzle.id !== id)) {
    await next(undefined, id);
  } else if (!puzzle) {
    await next();
  } else {
    await setUp(puzzle);
  }
}

// `bring`: the kept game comes back (not when a lesson takes the board next).
function leave(bring) {
  active = false;
  // The board stays, a game of two people again.
  post("judge", { do: "leave" });
  shownArrows = [];
  clearHint();
  document.body.classList.remove("puzzle-mode");
  el("puzzle-box").hidden = true;
  delete document.body.dataset.puzzle;
  board.drawArrows();
  placeChanged();
  if (bring !== false) aside.bringBack();
}

// Where the person is, for the address: "puzzle/<id>", or null outside the puzzles.
function place() {
  return active && puzzle ? "puzzle/" + puzzle.id : null;
}

document.addEventListener("DOMContentLoaded", () => {
  buildBox();
  for (const b of document.querySelectorAll('[data-open="puzzles"]')) b.addEventListener("click", open);
});

// The puzzle on the board (the browser tests read its solution).
const current = () => puzzle;

export const puzzles = {
  interceptMove,
  arrows,
  onState,
  onLanguage,
  open,
  leave,
  current,
  place,
  // The Puzzles mode is open (its puzzle may still be on its way).
  active: () => active,
  onPlace: (f) => {
    placeChanged = f;
  },
};
