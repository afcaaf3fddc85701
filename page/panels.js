// ----- the panels ----------------------------------------------------------------
// The rest of the page around the board, drawn from the game's state: the players and
// their clocks, the result, the status and counters, the moves and the review, the
// settings and messages, the analysis's lines and the evaluation graph; the question
// before a game in progress is lost, the rules' choice and the rules' dialog.

import { base } from "./base.js";
import { words } from "./words.js";
import { board } from "./board.js";
import { game } from "./game.js";

const { $ } = base;
const { t, sideName, seatName, seconds, rulesName, levelName, animalName, codeText, noticeText, sayIn } = words;
const { state, post, showNotice, hideNotice, personColor } = game;

let fenShown = null;

function formatClock(ms) {
  const t = Math.max(0, Math.round(ms / 100));
  const tenths = t % 10;
  const secs = Math.floor(t / 10) % 60;
  const mins = Math.floor(t / 600);
  return mins + ":" + String(secs).padStart(2, "0") + "." + tenths;
}

// ----- an online game (its state's `online`: online.js) ---------------------------

// `color`'s clock now (ms), from the server's figures.
function onlineClockMs(s, color) {
  const c = s.online.clock;
  let ms = c[color];
  if (c.running === color) ms -= Date.now() - c.at;
  return Math.max(0, ms);
}

function correspondence(s) {
  return /d$/.test(s.online.tc);
}

// A time control in words ("5+3", "2 days a move").
function onlineTcName(tc) {
  const d = /^(\d+)d$/.exec(tc);
  if (d) return t(d[1] === "1" ? "online.day" : "online.days", { n: d[1] });
  const c = /^(\d+)m\+(\d+)s$/.exec(tc);
  return c ? t("online.tc.clock", { m: c[1], s: c[2] }) : tc;
}

// A clock in words: minutes and seconds (tenths under ten seconds), days and hours
// in correspondence.
function onlineClockText(s, color) {
  const ms = onlineClockMs(s, color);
  if (correspondence(s)) {
    const h = Math.floor(ms / 3600000);
    return h >= 24 ? t("online.clock.days", { d: Math.floor(h / 24), h: h % 24 }) : t("online.clock.hours", { h, m: Math.floor(ms / 60000) % 60 });
  }
  const secs = Math.floor(ms / 1000);
  const text = Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
  return ms < 10000 ? text + "." + Math.floor((ms % 1000) / 100) : text;
}

// The "BOT" mark beside a bot's name.
function botMark() {
  const mark = document.createElement("span");
  mark.className = "bot-mark";
  mark.textContent = t("online.botMark");
  return mark;
}

// Who holds `color`'s seat, in words.
function onlineSeatText(s, color) {
  const o = s.online;
  const gone = o.seated[color] && !o.presence[color] && o.status !== "over" ? " · " + t("online.gone") : "";
  // A spectator sees the sides; a player, "You" and "Your friend".
  const account = o.players && o.players[color];
  if (!o.you) return (account ? t("player.seat", { side: sideName(color), name: account.username }) : sideName(color)) + gone;
  const name = o.you === color ? t("online.you") : account ? account.username : t("online.friend");
  return t("player.seat", { side: sideName(color), name }) + gone;
}

function onlineStatusText(s) {
  const o = s.online;
  if (o.status === "waiting") return t(o.you ? "online.waiting" : "online.waitingSeat");
  const side = sideName(o.toMove);
  if (!o.you) return t("status.toMove", { side });
  return t(o.toMove === o.you ? "status.yourMove" : "online.theirMove", { side });
}

function renderPlayers() {
  const s = state();
  const top = board.isFlipped() ? "red" : "blue";
  const bottom = board.isFlipped() ? "blue" : "red";
  for (const [id, color] of [["player-top", top], ["player-bottom", bottom]]) {
    const who = document.querySelector("#" + id + " .who");
    who.className = "who " + color;
    who.textContent = t("player.seat", { side: sideName(color), name: seatName(s.seats[color]) });
    const clock = document.querySelector("#" + id + " .clock");
    if (s.online) {
      who.textContent = onlineSeatText(s, color);
      // A bot's seat is marked, as lichess marks them.
      const account = s.online.players && s.online.players[color];
      if (account && account.bot) who.appendChild(botMark());
      clock.textContent = onlineClockText(s, color);
      clock.classList.toggle("running", s.online.clock.running === color);
      clock.classList.toggle("low", s.online.clock.running === color && onlineClockMs(s, color) < 10000);
    } else if (s.players === "engines") {
      let ms = s.watch.clocks[color === "red" ? 0 : 1];
      const running = s.thinking && s.thinking.side === color;
      if (running) ms -= s.thinking.elapsedMs + (Date.now() - game.receivedAt());
      clock.textContent = formatClock(ms);
      clock.classList.toggle("running", !!running);
    } else {
      clock.textContent = "";
    }
  }
}

// Names the seat of `color` (above or under the board) `text` until the next state.
function nameSeat(color, text) {
  const who = document.querySelector("#player-top .who." + color + ", #player-bottom .who." + color);
  if (who) who.textContent = text;
}

// The end of the game as the person reads it: "You win!" against the engine. The
// reason by its code (the rules', or the referee's: a clock, an engine's failure).
function resultText() {
  const r = state().result;
  // A challenge aborted, declined by the bot it invited, or withdrawn when that bot
  // went offline: no result.
  if (["online.aborted", "online.declined", "online.bot_offline"].includes(r.code)) return t(r.code);
  const reason = codeText("reason", r.code, r.args, r.reason);
  const capital = reason.charAt(0).toUpperCase() + reason.slice(1);
  const you = personColor();
  if (!r.winner) return t("result.draw", { reason });
  if (you) return t(r.winner === you ? "result.win" : "result.lose", { reason: capital });
  return t("result.wins", { side: sideName(r.winner), reason });
}

function animalsLeft(color) {
  return state().board.filter((p) => p && p.color === color).length;
}

function countersText() {
  const s = state();
  const blueFirst = s.firstMover === "blue";
  const move = Math.floor((s.ply + (blueFirst ? 1 : 0)) / 2) + 1;
  const turn = s.result ? "" : t("counters.turn", { side: sideName(s.sideToMove) });
  return t("counters", { move, turn, red: animalsLeft("red"), blue: animalsLeft("blue") });
}

function statusText() {
  const s = state();
  if (s.result) return resultText();
  if (s.online) return onlineStatusText(s);
  if (s.thinking) return t("status.thinking", { engine: seatName(s.thinking.engine), side: sideName(s.thinking.side) });
  const side = sideName(s.sideToMove);
  if (s.players === "engines") return t(s.watch.running ? "status.toMove" : "status.paused", { side });
  if (Object.keys(s.legal).length > 0) {
    return t(s.players === "both" ? "status.toMove" : "status.yourMove", { side }) + (s.hint ? t("status.hint", { move: s.hint }) : "");
  }
  return t("status.pressEngine", { side, engine: seatName(s.seats[s.sideToMove]) });
}

function gameInfo() {
  const s = state();
  let text = t("info.rules", { rules: rulesName(s.rules, s.variant) });
  if (s.online) return text + " · " + onlineTcName(s.online.tc);
  if (s.players === "red" || s.players === "blue") {
    const l = s.levels[s.level - 1];
    text += t("info.level", { level: l.level, name: levelName(l), seconds: seconds(s.movetimeMs) });
  }
  return text;
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  const s = state();
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
    } else if (note && note.table) {
      // Judged by the endgame tables: a perfect move is underlined, and the title says
      // what the tables said.
      if (note.table.perfect) span.classList.add("tb-perfect");
      span.title = noteText(i, note);
    }
    span.addEventListener("click", () => post("goto", { ply: i + 1 }));
    li.appendChild(span);
  });
  const current = list.querySelector(".current");
  if (current) scrollListTo(list, current);
}

// Scrolls the move list, and only it, so that `item` is in view: scrollIntoView would
// scroll the page too (on a phone, the board half out of view at every move).
function scrollListTo(list, item) {
  const shown = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < shown.top) list.scrollTop -= shown.top - at.top;
  else if (at.bottom > shown.bottom) list.scrollTop += at.bottom - shown.bottom;
}

// "12… c7c6, a blunder (−23.4 points; better: e7e6)", "30. c3c2, perfect (endgame
// tables: keeps the win)": a move the review marked, or the tables judged, in words.
function noteText(i, note) {
  const blueFirst = state().firstMover === "blue";
  const slot = i + (blueFirst ? 1 : 0);
  const number = Math.floor(slot / 2) + 1 + (slot % 2 === 0 ? ". " : "… ");
  const move = state().moves[i];
  const perfect = note.table && note.table.perfect;
  let text = note.mark || perfect
    ? t("note.text", { number, move, mark: t("mark." + (note.mark || "perfect")) })
    : t("note.plain", { number, move });
  // A record's comment may give a mark without the loss.
  const loss = note.mark && typeof note.loss === "number" ? t("note.loss", { points: note.loss.toFixed(1) }) : "";
  const better = note.best ? t("note.better", { move: note.best }) : "";
  const tables = note.table ? t("note.tables", { verdict: tableText(note.table) }) : "";
  const details = [loss, better, tables].filter((d) => d);
  if (details.length) text += " (" + details.join("; ") + ")";
  return text;
}

// What the endgame tables said of a move: "keeps the win", "turns the win into a draw".
function tableText(table) {
  if (table.before !== table.after) return t("tb." + table.before + "-" + table.after);
  return t("tb." + table.before + (table.perfect ? ".perfect" : ""));
}

function sideReview(color) {
  const r = state().review[color];
  const count = (n, word) => t("review." + word + (n === 1 ? ".one" : ".many"), { n });
  const accuracy = r.accuracy === null ? t("review.noMoves") : t("review.accuracy", { n: Math.round(r.accuracy) });
  return t("review.side", {
    side: sideName(color),
    player: seatName(state().seats[color]),
    accuracy,
    inaccuracies: count(r.inaccuracies, "inaccuracies"),
    mistakes: count(r.mistakes, "mistakes"),
    blunders: count(r.blunders, "blunders"),
  });
}

// The review: its progress, then each side's accuracy and the marked moves (a click
// goes to the position where the move was played, with the better move as an arrow).
function renderReview() {
  const s = state();
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
  const judged = r.moves.filter((note) => note && note.table);
  if (judged.length) {
    const p = document.createElement("p");
    p.className = "tables-review";
    const perfect = judged.filter((note) => note.table.perfect).length;
    p.textContent = t("review.tables." + (judged.length === 1 ? "one" : "many"), { n: judged.length, perfect });
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
  const s = state();
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
    movetime.appendChild(new Option("", String(s.movetimeMs)));
  }
  // The times in the language's number format.
  for (const o of movetime.options) o.textContent = seconds(Number(o.value)) + " s";
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
    red: seatName(s.engines[0]),
    blue: seatName(s.engines[1]),
    base: seconds(s.watch.tc.baseMs),
    inc: seconds(s.watch.tc.incMs),
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
  const s = state();
  if (s.result) {
    el.textContent = resultText();
    const you = personColor();
    el.className = !s.result.winner ? "draw" : you && s.result.winner !== you ? "lost" : "won";
    el.hidden = false;
  } else {
    el.hidden = true;
  }
}

// The analysis's lines (`a`: the state's, or the event stream's).
function renderAnalysis(a) {
  const s = state();
  $("analysis").checked = a.on;
  $("multipv").value = String(a.multipv);
  const body = document.querySelector("#lines tbody");
  body.textContent = "";
  if (s && a.ply !== s.ply) return;
  for (const l of a.lines) {
    const tr = document.createElement("tr");
    // The engine scores for the side to move; the table shows Red's view.
    const [kind, value] = l.score.split(" ");
    const sign = s && s.sideToMove === "blue" ? -1 : 1;
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
  const s = state();
  const svg = $("graph");
  const scores = s.scores;
  const n = Math.max(scores.length - 1, 1);
  const x = (i) => (i / n) * 300;
  const y = (v) => 50 - (v / 1500) * 48;
  const redFirst = s.firstMover === "red";
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
  html += '<line class="cursor" x1="' + x(s.ply) + '" y1="0" x2="' + x(s.ply) + '" y2="100"/>';
  svg.innerHTML = html;
}

// Everything but the board, for the state `s` just taken.
function render(s) {
  // Nothing left to lose: a pending "start a new game?" question goes.
  if (s.moves.length === 0 || s.result) $("confirm").hidden = true;
  renderPlayers();
  renderResult();
  $("status").textContent = statusText();
  $("counters").textContent = countersText();
  $("game-info").textContent = gameInfo();
  renderMoves();
  renderReview();
  renderSettings();
  renderAnalysis(s.analysis);
  renderGraph();
}

// Why the animal on `sq` (clicked) has no move.
function explainWhyNot(sq) {
  const s = state();
  if (s.result) return;
  const p = s.board[board.squareIndex(sq)];
  const you = personColor();
  // The words keep the values of the moment (a language switch words them again).
  const engine = s.thinking ? s.thinking.engine : "";
  const toMove = s.sideToMove;
  if (s.online && (s.online.watching || s.online.status === "waiting")) {
    // An online game watched, or not begun: the server says who may move.
    showNotice("info", () => t(s.online.watching ? "online.watchingNoMove" : "refusal.online.not_started"));
  } else if (s.thinking) {
    showNotice("info", () => t("why.thinking", { engine }));
  } else if (p && you && p.color !== you) {
    showNotice("info", () => t("why.notYours", { side: sideName(p.color), animal: animalName(p.animal), you: sideName(you) }));
  } else if (p && p.color !== s.sideToMove) {
    showNotice("info", () => t("why.toMove", { side: sideName(toMove) }));
  } else if (Object.keys(s.legal).length === 0) {
    showNotice("info", () => t("why.notTurn"));
  } else {
    showNotice("info", () => t("why.noMove"));
  }
}

function rulesChoice() {
  return {
    variant: $("variant").value,
    dogSwims: $("dog-swims").checked,
    trappedLoseAttack: $("trapped-lose-attack").checked,
  };
}

// Asks first (`words`: a function giving the question in the page's language) when a
// game is in progress; `yes` runs when accepted, `no` when declined.
function confirmFirst(words, yes, no) {
  const s = state();
  if (!s || s.moves.length === 0 || s.result) {
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

export const panels = {
  render,
  renderPlayers,
  onlineTcName,
  botMark,
  nameSeat,
  renderAnalysis,
  explainWhyNot,
  rulesChoice,
  confirmFirst,
  clearErrors,
  selectRulesTab,
  setUpRulesDialog,
};
