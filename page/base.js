// The page's modules are ES modules (index.html loads main.js, which imports the
// others): each imports what it uses and exports one object named after it. A module
// reaches the back end only through link.js. No libraries and no build step: the
// hosts serve these files as they are.

// What every module uses: elements by id, and the browser's storage (a page opened
// from disk has none in some browsers: a choice then lasts the visit).
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

export const base = { $, stored, keep };
