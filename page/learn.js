// ----- lessons -------------------------------------------------------------------
// "Learn": short lessons on the real board (lessons.js). A task is a position with
// Red to move; the person plays both sides' seat ("Two people": no engine answers),
// the back end's rules core checks the move as in any game, and the page checks the
// goal: one of the task's moves. A wrong try is answered with the task's hint and
// taken back. Progress stays in the browser.
Jungle.lessons = (() => {
  "use strict";
  const { $, stored, keep } = Jungle.base;
  const { t } = Jungle.words;
  const game = Jungle.game;
  const { post, hideNotice } = game;
  const { rulesChoice, confirmFirst, clearErrors } = Jungle.panels;

  const LESSONS_KEY = "jungle.lessons";
  const LESSONS = window.JUNGLE_LESSONS || [];
  // The lesson under way: its index, the task's, what the person chose before the
  // lesson (for "Back to playing"), and where the task is.
  let lesson = null;

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
    const state = game.state();
    const before = lesson ? lesson.before : { players: state ? state.players : "red", rules: rulesChoice() };
    lesson = { i, task: 0, before, phase: "loading", said: null };
    startTask();
  }

  function startTask() {
    const task = LESSONS[lesson.i].tasks[lesson.task];
    lesson.phase = "loading";
    lesson.said = null;
    clearErrors();
    renderLesson();
    setUpTask(task).then((ok) => {
      if (lesson && ok) lesson.phase = "waiting";
      renderLesson();
    });
  }

  // The task's position as a new game, then the moves played before it (their history
  // matters to the anti-chase rules), in silence.
  async function setUpTask(task) {
    let ok = await post("new", { fen: task.fen, players: "both", rules: { variant: task.variant || "jungle" } });
    for (const move of task.before || []) {
      if (ok) ok = await post("move", { move });
    }
    return ok;
  }

  function leaveLesson() {
    const before = lesson.before;
    lesson = null;
    renderLesson();
    clearErrors();
    post("new", { players: before.players, rules: before.rules });
  }

  // Whether the task's move was played: called with each new state.
  function checkLesson(s) {
    if (!lesson || lesson.phase !== "waiting") return;
    const task = LESSONS[lesson.i].tasks[lesson.task];
    const base = (task.before || []).length;
    if (s.ply !== base + 1 || s.moves.length < base + 1) return;
    if (task.accept.includes(s.moves[base])) {
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
        setUpTask(task).then((ok) => {
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

  return { setUp: setUpLessons, open: openLessons, check: checkLesson, moveRefused, active, quiet, onLanguage };
})();
