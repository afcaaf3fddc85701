// ----- words -------------------------------------------------------------------
// Every word the page shows comes from a catalogue (i18n/<lang>.js, one a language),
// by key: `t("status.toMove", { side })`. The static
// parts of index.html name theirs in `data-i18n` (text), `data-i18n-title`,
// `data-i18n-placeholder` and `data-i18n-aria-label`. A key a catalogue lacks falls
// back to English (a test checks that none lacks any). The language switch is here;
// a text that must be worded again when it changes is shown by `sayIn`.

import { base } from "./base.js";
import en from "./i18n/en.js";
import de from "./i18n/de.js";
import zh from "./i18n/zh.js";
import zhHant from "./i18n/zh-Hant.js";

const { stored, keep } = base;

const LANG_KEY = "jungle.lang";
const CATALOGUES = { en, de, zh, "zh-Hant": zhHant };
const LANGS = ["en", "de", "zh", "zh-Hant"];

// The kept choice, else the browser's first language the page speaks, else English.
function chosenLanguage() {
  const kept = stored(LANG_KEY);
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

// The page's language.
function language() {
  return lang;
}

// The switch: the page speaks `code` from now on, and the browser keeps the choice.
function setLanguage(code) {
  lang = code;
  keep(LANG_KEY, lang);
}

// The static words (data-i18n…) of `root` (the document, or a part built later) in
// the chosen language.
function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
}

function animalName(animal) {
  return t("animal." + animal);
}

// The animal's character in the page's script (simplified for Chinese, the
// traditional sets' otherwise: seed 003).
function charOf(animal) {
  return t("char." + animal);
}

function sideName(color) {
  return t(color === "red" ? "side.red" : "side.blue");
}

// A person's seat is "You" in the state ("Human" in a record); the page says it in
// its language.
// The built-in engine ("Jungle", its name on the command line and in the static
// site) is the computer to a reader of the page: its name in the page's words.
function seatName(name) {
  if (name === "Jungle") return t("seat.jungle");
  return name === "You" || name === "Human" ? t("seat.human") : name;
}

// Seconds from milliseconds, in the language's number format ("0,6" in German).
function seconds(ms) {
  return new Intl.NumberFormat(t("lang.tag")).format(ms / 1000);
}

// The rules in words ("jungle-cn +DogSwims"): the rule set's name in the page's
// words (a German or Chinese page names it, not by its value), the options as sent.
function rulesName(rules, variant) {
  const key = "rules.name." + variant;
  return CATALOGUES.en && key in CATALOGUES.en && rules.startsWith(variant) ? t(key) + rules.slice(variant.length) : rules;
}

// A level's name in the page's language (an engine's own level names stay).
function levelName(l) {
  const key = "level." + l.level;
  return CATALOGUES.en && key in CATALOGUES.en && l.name === CATALOGUES.en[key] ? t(key) : l.name;
}

// Words made by the back end, by their code (`<prefix>.<code>` in the catalogues),
// with sides, animals and reasons in the page's words; `fallback` (its English
// sentence) only for a code no catalogue has.
function codeText(prefix, code, args, fallback) {
  const key = prefix + "." + code;
  if (!code || !CATALOGUES.en || !(key in CATALOGUES.en)) return fallback;
  const a = Object.assign({}, args);
  if (a.side) a.side = sideName(a.side);
  for (const name of ["animal", "victim", "own", "blocker"]) {
    if (a[name]) a[name] = animalName(a[name]);
  }
  // A refused move names the rule it breaks by its code (`illegal.<why>`), with the
  // same arguments beside it.
  if (a.why) {
    const inner = Object.assign({}, args);
    delete inner.why;
    a.why = codeText("illegal", a.why, inner, a.why);
  }
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
  if (a.engine) a.engine = seatName(a.engine);
  return t(key, a);
}

// A refusal in the page's language.
function refusalText(data) {
  return codeText("refusal", data.code, data.args, data.error);
}

// A refused answer of the back end (`{ status, text }`) in the page's language.
function answerText(a) {
  if (a.status === 0) return t("notice.unreachable");
  let data = {};
  try {
    data = JSON.parse(a.text);
  } catch (e) {
    // Not JSON.
  }
  return refusalText(data) || t("error.failed", { status: a.status });
}

// A notice of the back end's in the page's language.
function noticeText(n) {
  return codeText("notice", n.code, n.args, n.text);
}

// The back end could not be asked (the server is gone, the worker stopped): its
// code, worded here.
function unreachableText(answer) {
  return codeText("notice", answer.code, {}, answer.text);
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

export const words = {
  t,
  // Every catalogue, by language (the browser tests read them).
  catalogues: CATALOGUES,
  language,
  setLanguage,
  applyStatic,
  animalName,
  charOf,
  sideName,
  seatName,
  seconds,
  rulesName,
  levelName,
  codeText,
  refusalText,
  answerText,
  noticeText,
  unreachableText,
  sayIn,
  rewordAll,
};
