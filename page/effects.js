// ----- moves seen and heard ------------------------------------------------------
// A move made on the board, by the engine or by stepping through the game slides the
// animal from its square and makes a sound; the end of a game has its own sound. What
// was shown is kept in `window.jungleEffects` (the browser tests read it).

import { base } from "./base.js";
import { board } from "./board.js";
import { game } from "./game.js";

const { stored, keep } = base;
const { personColor } = game;

const SOUND_KEY = "jungle.sound";

window.jungleEffects = [];

function noteEffect(text) {
  window.jungleEffects.push(text);
  if (window.jungleEffects.length > 50) window.jungleEffects.shift();
}

// Sound is on unless the person turned it off (a stored "off").
let soundOn = stored(SOUND_KEY) !== "off";

function isSoundOn() {
  return soundOn;
}

function setSound(on) {
  soundOn = on;
  keep(SOUND_KEY, soundOn ? "on" : "off");
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
    if (i !== change.slides.length - 1 || board.slide(from, to)) noteEffect("slide " + from + to);
  });
  playSound(change.sound);
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

export const effects = { changeBetween, showChange, isSoundOn, setSound };
