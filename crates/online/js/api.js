// The online back end's HTTP requests (docs/online.md, docs/accounts.md): the
// accounts, the lobby, "your games", the players' pages and puzzles, a game's seat,
// record and players; and the seat tokens this browser keeps in its localStorage. Each
// answers as page/link.js says, { status, text }, with the server's refusals as the
// page words them.

const TOKENS_KEY = "jungle.online.tokens";
const TOKEN = /^[0-9a-f]{32}$/;

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
  return [...new Set(Object.values(readTokens()).map((s) => s.token))].filter((t) => TOKEN.test(t));
}

// The token kept for game `id`, or null.
export function keptToken(id) {
  const kept = readTokens()[id];
  return kept && TOKEN.test(kept.token) ? kept.token : null;
}

// Keeps the seat `seat` ({ id, side, token }) in the browser (the 50 newest).
export function keepSeat(seat) {
  const all = readTokens();
  all[seat.id] = { token: seat.token, side: seat.side, at: Date.now() };
  const newest = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50);
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(Object.fromEntries(newest)));
  } catch (e) {
    // No storage: the seat lasts the visit.
  }
}

export function answer(status, data) {
  return { status, text: JSON.stringify(data) };
}

// The server's codes of a refused move that the board app has too (the rule, the
// animal): the page words them as the app's.
const BOARD_CODES = ["illegalBecause", "chase73", "chase175"];

// A refusal of the server's (or of the back end's, for what it cannot send): the page
// words `refusal.online.<code>` (or the board app's code), with its arguments.
export function refusal(code, reason, args) {
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

// The online requests of the page (`online.*`), at the root as in a game; null for
// any other.
export async function onlineRequest(action, body) {
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

// A seat in game `id` for this browser: the kept token, else at /play/ID (`play`) the
// free seat of a friend's link. { token, note }: no token, and `note` the refusal's
// code ("seats_taken", "no_game") when there is none.
export async function seatIn(id, play) {
  const kept = keptToken(id);
  if (kept) return { token: kept, note: null };
  if (!play) return { token: null, note: null };
  const a = await api("POST", "/api/games/" + id + "/join", {});
  if (a.status === 200) {
    const s = JSON.parse(a.text);
    keepSeat(s);
    return { token: s.token, note: null };
  }
  return { token: null, note: a.status !== 0 ? JSON.parse(a.text).code.replace(/^online\./, "") : null };
}

// The accounts in the seats of game `id` (events name no one), or null.
export async function playersIn(id) {
  const a = await api("GET", "/api/games/" + encodeURIComponent(id), null);
  return a.status === 200 ? JSON.parse(a.text).players : null;
}

// The record of game `id`, as the server writes it.
export function recordOf(id) {
  return fetch("/api/games/" + id + "/record").then(async (r) => ({ status: r.status, text: await r.text() }), (e) => ({ status: 0, code: "unreachable", text: String(e) }));
}
