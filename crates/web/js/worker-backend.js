// The board's controller and the engine, compiled to WebAssembly, in a worker
// (worker.js beside this module): the same requests and answers as under `jungle gui`
// (crates/app/js/backend.js), without a server. The static site's back end (backend.js), and
// under `jungle serve` a visitor's own games when the site is built (local/backend.js).
// What a back end provides: page/link.js.

export const backend = (() => {
  const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let next = 1;
  let handlers = null;
  let failure = null;
  // Events that arrive before the page has connected.
  let early = [];

  // The worker's events: a JSON array of { event, data }.
  function dispatch(text) {
    for (const e of JSON.parse(text)) {
      if (handlers && handlers[e.event]) handlers[e.event](e.data);
    }
  }

  // The page words the code (notice.engineStopped, conn.stopped); the text is for
  // the tests' log.
  function fail(text) {
    failure = "The engine stopped (" + text + "); reload the page.";
    window.jungleErrors.push(failure);
    for (const resolve of waiting.values()) resolve({ status: 0, code: "engineStopped", text: failure });
    waiting.clear();
    if (handlers) handlers.error("conn.stopped");
  }

  worker.onmessage = (e) => {
    const m = e.data;
    if (m.id) {
      const resolve = waiting.get(m.id);
      waiting.delete(m.id);
      if (resolve) resolve({ status: m.status, text: m.text });
    } else if (m.events) {
      if (handlers) dispatch(m.events);
      else early.push(m.events);
    } else if (m.ready && handlers) {
      handlers.open();
    } else if (m.failed) {
      fail(m.failed);
    }
  };
  worker.onerror = (e) => fail(e.message || "worker error");

  return {
    name: "engine",
    // `state` and `record` are reads (null body); the rest actions with a JSON body.
    request(action, body) {
      if (failure) return Promise.resolve({ status: 0, code: "engineStopped", text: failure });
      return new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        worker.postMessage({ id, action, body: body === null ? "" : JSON.stringify(body) });
      });
    },
    connect(h) {
      handlers = h;
      for (const text of early) dispatch(text);
      early = [];
      worker.postMessage({ hello: true });
    },
    // For tests and figures: the bench in the worker ({ nodes, ms }).
    bench(depth) {
      return new Promise((resolve) => {
        const id = next++;
        waiting.set(id, (a) => resolve(JSON.parse(a.text)));
        worker.postMessage({ id, bench: depth });
      });
    },
  };
})();
