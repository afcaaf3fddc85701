// ----- the first screen ------------------------------------------------------------
// A first visit shows the ways in over the board: play, learn, puzzles. "Play"
// starts at once (a new board is at Beginner, the person Red); the tip under the
// board says what to do first.
Jungle.welcome = (() => {
  "use strict";
  const { $, stored, keep } = Jungle.base;

  const WELCOMED_KEY = "jungle.welcomed";

  function close() {
    $("welcome").hidden = true;
    keep(WELCOMED_KEY, "1");
  }

  // `ways.learn()` opens the lessons; `ways.puzzles`, the Puzzles mode (`open()`), if
  // the page has it.
  function setUp(ways) {
    $("welcome").hidden = stored(WELCOMED_KEY) !== null;
    $("welcome-play").addEventListener("click", close);
    $("welcome-learn").addEventListener("click", () => {
      close();
      ways.learn();
    });
    const p = ways.puzzles && typeof ways.puzzles.open === "function" ? ways.puzzles : null;
    $("welcome-puzzles").disabled = !p;
    $("welcome-puzzles-sub").hidden = !!p;
    if (p) {
      $("welcome-puzzles").addEventListener("click", () => {
        close();
        p.open();
      });
    }
  }

  return { setUp, close };
})();
