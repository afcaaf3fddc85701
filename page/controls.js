// ----- controls ------------------------------------------------------------------
// The buttons, menus and keys of the page, each turned into a request to the back end
// or a choice of the page's own (the labels, the sound, the board turned, the
// language), and the folding of the expert parts on a phone.

import { base } from "./base.js";
import { words } from "./words.js";
import { board } from "./board.js";
import { game } from "./game.js";
import { aside } from "./aside.js";
import { panels } from "./panels.js";
import { effects } from "./effects.js";
import { online } from "./online.js";
import { players } from "./players.js";
import { lessons } from "./learn.js";
import { puzzles } from "./puzzles.js";

const { $, stored, keep } = base;
const { t } = words;
const { state, post, showNotice, hideNotice } = game;
const { rulesChoice, confirmFirst, clearErrors } = panels;

const LABELS_KEY = "jungle.labels";

// The kept choice of labels, or the first option (a first visit, or a value this page
// no longer offers).
function storedLabels() {
  const choices = Array.from($("labels").options, (o) => o.value);
  const kept = stored(LABELS_KEY);
  return choices.includes(kept) ? kept : choices[0];
}

async function newGameWithRules() {
  clearErrors();
  // From inside a lesson the new game ends it, and is played as the game set aside
  // for the lesson was: its players, level and thinking time (the lesson's board is
  // a game of two people).
  const kept = lessons.active() ? aside.forget() : null;
  if (lessons.active()) lessons.leave(false);
  const players = kept ? kept.players : $("players").value;
  const ok = await post("new", { players, rules: rulesChoice() });
  if (ok && kept) {
    const settings = { movetimeMs: kept.movetimeMs };
    if (kept.levelsSupported) settings.level = kept.level;
    await post("settings", settings);
  }
}

// The words of index.html in the chosen language.
function applyLanguage() {
  document.documentElement.lang = t("lang.tag");
  document.title = t("title");
  words.applyStatic(document);
  $("labels").options[2].textContent = t("labels.chars", { chars: ["elephant", "lion", "tiger"].map(words.charOf).join(" ") });
  $("lang").value = words.language();
  const connection = $("connection");
  connection.textContent = t(connection.className === "online" ? "conn.live" : "conn.connecting");
  // The rules open in the page's language.
  panels.selectRulesTab(words.language());
}

// The language switch: the page speaks the chosen language at once, and the browser
// keeps the choice.
function setUpLanguage() {
  applyLanguage();
  $("lang").addEventListener("change", () => {
    words.setLanguage($("lang").value);
    applyLanguage();
    game.redraw();
    words.rewordAll();
    lessons.onLanguage();
    puzzles.onLanguage();
    online.onLanguage();
    players.onLanguage();
  });
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
      () => { $("variant").value = state().variant; });
  });
  const labels = storedLabels();
  board.setLabels(labels);
  $("labels").value = labels;
  $("labels").addEventListener("change", () => {
    keep(LABELS_KEY, $("labels").value);
    board.setLabels($("labels").value);
  });
  $("sound").checked = effects.isSoundOn();
  $("sound").addEventListener("change", () => effects.setSound($("sound").checked));
  $("undo").addEventListener("click", () => post("undo"));
  $("redo").addEventListener("click", () => post("redo"));
  $("hint").addEventListener("click", () => post("hint"));
  $("review").addEventListener("click", () => post("review", { on: !(state().review && state().review.running) }));
  $("engine-move").addEventListener("click", () => post("movenow"));
  $("flip").addEventListener("click", () => {
    board.setFlipped(!board.isFlipped());
    game.redraw();
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
    const s = state();
    if (s && s.thinking) {
      const engine = s.thinking.engine;
      showNotice("info", () => t("move.wait", { engine, move: text }));
      return;
    }
    // In a puzzle the move goes as the board's do (puzzles.js asks for the reply).
    if (puzzles.interceptMove(text)) return;
    post("move", { move: text }).then((ok) => {
      if (ok) $("move-input").value = "";
    });
  });
  $("first").addEventListener("click", () => post("goto", { ply: 0 }));
  $("back").addEventListener("click", () => post("goto", { ply: Math.max(0, state().ply - 1) }));
  $("forward").addEventListener("click", () => post("goto", { ply: Math.min(state().moves.length, state().ply + 1) }));
  $("last").addEventListener("click", () => post("goto", { ply: state().moves.length }));
  $("analysis").addEventListener("change", () => post("analysis", { on: $("analysis").checked, multipv: Number($("multipv").value) }));
  $("multipv").addEventListener("change", () => post("analysis", { on: $("analysis").checked, multipv: Number($("multipv").value) }));
  $("watch-run").addEventListener("click", () => post("watch", { run: true }));
  $("watch-pause").addEventListener("click", () => post("watch", { run: false }));
  $("save").addEventListener("click", (e) => {
    e.preventDefault();
    game.saveRecord();
  });
  $("load").addEventListener("change", () => {
    const file = $("load").files[0];
    if (!file) return;
    clearErrors();
    file.text().then((text) => post("load", { text, game: Number($("load-number").value) || 1 }));
    $("load").value = "";
  });
  $("graph").addEventListener("click", (e) => {
    const s = state();
    if (!s || s.moves.length === 0) return;
    const rect = $("graph").getBoundingClientRect();
    const ply = Math.round(((e.clientX - rect.left) / rect.width) * s.moves.length);
    post("goto", { ply: Math.max(0, Math.min(s.moves.length, ply)) });
  });
  document.addEventListener("keydown", (e) => {
    const s = state();
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || !s) return;
    if (e.key === "ArrowLeft" && s.ply > 0) post("goto", { ply: s.ply - 1 });
    if (e.key === "ArrowRight" && s.ply < s.moves.length) post("goto", { ply: s.ply + 1 });
    if (e.key === "Home" && s.ply > 0) post("goto", { ply: 0 });
    if (e.key === "End" && s.ply < s.moves.length) post("goto", { ply: s.moves.length });
  });
  // The running clock of a watched game, and of an online game.
  setInterval(() => {
    const s = state();
    if (s && ((s.players === "engines" && s.thinking) || (s.online && s.online.clock.running))) panels.renderPlayers();
  }, 200);
}

export const controls = { setUpLanguage, foldForPhone, setUp: setUpControls, storedLabels };
