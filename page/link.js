// ----- the back end --------------------------------------------------------------
// The page has one back end, chosen by its host: the module it serves as backend.js,
// which exports `backend`. There are three, with the same requests and answers
// (docs/board.md): under `jungle gui` the server (crates/app/js/backend.js:
// HTTP requests and Server-Sent Events), in the static site the board's controller
// and the engine in a worker (crates/web/js/backend.js), under `jungle serve` the
// online game's server (crates/online/js/backend.js), which leaves everything but
// online games to the visitor's own back end (the worker, or the server's engine:
// served as local/backend.js). The page uses the back end only through this module
// (tests/page_modules.rs checks both).
//
// What a back end provides:
// - `name`: a short word for logs and tests ("server", "engine"); "online" (the online
//   game's, under `jungle serve`: crates/online/js/backend.js) also answers the
//   requests `online.*` and, at /play/ID and /watch/ID, the game's own (docs/online.md).
// - `request(action, body)`: sends one request and gives a Promise of its answer
//   `{ status, text }` (it never rejects). `state` and `record` are reads (`body`
//   null); the rest are actions with a body that is sent as JSON. `status` is the HTTP
//   status the server gives (200, or 4xx/5xx with `text` the refusal's JSON, `{ error,
//   code, args }`); `text` is the answer's body (the state's JSON, or the record's
//   text). When the back end cannot be asked at all, status 0 with `code`
//   (`unreachable`, `engineStopped`: the page words it as `notice.<code>`) and `text`
//   (for the log). Requests that change the game are carried out in the order they
//   were made, even when the page does not wait for one answer before the next (the
//   server's back end sends its requests one at a time; the worker handles them one
//   after another; an online game's moves and commands go through its one socket).
//   The online back end's lobby requests (`online.*`) are not ordered: each stands
//   alone.
// - `connect(handlers)`: opens the stream of events, once. The back end calls
//   `handlers.open()` when it is connected (again after a reconnection),
//   `handlers.error(key)` when it is not (`key`: the catalogue's words for it; none:
//   "conn.reconnecting"), and `handlers.state(data)`, `handlers.analysis(data)` and
//   `handlers.notice(data)` with each event's data (docs/board.md: the state after every
//   change, the analysis's lines, a notice), in the order they happened.
// - `window.jungleErrors`: the page's script errors, kept from the back end's first
//   line on (the browser tests read them).
// Optionally more for tests and figures (the static site's `bench(depth)`).

import { backend as host } from "./backend.js";

// Requests sent and not yet answered (the tests wait for none).
let inFlight = 0;

function request(action, body) {
  inFlight++;
  return host.request(action, body).finally(() => {
    inFlight--;
  });
}

function connect(handlers) {
  host.connect(handlers);
}

// `backend`: the back end itself, for the browser tests and figures (window.Jungle);
// no module uses it (tests/page_modules.rs).
// `localName`: under `jungle serve`, where the visitor's own games run ("engine": this
// browser, "server": the server's engine); otherwise undefined.
export const link = {
  request,
  connect,
  hostName: host.name,
  localName: host.local,
  busy: () => inFlight > 0,
  backend: host,
};
