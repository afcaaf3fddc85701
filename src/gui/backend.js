// The page's back end under `jungle gui`: the server, over HTTP (requests) and
// Server-Sent Events (state, analysis, notices). The static site (scripts/build-web.sh)
// ships crates/web/js/backend.js instead, which talks to a worker. What a back end
// provides: page/link.js (tests/page_modules.rs checks it).
"use strict";

// Script errors of the page, kept for its tests (`window.jungleErrors`).
window.jungleErrors = [];
window.addEventListener("error", (e) => window.jungleErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.jungleErrors.push(String(e.reason)));

const backend = {
  name: "server",

  // Sends a request: `state` and `record` are reads (GET), the rest actions (POST,
  // JSON body). Answers { status, text }; status 0 when the server cannot be reached.
  async request(action, body) {
    const read = body === null;
    try {
      const response = await fetch("api/" + action, read ? {} : {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    } catch (e) {
      // The page words the code (notice.unreachable); the text is for the log.
      return { status: 0, code: "unreachable", text: "The server cannot be reached: " + e };
    }
  },

  // Calls handlers.open(), .error(text), and .state/.analysis/.notice(data) with each
  // event's data as it arrives.
  connect(handlers) {
    const events = new EventSource("api/events");
    events.addEventListener("open", () => handlers.open());
    events.addEventListener("error", () => handlers.error());
    for (const name of ["state", "analysis", "notice"]) {
      events.addEventListener(name, (e) => handlers[name](JSON.parse(e.data)));
    }
  },
};
