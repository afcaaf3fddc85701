// ----- players: the account, profiles, leaderboards -----------------------------------
// Under `jungle serve` (docs/accounts.md): the header's account button opens the
// account box (log in or sign up; once in, the profile, the leaderboards, log out); a
// log-in claims the games this browser played before. /@/NAME opens NAME's profile
// (ratings, a chart of their history, the games, the download) and /leaderboard the
// leaderboards. Everything comes from the server through link.js; nothing is kept
// but the account shown.

import { base } from "./base.js";
import { words } from "./words.js";
import { link } from "./link.js";
import { panels } from "./panels.js";

const { $ } = base;
const { t, sayIn, answerText, rulesName } = words;
const { onlineTcName } = panels;

const available = link.hostName === "online";
const SPEEDS = ["bullet", "blitz", "rapid", "classical", "correspondence"];
const VARIANTS = ["jungle", "jungle-cn"];
const SVG = "http://www.w3.org/2000/svg";
// The account logged in ({ username, ratings }), or null.
let me = null;
// The profile shown: its name and the next page of its games.
let profile = null;

const profileAt = /^\/@\/([^/]+)\/?$/.exec(location.pathname);
const leaderboardAt = /^\/leaderboard\/?$/.test(location.pathname);

function categoryName(key) {
  const [variant, speed] = String(key).split(".");
  return t("speed." + speed) + " · " + rulesName(variant, variant);
}

function element(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (className) el.className = className;
  return el;
}

function playerLink(name) {
  const a = element("a", name);
  a.href = "/@/" + encodeURIComponent(name);
  return a;
}

function day(ms) {
  return new Date(ms).toLocaleDateString(words.language());
}

// ----- the account ----------------------------------------------------------------

async function refreshMe() {
  const a = await link.request("online.session", null);
  me = a.status === 200 ? JSON.parse(a.text).account : null;
  showAccount();
}

function showAccount() {
  $("account-open").textContent = me ? me.username : t("header.account");
  $("account-in").hidden = !me;
  $("account-out").hidden = !!me;
  if (me) $("account-name").textContent = t("account.signedIn", { name: me.username });
  $("online-rated-row").hidden = !me;
  $("online-range-row").hidden = !me;
}

async function enter(kind) {
  const body = { username: $("account-username").value, password: $("account-password").value };
  const a = await link.request("online." + kind, body);
  if (a.status !== 200 && a.status !== 201) {
    sayIn($("account-error"), () => answerText(a));
    return;
  }
  $("account-password").value = "";
  $("account-error").hidden = true;
  // The games this browser played before are the account's now.
  await link.request("online.claim", {});
  await refreshMe();
}

async function logOut() {
  await link.request("online.logout", {});
  me = null;
  showAccount();
}

// ----- a profile --------------------------------------------------------------------

// The rating history as a chart: a line per category, game by game (a dot each),
// with the lowest and highest rating written on the left.
function chart(history) {
  const svg = document.createElementNS(SVG, "svg");
  const w = 600;
  const h = 180;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("profile.history"));
  const ratings = history.map((p) => p.rating);
  const lo = Math.floor((Math.min(...ratings) - 20) / 50) * 50;
  const hi = Math.ceil((Math.max(...ratings) + 20) / 50) * 50;
  const x = (i) => 48 + (i * (w - 60)) / Math.max(1, history.length - 1);
  const y = (r) => 10 + ((hi - r) * (h - 30)) / Math.max(1, hi - lo);
  for (const [r, label] of [[hi, hi], [lo, lo]]) {
    const line = document.createElementNS(SVG, "line");
    Object.entries({ x1: 44, x2: w - 8, y1: y(r), y2: y(r), class: "grid" }).forEach(([k, v]) => line.setAttribute(k, v));
    svg.appendChild(line);
    const text = document.createElementNS(SVG, "text");
    Object.entries({ x: 40, y: y(r) + 4, "text-anchor": "end" }).forEach(([k, v]) => text.setAttribute(k, v));
    text.textContent = label;
    svg.appendChild(text);
  }
  const categories = [...new Set(history.map((p) => p.category))];
  categories.forEach((c, n) => {
    const line = document.createElementNS(SVG, "polyline");
    const points = history.map((p, i) => [p, i]).filter(([p]) => p.category === c).map(([p, i]) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`);
    line.setAttribute("points", points.join(" "));
    line.setAttribute("class", "series s" + (n % 4));
    const title = document.createElementNS(SVG, "title");
    title.textContent = categoryName(c);
    line.appendChild(title);
    svg.appendChild(line);
    // Each game a dot (one game alone is a dot, no line).
    history.forEach((p, i) => {
      if (p.category !== c) return;
      const dot = document.createElementNS(SVG, "circle");
      Object.entries({ cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3.5, class: "dot s" + (n % 4) }).forEach(([k, v]) => dot.setAttribute(k, v));
      svg.appendChild(dot);
    });
  });
  return svg;
}

function ratingsTable(ratings) {
  const table = element("table", undefined, "ratings");
  const head = table.createTHead().insertRow();
  for (const key of ["profile.category", "profile.rating", "profile.rd", "profile.games"]) head.appendChild(element("th", t(key)));
  const body = table.createTBody();
  for (const r of ratings) {
    const row = body.insertRow();
    for (const text of [categoryName(r.category), r.shown, Math.round(r.rd), r.games]) row.insertCell().textContent = text;
  }
  return table;
}

// A game as the profile lists it: when, against whom, the result for the player.
function gameItem(g) {
  const li = element("li");
  const opponent = g.opponent ? g.opponent : t("profile.anonymous");
  const text = t("profile.vs", { date: day(g.created_at), opponent, tc: onlineTcName(g.tc), rules: rulesName(g.rules, String(g.rules).split(" ")[0]) });
  const span = element("span", text);
  li.appendChild(span);
  const won = g.result === (g.side === "red" ? "1-0" : "0-1");
  const outcome = g.result === null ? "playing" : g.result === "*" ? "aborted" : g.result === "1/2-1/2" ? "drawn" : won ? "won" : "lost";
  let result = t("profile." + outcome);
  if (g.rated) result += " · " + t("online.rated");
  if (typeof g.rating_change === "number") result += " " + (g.rating_change >= 0 ? "+" : "") + Math.round(g.rating_change);
  li.appendChild(element("span", result, "result " + outcome));
  const open = element("a", t("profile.open"));
  open.href = "/watch/" + encodeURIComponent(g.id);
  li.appendChild(open);
  return li;
}

async function moreGames() {
  const a = await link.request("online.playerGames", { name: profile.name, page: profile.page });
  if (a.status !== 200) return;
  const data = JSON.parse(a.text);
  for (const g of data.games) $("profile-games").appendChild(gameItem(g));
  $("profile-games-empty").hidden = profile.page > 0 || data.games.length > 0;
  profile.page++;
  $("profile-more").hidden = !data.more;
}

async function showProfile(name) {
  profile = { name, page: 0 };
  $("profile-name").textContent = name;
  for (const id of ["profile-ratings", "profile-chart", "profile-games"]) $(id).textContent = "";
  $("profile-body").hidden = true;
  $("profile-error").hidden = true;
  $("profile-dialog").showModal();
  const a = await link.request("online.player", { name });
  if (a.status !== 200) {
    sayIn($("profile-error"), () => answerText(a));
    return;
  }
  const p = JSON.parse(a.text);
  profile.name = p.username;
  $("profile-name").textContent = p.username;
  // A bot's profile has the mark its name has in games and the lobby.
  if (p.is_bot) {
    const mark = panels.botMark();
    mark.title = t("profile.bot");
    $("profile-name").appendChild(mark);
  }
  $("profile-since").textContent = t("profile.since", { date: day(p.created_at) });
  if (p.ratings.length) $("profile-ratings").appendChild(ratingsTable(p.ratings));
  else $("profile-ratings").appendChild(element("p", t("profile.none"), "small"));
  $("profile-chart-box").hidden = p.history.length === 0;
  if (p.history.length) $("profile-chart").appendChild(chart(p.history));
  $("profile-download").href = "/api/players/" + encodeURIComponent(p.username) + "/games.txt";
  $("profile-body").hidden = false;
  await moreGames();
}

// ----- leaderboards -----------------------------------------------------------------

function fillCategories() {
  const select = $("leaderboard-category");
  const chosen = select.value || "jungle.blitz";
  select.textContent = "";
  for (const v of VARIANTS) for (const s of SPEEDS) select.appendChild(new Option(categoryName(v + "." + s), v + "." + s));
  select.value = chosen;
}

async function showLeaderboard() {
  fillCategories();
  if (!$("leaderboard-dialog").open) $("leaderboard-dialog").showModal();
  const a = await link.request("online.leaderboard", { category: $("leaderboard-category").value });
  const body = $("leaderboard-rows");
  body.textContent = "";
  const players = a.status === 200 ? JSON.parse(a.text).players : [];
  for (const p of players) {
    const row = body.insertRow();
    row.insertCell().textContent = p.rank;
    row.insertCell().appendChild(playerLink(p.username));
    row.insertCell().textContent = p.rating;
    row.insertCell().textContent = p.games;
  }
  $("leaderboard-empty").hidden = players.length > 0;
}

// ----- setting up -------------------------------------------------------------------

function setUp() {
  if (!available) return;
  $("account-open").hidden = false;
  $("account-open").addEventListener("click", () => $("account-dialog").showModal());
  $("account-login").addEventListener("click", () => enter("login"));
  $("account-signup").addEventListener("click", () => enter("signup"));
  $("account-logout").addEventListener("click", logOut);
  $("account-profile").addEventListener("click", () => {
    $("account-dialog").close();
    if (me) showProfile(me.username);
  });
  for (const id of ["account-leaderboard", "online-leaderboard"]) {
    $(id).addEventListener("click", () => {
      for (const d of ["account-dialog", "online-dialog"]) if ($(d).open) $(d).close();
      showLeaderboard();
    });
  }
  $("leaderboard-category").addEventListener("change", showLeaderboard);
  $("profile-more").addEventListener("click", moreGames);
  refreshMe();
  if (profileAt) showProfile(decodeURIComponent(profileAt[1]));
  if (leaderboardAt) showLeaderboard();
}

function onLanguage() {
  if (!available) return;
  showAccount();
  if ($("leaderboard-dialog").open) showLeaderboard();
  if ($("profile-dialog").open && profile) showProfile(profile.name);
}

// `atPage`: the page opened at a profile or the leaderboards (no welcome screen).
export const players = { available, setUp, onLanguage, atPage: !!(profileAt || leaderboardAt), me: () => me };
