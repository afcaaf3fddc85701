// Jungle GUI page. Its back end (the server, or the worker of the static site) owns
// the game and checks every move: this page only shows the state it is sent and asks
// for changes. No libraries, no build step.
"use strict";

const FILES = "abcdefg";
const LABELS_KEY = "jungle.labels";
const SOUND_KEY = "jungle.sound";
const LANG_KEY = "jungle.lang";
const WELCOMED_KEY = "jungle.welcomed";
const LESSONS_KEY = "jungle.lessons";

// ----- words -------------------------------------------------------------------
// Every word the page shows comes from a catalogue (i18n/<lang>.js, one a language,
// `window.JUNGLE_I18N[lang]`), by key: `t("status.toMove", { side })`. The static
// parts of index.html name theirs in `data-i18n` (text), `data-i18n-title`,
// `data-i18n-placeholder` and `data-i18n-aria-label`. A key a catalogue lacks falls
// back to English (a test checks that none lacks any).

const CATALOGUES = window.JUNGLE_I18N || {};
const LANGS = ["en", "de", "zh", "zh-Hant"];

// The kept choice, else the browser's first language the page speaks, else English.
function chosenLanguage() {
  let kept = null;
  try {
    kept = localStorage.getItem(LANG_KEY);
  } catch (e) {
    // No storage.
  }
  if (LANGS.includes(kept)) return kept;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const tag = String(l).toLowerCase();
    // Chinese: traditional characters for zh-Hant, Taiwan, Hong Kong and Macao.
    if (/^zh-(hant|tw|hk|mo)/.test(tag)) return "zh-Hant";
    const base = tag.split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}
let lang = chosenLanguage();

function t(key, args) {
  const cat = CATALOGUES[lang] || {};
  let text = key in cat ? cat[key] : key in (CATALOGUES.en || {}) ? CATALOGUES.en[key] : key;
  if (args) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in args ? String(args[name]) : m));
  return text;
}

// The words of index.html in the chosen language.
function applyLanguage() {
  document.documentElement.lang = t("lang.tag");
  document.title = t("title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of document.querySelectorAll("[data-i18n-aria-label]")) el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  $("labels").options[2].textContent = t("labels.chars", { chars: ["elephant", "lion", "tiger"].map(charOf).join(" ") });
  $("lang").value = lang;
  const connection = $("connection");
  connection.textContent = t(connection.className === "online" ? "conn.live" : "conn.connecting");
  // The rules open in the page's language.
  selectRulesTab(lang);
}

function animalName(animal) {
  return t("animal." + animal);
}

// The animal's character in the page's script (simplified for Chinese, the
// traditional sets' otherwise: seed 003).
function charOf(animal) {
  return t("char." + animal);
}
// The labels (options of #labels) that draw the animal (the symbols in index.html),
// the rank then on a badge.
const PICTURED = new Set(["pictures-names", "pictures", "both"]);

let state = null;
let analysis = null;
let flipped = false;
let selected = null;
let dragFrom = null;
let stateReceivedAt = 0;
let fenShown = null;

const $ = (id) => document.getElementById(id);

// The kept choice of labels, or the first option (a first visit, or a value this page
// no longer offers).
function storedLabels() {
  const choices = Array.from($("labels").options, (o) => o.value);
  let kept = null;
  try {
    kept = localStorage.getItem(LABELS_KEY);
  } catch (e) {
    // No storage (a page opened from disk in some browsers).
  }
  return choices.includes(kept) ? kept : choices[0];
}
let labels = storedLabels();

// Sound is on unless the person turned it off (a stored "off").
function storedSound() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch (e) {
    return true;
  }
}
let soundOn = storedSound();

function squareName(index) {
  return FILES[index % 7] + (Math.floor(index / 7) + 1);
}

// A square's index in the state's `board` (a1 = 0, g9 = 62).
function squareIndex(sq) {
  return FILES.indexOf(sq[0]) + 7 * (Number(sq.slice(1)) - 1);
}

// ----- talking to the back end ------------------------------------------------
// `backend` (backend.js) is the `jungle gui` server, or in the static site the
// board's controller and the engine in a worker: the same requests, the same answers.

// Sends a request; a refusal is shown in `noticeEl` (the message line by default).
async function post(action, body, noticeEl) {
  const answer = await backend.request(action, body || {});
  if (answer.status === 0) {
    showNotice("error", () => unreachableText(answer));
    return null;
  }
  let data;
  try {
    data = JSON.parse(answer.text);
  } catch (e) {
    data = { code: "badAnswer" };
  }
  if (answer.status >= 300) {
    const words = () => refusalText(data) || t("error.failed", { status: answer.status });
    if (noticeEl) {
      sayIn(noticeEl, words);
    } else {
      showNotice("error", words);
    }
    return null;
  }
  if (noticeEl) noticeEl.hidden = true;
  hideNotice();
  render(data);
  return data;
}

// The back end could not be asked (the server is gone, the worker stopped): its
// code, worded here.
function unreachableText(answer) {
  return codeText("notice", answer.code, {}, answer.text);
}

// Words made by the back end, by their code (`<prefix>.<code>` in the catalogues),
// with sides, animals and reasons in the page's words; `fallback` (its English
// sentence) only for a code no catalogue has.
function codeText(prefix, code, args, fallback) {
  const key = prefix + "." + code;
  if (!code || !CATALOGUES.en || !(key in CATALOGUES.en)) return fallback;
  const a = Object.assign({}, args);
  if (a.side) a.side = sideName(a.side);
  if (a.animal) a.animal = animalName(a.animal);
  // A refused move after the end of a game names the reason by its code, with the
  // reason's own arguments beside it.
  if (a.reason) {
    const inner = Object.assign({}, args);
    delete inner.reason;
    a.reason = codeText("reason", a.reason, inner, a.reason);
  }
  // The players of a loaded game ("Human" for a person).
  if (a.red) a.red = seatName(a.red);
  if (a.blue) a.blue = seatName(a.blue);
  return t(key, a);
}

// A refusal in the page's language.
function refusalText(data) {
  return codeText("refusal", data.code, data.args, data.error);
}

// A notice of the back end's in the page's language.
function noticeText(n) {
  return codeText("notice", n.code, n.args, n.text);
}

// Shows `words` (a function giving the text in the page's language) in `el`; a
// language switch words it again.
const worded = new Map();
function sayIn(el, words) {
  worded.set(el, words);
  el.textContent = words();
  el.hidden = false;
}

// Words the shown texts again (after a language switch); a hidden one too, so that
// it is right when shown again.
function rewordAll() {
  for (const [el, words] of worded) el.textContent = words();
}

function connect() {
  backend.connect({
    open() {
      $("connection").textContent = t("conn.live");
      $("connection").className = "online";
    },
    // `key`: what the back end says of the connection (by default, that it tries
    // again).
    error(key) {
      $("connection").textContent = t(key || "conn.reconnecting");
      $("connection").className = "offline";
    },
    state: (data) => render(data),
    analysis(data) {
      renderAnalysis(data);
      if (state) renderArrows();
    },
    notice(n) {
      if (n.kind === "error") showNotice("error", () => noticeText(n));
    },
  });
}

// Saves the game as a record file (the same text `jungle replay` reads).
async function saveRecord() {
  const answer = await backend.request("record", null);
  if (answer.status !== 200) {
    showNotice("error", () => {
      let data = {};
      try {
        data = JSON.parse(answer.text);
      } catch (e) {
        // Not the back end's JSON.
      }
      return t("error.save", { text: answer.status === 0 ? unreachableText(answer) : refusalText(data) || answer.status });
    });
    return;
  }
  const url = URL.createObjectURL(new Blob([answer.text], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = "jungle-game.txt";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// `words`: a function giving the text in the page's language (or a text).
function showNotice(kind, words) {
  const el = $("notice");
  el.className = kind;
  sayIn(el, typeof words === "function" ? words : () => words);
}

function hideNotice() {
  $("notice").hidden = true;
}

// ----- the board ---------------------------------------------------------------

function buildBoard() {
  const board = $("board");
  board.textContent = "";
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 7; col++) {
      const rank = flipped ? row : 8 - row;
      const file = flipped ? 6 - col : col;
      const sq = FILES[file] + (rank + 1);
      const cell = document.createElement("div");
      cell.className = "cell";
      if ((rank + file) % 2 === 1) cell.classList.add("alt");
      cell.dataset.sq = sq;
      cell.setAttribute("role", "gridcell");
      if (row === 8) addCoord(cell, "file", FILES[file]);
      if (col === 0) addCoord(cell, "rank", String(rank + 1));
      board.appendChild(cell);
    }
  }
}

function addCoord(cell, kind, text) {
  const c = document.createElement("span");
  c.className = "coord " + kind;
  c.textContent = text;
  cell.appendChild(c);
}

function cellOf(sq) {
  return document.querySelector('#board .cell[data-sq="' + sq + '"]');
}

function renderBoard() {
  const s = state;
  const hint = s.hint ? [s.hint.slice(0, 2), s.hint.slice(2, 4)] : [];
  const last = s.lastMove ? [s.lastMove.slice(0, 2), s.lastMove.slice(2, 4)] : [];
  const targets = selected ? (s.legal[selected] || []) : [];
  const targetAt = (sq) => targets.find((t) => t.to === sq);
  const forbidden = selected ? (s.forbidden[selected] || []) : [];
  for (const cell of document.querySelectorAll("#board .cell")) {
    const sq = cell.dataset.sq;
    const p = s.board[squareIndex(sq)];
    let piece = cell.querySelector(".piece");
    if (p) {
      if (!piece) {
        piece = document.createElement("div");
        piece.innerHTML =
          '<span class="rank"></span><svg class="pic" aria-hidden="true"><use></use></svg><span class="name"></span>';
        cell.appendChild(piece);
      }
      piece.className = "piece " + p.color + (PICTURED.has(labels) ? " pictured" : "");
      piece.querySelector(".rank").textContent = p.rank;
      piece.querySelector("use").setAttribute("href", "#animal-" + p.animal);
      const name = animalName(p.animal);
      const char = charOf(p.animal);
      piece.querySelector(".name").textContent =
        labels === "chars" || labels === "both" ? char : labels === "pictures" ? "" : name;
      piece.dataset.labels = labels;
      cell.setAttribute("aria-label", sq + " " + sideName(p.color) + " " + name);
      cell.dataset.piece = p.letter;
    } else {
      if (piece) piece.remove();
      cell.setAttribute("aria-label", sq);
      delete cell.dataset.piece;
    }
    const target = targetAt(sq);
    const terrain = s.terrain[squareIndex(sq)];
    for (const kind of ["water", "trap", "den"]) cell.classList.toggle(kind, terrain.kind === kind);
    if (terrain.kind === "trap" || terrain.kind === "den") cell.dataset.terrain = t("board." + terrain.kind);
    for (const side of ["red", "blue"]) cell.classList.toggle(side + "-side", terrain.side === side);
    cell.classList.toggle("selected", sq === selected);
    cell.classList.toggle("target", !!target);
    cell.classList.toggle("capture", !!(target && target.capture));
    cell.classList.toggle("jump", !!(target && target.jump));
    cell.classList.toggle("forbidden", forbidden.includes(sq));
    cell.classList.toggle("hint", hint.includes(sq));
    cell.classList.toggle("last", last.includes(sq));
  }
}

// The arrows on the board: the hint, and the best line's first move while analysing.
function renderArrows() {
  const svg = $("arrows");
  for (const old of svg.querySelectorAll("line")) old.remove();
  const moves = [];
  if (state.hint) moves.push([state.hint, "hint-arrow"]);
  // At a move the review marked: the better move.
  const note = state.review && !state.review.running && state.review.moves[state.ply];
  if (note && note.mark && note.best) moves.push([note.best, "best-arrow"]);
  const best = analysis && analysis.on && analysis.ply === state.ply && analysis.lines[0];
  if (best && best.pv.length > 0 && best.pv[0] !== state.hint) moves.push([best.pv[0], "best-arrow"]);
  moves.push(...Puzzles.arrows()); // hook: puzzles.js (a puzzle's solution shown)
  for (const [m, kind] of moves) {
    const [x1, y1] = centre(m.slice(0, 2));
    const [x2, y2] = centre(m.slice(2, 4));
    const line = document.createElementNS(svg.namespaceURI, "line");
    // Stop short of the target's centre so the head sits on the square.
    const k = 0.28 / Math.hypot(x2 - x1, y2 - y1);
    line.setAttribute("x1", x1);
    line.setAttribute("y1", y1);
    line.setAttribute("x2", x2 - (x2 - x1) * k);
    line.setAttribute("y2", y2 - (y2 - y1) * k);
    line.setAttribute("class", kind);
    line.setAttribute("marker-end", "url(#" + kind + "-head)");
    line.dataset.move = m;
    svg.appendChild(line);
  }
}

// A square's centre in the arrows' coordinates (one unit a square, rank 9 on top).
function centre(sq) {
  const file = FILES.indexOf(sq[0]);
  const rank = Number(sq.slice(1)) - 1;
  const col = flipped ? 6 - file : file;
  const row = flipped ? rank : 8 - rank;
  return [col + 0.5, row + 0.5];
}

// The seat a person plays in a game against the engine, or null.
function personColor() {
  const s = state;
  return s.players === "red" || s.players === "blue" ? s.players : null;
}

// `to` is where the animal on `from` may move.
function isTarget(from, to) {
  return (state.legal[from] || []).some((t) => t.to === to);
}

function onCellActivated(sq) {
  if (!state) return;
  if (selected && sq !== selected) {
    const mine = state.legal[sq];
    if (mine && !isTarget(selected, sq) && !(state.forbidden[selected] || []).includes(sq)) {
      selected = sq; // another of one's own animals
      renderBoard();
      return;
    }
    const move = selected + sq;
    selected = null;
    renderBoard();
    if (!Puzzles.interceptMove(move)) playMove(move); // hook: puzzles.js
    return;
  }
  if (selected === sq) {
    selected = null;
  } else if (state.legal[sq] || state.forbidden[sq]) {
    selected = sq;
  } else if (state.board[FILES.indexOf(sq[0]) + 7 * (Number(sq.slice(1)) - 1)]) {
    explainWhyNot(sq);
    selected = null;
  }
  renderBoard();
}

function explainWhyNot(sq) {
  if (state.result) return;
  const p = state.board[squareIndex(sq)];
  const you = personColor();
  // The words keep the values of the moment (a language switch words them again).
  const engine = state.thinking ? state.thinking.engine : "";
  const toMove = state.sideToMove;
  if (state.thinking) {
    showNotice("info", () => t("why.thinking", { engine }));
  } else if (p && you && p.color !== you) {
    showNotice("info", () => t("why.notYours", { side: sideName(p.color), animal: animalName(p.animal), you: sideName(you) }));
  } else if (p && p.color !== state.sideToMove) {
    showNotice("info", () => t("why.toMove", { side: sideName(toMove) }));
  } else if (Object.keys(state.legal).length === 0) {
    showNotice("info", () => t("why.notTurn"));
  } else {
    showNotice("info", () => t("why.noMove"));
  }
}

// A move made on the board.
function playMove(move) {
  post("move", { move }).then((ok) => {
    if (!ok) moveRefused();
  });
}

function cellFromEvent(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  return el ? el.closest("#board .cell") : null;
}

function setUpPointer() {
  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    const cell = cellFromEvent(e);
    dragFrom = cell ? cell.dataset.sq : null;
  });
  board.addEventListener("pointerup", (e) => {
    const cell = cellFromEvent(e);
    if (!cell) return;
    const to = cell.dataset.sq;
    if (dragFrom && dragFrom !== to && state && state.legal[dragFrom]) {
      // A drag from one of one's animals to another square: a move.
      selected = null;
      if (!Puzzles.interceptMove(dragFrom + to)) playMove(dragFrom + to); // hook: puzzles.js
    } else {
      onCellActivated(to);
    }
    dragFrom = null;
  });
}

// ----- the rest of the page ----------------------------------------------------

function sideName(color) {
  return t(color === "red" ? "side.red" : "side.blue");
}

function formatClock(ms) {
  const t = Math.max(0, Math.round(ms / 100));
  const tenths = t % 10;
  const secs = Math.floor(t / 10) % 60;
  const mins = Math.floor(t / 600);
  return mins + ":" + String(secs).padStart(2, "0") + "." + tenths;
}

function renderPlayers() {
  const s = state;
  const top = flipped ? "red" : "blue";
  const bottom = flipped ? "blue" : "red";
  for (const [id, color] of [["player-top", top], ["player-bottom", bottom]]) {
    const who = document.querySelector("#" + id + " .who");
    who.className = "who " + color;
    who.textContent = t("player.seat", { side: sideName(color), name: seatName(s.seats[color]) });
    const clock = document.querySelector("#" + id + " .clock");
    if (s.players === "engines") {
      let ms = s.watch.clocks[color === "red" ? 0 : 1];
      const running = s.thinking && s.thinking.side === color;
      if (running) ms -= s.thinking.elapsedMs + (Date.now() - stateReceivedAt);
      clock.textContent = formatClock(ms);
      clock.classList.toggle("running", !!running);
    } else {
      clock.textContent = "";
    }
  }
}

// A person's seat is "You" in the state ("Human" in a record); the page says it in
// its language.
function seatName(name) {
  return name === "You" || name === "Human" ? t("seat.human") : name;
}

// The end of the game as the person reads it: "You win!" against the engine. The
// reason by its code (the rules', or the referee's: a clock, an engine's failure).
function resultText() {
  const r = state.result;
  const reason = codeText("reason", r.code, r.args, r.reason);
  const capital = reason.charAt(0).toUpperCase() + reason.slice(1);
  const you = personColor();
  if (!r.winner) return t("result.draw", { reason });
  if (you) return t(r.winner === you ? "result.win" : "result.lose", { reason: capital });
  return t("result.wins", { side: sideName(r.winner), reason });
}

function levelName(l) {
  const key = "level." + l.level;
  return CATALOGUES.en && key in CATALOGUES.en && l.name === CATALOGUES.en[key] ? t(key) : l.name;
}

function animalsLeft(color) {
  return state.board.filter((p) => p && p.color === color).length;
}

function countersText() {
  const s = state;
  const blueFirst = s.firstMover === "blue";
  const move = Math.floor((s.ply + (blueFirst ? 1 : 0)) / 2) + 1;
  const turn = s.result ? "" : t("counters.turn", { side: sideName(s.sideToMove) });
  return t("counters", { move, turn, red: animalsLeft("red"), blue: animalsLeft("blue") });
}

function statusText() {
  const s = state;
  if (s.result) return resultText();
  if (s.thinking) return t("status.thinking", { engine: s.thinking.engine, side: sideName(s.thinking.side) });
  const side = sideName(s.sideToMove);
  if (s.players === "engines") return t(s.watch.running ? "status.toMove" : "status.paused", { side });
  if (Object.keys(s.legal).length > 0) {
    return t(s.players === "both" ? "status.toMove" : "status.yourMove", { side }) + (s.hint ? t("status.hint", { move: s.hint }) : "");
  }
  return t("status.pressEngine", { side, engine: s.seats[s.sideToMove] });
}

function gameInfo() {
  const s = state;
  let text = t("info.rules", { rules: s.rules });
  if (s.players === "red" || s.players === "blue") {
    const l = s.levels[s.level - 1];
    text += t("info.level", { level: l.level, name: levelName(l), seconds: s.movetimeMs / 1000 });
  }
  return text;
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  const s = state;
  const blueFirst = s.firstMover === "blue";
  let li = null;
  s.moves.forEach((m, i) => {
    const slot = i + (blueFirst ? 1 : 0);
    if (slot % 2 === 0 || li === null) {
      li = document.createElement("li");
      if (blueFirst && i === 0) {
        const dots = document.createElement("span");
        dots.textContent = "…";
        li.appendChild(dots);
      }
      list.appendChild(li);
    }
    const span = document.createElement("span");
    const note = s.review && s.review.moves[i];
    span.textContent = m + (note && note.symbol ? note.symbol : "");
    span.dataset.ply = i + 1;
    if (i + 1 === s.ply) span.className = "current";
    else if (i + 1 > s.ply) span.className = "future";
    if (note && note.mark) {
      span.classList.add("review-mark", note.mark);
      span.title = noteText(i, note);
    }
    span.addEventListener("click", () => post("goto", { ply: i + 1 }));
    li.appendChild(span);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// "12… c7c6, a blunder (−23.4 points; better: e7e6)": a marked move in words.
function noteText(i, note) {
  const blueFirst = state.firstMover === "blue";
  const slot = i + (blueFirst ? 1 : 0);
  const number = Math.floor(slot / 2) + 1 + (slot % 2 === 0 ? ". " : "… ");
  let text = t("note.text", { number, move: state.moves[i], mark: t("mark." + note.mark) });
  // A record's comment may give a mark without the loss.
  const loss = typeof note.loss === "number" ? t("note.loss", { points: note.loss.toFixed(1) }) : "";
  const better = note.best ? t("note.better", { move: note.best }) : "";
  if (loss || better) text += " (" + [loss, better].filter((t) => t).join("; ") + ")";
  return text;
}

function sideReview(color) {
  const r = state.review[color];
  const count = (n, word) => t("review." + word + (n === 1 ? ".one" : ".many"), { n });
  const accuracy = r.accuracy === null ? t("review.noMoves") : t("review.accuracy", { n: Math.round(r.accuracy) });
  return t("review.side", {
    side: sideName(color),
    player: seatName(state.seats[color]),
    accuracy,
    inaccuracies: count(r.inaccuracies, "inaccuracies"),
    mistakes: count(r.mistakes, "mistakes"),
    blunders: count(r.blunders, "blunders"),
  });
}

// The review: its progress, then each side's accuracy and the marked moves (a click
// goes to the position where the move was played, with the better move as an arrow).
function renderReview() {
  const s = state;
  const r = s.review;
  const button = $("review");
  button.textContent = t(r && r.running ? "review.stop" : "review");
  button.disabled = !(r && r.running) && (s.moves.length === 0 || !!s.thinking);
  const box = $("review-summary");
  box.textContent = "";
  if (!r) {
    $("review-status").textContent = "";
    box.hidden = true;
    return;
  }
  $("review-status").textContent = r.running ? t("review.progress", { done: r.done, total: r.total }) : "";
  box.hidden = r.running;
  if (r.running) return;
  for (const color of ["red", "blue"]) {
    const p = document.createElement("p");
    p.className = "side-review " + color;
    p.textContent = sideReview(color);
    box.appendChild(p);
  }
  const marked = document.createElement("ul");
  marked.className = "marked";
  r.moves.forEach((note, i) => {
    if (!note || !note.mark) return;
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "review-link review-mark " + note.mark;
    b.textContent = noteText(i, note);
    b.dataset.ply = i;
    b.addEventListener("click", () => post("goto", { ply: i }));
    li.appendChild(b);
    marked.appendChild(li);
  });
  if (marked.children.length === 0) {
    const p = document.createElement("p");
    p.textContent = t("review.none");
    box.appendChild(p);
  } else {
    box.appendChild(marked);
  }
}

function renderSettings() {
  const s = state;
  const level = $("level");
  if (level.options.length !== s.levels.length) {
    level.textContent = "";
    for (const l of s.levels) level.appendChild(new Option("", l.level));
  }
  // The levels by name; their Elo figures are for experts (under "Rules, position and
  // engine").
  s.levels.forEach((l, i) => {
    level.options[i].textContent = l.level + " " + levelName(l);
  });
  level.value = String(s.level);
  level.disabled = !s.levelsSupported || s.players === "engines";
  level.title = s.levelsSupported ? "" : t("level.none");
  const chosen = s.levels[s.level - 1];
  $("level-elo").textContent = !chosen ? "" : chosen.elo ? t("levelElo", { level: chosen.level, elo: chosen.elo })
    : chosen.level === s.levels.length ? t("levelElo.full", { level: chosen.level }) : "";
  $("players").value = s.players;
  const movetime = $("movetime");
  if (![...movetime.options].some((o) => o.value === String(s.movetimeMs))) {
    movetime.appendChild(new Option((s.movetimeMs / 1000) + " s", String(s.movetimeMs)));
  }
  movetime.value = String(s.movetimeMs);
  // The position box follows the game, but what a person is typing there stays
  // until the position itself changes.
  if (s.fen !== fenShown) {
    $("fen").value = s.fen;
    fenShown = s.fen;
  }
  if (document.activeElement !== $("variant")) $("variant").value = s.variant;
  $("dog-swims").checked = s.dogSwims;
  $("trapped-lose-attack").checked = s.trappedLoseAttack;
  $("undo").disabled = !s.canUndo;
  $("redo").disabled = !s.canRedo;
  $("hint").disabled = !!s.result || !!s.thinking;
  $("engine-move").disabled = !!s.result;
  $("engine-move").textContent = t(s.thinking ? "btn.movenow" : "btn.engine");
  $("first").disabled = $("back").disabled = s.ply === 0;
  $("forward").disabled = $("last").disabled = s.ply >= s.moves.length;
  $("watch-info").textContent = t("watch.info", {
    red: s.engines[0],
    blue: s.engines[1],
    base: s.watch.tc.baseMs / 1000,
    inc: s.watch.tc.incMs / 1000,
  });
  $("watch-run").disabled = (s.players === "engines" && s.watch.running) || !!s.result;
  $("watch-pause").disabled = !(s.players === "engines" && s.watch.running);
  const messages = $("messages");
  messages.textContent = "";
  for (const n of s.notices.slice().reverse()) {
    const li = document.createElement("li");
    li.className = n.kind;
    li.textContent = noticeText(n);
    messages.appendChild(li);
  }
}

function renderResult() {
  const el = $("result");
  if (state.result) {
    el.textContent = resultText();
    const you = personColor();
    el.className = !state.result.winner ? "draw" : you && state.result.winner !== you ? "lost" : "won";
    el.hidden = false;
  } else {
    el.hidden = true;
  }
}

function renderAnalysis(a) {
  analysis = a;
  $("analysis").checked = a.on;
  $("multipv").value = String(a.multipv);
  const body = document.querySelector("#lines tbody");
  body.textContent = "";
  if (state && a.ply !== state.ply) return;
  for (const l of a.lines) {
    const tr = document.createElement("tr");
    // The engine scores for the side to move; the table shows Red's view.
    const [kind, value] = l.score.split(" ");
    const sign = state && state.sideToMove === "blue" ? -1 : 1;
    const v = sign * Number(value);
    const score = kind === "mate" ? t(v > 0 ? "mate.red" : "mate.blue", { n: Math.abs(v) })
      : (v > 0 ? "+" : "") + (v / 100).toFixed(2);
    for (const text of [l.multipv, l.depth, score, l.nodes, l.nps]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    const pv = document.createElement("td");
    pv.className = "pv";
    pv.textContent = l.pv.slice(0, 10).join(" ") + (l.pv.length > 10 ? " …" : "");
    pv.title = l.pv.join(" ");
    tr.appendChild(pv);
    body.appendChild(tr);
  }
}

function renderGraph() {
  // One curve per side to move: two engines (or an engine and the analysis) may
  // judge on different scales, and their curves should not zigzag into one.
  const svg = $("graph");
  const scores = state.scores;
  const n = Math.max(scores.length - 1, 1);
  const x = (i) => (i / n) * 300;
  const y = (v) => 50 - (v / 1500) * 48;
  const redFirst = state.firstMover === "red";
  const series = { red: [], blue: [] };
  scores.forEach((v, i) => {
    if (v === null) return;
    const mover = (i % 2 === 0) === redFirst ? "red" : "blue";
    series[mover].push(x(i).toFixed(1) + "," + y(v).toFixed(1));
  });
  let html = '<line class="axis" x1="0" y1="50" x2="300" y2="50"/>';
  for (const side of ["red", "blue"]) {
    if (series[side].length > 1) {
      html += '<polyline class="curve ' + side + '" points="' + series[side].join(" ") + '"/>';
    }
  }
  html += '<line class="cursor" x1="' + x(state.ply) + '" y1="0" x2="' + x(state.ply) + '" y2="100"/>';
  svg.innerHTML = html;
}

function render(s) {
  // An answer to a request may arrive after a newer state sent on the event stream
  // (the engine can reply before the answer to the move that asked it is read).
  if (state && s.version < state.version) return;
  const prev = state;
  const rulesChanged = state && (state.rules !== s.rules || state.startFen !== s.startFen);
  // A message about one position goes when the game moves on.
  if (state && (state.ply !== s.ply || state.moves.length !== s.moves.length || rulesChanged)) hideNotice();
  state = s;
  stateReceivedAt = Date.now();
  // Nothing left to lose: a pending "start a new game?" question goes.
  if (s.moves.length === 0 || s.result) $("confirm").hidden = true;
  if (selected && !(s.legal[selected] || s.forbidden[selected])) selected = null;
  if (rulesChanged) selected = null;
  const change = prev && !rulesChanged ? changeBetween(prev, s) : null;
  renderBoard();
  // A lesson's moves played before its task go without a sound.
  if (change && !(lesson && lesson.phase === "loading")) showChange(change);
  renderPlayers();
  renderResult();
  $("status").textContent = statusText();
  $("counters").textContent = countersText();
  $("game-info").textContent = gameInfo();
  renderMoves();
  renderReview();
  renderSettings();
  renderAnalysis(s.analysis);
  renderArrows();
  renderGraph();
  $("tip").hidden = !!lesson || !!s.result || s.moves.length > 0 || !personColor() || Object.keys(s.legal).length === 0;
  checkLesson(s);
  Puzzles.onState(); // hook: puzzles.js
  document.body.dataset.version = s.version;
}

// ----- moves seen and heard ------------------------------------------------------
// A move made on the board, by the engine or by stepping through the game slides the
// animal from its square and makes a sound; the end of a game has its own sound. What
// was shown is kept in `window.jungleEffects` (the browser tests read it).

window.jungleEffects = [];

function noteEffect(text) {
  window.jungleEffects.push(text);
  if (window.jungleEffects.length > 50) window.jungleEffects.shift();
}

// What changed from one state to the next, when it was one move forward or back, or
// two forward (the engine's reply can arrive before the answer to the move that asked
// for it): the squares each moved animal left and reached, and what is to be heard.
function changeBetween(prev, s) {
  if (s.startFen !== prev.startFen) return null;
  const ended = s.result && !prev.result;
  const forward = s.ply - prev.ply;
  if ((forward === 1 || forward === 2) && samePlies(prev.moves, s.moves, prev.ply)) {
    const moves = s.moves.slice(prev.ply, s.ply);
    const captured = s.moveKinds.slice(prev.ply, s.ply).some((k) => k.capture);
    return {
      slides: moves.map((m) => [m.slice(0, 2), m.slice(2, 4)]),
      sound: ended ? endSound(s.result) : captured ? "capture" : "move",
    };
  }
  if (s.ply === prev.ply - 1 && samePlies(prev.moves, s.moves, s.ply)) {
    return { slides: [[prev.lastMove.slice(2, 4), prev.lastMove.slice(0, 2)]], sound: "move" };
  }
  return null;
}

// The first `n` moves of two lines are the same.
function samePlies(a, b, n) {
  if (a.length < n || b.length < n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

// A game against the engine ends in a win or a loss for the person; any other game
// just ends.
function endSound(result) {
  const you = personColor();
  if (!result.winner || !you) return "end";
  return result.winner === you ? "win" : "loss";
}

function showChange(change) {
  // The earlier of two moves has already reached its square: only the last slides,
  // but both are noted.
  change.slides.forEach(([from, to], i) => {
    if (i === change.slides.length - 1) slide(from, to);
    else noteEffect("slide " + from + to);
  });
  playSound(change.sound);
}

// The animal now on `to` slides there from `from` (not when the person asked for
// less motion).
function slide(from, to) {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const start = cellOf(from);
  const end = cellOf(to);
  const piece = end && end.querySelector(".piece");
  if (!start || !piece || typeof piece.animate !== "function") return;
  const a = start.getBoundingClientRect();
  const b = end.getBoundingClientRect();
  const dx = a.left - b.left;
  const dy = a.top - b.top;
  // A river jump crosses three or four squares: it takes a little longer.
  const squares = Math.max(Math.abs(dx) / (b.width || 1), Math.abs(dy) / (b.height || 1));
  piece.animate(
    [
      { transform: "translate(" + dx + "px, " + dy + "px)", zIndex: 5 },
      { transform: "none", zIndex: 5 },
    ],
    { duration: squares > 1.5 ? 320 : 180, easing: "ease-out" },
  );
  noteEffect("slide " + from + to);
}

let audio = null;

// Short tones made in the page (Web Audio; no sound files): a soft knock for a move,
// a lower, longer one for a capture, three rising notes for a win, three falling ones
// for a loss, two equal ones for any other end.
const SOUNDS = {
  move: [[520, 0, 0.07]],
  capture: [[300, 0, 0.05], [220, 0.05, 0.12]],
  win: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.25]],
  loss: [[392, 0, 0.14], [330, 0.14, 0.14], [262, 0.28, 0.3]],
  end: [[440, 0, 0.15], [440, 0.2, 0.2]],
};

function playSound(kind) {
  if (!soundOn || !SOUNDS[kind]) return;
  noteEffect("sound " + kind);
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [freq, at, length] of SOUNDS[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = kind === "move" || kind === "capture" ? "triangle" : "sine";
      osc.frequency.setValueAtTime(freq, now + at);
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.25, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
  } catch (e) {
    // No audio on this device: the game goes on in silence.
  }
}

// ----- controls -----------------------------------------------------------------

function rulesChoice() {
  return {
    variant: $("variant").value,
    dogSwims: $("dog-swims").checked,
    trappedLoseAttack: $("trapped-lose-attack").checked,
  };
}

// Asks before a change would end the game in progress; `yes` runs when accepted,
// `no` when declined.
// Asks first (`words`: a function giving the question in the page's language) when a
// game is in progress.
function confirmFirst(words, yes, no) {
  if (!state || state.moves.length === 0 || state.result) {
    yes();
    return;
  }
  sayIn($("confirm-text"), words);
  $("confirm").hidden = false;
  $("confirm-yes").onclick = () => {
    $("confirm").hidden = true;
    yes();
  };
  $("confirm-no").onclick = () => {
    $("confirm").hidden = true;
    if (no) no();
  };
}

function newGameWithRules() {
  clearErrors();
  post("new", { players: $("players").value, rules: rulesChoice() });
}

// What was said about the old game goes with it.
function clearErrors() {
  hideNotice();
  $("fen-error").hidden = true;
}

function openRules() {
  $("rules-dialog").showModal();
}

// Shows the rules in `code` (en, de, zh).
function selectRulesTab(code) {
  for (const tab of document.querySelectorAll("#rules-dialog [role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.lang === code));
  }
  for (const text of document.querySelectorAll("#rules-dialog .rules-text")) {
    text.hidden = text.dataset.lang !== code;
  }
}

function setUpRulesDialog() {
  $("rules-open").addEventListener("click", openRules);
  for (const tab of document.querySelectorAll("#rules-dialog [role=tab]")) {
    tab.addEventListener("click", () => selectRulesTab(tab.dataset.lang));
  }
}

// The language switch: the page speaks the chosen language at once, and the browser
// keeps the choice.
function setUpLanguage() {
  applyLanguage();
  $("lang").addEventListener("change", () => {
    lang = $("lang").value;
    try {
      localStorage.setItem(LANG_KEY, lang);
    } catch (e) {
      // No storage: the choice lasts the visit.
    }
    applyLanguage();
    if (state) render(state);
    rewordAll();
    renderLesson();
    renderLessonChoices();
    Puzzles.onLanguage(); // hook: puzzles.js
  });
}

// ----- the first screen ---------------------------------------------------------
// A first visit shows the ways in over the board: play, learn, puzzles. "Play"
// starts at once (a new board is at Beginner, the person Red); the tip under the
// board says what to do first.

function storedFlag(key) {
  try {
    return localStorage.getItem(key) !== null;
  } catch (e) {
    return false;
  }
}

function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    // No storage: it lasts the visit.
  }
}

function puzzles() {
  const p = window.JunglePuzzles;
  return p && typeof p.open === "function" ? p : null;
}

function closeWelcome() {
  $("welcome").hidden = true;
  keep(WELCOMED_KEY, "1");
}

function setUpWelcome() {
  $("welcome").hidden = storedFlag(WELCOMED_KEY);
  $("welcome-play").addEventListener("click", closeWelcome);
  $("welcome-learn").addEventListener("click", () => {
    closeWelcome();
    openLessons();
  });
  const p = puzzles();
  $("welcome-puzzles").disabled = !p;
  $("welcome-puzzles-sub").hidden = !!p;
  if (p) {
    $("welcome-puzzles").addEventListener("click", () => {
      closeWelcome();
      p.open();
    });
  }
}

// ----- lessons -------------------------------------------------------------------
// "Learn": short lessons on the real board (lessons.js). A task is a position with
// Red to move; the person plays both sides' seat ("Two people": no engine answers).
// The back end's judge (`POST judge`) sets the task and judges the try: the rules core
// checks the move as in any game, the judge whether it is one of the task's. A wrong
// try is answered with the task's hint and taken back. Progress stays in the browser.

const LESSONS = window.JUNGLE_LESSONS || [];
// The lesson under way: its index, the task's, what the person chose before the
// lesson (for "Back to playing"), and where the task is.
let lesson = null;

function lessonsDone() {
  try {
    const done = JSON.parse(localStorage.getItem(LESSONS_KEY) || "[]");
    return Array.isArray(done) ? done : [];
  } catch (e) {
    return [];
  }
}

function markLessonDone(id) {
  const done = lessonsDone();
  if (!done.includes(id)) done.push(id);
  keep(LESSONS_KEY, JSON.stringify(done));
}

function openLessons() {
  renderLessonChoices();
  $("learn-dialog").showModal();
}

function renderLessonChoices() {
  const list = $("lesson-choices");
  list.textContent = "";
  const done = lessonsDone();
  LESSONS.forEach((l, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "lesson-choice";
    b.dataset.lesson = l.id;
    const title = document.createElement("b");
    title.textContent = t("lesson." + l.id + ".title");
    const sub = document.createElement("span");
    sub.textContent = t(l.tasks.length === 1 ? "learn.tasks.one" : "learn.tasks", { n: l.tasks.length }) + (done.includes(l.id) ? " · ✓ " + t("learn.done") : "");
    if (done.includes(l.id)) b.classList.add("done");
    b.append(title, sub);
    b.addEventListener("click", () => {
      $("learn-dialog").close();
      // From one lesson to another nothing is lost; a game in progress is.
      if (lesson) startLesson(i);
      else confirmFirst(() => t("confirm.lesson"), () => startLesson(i));
    });
    li.appendChild(b);
    list.appendChild(li);
  });
}

function startLesson(i) {
  const before = lesson ? lesson.before : { players: state ? state.players : "red", rules: rulesChoice() };
  lesson = { i, task: 0, before, phase: "loading", said: null };
  startTask();
}

function startTask() {
  lesson.phase = "loading";
  lesson.said = null;
  clearErrors();
  renderLesson();
  setUpTask(false).then((ok) => {
    if (lesson && ok) lesson.phase = "waiting";
    renderLesson();
  });
}

// The task set on the board by the back end's judge (its position and the moves
// played before it, whose history matters to the anti-chase rules), in silence; `again`:
// set again from its start after a wrong try.
function setUpTask(again) {
  return post("judge", again ? { do: "again" } : { do: "lesson", id: LESSONS[lesson.i].id, task: lesson.task });
}

function leaveLesson() {
  const before = lesson.before;
  lesson = null;
  renderLesson();
  clearErrors();
  post("new", { players: before.players, rules: before.rules });
}

// What the back end's judge said of the task's try: called with each new state.
function checkLesson(s) {
  if (!lesson || lesson.phase !== "waiting") return;
  const j = s.judge;
  if (!j || j.kind !== "lesson" || j.id !== LESSONS[lesson.i].id || j.task !== lesson.task || !j.verdict) return;
  if (j.verdict.answer === "solved") {
    lesson.phase = "solved";
    const praise = ["lesson.praise.1", "lesson.praise.2", "lesson.praise.3"][(lesson.i + lesson.task) % 3];
    const last = lesson.task === LESSONS[lesson.i].tasks.length - 1;
    if (last) markLessonDone(LESSONS[lesson.i].id);
    lesson.said = { kind: "praise", keys: last ? [praise, "lesson.finished"] : [praise] };
  } else {
    // A legal move, but not the task's: the hint, and the task set again from its
    // start (the move list as it was, nothing left to redo).
    wrongTry();
    lesson.phase = "resetting";
    const at = lesson.i + "." + lesson.task;
    setTimeout(() => {
      if (!lesson || lesson.i + "." + lesson.task !== at) return;
      lesson.phase = "loading";
      setUpTask(true).then((ok) => {
        if (lesson && lesson.phase === "loading" && ok) lesson.phase = "waiting";
        renderLesson();
      });
    }, 700);
  }
  renderLesson();
}

function wrongTry() {
  const l = LESSONS[lesson.i];
  lesson.said = { kind: "wrong", hint: "lesson." + l.id + "." + (lesson.task + 1) + ".hint" };
  renderLesson();
}

function renderLesson() {
  document.body.classList.toggle("in-lesson", !!lesson);
  $("lesson").hidden = !lesson;
  if (!lesson) return;
  const l = LESSONS[lesson.i];
  const n = lesson.task + 1;
  $("lesson-title").textContent = t("lesson." + l.id + ".title");
  $("lesson-step").textContent = t("lesson.step", { n, total: l.tasks.length });
  $("lesson-task").textContent = t("lesson." + l.id + "." + n + ".task");
  const feedback = $("lesson-feedback");
  feedback.hidden = !lesson.said;
  // Said in the page's language of the moment (the switch may come after).
  if (lesson.said) {
    const said = lesson.said;
    feedback.textContent = said.kind === "wrong" ? t("lesson.wrong", { hint: t(said.hint) })
      : said.keys.map((k) => t(k)).join(" ");
    feedback.className = said.kind;
  }
  const next = $("lesson-next");
  next.hidden = lesson.phase !== "solved";
  const lastTask = lesson.task === l.tasks.length - 1;
  next.textContent = t(lastTask ? (lesson.i < LESSONS.length - 1 ? "lesson.nextLesson" : "lesson.list") : "lesson.next");
}

function nextTask() {
  const l = LESSONS[lesson.i];
  if (lesson.task < l.tasks.length - 1) {
    lesson.task += 1;
    startTask();
  } else if (lesson.i < LESSONS.length - 1) {
    lesson.i += 1;
    lesson.task = 0;
    startTask();
  } else {
    openLessons();
  }
}

function setUpLessons() {
  $("learn-open").addEventListener("click", openLessons);
  $("lesson-next").addEventListener("click", nextTask);
  $("lesson-list").addEventListener("click", openLessons);
  $("lesson-leave").addEventListener("click", leaveLesson);
}

// A move the back end refused: in a lesson, the task's hint says what to do instead.
function moveRefused() {
  if (!lesson || lesson.phase !== "waiting") return;
  hideNotice();
  wrongTry();
}

// On a phone the expert parts (rules, position, Elo, analysis) start folded.
function foldForPhone() {
  if (!window.matchMedia || !window.matchMedia("(max-width: 760px)").matches) return;
  for (const d of document.querySelectorAll("details[data-fold-on-phone]")) d.open = false;
}

function setUpControls() {
  // A new game ends the one in progress: the page asks first, as for new rules.
  $("new").addEventListener("click", () => confirmFirst(() => t("confirm.new"), newGameWithRules));
  $("apply-rules").addEventListener("click", () => confirmFirst(() => t("confirm.rules"), newGameWithRules));
  $("variant").addEventListener("change", () => {
    const variant = $("variant").value;
    confirmFirst(() => t("confirm.variant", { variant }), newGameWithRules,
      () => { $("variant").value = state.variant; });
  });
  $("labels").value = labels;
  $("labels").addEventListener("change", () => {
    labels = $("labels").value;
    try {
      localStorage.setItem(LABELS_KEY, labels);
    } catch (e) {
      // A page opened from disk in some browsers has no storage: the choice lasts the visit.
    }
    if (state) renderBoard();
  });
  $("sound").checked = soundOn;
  $("sound").addEventListener("change", () => {
    soundOn = $("sound").checked;
    try {
      localStorage.setItem(SOUND_KEY, soundOn ? "on" : "off");
    } catch (e) {
      // No storage: the choice lasts the visit.
    }
  });
  $("undo").addEventListener("click", () => post("undo"));
  $("redo").addEventListener("click", () => post("redo"));
  $("hint").addEventListener("click", () => post("hint"));
  $("review").addEventListener("click", () => post("review", { on: !(state.review && state.review.running) }));
  $("engine-move").addEventListener("click", () => post("movenow"));
  $("flip").addEventListener("click", () => {
    flipped = !flipped;
    buildBoard();
    if (state) render(state);
  });
  $("players").addEventListener("change", () => post("settings", { players: $("players").value }));
  $("level").addEventListener("change", () => post("settings", { level: Number($("level").value) }));
  $("movetime").addEventListener("change", () => post("settings", { movetimeMs: Number($("movetime").value) }));
  $("set-fen").addEventListener("click", () => {
    hideNotice();
    post("new", { fen: $("fen").value, rules: rulesChoice() }, $("fen-error"));
  });
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move-input").value.trim();
    if (!text) return;
    if (state && state.thinking) {
      const engine = state.thinking.engine;
      showNotice("info", () => t("move.wait", { engine, move: text }));
      return;
    }
    if (Puzzles.interceptMove(text)) return; // hook: puzzles.js
    post("move", { move: text }).then((ok) => {
      if (ok) $("move-input").value = "";
    });
  });
  $("first").addEventListener("click", () => post("goto", { ply: 0 }));
  $("back").addEventListener("click", () => post("goto", { ply: Math.max(0, state.ply - 1) }));
  $("forward").addEventListener("click", () => post("goto", { ply: Math.min(state.moves.length, state.ply + 1) }));
  $("last").addEventListener("click", () => post("goto", { ply: state.moves.length }));
  $("analysis").addEventListener("change", () => post("analysis", { on: $("analysis").checked, multipv: Number($("multipv").value) }));
  $("multipv").addEventListener("change", () => post("analysis", { on: $("analysis").checked, multipv: Number($("multipv").value) }));
  $("watch-run").addEventListener("click", () => post("watch", { run: true }));
  $("watch-pause").addEventListener("click", () => post("watch", { run: false }));
  $("save").addEventListener("click", (e) => {
    e.preventDefault();
    saveRecord();
  });
  $("load").addEventListener("change", () => {
    const file = $("load").files[0];
    if (!file) return;
    clearErrors();
    file.text().then((text) => post("load", { text, game: Number($("load-number").value) || 1 }));
    $("load").value = "";
  });
  $("graph").addEventListener("click", (e) => {
    if (!state || state.moves.length === 0) return;
    const rect = $("graph").getBoundingClientRect();
    const ply = Math.round(((e.clientX - rect.left) / rect.width) * state.moves.length);
    post("goto", { ply: Math.max(0, Math.min(state.moves.length, ply)) });
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || !state) return;
    if (e.key === "ArrowLeft" && state.ply > 0) post("goto", { ply: state.ply - 1 });
    if (e.key === "ArrowRight" && state.ply < state.moves.length) post("goto", { ply: state.ply + 1 });
    if (e.key === "Home" && state.ply > 0) post("goto", { ply: 0 });
    if (e.key === "End" && state.ply < state.moves.length) post("goto", { ply: state.moves.length });
  });
  // The running clock of a watched game.
  setInterval(() => {
    if (state && state.players === "engines" && state.thinking) renderPlayers();
  }, 200);
}

document.addEventListener("DOMContentLoaded", () => {
  setUpLanguage();
  foldForPhone();
  buildBoard();
  setUpPointer();
  setUpControls();
  setUpRulesDialog();
  setUpWelcome();
  setUpLessons();
  backend.request("state", null).then((a) => {
    if (a.status === 200) render(JSON.parse(a.text));
  });
  connect();
});
