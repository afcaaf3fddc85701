// ----- the address -------------------------------------------------------------------
// Where the person is stays in the page's address, so that a reload, Back and Forward
// and a shared link find it again: `#learn/3/2` (lesson 3, task 2, from 1), `#puzzle/<id>`
// (a puzzle of the set), nothing for the game (`#puzzles`, the way in from outside,
// opens the puzzles where they were). Each new place is a step of the browser's
// history; a place read from the address is opened without adding one.

import { lessons } from "./learn.js";
import { puzzles } from "./puzzles.js";


// A place is being opened from the address: its changes add no step.
let following = false;

function here() {
  return lessons.place() || puzzles.place() || "";
}

// The place changed on the page: a new step of the history.
function changed() {
  if (following) return;
  const place = here();
  if (location.hash.replace(/^#/, "") === place) return;
  history.pushState(null, "", place ? "#" + place : location.pathname + location.search);
}

// Opens the place the address names (at the start, and on Back and Forward).
async function follow() {
  const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
  const learn = /^learn\/(\d+)\/(\d+)$/.exec(hash);
  const puzzle = /^puzzle\/([A-Za-z0-9_-]+)$/.exec(hash);
  following = true;
  try {
    if (learn) {
      if (puzzles.active()) puzzles.leave(false);
      if (!lessons.goTo(Number(learn[1]) - 1, Number(learn[2]) - 1)) history.replaceState(null, "", location.pathname + location.search);
    } else if (puzzle) {
      if (lessons.active()) lessons.leave(false);
      await puzzles.open(puzzle[1]);
    } else if (hash === "puzzles") {
      if (lessons.active()) lessons.leave(false);
      await puzzles.open();
    } else {
      if (lessons.active()) lessons.leave();
      if (puzzles.active()) puzzles.leave();
    }
  } finally {
    following = false;
  }
  // What the address named may not be (a task that is not, a puzzle refused): the
  // address says where the page is.
  const place = here();
  if (location.hash.replace(/^#/, "") !== place && hash !== "puzzles") history.replaceState(null, "", place ? "#" + place : location.pathname + location.search);
}

// Before the first screen: a page opened at a place goes there, not to the first
// screen.
function setUp() {
  lessons.onPlace(changed);
  puzzles.onPlace(changed);
  window.addEventListener("popstate", follow);
  if (location.hash) follow();
}

export const places = { setUp };
