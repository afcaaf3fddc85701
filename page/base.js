// The page's script is the files of page/manifest.txt joined in its order into one
// (app.js as served): the data (the catalogues of words, the lessons), then the
// modules, each after the modules it uses. A module wraps itself in a function and
// exports what the others may use onto the one namespace, `Jungle` (`Jungle.words`,
// `Jungle.board`, …); a module reaches another only through that, and the page's
// scripts declare no other globals than the manifest's (tests/page_modules.rs checks
// both). No libraries, no build step but the joining.
const Jungle = {};

// What every module uses: elements by id, and the browser's storage (a page opened
// from disk has none in some browsers: a choice then lasts the visit).
Jungle.base = (() => {
  "use strict";

  const $ = (id) => document.getElementById(id);

  // The kept value of `key`, or null.
  function stored(key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  function keep(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch (e) {
      // No storage: it lasts the visit.
    }
  }

  return { $, stored, keep };
})();
