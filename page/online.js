// ----- online games ------------------------------------------------------------------
// Under `jungle serve` (the back end "online": crates/online/js/backend.js) the page
// plays people on other devices. At the site's root: "Play a friend" (a time control,
// rules and colour; the game's links), the lobby of open challenges with quick pairing,
// and "Your games" (the seats this browser holds). At /play/ID and /watch/ID the board
// is the server's game, whose state carries `online` (the clocks, seats, presence,
// offers): this module draws that box (the links to share while the friend is awaited,
// whose turn, the opponent gone or back, the buttons: draw, resign, abort, claim,
// rematch, the record); panels.js words the players, clocks and status.

import { base } from "./base.js";
import { words } from "./words.js";
import { link } from "./link.js";
import { board } from "./board.js";
import { game } from "./game.js";
import { panels } from "./panels.js";
import { welcome } from "./welcome.js";

const { $ } = base;
const { t, sideName, sayIn, answerText, rulesName } = words;
const { onlineTcName, botMark } = panels;

const TIME_CONTROLS = ["1m+0s", "3m+0s", "3m+2s", "5m+0s", "5m+3s", "10m+0s", "10m+5s", "15m+10s", "30m+0s", "30m+30s", "1d", "2d", "3d", "7d"];
// Seconds a seat must have been gone before its opponent may claim (docs/online.md: 30 s
// live, a second more here for the news to travel; a day in correspondence).
const CLAIM_LIVE_S = 31;
const CLAIM_DAYS_S = 24 * 3600;

const available = link.hostName === "online";
const inGame = available && /^\/(play|watch)\/[A-Za-z0-9]+\/?$/.test(location.pathname);
let lobbyTimer = null;
let flippedFor = null;
let resignArmed = null;

// ----- the first page: play a friend, the lobby, your games ------------------------

function fillTimeControls() {
  const select = $("online-tc");
  const chosen = select.value || "5m+3s";
  select.textContent = "";
  for (const tc of TIME_CONTROLS) select.appendChild(new Option(onlineTcName(tc), tc));
  select.value = chosen;
}

// Goes to a game's page.
function go(id) {
  location.href = "/play/" + encodeURIComponent(id);
}

async function seatRequest(action, body) {
  const a = await link.request(action, body);
  if (a.status === 200 || a.status === 201) {
    go(JSON.parse(a.text).id);
    return;
  }
  sayIn($("online-error"), () => answerText(a));
}

// The game chosen; rated, and with a rating range, when logged in and asked.
function choice() {
  const c = { tc: $("online-tc").value, rules: $("online-rules").value };
  if (!$("online-rated-row").hidden && $("online-rated").checked) c.rated = true;
  const range = Number($("online-range").value);
  if (!$("online-range-row").hidden && range > 0) c.range = range;
  return c;
}

function listItem(g, words, buttonKey, act) {
  const li = document.createElement("li");
  const span = document.createElement("span");
  span.textContent = words;
  li.appendChild(span);
  const b = document.createElement("button");
  b.textContent = t(buttonKey);
  b.addEventListener("click", act);
  li.appendChild(b);
  return li;
}

// A listed game's rules in the page's words.
function rulesOf(g) {
  return rulesName(String(g.rules), String(g.rules).split(" ")[0]);
}

// Fills the list `id` (and its "none" line `id-empty`) with the games the server
// answers to `request`, each worded by `words` with a button `action` that opens it.
async function showGames(request, id, words, action) {
  const a = await link.request(request, null);
  const list = $(id);
  if (a.status !== 200) return;
  list.textContent = "";
  const games = JSON.parse(a.text).games || [];
  for (const g of games) list.appendChild(listItem(g, words(g), action, () => go(g.id)));
  $(id + "-empty").hidden = games.length > 0;
}

// A challenge as the lobby words it: who (and their rating), the game, rated or not.
function challengeWords(g) {
  const who = g.player ? g.player.username + " (" + g.player.rating + ") · " : "";
  const speed = g.speed ? " · " + t("speed." + g.speed) : "";
  const rated = g.rated ? " · " + t("online.rated") : "";
  return who + t("online.challenge", { tc: onlineTcName(g.tc), rules: rulesOf(g), side: sideName(g.open_side) }) + speed + rated;
}

function showLobby() {
  return showGames("online.lobby", "online-lobby", challengeWords, "online.join");
}

// The rating category of a game's rules and clock ("jungle.blitz"), as the server
// names it (docs/accounts.md: a speed by initial + 40 × increment); null for rules of
// settings of their own.
function categoryOf(rules, tc) {
  if (rules !== "jungle" && rules !== "jungle-cn") return null;
  if (/d$/.test(tc)) return rules + ".correspondence";
  const m = /^(\d+)m\+(\d+)s$/.exec(tc);
  if (!m) return null;
  const s = Number(m[1]) * 60 + 40 * Number(m[2]);
  return rules + "." + (s < 180 ? "bullet" : s < 480 ? "blitz" : s < 1500 ? "rapid" : "classical");
}

// A bot's rating in the category of the dialog's choice, as shown ("1500?").
function botRating(bot, c) {
  const cat = categoryOf(c.rules, c.tc);
  const r = (bot.ratings || []).find((x) => x.category === cat);
  return r ? r.shown : "1500?";
}

// "Play a bot": the bots online (docs/accounts.md, "Bots online"), each a button
// that invites it with the dialog's settings.
async function showBots() {
  const a = await link.request("online.bots", null);
  if (a.status !== 200) return;
  const bots = JSON.parse(a.text).bots || [];
  const list = $("online-bots");
  list.textContent = "";
  const c = choice();
  for (const bot of bots) {
    const level = bot.level === "engine" ? t("online.bots.engine") : bot.level ? t("online.bots.level", { level: bot.level }) : "";
    const words = " (" + botRating(bot, c) + ")" + (level ? " · " + level : "") + (bot.busy ? " · " + t("online.bots.busy") : "");
    const li = listItem(bot, words, "online.join", () => seatRequest("online.create", Object.assign(choice(), { color: $("online-color").value, invite: bot.username })));
    const name = li.firstChild;
    name.textContent = bot.username;
    name.appendChild(botMark());
    name.appendChild(document.createTextNode(words));
    li.classList.add("bot");
    list.appendChild(li);
  }
  $("online-bots-empty").hidden = bots.length > 0;
}

function showMine() {
  return showGames("online.mine", "online-mine", (g) => t("online.mineGame", { tc: onlineTcName(g.tc), rules: rulesOf(g), side: sideName(g.side), status: t("online.status." + g.status) }), "online.open");
}

function openDialog() {
  fillTimeControls();
  $("online-error").hidden = true;
  $("online-dialog").showModal();
  showLobby();
  showBots();
  showMine();
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => {
    if ($("online-dialog").open) {
      showLobby();
      showBots();
    } else clearInterval(lobbyTimer);
  }, 4000);
}

function setUpHome() {
  // Where the computer plays: in this browser, or on the server (no browser engine
  // built there).
  const where = $("engine-where");
  sayIn(where, () => t(link.localName === "engine" ? "engine.where.browser" : "engine.where.server"));
  $("online-open").hidden = false;
  $("welcome-friend").hidden = false;
  $("online-open").addEventListener("click", openDialog);
  $("welcome-friend").addEventListener("click", () => {
    welcome.close();
    openDialog();
  });
  $("online-create").addEventListener("click", () => seatRequest("online.create", Object.assign(choice(), { color: $("online-color").value })));
  $("online-challenge").addEventListener("click", () => seatRequest("online.create", Object.assign(choice(), { color: $("online-color").value, lobby: true })));
  $("online-quick").addEventListener("click", () => seatRequest("online.quick", choice()));
  // The bots' ratings follow the chosen clock and rules.
  for (const id of ["online-tc", "online-rules"]) $(id).addEventListener("change", showBots);
}

// ----- a game ----------------------------------------------------------------------

function act(action, body) {
  return game.post(action, body || {});
}

function setUpGame() {
  document.body.classList.add("online-game");
  $("online-game").hidden = false;
  for (const [id, url] of [["online-copy-play", "online-play-url"], ["online-copy-watch", "online-watch-url"]]) {
    $(id).addEventListener("click", () => {
      $(url).select();
      const done = () => sayIn($("online-copied"), () => t("online.copied"));
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText($(url).value).then(done, () => document.execCommand("copy"));
      else if (document.execCommand("copy")) done();
    });
  }
  $("online-offer-draw").addEventListener("click", () => act("offerDraw"));
  $("online-accept-draw").addEventListener("click", () => act("acceptDraw"));
  $("online-decline-draw").addEventListener("click", () => act("declineDraw"));
  $("online-abort").addEventListener("click", () => act("abort"));
  $("online-claim-win").addEventListener("click", () => act("claim", { draw: false }));
  $("online-claim-draw").addEventListener("click", () => act("claim", { draw: true }));
  $("online-rematch").addEventListener("click", () => act("rematch"));
  $("online-record").addEventListener("click", () => game.saveRecord());
  $("online-bot-offer-play").addEventListener("click", playOfferedBot);
  setInterval(askBotOffer, 4000);
  // Resigning takes a second click within three seconds.
  $("online-resign").addEventListener("click", () => {
    if (resignArmed) {
      clearTimeout(resignArmed);
      resignArmed = null;
      $("online-resign").textContent = t("online.resign");
      act("resign");
      return;
    }
    $("online-resign").textContent = t("online.resign.sure");
    resignArmed = setTimeout(() => {
      resignArmed = null;
      $("online-resign").textContent = t("online.resign");
    }, 3000);
  });
  // The claim's countdown and the clocks.
  setInterval(() => {
    const s = game.state();
    if (s && s.online) render(s);
  }, 1000);
}

// The bot the server offers while this player's challenge waits for a person.
let botOffer = null;

async function askBotOffer() {
  const s = game.state();
  const o = s && s.online;
  if (!o || !o.you || o.status !== "waiting") {
    botOffer = null;
  } else {
    const a = await link.request("online.botOffer", { id: o.id });
    botOffer = a.status === 200 ? JSON.parse(a.text).bot_offer || null : null;
  }
  if (s && s.online) render(s);
}

// The offer taken: the challenge is withdrawn and the bot invited with its settings.
async function playOfferedBot() {
  const s = game.state();
  if (!s || !s.online || !botOffer) return;
  const o = s.online;
  const invite = { tc: o.tc, rules: o.rules, color: o.you, invite: botOffer.username };
  if (o.rated) invite.rated = true;
  await act("abort");
  const a = await link.request("online.create", invite);
  if (a.status === 200 || a.status === 201) go(JSON.parse(a.text).id);
  else sayIn($("online-status"), () => answerText(a));
}

// The seconds left before the opponent's absence may be claimed, or null when it is
// not gone.
function claimIn(s) {
  const o = s.online;
  if (!o.goneSince || o.status !== "playing") return null;
  const wait = /d$/.test(o.tc) ? CLAIM_DAYS_S : CLAIM_LIVE_S;
  return Math.max(0, wait - Math.floor((Date.now() - o.goneSince) / 1000));
}

function presenceText(s) {
  const o = s.online;
  if (!o.you || o.status === "over") return "";
  const opponent = o.you === "red" ? "blue" : "red";
  if (!o.seated[opponent]) return "";
  const left = claimIn(s);
  if (left === null) return backAt !== null && Date.now() - backAt < 10000 ? t("online.back") : "";
  return left > 0 ? t("online.left", { s: left }) : t("online.leftClaim");
}

// When the opponent came back (local ms): "back" is said for ten seconds, only after
// it had been gone (the server says since when: not before it first came).
let wasGone = false;
let backAt = null;
let sawOpponent = false;

// The box of an online game, for the state `s`.
function render(s) {
  if (!s.online) return;
  const o = s.online;
  // The player's side at the bottom.
  if (flippedFor === null && o.you) {
    flippedFor = o.you;
    if (board.isFlipped() !== (o.you === "blue")) {
      board.setFlipped(o.you === "blue");
      game.redraw();
      return;
    }
  }
  const gone = !!o.goneSince && o.status === "playing";
  const opponent = o.you === "red" ? "blue" : "red";
  // Back after a leave; a first arrival is not a return.
  if (wasGone && !gone && sawOpponent) backAt = Date.now();
  if (o.presence[opponent]) sawOpponent = true;
  wasGone = gone;
  // Moves are typed only by a player whose game goes on.
  $("move-form").hidden = !(o.you && o.status !== "over");
  $("online-conn").hidden = o.connected;
  $("online-share").hidden = !(o.you && o.status === "waiting");
  $("online-play-url").value = o.playUrl;
  $("online-watch-url").value = o.watchUrl;
  $("online-watch-link").hidden = !o.watching;
  const note = o.note === "seats_taken" ? t("online.seatsTaken") : o.note === "noSeat" ? t("online.noSeat") : "";
  const presence = presenceText(s);
  const offer = o.drawOffer && o.status === "playing" ? t(o.drawOffer === o.you ? "online.drawOffered" : "online.drawOfferedToYou", { side: sideName(o.drawOffer) }) : "";
  const rematch = o.rematchOffer && !o.rematch ? t(o.rematchOffer === o.you ? "online.rematchOffered" : "online.rematchOfferedToYou") : "";
  $("online-status").textContent = [note, presence, offer, rematch].filter((x) => x).join(" ");
  const offered = !!botOffer && o.status === "waiting";
  $("online-bot-offer").hidden = !offered;
  if (offered) {
    const level = botOffer.level && botOffer.level !== "engine" ? " · " + t("online.bots.level", { level: botOffer.level }) : "";
    $("online-bot-offer-text").textContent = t("online.botOffer", { name: botOffer.username, rating: botOffer.rating + level });
  }
  $("online-status").hidden = !$("online-status").textContent;
  $("online-status").classList.toggle("alert", !!presence && claimIn(s) !== null);
  const playing = o.status === "playing" && !!o.you;
  const offeredToMe = playing && o.drawOffer && o.drawOffer !== o.you;
  $("online-offer-draw").hidden = !playing || !!o.drawOffer || o.plies < 2;
  $("online-accept-draw").hidden = !offeredToMe;
  $("online-decline-draw").hidden = !offeredToMe;
  $("online-abort").hidden = !(o.you && o.status !== "over" && o.plies < 2);
  $("online-resign").hidden = !playing || o.plies < 2;
  const canClaim = playing && claimIn(s) === 0;
  $("online-claim-win").hidden = !canClaim;
  $("online-claim-draw").hidden = !canClaim;
  // No rematch of a challenge no one took (withdrawn, declined by the bot, the bot
  // gone offline): there is no opponent to ask.
  $("online-rematch").hidden = !(o.you && o.seated[opponent] && o.status === "over" && !o.rematch && o.rematchOffer !== o.you);
  $("online-rematch").textContent = t(o.rematchOffer && o.rematchOffer !== o.you ? "online.rematch.accept" : "online.rematch");
  $("online-record").hidden = o.plies === 0;
  // The engine's review and analysis only once the game is over.
  $("review").disabled = $("review").disabled || o.status !== "over";
  $("analysis").disabled = o.status !== "over";
  const next = $("online-rematch-go");
  next.hidden = !o.rematch;
  if (o.rematch) next.href = (o.you ? "/play/" : "/watch/") + o.rematch;
  // Both players go to the rematch.
  if (o.rematch && o.you && !render.went) {
    render.went = true;
    setTimeout(() => {
      location.href = next.href;
    }, 1500);
  }
}

function setUp() {
  if (!available) return;
  if (inGame) setUpGame();
  else setUpHome();
}

// The words that change with the language (the time controls' names).
function onLanguage() {
  if (available && !inGame) fillTimeControls();
  const s = game.state();
  if (s && s.online) render(s);
}

export const online = { available, inGame, setUp, render, onLanguage };
