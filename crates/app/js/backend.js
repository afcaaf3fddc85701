// The page's back end under `jungle gui`: the server, over HTTP (requests) and
// Server-Sent Events (state, analysis, notices), at api/ beside this module (so that
// `jungle serve` can serve the same module at local/ for its visitors' own games:
// crates/app/src/page.rs).
// What a back end provides: page/link.js.

const API = new URL("api/", import.meta.url);

// One request to the server: { status, text }, status 0 when it cannot be reached
// (never a rejection). `state` and `record` are reads (GET, `body` null), the rest
// actions (POST, JSON body).
async function askServer(action, body) {
  const read = body === null;
  try {
    const response = await fetch(new URL(action, API), read ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    // A refusal of the app's comes with status 200 and its own status in a header (so
    // that the browser does not log it as a failed load: src/gui/http.rs).
    const status = Number(response.headers.get("Jungle-Refusal")) || response.status;
    return { status, text: await response.text() };
  } catch (e) {
    // The page words the code (notice.unreachable); the text is for the log.
    return { status: 0, code: "unreachable", text: "The server cannot be reached: " + e };
  }
}

// The request sent last, answered or not: the next one waits for its answer.
let lastRequest = Promise.resolve();

export const backend = {
  name: "server",

  // Sends a request (`askServer`), one at a time in the order they were made, as
  // page/link.js asks of every back end: the server carries out each on a thread of
  // its own, so two sent at once could be done the other way round (the "new" of a
  // game brought back after a lesson, overtaken by the puzzle opened right after,
  // took the puzzle's board).
  request(action, body) {
    const answer = lastRequest.then(() => askServer(action, body));
    lastRequest = answer;
    return answer;
  },

  // Calls handlers.open(), .error(text), and .state/.analysis/.notice(data) with each
  // event's data as it arrives.
  connect(handlers) {
    const events = new EventSource(new URL("events", API));
    events.addEventListener("open", () => handlers.open());
    events.addEventListener("error", () => handlers.error());
    for (const name of ["state", "analysis", "notice"]) {
      events.addEventListener(name, (e) => handlers[name](JSON.parse(e.data)));
    }
  },
};
