// ----- the game ------------------------------------------------------------------
// The game as the back end last sent it (docs/board.md, the page and its API: the state, and the
// analysis), the requests that change it, and the message line. The page draws each
// new state with the function handed to `onState`, and each analysis with the one
// handed to `onAnalysis`; it keeps no game of its own.

import { base } from "./base.js";
import { words } from "./words.js";
import { link } from "./link.js";

const { $ } = base;
const { t, refusalText, noticeText, unreachableText, sayIn } = words;

let state = null;
let analysis = null;
let receivedAt = 0;
let drawState = () => {};
let drawAnalysis = () => {};

// Takes a state (an answer, or the event stream's): older than the one shown, it is
// dropped (the engine can reply before the answer to the move that asked it is
// read). `draw(s, prev)` draws it.
function receive(s) {
  if (state && s.version < state.version) return;
  const prev = state;
  // A message about one position goes when the game moves on.
  if (state && (state.ply !== s.ply || state.moves.length !== s.moves.length || rulesChanged(state, s))) hideNotice();
  state = s;
  analysis = s.analysis;
  receivedAt = Date.now();
  drawState(s, prev);
}

// The rules or the start changed from `prev` to `s` (a new game, not a move).
function rulesChanged(prev, s) {
  return !!prev && (prev.rules !== s.rules || prev.startFen !== s.startFen);
}

// Draws the state shown again (after a change of the page's own: the language, the
// board turned).
function redraw() {
  if (state) receive(state);
}

// Sends a request; a refusal is shown in `noticeEl` (the message line by default).
// The answer's state is drawn; null when refused.
async function post(action, body, noticeEl) {
  const answer = await link.request(action, body || {});
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
  receive(data);
  return data;
}

function connect() {
  link.connect({
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
    state: (data) => receive(data),
    analysis(data) {
      analysis = data;
      drawAnalysis(data);
    },
    notice(n) {
      if (n.kind === "error" || n.kind === "info") showNotice(n.kind, () => noticeText(n));
    },
  });
}

// Saves the game as a record file (the same text `jungle replay` reads).
async function saveRecord() {
  const answer = await link.request("record", null);
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

// The seat a person plays in a game against the engine, or null.
function personColor() {
  const s = state;
  return s.players === "red" || s.players === "blue" ? s.players : null;
}

// The arrows the game asks for: the hint, the better move at a move the review
// marked, and the best line's first move while analysing.
function arrows() {
  const moves = [];
  if (!state) return moves;
  if (state.hint) moves.push([state.hint, "hint-arrow"]);
  const note = state.review && !state.review.running && state.review.moves[state.ply];
  if (note && note.mark && note.best) moves.push([note.best, "best-arrow"]);
  const best = analysis && analysis.on && analysis.ply === state.ply && analysis.lines[0];
  if (best && best.pv.length > 0 && best.pv[0] !== state.hint) moves.push([best.pv[0], "best-arrow"]);
  return moves;
}

export const game = {
  state: () => state,
  analysis: () => analysis,
  receivedAt: () => receivedAt,
  onState: (f) => {
    drawState = f;
  },
  onAnalysis: (f) => {
    drawAnalysis = f;
  },
  receive,
  rulesChanged,
  redraw,
  post,
  connect,
  saveRecord,
  showNotice,
  hideNotice,
  personColor,
  arrows,
};
