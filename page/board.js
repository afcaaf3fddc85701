// ----- the board -----------------------------------------------------------------
// The board view (as lichess's chessground): it draws what it is given and reports the
// moves a person makes, by a click on an animal and one on its target, or by a drag.
// It knows no rule: the animals, the terrain, where each animal may go and where a
// rule forbids it, the last move and the hint come with the view (`draw`), the arrows
// from the sources it is handed (`arrowsFrom`). A click on an animal that has no move
// is reported as blocked, for the page to say why. The keyboard plays too, as an
// accessible grid does: Tab reaches one square (one tab stop for the board), the arrow
// keys move between squares, Enter or Space acts as a click; each square's label says
// what is on it, its terrain and whether it is selected or a target, in the page's
// language.

import { base } from "./base.js";
import { words } from "./words.js";

const { $ } = base;
const { t, animalName, charOf, sideName } = words;

const FILES = "abcdefg";
// The labels (options of #labels) that draw the animal (the symbols in index.html),
// the rank then on a badge.
const PICTURED = new Set(["pictures-names", "pictures", "both"]);

// What is drawn: { pieces (the 63 squares, a1 first: null or { color, rank, animal,
// letter }), terrain (the same: { kind, side }), legal and forbidden (by square:
// the targets, [{ to, capture, jump }], and the squares), lastMove, hint }.
let view = null;
let flipped = false;
let labels = null;
let selected = null;
let dragFrom = null;
// The square the keyboard is on (the board's one tab stop); null: the bottom left.
let focusSq = null;
// Where the moves and the blocked clicks go.
let handlers = { move() {}, blocked() {} };
// Functions giving the arrows to draw: [move, kind], kind "hint-arrow" or
// "best-arrow".
let arrowSources = [];

// A square's index in the view's lists (a1 = 0, g9 = 62).
function squareIndex(sq) {
  return FILES.indexOf(sq[0]) + 7 * (Number(sq.slice(1)) - 1);
}

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
      cell.tabIndex = -1;
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

// Draws `v` (see `view`); a selected animal that can no longer move is let go.
function draw(v) {
  view = v;
  if (selected && !(v.legal[selected] || v.forbidden[selected])) selected = null;
  renderBoard();
}

function renderBoard() {
  const s = view;
  const hint = s.hint ? [s.hint.slice(0, 2), s.hint.slice(2, 4)] : [];
  const last = s.lastMove ? [s.lastMove.slice(0, 2), s.lastMove.slice(2, 4)] : [];
  const targets = selected ? (s.legal[selected] || []) : [];
  const targetAt = (sq) => targets.find((t) => t.to === sq);
  const forbidden = selected ? (s.forbidden[selected] || []) : [];
  for (const cell of document.querySelectorAll("#board .cell")) {
    const sq = cell.dataset.sq;
    const p = s.pieces[squareIndex(sq)];
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
      const shown = labels === "chars" || labels === "both" ? char : labels === "pictures" ? "" : name;
      const nameEl = piece.querySelector(".name");
      nameEl.textContent = shown;
      // Long names are sized to their disc (app.css).
      if (shown.length > 6) nameEl.style.setProperty("--name-len", shown.length);
      else nameEl.style.removeProperty("--name-len");
      piece.dataset.labels = labels;
      cell.dataset.piece = p.letter;
    } else {
      if (piece) piece.remove();
      delete cell.dataset.piece;
    }
    const target = targetAt(sq);
    const terrain = s.terrain[squareIndex(sq)];
    cell.setAttribute("aria-label", squareLabel(sq, p, terrain, target));
    cell.setAttribute("aria-selected", String(sq === selected));
    cell.tabIndex = sq === (focusSq || cornerSq()) ? 0 : -1;
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

// A square in words: "d5 Blue Elephant, trap, your animal can take this one".
function squareLabel(sq, p, terrain, target) {
  const words = [p ? sq + " " + sideName(p.color) + " " + animalName(p.animal) : sq];
  if (terrain.kind === "water" || terrain.kind === "trap" || terrain.kind === "den") words.push(t("board." + terrain.kind));
  if (sq === selected) words.push(t("board.selected"));
  if (target) words.push(t(target.capture ? "board.capture" : "board.target"));
  return words.join(", ");
}

// The square at the board's bottom left (the keyboard's first square).
function cornerSq() {
  return flipped ? "g9" : "a1";
}

// The keys on a square: arrows move to the next square (as the board is shown),
// Enter and Space act as a click. The page's own keys (a move back or forward) are
// not the board's.
function onKey(e) {
  const cell = e.target.closest && e.target.closest("#board .cell");
  if (!cell) return;
  const steps = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    e.stopPropagation();
    onCellActivated(cell.dataset.sq);
    return;
  }
  const step = steps[e.key];
  if (!step) return;
  e.preventDefault();
  e.stopPropagation();
  const cells = [...document.querySelectorAll("#board .cell")];
  const at = cells.indexOf(cell);
  const col = Math.min(6, Math.max(0, (at % 7) + step[0]));
  const row = Math.min(8, Math.max(0, Math.floor(at / 7) + step[1]));
  const next = cells[row * 7 + col];
  focusSq = next.dataset.sq;
  for (const c of cells) c.tabIndex = c === next ? 0 : -1;
  next.focus();
}

// The arrows of every source, in the sources' order.
function drawArrows() {
  const svg = $("arrows");
  for (const old of svg.querySelectorAll("line")) old.remove();
  const moves = arrowSources.flatMap((source) => source());
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

function arrowsFrom(...sources) {
  arrowSources = sources;
}

// A square's centre in the arrows' coordinates (one unit a square, rank 9 on top).
function centre(sq) {
  const file = FILES.indexOf(sq[0]);
  const rank = Number(sq.slice(1)) - 1;
  const col = flipped ? 6 - file : file;
  const row = flipped ? rank : 8 - rank;
  return [col + 0.5, row + 0.5];
}

// `to` is where the animal on `from` may move.
function isTarget(from, to) {
  return (view.legal[from] || []).some((t) => t.to === to);
}

function onCellActivated(sq) {
  if (!view) return;
  if (selected && sq !== selected) {
    const mine = view.legal[sq];
    if (mine && !isTarget(selected, sq) && !(view.forbidden[selected] || []).includes(sq)) {
      selected = sq; // another of one's own animals
      renderBoard();
      return;
    }
    const move = selected + sq;
    selected = null;
    renderBoard();
    handlers.move(move);
    return;
  }
  if (selected === sq) {
    selected = null;
  } else if (view.legal[sq] || view.forbidden[sq]) {
    selected = sq;
  } else if (view.pieces[squareIndex(sq)]) {
    handlers.blocked(sq);
    selected = null;
  }
  renderBoard();
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
    if (dragFrom && dragFrom !== to && view && view.legal[dragFrom]) {
      // A drag from one of one's animals to another square: a move.
      selected = null;
      handlers.move(dragFrom + to);
    } else {
      onCellActivated(to);
    }
    dragFrom = null;
  });
}

// Builds the squares and listens to the person: `h.move(move)` for a move made,
// `h.blocked(square)` for a click on an animal without a move.
function setUp(h) {
  handlers = h;
  buildBoard();
  setUpPointer();
  $("board").addEventListener("keydown", onKey);
}

// Turns the board (the top is Red's side when `f`): the squares are built again and
// the last view drawn on them at once (a view can arrive before the turn).
function setFlipped(f) {
  flipped = f;
  buildBoard();
  if (view) {
    renderBoard();
    drawArrows();
  }
}

function isFlipped() {
  return flipped;
}

// How the animals are labelled (an option of #labels).
function setLabels(l) {
  labels = l;
  if (view) renderBoard();
}

// Lets the selected animal go (the rules changed).
function deselect() {
  selected = null;
}

// The animal now on `to` slides there from `from` (not when the person asked for
// less motion); true when it does.
function slide(from, to) {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  const start = cellOf(from);
  const end = cellOf(to);
  const piece = end && end.querySelector(".piece");
  if (!start || !piece || typeof piece.animate !== "function") return false;
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
  return true;
}

// Marks a square with the class `kind` until `unmark(kind)` (the draws keep it).
function mark(sq, kind) {
  const cell = cellOf(sq);
  if (cell) cell.classList.add(kind);
}

function unmark(kind) {
  for (const c of document.querySelectorAll("#board ." + kind)) c.classList.remove(kind);
}

export const board = {
  squareIndex,
  setUp,
  draw,
  drawArrows,
  arrowsFrom,
  setFlipped,
  isFlipped,
  setLabels,
  deselect,
  slide,
  mark,
  unmark,
};
