// The page's back end under `jungle serve`: the online game (docs/online.md). The
// server serves it as backend.js, and the visitor's own back end as local/backend.js
// (the engine in the visitor's browser where the site is built, else the server's:
// crates/app/js/backend.js). At the site's root the page is the visitor's own board,
// and this back end adds the online requests (`online.*`: create, join, the lobby,
// quick pairing, "your games"). At /play/ID and /watch/ID the board shows the server's
// game as the server says it: the position, where each animal may go (and where the
// anti-chase rules forbid it), the last move, the result and the clocks come with the
// server's messages; this module keeps no game of its own and checks no rule. A move
// goes to the server and counts when its event comes back. Once the game is over its
// review and analysis are the visitor's own back end's, on the game's record.
// What a back end provides: page/link.js.
import { backend as local } from "./local/backend.js";

export const backend = (() => {
  const TOKENS_KEY = "jungle.online.tokens";
  const at = /^\/(play|watch)\/([A-Za-z0-9]{1,40})\/?$/.exec(location.pathname);
  const gameId = at ? at[2] : null;
  // Reconnection waits (ms), the last repeated.
  const BACKOFF = [300, 1000, 2000, 4000, 8000];
  // The server's reasons for an end, as the page's codes (reason.*).
  const REASONS = { den: "den", no_animals: "noAnimals", no_moves: "noMoves", repetition: "repetition", no_capture: "noCapture" };
  // The animals of a position string's letters (upper case Red's).
  const ANIMALS = { R: ["rat", 1], C: ["cat", 2], D: ["dog", 3], W: ["wolf", 4], P: ["leopard", 5], T: ["tiger", 6], L: ["lion", 7], E: ["elephant", 8] };

  let handlers = null;
  // The server's game as its messages say it (its `state`, then each event folded in:
  // fields replaced, the move appended), and this browser's seat.
  let g = null;
  let token = null;
  let welcomed = false;
  let whenWelcomed = null;
  const firstWelcome = new Promise((resolve) => {
    whenWelcomed = resolve;
  });
  let seq = 0;
  let socket = null;
  let connected = false;
  let attempts = 0;
  // Server time minus this browser's (ms), from `state` and `pong`.
  let offset = 0;
  // The clocks' figures and the local time they were true at.
  let clockAt = Date.now();
  // Commands sent and not yet answered, oldest first: { kind, msg, resolve }.
  let pending = [];
  // When this browser last saw the opponent's move (the lag credit's think time).
  let turnSeen = Date.now();
  // Notes for the page: "seats_taken", "noSeat".
  let note = null;
  // The ply shown (the move list browsed), null: the last.
  let shown = null;
  // Since when each seat has had no one (local ms): the server's time when it left,
  // else when this page first saw it empty (a claim is the server's to allow).
  const absent = { red: null, blue: null };
  // The finished game in the visitor's own back end, for its review and analysis: its
  // last state there, once asked for.
  let review = null;

  function readTokens() {
    try {
      const t = JSON.parse(localStorage.getItem(TOKENS_KEY));
      return t && typeof t === "object" && !Array.isArray(t) ? t : {};
    } catch (e) {
      return {};
    }
  }

  // The seat tokens this browser keeps, each once (a rematch keeps its tokens).
  function seatTokens() {
    return [...new Set(Object.values(readTokens()).map((s) => s.token))].filter((t) => /^[0-9a-f]{32}$/.test(t));
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

  // The server's codes of a refused move that the board app has too (the rule, the
  // animal): the page words them as the app's.
  const BOARD_CODES = ["illegalBecause", "chase73", "chase175"];

  // A refusal of the server's (or of this module's, for what it cannot send): the page
  // words `refusal.online.<code>` (or the board app's code), with its arguments.
  function refusal(code, reason, args) {
    const page = BOARD_CODES.includes(code) ? code : "online." + code;
    return answer(409, { code: page, error: reason, args: args || {} });
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

  // The players' requests (docs/accounts.md): action -> [method, path] for its body.
  const name = (b) => encodeURIComponent(String((b && b.name) || ""));
  const PLAYERS = {
    "online.session": () => ["GET", "/api/account/session"],
    "online.signup": () => ["POST", "/api/account/signup"],
    "online.login": () => ["POST", "/api/account/login"],
    "online.logout": () => ["POST", "/api/account/logout"],
    "online.player": (b) => ["GET", "/api/players/" + name(b)],
    "online.playerGames": (b) => ["GET", "/api/players/" + name(b) + "/games?page=" + (Number(b && b.page) || 0)],
    "online.leaderboard": (b) => ["GET", "/api/leaderboard/" + encodeURIComponent(String((b && b.category) || ""))],
  };

  // The online requests of the page, at the root as in a game.
  async function onlineRequest(action, body) {
    if (PLAYERS[action]) {
      const [method, path] = PLAYERS[action](body);
      return api(method, path, method === "GET" ? null : body);
    }
    if (action === "online.claim") {
      // This browser's seats, from before its player logged in.
      return api("POST", "/api/account/claim", { tokens: seatTokens().slice(0, 50) });
    }
    if (action === "online.create" || action === "online.quick") {
      const a = await api("POST", action === "online.create" ? "/api/games" : "/api/lobby/quick", body);
      if (a.status === 200 || a.status === 201) keepSeat(JSON.parse(a.text));
      return a;
    }
    if (action === "online.lobby") return api("GET", "/api/lobby");
    // The bots online, and the bot offered to this browser's waiting challenge
    // (docs/accounts.md, "Bots online").
    if (action === "online.bots") return api("GET", "/api/bots");
    if (action === "online.botOffer") return api("GET", "/api/lobby?waiting=" + encodeURIComponent(String((body && body.id) || "")));
    // A logged-in player's puzzles (docs/puzzles.md, "Ratings from people").
    if (action === "online.puzzleNext") return api("GET", "/api/puzzles/next?" + new URLSearchParams(body || {}));
    if (action === "online.puzzleAttempt") return api("POST", "/api/puzzles/attempt", body);
    if (action === "online.mine") {
      const tokens = seatTokens();
      if (tokens.length === 0) return answer(200, { games: [] });
      return api("POST", "/api/mine", { tokens: tokens.slice(0, 50) });
    }
    return null;
  }

  // ----- what the page is shown -----------------------------------------------------

  function other(side) {
    return side === "red" ? "blue" : "red";
  }

  // The animals of a position string, square by square from a1 (as the board draws
  // them: the notation read, no rule).
  function pieces(fen) {
    const out = [];
    const ranks = String(fen).split(" ")[0].split("/").reverse();
    for (const rank of ranks) {
      for (const c of rank) {
        if (/[1-7]/.test(c)) {
          for (let i = 0; i < Number(c); i++) out.push(null);
          continue;
        }
        const [animal, value] = ANIMALS[c.toUpperCase()] || ["rat", 1];
        out.push({ color: c === c.toUpperCase() ? "red" : "blue", animal, rank: value, letter: c });
      }
    }
    return out;
  }

  function canMove() {
    return !!(g && g.you && connected && g.status === "playing" && g.to_move === g.you && shown === null
      && !pending.some((p) => p.kind === "move"));
  }

  // The rules as the page reads them ("jungle-cn +DogSwims").
  function rulesParts(text) {
    const words = String(text || "jungle").split(/\s+/);
    return { variant: words[0], dogSwims: words.includes("+DogSwims"), trappedLoseAttack: words.includes("+TrappedLoseAttack") };
  }

  // The result as the page words it.
  function result() {
    if (!g.result || g.status !== "over") return null;
    const r = g.result;
    const winner = r.result === "1-0" ? "red" : r.result === "0-1" ? "blue" : null;
    let code = REASONS[r.reason] || "online." + r.reason;
    if (!winner && r.reason === "opponent_gone") code = "online.gone_draw";
    // The side that resigned, lost on time or left.
    return { winner, code, args: winner ? { side: other(winner) } : {}, reason: r.reason };
  }

  // The part of the page's state that is the online game's.
  function onlinePart() {
    const opponent = g.you ? other(g.you) : null;
    return {
      id: g.id,
      you: g.you,
      watching: !g.you,
      status: g.status,
      tc: g.tc,
      rules: g.rules,
      toMove: g.to_move,
      plies: g.moves.length,
      seated: g.seated,
      rated: !!g.rated,
      players: g.players || { red: null, blue: null },
      clock: { red: g.clock.red, blue: g.clock.blue, running: g.clock.running, at: clockAt },
      deadline: g.deadline === null || g.deadline === undefined ? null : g.deadline - offset,
      drawOffer: g.draw_offer || null,
      rematchOffer: g.rematch_offer || null,
      rematch: g.rematch || null,
      result: g.result,
      presence: g.presence,
      goneSince: opponent ? absent[opponent] : null,
      connected,
      waitingMove: pending.some((p) => p.kind === "move"),
      note,
      reviewed: !!review,
      playUrl: location.origin + "/play/" + g.id,
      watchUrl: location.origin + "/watch/" + g.id,
    };
  }

  // The page's state of the server's game (the ply browsed, or the last).
  function view() {
    if (review) return Object.assign({}, review, { version: ++seq, online: onlinePart() });
    const ply = shown === null ? g.moves.length : shown;
    const last = ply === g.moves.length;
    const fen = last ? g.fen : g.fens[ply];
    const move = canMove();
    return Object.assign(rulesParts(g.rules), {
      version: ++seq,
      rules: g.rules,
      fen,
      startFen: g.fens[0],
      moves: g.moves,
      moveKinds: g.kinds,
      ply,
      firstMover: "red",
      sideToMove: fen.split(" ")[1] === "b" ? "blue" : "red",
      board: pieces(fen),
      terrain: g.terrain,
      legal: move ? g.legal : {},
      forbidden: move ? g.forbidden : {},
      lastMove: ply > 0 ? g.moves[ply - 1] : null,
      result: last ? result() : null,
      players: g.you || "both",
      seats: { red: g.you === "red" ? "You" : "", blue: g.you === "blue" ? "You" : "" },
      engines: ["", ""],
      engineIds: [null, null],
      level: 1,
      levels: [],
      levelsSupported: false,
      movetimeMs: 1000,
      thinking: null,
      hint: null,
      watch: { running: false, clocks: [0, 0], tc: { baseMs: 0, incMs: 0 } },
      analysis: { on: false, multipv: 1, ply, lines: [] },
      review: null,
      scores: [],
      notices: [],
      canUndo: false,
      canRedo: false,
      judge: null,
      online: onlinePart(),
    });
  }

  function show() {
    if (welcomed && handlers && g) handlers.state(view());
  }

  // ----- the server's messages ----------------------------------------------------

  function settle(kind, result) {
    const i = pending.findIndex((p) => p.kind === kind);
    if (i < 0) return;
    const [p] = pending.splice(i, 1);
    p.resolve(result);
  }

  // The accounts in the seats, read again when a seat is taken (events name no one).
  async function learnPlayers() {
    const a = await api("GET", "/api/games/" + encodeURIComponent(g.id), null);
    if (a.status !== 200) return;
    g.players = JSON.parse(a.text).players;
    show();
  }

  function setClock(clock, serverAt) {
    g.clock = clock;
    clockAt = serverAt - offset;
  }

  // The board's part of a message: where each animal may go now.
  function setBoard(b) {
    if (!b) return;
    g.legal = b.legal || {};
    g.forbidden = b.forbidden || {};
  }

  function onEvent(m) {
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
    setBoard(m.board);
    if (e.kind === "seated") {
      g.seated = Object.assign({}, g.seated, { [e.side]: true });
      learnPlayers();
    } else if (e.kind === "move" && e.ply === g.moves.length) {
      const mover = g.to_move;
      g.moves = g.moves.concat([e.mv]);
      g.fens = g.fens.concat([m.fen]);
      g.kinds = g.kinds.concat([m.board.kind]);
      g.to_move = other(mover);
      if (g.draw_offer && g.draw_offer !== mover) g.draw_offer = null;
      if (mover !== g.you) turnSeen = Date.now();
      if (mover === g.you) settle("move", answer(200, null));
    } else if (e.kind === "draw_offer") {
      g.draw_offer = e.side;
      if (e.side === g.you) settle("draw_offer", answer(200, null));
    } else if (e.kind === "draw_decline") {
      g.draw_offer = null;
      if (e.side === g.you) settle("draw_decline", answer(200, null));
      // The one who offered is told.
      else if (g.you && handlers) handlers.notice({ kind: "info", code: "online.drawDeclined", text: "Your friend declined the draw." });
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

  function onState(m) {
    g = m;
    g.terrain = m.board.terrain;
    g.fens = m.board.fens;
    g.kinds = m.board.kinds;
    setBoard(m.board);
    offset = m.now - Date.now();
    setClock(m.clock, m.now);
    onPresence(Object.assign({ gone_since: m.gone_since }, m.presence));
  }

  function onPresence(m) {
    g.presence = { red: !!m.red, blue: !!m.blue };
    for (const side of ["red", "blue"]) {
      const left = m.gone_since && m.gone_since[side];
      if (g.presence[side]) absent[side] = null;
      else if (left) absent[side] = left - offset;
      else if (absent[side] === null) absent[side] = Date.now();
    }
  }

  function handle(m) {
    // Nothing but a refusal comes before the game's state.
    if (!g && m.t !== "state" && m.t !== "refused") return;
    if (m.t === "state") onState(m);
    else if (m.t === "event") onEvent(m);
    else if (m.t === "presence") onPresence(m);
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
    const r = refusal(m.code, m.reason, m.args);
    if (m.to) settle(m.to, r);
    else {
      const p = pending.shift();
      if (p) p.resolve(r);
    }
    show();
  }

  function onWelcome(m) {
    g.you = m.you;
    connected = true;
    attempts = 0;
    if (!welcomed) {
      welcomed = true;
      whenWelcomed();
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
      try {
        handle(m);
      } catch (err) {
        window.jungleErrors.push(String(err));
      }
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

  // The finished game's record in the visitor's own back end, for its review and
  // analysis (once): its states and analysis are then the page's.
  async function reviewed() {
    if (review) return true;
    const rec = await gameRequest("record", null);
    if (rec.status !== 200) return false;
    const a = await local.request("load", { text: rec.text, game: 1 });
    if (a.status !== 200) return false;
    review = JSON.parse(a.text);
    local.connect({
      open() {},
      error: (key) => handlers.error(key),
      state(s) {
        review = s;
        show();
      },
      analysis: (data) => handlers.analysis(data),
      notice: (n) => handlers.notice(n),
    });
    return true;
  }

  async function gameRequest(action, body) {
    if (action === "state") {
      await firstWelcome;
      return answer(200, view());
    }
    if (action === "record") {
      return fetch("/api/games/" + gameId + "/record").then(async (r) => ({ status: r.status, text: await r.text() }), (e) => ({ status: 0, code: "unreachable", text: String(e) }));
    }
    if (action === "move") {
      if (!g || !g.you) return refusal("watching", "you are watching this game");
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
    if (action === "goto" && !review) {
      // The game's positions are the server's: the ply shown, no rule.
      const ply = Number(body && body.ply);
      if (!g || !(ply >= 0 && ply <= g.moves.length)) return refusal("bad_ply", "no such ply");
      shown = ply === g.moves.length ? null : ply;
      return answer(200, view());
    }
    // A finished game's review and analysis: the visitor's own back end's.
    if ((action === "goto" || action === "review" || action === "analysis") && g && g.status === "over") {
      if (!(await reviewed())) return refusal("failed", "the game could not be reviewed");
      const a = await local.request(action, body);
      if (a.status !== 200) return a;
      review = JSON.parse(a.text);
      return answer(200, view());
    }
    return refusal("inGame", "not during an online game");
  }

  return {
    name: "online",
    // Where the visitor's own games run: "engine" (the browser) or "server".
    local: local.name,
    async request(action, body) {
      const online = await onlineRequest(action, body);
      if (online) return online;
      return gameId ? gameRequest(action, body) : local.request(action, body);
    },
    connect(h) {
      handlers = h;
      if (!gameId) {
        local.connect(h);
        return;
      }
      // The visitor's own back end is asked only for a review (`reviewed`).
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
  };
})();
