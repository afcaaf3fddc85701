// ----- lessons -------------------------------------------------------------------
// "Learn": short lessons on the real board (lessons.js). A task is a position with
// Red to move; the person plays both sides' seat ("Two people": no engine answers).
// The back end's judge (`POST judge`) sets the task and judges the try: the rules core
// checks the move as in any game, the judge whether it is one of the task's. A wrong
// try is answered with the task's hint and taken back. Progress stays in the browser.

import { base } from "./base.js";
import { words } from "./words.js";
import { game } from "./game.js";
import { aside } from "./aside.js";
import { panels } from "./panels.js";
import { welcome } from "./welcome.js";
import LESSONS from "./lessons.js";

const { $, stored, keep } = base;
const { t } = words;
const { post, hideNotice } = game;
const { clearErrors } = panels;
const { close: closeWelcome } = welcome;

const LESSONS_KEY = "jungle.lessons";
// The lesson under way: its index, the task's, and where the task is. The person's
// game waits meanwhile (aside.js) and comes back on "Back to playing".
let lesson = null;
// Called when the place changes (a task, or no lesson): places.js keeps it in the
// address.
let placeChanged = () => {};

function lessonsDone() {
  try {
    const done = JSON.parse(stored(LESSONS_KEY) || "[]");
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

// The lesson after lesson `i` in its group (the lessons for everyone, or those for
// experts, which stand apart after them), or -1 at the end of its group.
function nextLessonOf(i) {
  const next = LESSONS[i + 1];
  return next && !!next.advanced === !!LESSONS[i].advanced ? i + 1 : -1;
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
    // The lessons for experts under their own heading.
    if (l.advanced && !(LESSONS[i - 1] || {}).advanced) {
      const head = document.createElement("li");
      head.className = "lesson-group";
      head.textContent = t("learn.advanced");
      list.appendChild(head);
    }
    const li = document.createElement("li");
    li.value = i + 1;
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
      // Nothing is lost: a game in progress waits for the end of the lesson.
      startLesson(i);
    });
    li.appendChild(b);
    list.appendChild(li);
  });
}

function startLesson(i) {
  if (!lesson) aside.setAside();
  lesson = { i, task: 0, phase: "loading", said: null };
  startTask();
}

function startTask() {
  lesson.phase = "loading";
  lesson.said = null;
  clearErrors();
  renderLesson();
  placeChanged();
  setUpTask(false).then((ok) => {
    if (lesson && ok) lesson.phase = "waiting";
    renderLesson();
  });
}

// The task set on the board by the back end's judge (its position and the moves
// played before it, whose history matters to the anti-chase rules), in silence;
// `again`: set again from its start after a wrong try.
function setUpTask(again) {
  return post("judge", again ? { do: "again" } : { do: "lesson", id: LESSONS[lesson.i].id, task: lesson.task });
}

// `bring`: the kept game comes back (not when the puzzles take the board next).
function leaveLesson(bring) {
  lesson = null;
  renderLesson();
  clearErrors();
  placeChanged();
  if (bring !== false) aside.bringBack();
}

// Lesson `i`, task `task` (from 0; a reload, Back or a link): false when there is
// no such task.
function goTo(i, task) {
  const l = LESSONS[i];
  if (!l || !(task >= 0 && task < l.tasks.length)) return false;
  closeWelcome();
  if (lesson && lesson.i === i && lesson.task === task) return true;
  if (!lesson) aside.setAside();
  lesson = { i, task, phase: "loading", said: null };
  startTask();
  return true;
}

// Where the person is, for the address: "learn/3/2" (lesson and task from 1), or
// null outside a lesson.
function place() {
  return lesson ? "learn/" + (lesson.i + 1) + "/" + (lesson.task + 1) : null;
}

// What the back end's judge said of the task's try: called with each new state.
function checkLesson(s) {
  if (!lesson) return;
  const j = s.judge;
  // A new game started from the panel ("New game with these rules", a position, a
  // record) ended the task: the lesson makes way for it, and the game set aside when
  // the lesson opened is not brought back over it.
  if ((lesson.phase === "waiting" || lesson.phase === "solved") && !isThisLesson(j)) {
    aside.forget();
    leaveLesson(false);
    return;
  }
  if (lesson.phase !== "waiting") return;
  if (!isThisLesson(j) || !j.verdict) return;
  if (j.verdict.answer === "solved") {
    lesson.phase = "solved";
    const praise = ["lesson.praise.1", "lesson.praise.2", "lesson.praise.3"][(lesson.i + lesson.task) % 3];
    const last = lesson.task === LESSONS[lesson.i].tasks.length - 1;
    if (last) markLessonDone(LESSONS[lesson.i].id);
    // The end of a lesson: on to the next, or the end of them all.
    const end = nextLessonOf(lesson.i) >= 0 ? "lesson.finished" : LESSONS[lesson.i].advanced ? "lesson.expertDone" : "lesson.allDone";
    lesson.said = { kind: "praise", keys: last ? [praise, end] : [praise] };
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

// `j`, a state's judge, judges the task on the board.
function isThisLesson(j) {
  return !!j && j.kind === "lesson" && j.id === LESSONS[lesson.i].id && j.task === lesson.task;
}

function wrongTry() {
  const l = LESSONS[lesson.i];
  lesson.said = { kind: "wrong", hint: "lesson." + l.id + "." + (lesson.task + 1) + ".hint" };
  renderLesson();
}

// The room under the lesson's box for the board (CSS px, as app.css reads it on a
// phone, where the box stands above the board): the screen's height less where the
// board starts on the page.
function fitBoard() {
  const play = $("play");
  if (!lesson) {
    play.style.removeProperty("--board-room");
    return;
  }
  const top = $("board-wrap").getBoundingClientRect().top + window.scrollY;
  play.style.setProperty("--board-room", Math.max(0, window.innerHeight - top) + "px");
}

function renderLesson() {
  document.body.classList.toggle("in-lesson", !!lesson);
  // The task's phase, for the tests to wait on: loading, waiting, solved, resetting.
  if (lesson) document.body.dataset.lesson = lesson.phase;
  else delete document.body.dataset.lesson;
  $("lesson").hidden = !lesson;
  if (!lesson) {
    fitBoard();
    return;
  }
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
  const listNext = lastTask && nextLessonOf(lesson.i) < 0;
  next.textContent = t(lastTask ? (listNext ? "lesson.list" : "lesson.nextLesson") : "lesson.next");
  // "All lessons" once: the list's own button makes way when "Next" opens the list.
  $("lesson-list").hidden = listNext && !next.hidden;
  fitBoard();
}

function nextTask() {
  const l = LESSONS[lesson.i];
  if (lesson.task < l.tasks.length - 1) {
    lesson.task += 1;
    startTask();
  } else if (nextLessonOf(lesson.i) >= 0) {
    lesson.i = nextLessonOf(lesson.i);
    lesson.task = 0;
    startTask();
  } else {
    openLessons();
  }
}

function setUpLessons() {
  // The box's height changes with what it says, the header's with the language.
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(fitBoard);
    watch.observe($("lesson"));
    watch.observe(document.querySelector("header"));
  }
  window.addEventListener("resize", fitBoard);
  $("learn-open").addEventListener("click", openLessons);
  $("lesson-next").addEventListener("click", nextTask);
  $("lesson-list").addEventListener("click", openLessons);
  $("lesson-leave").addEventListener("click", () => leaveLesson());
}

// A move the back end refused: in a lesson, the task's hint says what to do instead.
function moveRefused() {
  if (!lesson || lesson.phase !== "waiting") return;
  hideNotice();
  wrongTry();
}

// The lesson under way (the tip under the board makes way for it).
function active() {
  return !!lesson;
}

// A lesson's moves played before its task go without a sound.
function quiet() {
  return !!(lesson && lesson.phase === "loading");
}

// The language changed: the lesson and the list say the same in the new one.
function onLanguage() {
  renderLesson();
  renderLessonChoices();
}

export const lessons = {
  // The lessons as lessons.js lists them (the browser tests read them).
  list: LESSONS,
  setUp: setUpLessons,
  open: openLessons,
  check: checkLesson,
  moveRefused,
  active,
  quiet,
  onLanguage,
  goTo,
  leave: leaveLesson,
  place,
  onPlace: (f) => {
    placeChanged = f;
  },
};
