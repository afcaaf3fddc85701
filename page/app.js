// Jungle GUI page. Its back end (the server, or the worker of the static site) owns
// the game and checks every move: this page only shows the state it is sent and asks
// for changes. No libraries, no build step.
"use strict";

const FILES = "abcdefg";
const NAMES = { rat: "Rat", cat: "Cat", dog: "Dog", wolf: "Wolf", leopard: "Leopard", tiger: "Tiger", lion: "Lion", elephant: "Elephant" };
// The characters of the traditional sets (seed 003).
const CHARS = { rat: "鼠", cat: "貓", dog: "狗", wolf: "狼", leopard: "豹", tiger: "虎", lion: "獅", elephant: "象" };
const LABELS_KEY = "jungle.labels";
const SOUND_KEY = "jungle.sound";
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
    showNotice("error", answer.text);
    return null;
  }
  let data;
  try {
    data = JSON.parse(answer.text);
  } catch (e) {
    data = { error: "bad answer from the " + backend.name };
  }
  if (answer.status >= 300) {
    const text = data.error || ("request failed: " + answer.status);
    if (noticeEl) {
      noticeEl.textContent = text;
      noticeEl.hidden = false;
    } else {
      showNotice("error", text);
    }
    return null;
  }
  if (noticeEl) noticeEl.hidden = true;
  hideNotice();
  render(data);
  return data;
}

function connect() {
  backend.connect({
    open() {
      $("connection").textContent = "live";
      $("connection").className = "online";
    },
    error(text) {
      $("connection").textContent = text || "reconnecting…";
      $("connection").className = "offline";
    },
    state: (data) => render(data),
    analysis(data) {
      renderAnalysis(data);
      if (state) renderArrows();
    },
    notice(n) {
      if (n.kind === "error") showNotice("error", n.text);
    },
  });
}

// Saves the game as a record file (the same text `jungle replay` reads).
async function saveRecord() {
  const answer = await backend.request("record", null);
  if (answer.status !== 200) {
    showNotice("error", "The game cannot be saved: " + answer.text);
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

function showNotice(kind, text) {
  const el = $("notice");
  el.textContent = text;
  el.className = kind;
  el.hidden = false;
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
      const name = NAMES[p.animal] || p.animal;
      const char = CHARS[p.animal] || "";
      piece.querySelector(".name").textContent =
        labels === "chars" || labels === "both" ? char : labels === "pictures" ? "" : name;
      piece.dataset.labels = labels;
      cell.setAttribute("aria-label", sq + " " + p.color + " " + p.animal);
      cell.dataset.piece = p.letter;
    } else {
      if (piece) piece.remove();
      cell.setAttribute("aria-label", sq);
      delete cell.dataset.piece;
    }
    const target = targetAt(sq);
    const terrain = s.terrain[squareIndex(sq)];
    for (const kind of ["water", "trap", "den"]) cell.classList.toggle(kind, terrain.kind === kind);
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
    if (!Puzzles.interceptMove(move)) post("move", { move }); // hook: puzzles.js
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
  if (state.thinking) {
    showNotice("info", "Wait: " + state.thinking.engine + " is thinking.");
  } else if (p && you && p.color !== you) {
    showNotice("info", "That is " + sideName(p.color) + "'s " + (NAMES[p.animal] || p.animal).toLowerCase() + ": you play " + sideName(you) + ".");
  } else if (p && p.color !== state.sideToMove) {
    showNotice("info", sideName(state.sideToMove) + " is to move.");
  } else if (Object.keys(state.legal).length === 0) {
    showNotice("info", "It is not your turn.");
  } else {
    showNotice("info", "That animal has no move now.");
  }
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
      if (!Puzzles.interceptMove(dragFrom + to)) post("move", { move: dragFrom + to }); // hook: puzzles.js
    } else {
      onCellActivated(to);
    }
    dragFrom = null;
  });
}

// ----- the rest of the page ----------------------------------------------------

function sideName(color) {
  return color === "red" ? "Red" : "Blue";
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
    who.textContent = sideName(color) + ": " + s.seats[color];
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

// The end of the game as the person reads it: "You win!" against the engine.
function resultText() {
  const r = state.result;
  const reason = r.reason.charAt(0).toUpperCase() + r.reason.slice(1);
  const you = personColor();
  if (!r.winner) return "Draw: " + r.reason;
  if (you) return (r.winner === you ? "You win! " : "You lose: ") + reason;
  return r.text;
}

function animalsLeft(color) {
  return state.board.filter((p) => p && p.color === color).length;
}

function countersText() {
  const s = state;
  const blueFirst = s.firstMover === "blue";
  const move = Math.floor((s.ply + (blueFirst ? 1 : 0)) / 2) + 1;
  const turn = s.result ? "" : " · " + sideName(s.sideToMove) + " to move";
  return "Move " + move + turn + " · Red " + animalsLeft("red") + " animals, Blue " + animalsLeft("blue");
}

function statusText() {
  const s = state;
  if (s.result) return resultText();
  if (s.thinking) return s.thinking.engine + " (" + sideName(s.thinking.side) + ") is thinking…";
  const mover = sideName(s.sideToMove);
  if (s.players === "engines") return s.watch.running ? mover + " to move" : "Paused: " + mover + " to move (press Start)";
  if (Object.keys(s.legal).length > 0) {
    return (s.players === "both" ? mover + " to move" : "Your move (" + mover + ")") + (s.hint ? " — hint: " + s.hint : "");
  }
  return mover + " to move: " + s.seats[s.sideToMove] + " (press Engine move)";
}

function gameInfo() {
  const s = state;
  let text = "Rules: " + s.rules;
  if (s.players === "red" || s.players === "blue") {
    const l = s.levels[s.level - 1];
    text += " · Level " + l.level + " " + l.name + " · " + (s.movetimeMs / 1000) + " s a move";
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
  let text = number + state.moves[i] + ", " + (note.mark === "inaccuracy" ? "an " : "a ") + note.mark;
  // A record's comment may give a mark without the loss.
  const loss = typeof note.loss === "number" ? "−" + note.loss.toFixed(1) + " points" : "";
  const better = note.best ? "better: " + note.best : "";
  if (loss || better) text += " (" + [loss, better].filter((t) => t).join("; ") + ")";
  return text;
}

function sideReview(color) {
  const r = state.review[color];
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
  const accuracy = r.accuracy === null ? "no moves" : "accuracy " + Math.round(r.accuracy) + "%";
  return sideName(color) + " (" + state.seats[color] + "): " + accuracy + " · " +
    plural(r.inaccuracies, "inaccuracy").replace("inaccuracys", "inaccuracies") + " · " +
    plural(r.mistakes, "mistake") + " · " + plural(r.blunders, "blunder");
}

// The review: its progress, then each side's accuracy and the marked moves (a click
// goes to the position where the move was played, with the better move as an arrow).
function renderReview() {
  const s = state;
  const r = s.review;
  const button = $("review");
  button.textContent = r && r.running ? "Stop review" : "Review game";
  button.disabled = !(r && r.running) && (s.moves.length === 0 || !!s.thinking);
  const box = $("review-summary");
  box.textContent = "";
  if (!r) {
    $("review-status").textContent = "";
    box.hidden = true;
    return;
  }
  $("review-status").textContent = r.running ? "Reviewing: position " + r.done + " of " + r.total + "…" : "";
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
    p.textContent = "No inaccuracy, mistake or blunder.";
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
  s.levels.forEach((l, i) => {
    level.options[i].textContent = l.level + " " + l.name + (l.elo ? " (Elo " + l.elo + ")" : "");
  });
  level.value = String(s.level);
  level.disabled = !s.levelsSupported || s.players === "engines";
  level.title = s.levelsSupported ? "" : "This engine has no strength options";
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
  $("engine-move").textContent = s.thinking ? "Move now" : "Engine move";
  $("first").disabled = $("back").disabled = s.ply === 0;
  $("forward").disabled = $("last").disabled = s.ply >= s.moves.length;
  $("watch-info").textContent = s.engines[0] + " (Red) against " + s.engines[1] + " (Blue), " +
    (s.watch.tc.baseMs / 1000) + " s + " + (s.watch.tc.incMs / 1000) + " s a move";
  $("watch-run").disabled = (s.players === "engines" && s.watch.running) || !!s.result;
  $("watch-pause").disabled = !(s.players === "engines" && s.watch.running);
  const messages = $("messages");
  messages.textContent = "";
  for (const n of s.notices.slice().reverse()) {
    const li = document.createElement("li");
    li.className = n.kind;
    li.textContent = n.text;
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
    const score = kind === "mate" ? (v > 0 ? "Red mates in " : "Blue mates in ") + Math.abs(v)
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
  if (change) showChange(change);
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
function confirmFirst(text, yes, no) {
  if (!state || state.moves.length === 0 || state.result) {
    yes();
    return;
  }
  $("confirm-text").textContent = text;
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
  post("new", { players: $("players").value, rules: rulesChoice() });
}

function openRules() {
  $("rules-dialog").showModal();
}

function setUpRulesDialog() {
  $("rules-open").addEventListener("click", openRules);
  for (const tab of document.querySelectorAll("#rules-dialog [role=tab]")) {
    tab.addEventListener("click", () => {
      for (const t of document.querySelectorAll("#rules-dialog [role=tab]")) {
        t.setAttribute("aria-selected", String(t === tab));
      }
      for (const text of document.querySelectorAll("#rules-dialog .rules-text")) {
        text.hidden = text.dataset.lang !== tab.dataset.lang;
      }
    });
  }
}

function setUpControls() {
  $("new").addEventListener("click", () => post("new", { players: $("players").value, rules: rulesChoice() }));
  $("apply-rules").addEventListener("click", () =>
    confirmFirst("Start a new game under these rules? The game in progress ends.", newGameWithRules));
  $("variant").addEventListener("change", () =>
    confirmFirst("Start a new game under " + $("variant").value + "? The game in progress ends.", newGameWithRules,
      () => { $("variant").value = state.variant; }));
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
  $("set-fen").addEventListener("click", () => post("new", { fen: $("fen").value, rules: rulesChoice() }, $("fen-error")));
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move-input").value.trim();
    if (!text) return;
    if (state && state.thinking) {
      showNotice("info", "Wait: " + state.thinking.engine + " is thinking; play " + text + " when it has moved.");
      return;
    }
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
  buildBoard();
  setUpPointer();
  setUpControls();
  setUpRulesDialog();
  backend.request("state", null).then((a) => {
    if (a.status === 200) render(JSON.parse(a.text));
  });
  connect();
});
