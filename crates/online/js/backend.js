// The page's back end under `jungle serve`: the online game (protocol.md, section 10).
// The server serves it as backend.js, and the visitor's own back end as
// local/backend.js: the engine in the visitor's worker where the site is built, else
// the server's engine (src/gui/backend.js).
// At the site's root the page is the static site's, and this back end only adds the
// online requests (`online.*`: create, join, the lobby, quick pairing, "your games").
// At /play/ID and /watch/ID the board shows the server's game: the engine holds a copy
// of it, made from the server's moves, for what the board draws (the animals, the
// terrain, where each may go) and, once the game is over, its analysis and review;
// the server is the referee (a move goes to it, and counts when its event comes back)
// and the clock. What a back end provides: page/link.js.
import { backend as engine } from "./local/backend.js";

export const backend = (() => {
  const TOKENS_KEY = "jungle.online.tokens";
  const at = /^\/(play|watch)\/([A-Za-z0-9]{1,40})\/?$/.exec(location.pathname);
  const gameId = at ? at[2] : null;
  // Reconnection waits (ms), the last repeated.
  const BACKOFF = [300, 1000, 2000, 4000, 8000];
  // The server's reasons for an end, as the page's codes (reason.*).
  const REASONS = { den: "den", no_animals: "noAnimals", no_moves: "noMoves", repetition: "repetition", no_capture: "noCapture" };

  let handlers = null;
  // The server's game (its `state`, kept up to date by the events), its seat for this
  // browser, and the engine's copy's last state.
  let g = null;
  let token = null;
  let engineState = null;
  let synced = false;
  let whenSynced = null;
  const firstSync = new Promise((resolve) => {
    whenSynced = resolve;
  });
  let seq = 0;
  let socket = null;
  let connected = false;
  let attempts = 0;
  // Server time minus this browser's (ms), from `state` and `pong`.
  let offset = 0;
  // The clocks' figures and the local time they were true at.
  let clockAt = Date.now();
  // When each side's seat was last seen left (local ms), or null.
  const goneSince = { red: null, blue: null };
  // Commands sent and not yet answered, oldest first: { kind, msg, resolve }.
  let pending = [];
  // When this browser last saw the opponent's move (the lag credit's think time).
  let turnSeen = Date.now();
  // Server messages are handled one after another (the engine's copy is asynchronous).
  let chain = Promise.resolve();
  // Notes for the page: { joined: "seats_taken" } and the like.
  let note = null;

  function readTokens() {
    try {
      const t = JSON.parse(localStorage.getItem(TOKENS_KEY));
      return t && typeof t === "object" && !Array.isArray(t) ? t : {};
    } catch (e) {
      return {};
    }
  }

  // Keeps the seat `seat` ({ id, side, token }) in the browser (the 50 newest).
  function keepSeat(seat) {
    const all = readTokens();
    all[seat.id] = { token: seat.token, side: seat.side, at: Date.now() };
    const newest = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50);
    try {
      localStorage.setItem(TOKENS_KEY, JSON.stringify(Object.fromEntries(newest)));
    } catch (e) {
      // No storage: the seat lasts the visit.
    }
  }

  function answer(status, data) {
    return { status, text: JSON.stringify(data) };
  }

  function refusal(code, reason) {
    return answer(409, { code: "online." + code, error: reason });
  }

  // One HTTP request to the server's API: { status, text } (status 0 unreachable).
  async function api(method, path, body) {
    try {
      const r = await fetch(path, method === "GET" ? {} : {
        method,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body || {}),
      });
      const text = await r.text();
      if (r.status >= 300) {
        let data = {};
        try {
          data = JSON.parse(text);
        } catch (e) {
          data = { code: "badAnswer", reason: text };
        }
        return refusal(data.code || "failed", data.reason || text);
      }
      return { status: r.status, text };
    } catch (e) {
      return { status: 0, code: "unreachable", text: "The server cannot be reached: " + e };
    }
  }

  // The online requests of the page, at the root as in a game.
  async function onlineRequest(action, body) {
    if (action === "online.create" || action === "online.quick") {
      const a = await api("POST", action === "online.create" ? "/api/games" : "/api/lobby/quick", body);
      if (a.status === 200 || a.status === 201) keepSeat(JSON.parse(a.text));
      return a;
    }
    if (action === "online.lobby") return api("GET", "/api/lobby");
    if (action === "online.mine") {
      // A rematch keeps its tokens: each is sent once.
      const tokens = [...new Set(Object.values(readTokens()).map((s) => s.token))].filter((t) => /^[0-9a-f]{32}$/.test(t));
      if (tokens.length === 0) return answer(200, { games: [] });
      return api("POST", "/api/mine", { tokens: tokens.slice(0, 50) });
    }
    return null;
  }

  // ----- the game's copy in the engine ----------------------------------------------

  // "jungle-cn +DogSwims" as the engine's rules.
  function engineRules(text) {
    const words = String(text || "jungle").split(/\s+/);
    return {
      variant: words[0],
      dogSwims: words.includes("+DogSwims"),
      trappedLoseAttack: words.includes("+TrappedLoseAttack"),
    };
  }

  async function ask(action, body) {
    const a = await engine.request(action, body);
    if (a.status === 200) take(JSON.parse(a.text));
    return a.status === 200;
  }

  // The engine's state, unless it is older than the one kept.
  function take(s) {
    if (!engineState || s.version >= engineState.version) engineState = s;
  }

  // Makes the engine's game the server's: its moves played after the ones they share,
  // or again from the start.
  async function syncEngine() {
    const moves = g.moves;
    const e = engineState;
    const sameStart = e && e.rules === engineStateRules() && e.moves.length <= moves.length && e.moves.every((m, i) => m === moves[i]);
    if (!sameStart) {
      await ask("new", { players: "both", rules: engineRules(g.rules) });
    } else if (e.ply !== e.moves.length) {
      await ask("goto", { ply: e.moves.length });
    }
    for (let i = engineState.moves.length; i < moves.length; i++) {
      if (!(await ask("move", { move: moves[i] }))) break;
    }
  }

  // The engine's name of the server's rules, once the engine has played under them.
  let rulesSeen = null;
  function engineStateRules() {
    return rulesSeen && rulesSeen.server === g.rules ? rulesSeen.engine : null;
  }

  // ----- what the page is shown ---------------------------------------------------

  function other(side) {
    return side === "red" ? "blue" : "red";
  }

  function canMove() {
    const e = engineState;
    return !!(g && g.you && connected && g.status === "playing" && g.to_move === g.you && e && e.ply === e.moves.length
      && !pending.some((p) => p.kind === "move"));
  }

  // The engine's state as the page draws an online game: the server's result, seats,
  // clocks and offers under `online`, the board's moves only for the side whose turn it
  // is here.
  function view() {
    const s = Object.assign({}, engineState);
    s.version = ++seq;
    s.players = g.you || "both";
    s.seats = { red: g.you === "red" ? "You" : "", blue: g.you === "blue" ? "You" : "" };
    s.hint = null;
    s.canUndo = false;
    s.canRedo = false;
    if (!canMove()) s.legal = {};
    s.result = null;
    if (g.result && g.status === "over") {
      const r = g.result;
      const winner = r.result === "1-0" ? "red" : r.result === "0-1" ? "blue" : null;
      let code = REASONS[r.reason] || "online." + r.reason;
      if (!winner && r.reason === "opponent_gone") code = "online.gone_draw";
      // The side that resigned, lost on time or left.
      s.result = { winner, code, args: winner ? { side: other(winner) } : {}, reason: r.reason };
    }
    if (g.status !== "over") {
      s.analysis = Object.assign({}, s.analysis, { on: false, lines: [] });
      s.review = null;
    }
    const opponent = g.you ? other(g.you) : null;
    s.online = {
      id: g.id,
      you: g.you,
      watching: !g.you,
      status: g.status,
      tc: g.tc,
      rules: g.rules,
      toMove: g.to_move,
      plies: g.moves.length,
      seated: g.seated,
      clock: { red: g.clock.red, blue: g.clock.blue, running: g.clock.running, at: clockAt },
      deadline: g.deadline === null || g.deadline === undefined ? null : g.deadline - offset,
      drawOffer: g.draw_offer || null,
      rematchOffer: g.rematch_offer || null,
      rematch: g.rematch || null,
      result: g.result,
      presence: g.presence || { red: false, blue: false },
      goneSince: opponent ? goneSince[opponent] : null,
      connected,
      waitingMove: pending.some((p) => p.kind === "move"),
      note,
      playUrl: location.origin + "/play/" + g.id,
      watchUrl: location.origin + "/watch/" + g.id,
    };
    return s;
  }

  function show() {
    if (synced && handlers) handlers.state(view());
  }

  // ----- the server's messages --------------------------------------------------

  function settle(kind, result) {
    const i = pending.findIndex((p) => p.kind === kind);
    if (i < 0) return;
    const [p] = pending.splice(i, 1);
    p.resolve(result);
  }

  function setClock(clock, serverAt) {
    g.clock = clock;
    clockAt = serverAt - offset;
  }

  function setPresence(p) {
    for (const side of ["red", "blue"]) {
      if (p[side]) goneSince[side] = null;
      else if (goneSince[side] === null) goneSince[side] = Date.now();
    }
    g.presence = { red: !!p.red, blue: !!p.blue };
  }

  async function onEvent(m) {
    if (!g || m.v <= g.v) return;
    if (m.v !== g.v + 1) {
      // A gap: ask again from the last version seen.
      reconnectNow();
      return;
    }
    const e = m.e || {};
    g.v = m.v;
    g.status = m.status;
    g.fen = m.fen;
    setClock(m.clock, m.at);
    if (e.kind === "seated") {
      g.seated = Object.assign({}, g.seated, { [e.side]: true });
    } else if (e.kind === "move") {
      if (e.ply === g.moves.length) {
        const mover = g.to_move;
        g.moves = g.moves.concat([e.mv]);
        g.to_move = other(mover);
        if (g.draw_offer && g.draw_offer !== mover) g.draw_offer = null;
        if (mover !== g.you) turnSeen = Date.now();
        await syncEngine();
        if (mover === g.you) settle("move", answer(200, null));
      }
    } else if (e.kind === "draw_offer") {
      g.draw_offer = e.side;
      if (e.side === g.you) settle("draw_offer", answer(200, null));
    } else if (e.kind === "draw_decline") {
      g.draw_offer = null;
      if (e.side === g.you) settle("draw_decline", answer(200, null));
    } else if (e.kind === "rematch_offer") {
      g.rematch_offer = e.side;
      if (e.side === g.you) settle("rematch", answer(200, null));
    } else if (e.kind === "rematch") {
      g.rematch = e.game;
      if (g.you && token) keepSeat({ id: e.game, side: other(g.you), token });
      settle("rematch", answer(200, null));
    } else if (e.kind === "end") {
      g.result = { result: e.result, reason: e.reason };
      g.draw_offer = null;
      // The commands that can end a game (a draw offered to a side that has offered
      // one is agreed).
      for (const kind of ["resign", "abort", "claim", "draw_accept", "draw_offer"]) settle(kind, answer(200, null));
    }
    if (g.status === "over") {
      g.clock = Object.assign({}, g.clock, { running: null });
      g.deadline = null;
      settle("move", refusal("game_over", "the game is over"));
    }
  }

  async function onState(m) {
    g = m;
    offset = m.now - Date.now();
    setClock(m.clock, m.now);
    setPresence(m.presence || {});
    await syncEngine();
    rulesSeen = { server: g.rules, engine: engineState.rules };
  }

  async function handle(m) {
    // Nothing but a refusal comes before the game's state.
    if (!g && m.t !== "state" && m.t !== "refused") return;
    if (m.t === "state") await onState(m);
    else if (m.t === "event") await onEvent(m);
    else if (m.t === "presence") setPresence(m);
    else if (m.t === "pong") offset = m.now - Date.now();
    else if (m.t === "ack") settle("move", answer(200, null));
    else if (m.t === "refused") return onRefused(m);
    else if (m.t === "welcome") return onWelcome(m);
    show();
  }

  function onRefused(m) {
    if (m.code === "no_seat") {
      // The kept token holds no seat here: the page watches.
      token = null;
      note = "noSeat";
      return;
    }
    // A refusal names the command it answers (`to`); one that cannot (a message the
    // server could not read) answers the oldest.
    if (m.to) settle(m.to, refusal(m.code, m.reason));
    else {
      const p = pending.shift();
      if (p) p.resolve(refusal(m.code, m.reason));
    }
    show();
  }

  function onWelcome(m) {
    g.you = m.you;
    connected = true;
    attempts = 0;
    if (!synced) {
      synced = true;
      whenSynced();
    }
    if (handlers) handlers.open();
    sendAgain();
    show();
  }

  // The commands sent before the connection dropped that the catch-up did not answer
  // (the server acted on none of them, or its answer was lost): sent again, in their
  // order. The server acknowledges a move it already has, and refuses a command that
  // no longer applies (a draw offer in a finished game), so each is answered once. A
  // move the catch-up holds as a whole state rather than as its event is answered
  // from that state.
  function sendAgain() {
    const left = [];
    for (const p of pending) {
      if (p.kind === "move" && p.msg.ply < g.moves.length && g.moves[p.msg.ply] === p.msg.mv) {
        p.resolve(answer(200, null));
      } else if (p.kind === "move" && p.msg.ply !== g.moves.length) {
        p.resolve(refusal("bad_ply", "the game moved on before this move reached the server"));
      } else {
        send(p.msg);
        left.push(p);
      }
    }
    pending = left;
  }

  // ----- the connection -----------------------------------------------------------

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  function open() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/games/" + gameId + "/ws";
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ t: "hello", token, since: g ? g.v : null }));
    };
    ws.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      chain = chain.then(() => handle(m)).catch((err) => window.jungleErrors.push(String(err)));
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      connected = false;
      if (handlers) handlers.error("conn.reconnecting");
      show();
      const wait = BACKOFF[Math.min(attempts, BACKOFF.length - 1)];
      attempts++;
      setTimeout(open, wait);
    };
  }

  // A gap in the versions: this connection closes, the next asks from the last seen.
  function reconnectNow() {
    if (socket) socket.close();
  }

  // The seat: the kept token, else the free seat of a friend's link (/play/ID).
  async function seat() {
    const kept = readTokens()[gameId];
    if (kept && /^[0-9a-f]{32}$/.test(kept.token)) return kept.token;
    if (at[1] !== "play") return null;
    const a = await api("POST", "/api/games/" + gameId + "/join", {});
    if (a.status === 200) {
      const s = JSON.parse(a.text);
      keepSeat(s);
      return s.token;
    }
    if (a.status !== 0) note = JSON.parse(a.text).code.replace(/^online\./, "");
    return null;
  }

  // The page's commands in a game, as the websocket's.
  const COMMANDS = {
    resign: "resign",
    abort: "abort",
    offerDraw: "draw_offer",
    acceptDraw: "draw_accept",
    declineDraw: "draw_decline",
    rematch: "rematch",
    claim: "claim",
  };

  function command(kind, msg) {
    return new Promise((resolve) => {
      if (!send(msg)) {
        resolve(refusal("offline", "not connected"));
        return;
      }
      pending.push({ kind, msg, resolve });
    });
  }

  async function gameRequest(action, body) {
    if (action === "state") {
      await firstSync;
      return answer(200, view());
    }
    if (action === "record") {
      const a = await fetch("/api/games/" + gameId + "/record").then(async (r) => ({ status: r.status, text: await r.text() }), (e) => ({ status: 0, code: "unreachable", text: String(e) }));
      return a;
    }
    if (action === "move") {
      if (!g || !g.you) return refusal("no_seat", "you are watching");
      const ply = g.moves.length;
      const think = Math.max(0, Date.now() - turnSeen);
      const a = await command("move", { t: "move", ply, mv: String(body.move || ""), think_ms: think });
      return a.status === 200 ? answer(200, view()) : a;
    }
    if (COMMANDS[action]) {
      const msg = { t: COMMANDS[action] };
      if (action === "claim") msg.draw = !!body.draw;
      const a = await command(COMMANDS[action], msg);
      return a.status === 200 ? answer(200, view()) : a;
    }
    // Going through the game's moves, and once it is over the engine's analysis and
    // review of it.
    if (action === "goto" || ((action === "review" || action === "analysis") && g && g.status === "over")) {
      const a = await engine.request(action, body);
      if (a.status !== 200) return a;
      take(JSON.parse(a.text));
      return answer(200, view());
    }
    return refusal("inGame", "not during an online game");
  }

  return {
    name: "online",
    async request(action, body) {
      const online = await onlineRequest(action, body);
      if (online) return online;
      return gameId ? gameRequest(action, body) : engine.request(action, body);
    },
    connect(h) {
      handlers = h;
      if (!gameId) {
        engine.connect(h);
        return;
      }
      engine.connect({
        open() {},
        error: (key) => h.error(key),
        state(s) {
          take(s);
          if (synced && g) show();
        },
        analysis(a) {
          if (g && g.status === "over") h.analysis(a);
        },
        notice: (n) => h.notice(n),
      });
      seat().then((t) => {
        token = t;
        if (note === "no_game") {
          h.error("online.noGame");
          h.notice({ kind: "error", code: "online.noGame", text: "There is no such game." });
          return;
        }
        open();
      });
      // The clock's offset, and a dead connection found.
      setInterval(() => send({ t: "ping" }), 15000);
      // A page left for another (kept by the browser to come back to) leaves its seat:
      // the opponent sees it gone; back, it connects again.
      window.addEventListener("pagehide", () => {
        const ws = socket;
        socket = null;
        connected = false;
        if (ws) ws.close();
      });
      window.addEventListener("pageshow", (e) => {
        if (e.persisted && !socket && token !== undefined) open();
      });
    },
    // For tests and figures: the engine's bench.
    bench: (depth) => engine.bench(depth),
  };
})();
