//! A monkey on the board, on both back ends (`jungle gui` with the real engine, and the
//! static site with the engine in a worker): seeded random taps on squares (legal
//! moves among them), clicks on buttons, menus and checkboxes, keys, text in the boxes, confirmations answered at random, and
//! requests to the back end with good and junk bodies. Every few steps it checks that
//! the page has had no script error and that the state it shows is legal (the line's
//! moves replay from its start under its rules, to the position shown); at the end
//! that nothing is stuck (a new game is taken and the engine answers a move).
//!
//! Bounded for CI (`JUNGLE_MONKEY_STEPS`, 120 per back end; `JUNGLE_MONKEY_SEED`);
//! minutes long as a documented command (docs/testing.md, "The browser tests"):
//! `JUNGLE_MONKEY_STEPS=3000 cargo test --release --test board_monkey -- --nocapture`.

mod browser_common;
mod gui_common;

use browser_common::files::{built_site, FileServer};
use browser_common::{shot, Browser};
use fantoccini::Client;
use gui_common::{jungle, Gui};
use jungle::board::rules::MoveRuleFlags;
use jungle::board::{Move, Position};
use jungle::game::{Game, Rules, Variant};
use std::time::{Duration, Instant};

/// Steps between two checks of the state.
const CHUNK: u64 = 20;

fn settings() -> (u64, u64) {
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    (
        number("JUNGLE_MONKEY_SEED", 20261203),
        number("JUNGLE_MONKEY_STEPS", 120),
    )
}

/// The monkey, in the page: `window.jungleMonkey(steps)` does `steps` random things,
/// waiting a little after each, and resolves with what it did. Its generator
/// (SplitMix64 on BigInt, as the core's) is seeded once.
const MONKEY: &str = r##"
const seed = arguments[0];
let state = BigInt(seed);
const M = (1n << 64n) - 1n;
function next() {
  state = (state + 0x9E3779B97F4A7C15n) & M;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M;
  return z ^ (z >> 31n);
}
const below = (n) => Number(next() % BigInt(Math.max(1, n)));
const pick = (xs) => xs[below(xs.length)];
window.confirm = () => below(2) === 0;
window.alert = () => {};
window.prompt = () => null;
const visible = (e) => e.offsetParent !== null || e.getClientRects().length > 0;
const ACTIONS = ["move", "undo", "redo", "goto", "new", "settings", "hint", "movenow",
  "analysis", "watch", "review", "state", "judge", "nonsense"];
const BODIES = [{}, { move: "a3a4" }, { move: "zz" }, { ply: 0 }, { ply: 3 }, { ply: -1 },
  { players: "red" }, { players: "blue" }, { players: "both" }, { players: "engines" },
  { level: 1 }, { level: 99 }, { on: true }, { on: false }, { run: true }, { run: false },
  { on: true, multipv: 3 }, { fen: "6l/7/1t5/7/7/7/W5R/7/7 r", players: "both" },
  { rules: { variant: "jungle-cn", dogSwims: true, trappedLoseAttack: false } },
  { do: "lesson", id: "rat", task: 1 }, { do: "lesson", id: "chase", task: 0 }, { do: "reply" },
  { do: "hint" }, { do: "solution" }, { do: "again" }, { do: "leave" }, { do: "puzzle", id: "x" },
  "junk", null];
const TEXTS = ["a3a4", "g3g4", "zz", "", "a1a9", "6l/7/1t5/7/7/7/W5R/7/7 r", "🐘"];
const KEYS = ["ArrowLeft", "ArrowRight", "Home", "End", "Escape", "Enter", "h", "u", "f", " "];
// A tap as the board takes it: pointer down and up at the square's centre (the board
// finds the square under the point, so what covers it takes the tap instead).
function tap(cell) {
  cell.scrollIntoView({ block: "center" });
  const r = cell.getBoundingClientRect();
  const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true };
  cell.dispatchEvent(new PointerEvent("pointerdown", at));
  cell.dispatchEvent(new PointerEvent("pointerup", at));
}
// A legal move of the person to move, as a click on the piece and one on its target
// (the page's own way), so that games grow long.
async function legalMove() {
  const answer = await Jungle.link.backend.request("state", null);
  let view;
  try { view = JSON.parse(answer.text); } catch (e) { return "no state"; }
  const froms = Object.keys(view.legal || {});
  const from = pick(froms);
  if (!from) return "no legal move";
  const to = pick(view.legal[from]).to;
  const cell = (sq) => document.querySelector(`#board .cell[data-sq="${sq}"]`);
  if (!cell(from) || !cell(to)) return "no cells";
  tap(cell(from));
  await new Promise((r) => setTimeout(r, 10));
  tap(cell(to));
  return "play " + from + to;
}
async function act() {
  const roll = below(100);
  if (roll < 30) return legalMove();
  if (roll < 45) {
    const cells = [...document.querySelectorAll("#board .cell")];
    const cell = pick(cells);
    if (cell) { tap(cell); return "tap " + cell.dataset.sq; }
    return "no cells";
  }
  if (roll < 70) {
    const controls = [...document.querySelectorAll("button, select, input[type=checkbox], summary")]
      .filter((e) => visible(e) && !e.disabled);
    const c = pick(controls);
    if (!c) return "no controls";
    const name = c.id || c.textContent.trim().slice(0, 20);
    if (c.tagName === "SELECT") {
      const options = [...c.options].filter((o) => !o.disabled);
      const o = pick(options);
      if (o) { c.value = o.value; c.dispatchEvent(new Event("change", { bubbles: true })); }
      return "select " + name + " " + (o && o.value);
    }
    c.click();
    return "click " + name;
  }
  if (roll < 80) {
    const key = pick(KEYS);
    const target = document.activeElement || document.body;
    target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    return "key " + key;
  }
  if (roll < 88) {
    const boxes = [...document.querySelectorAll("input[type=text], input:not([type]), textarea")]
      .filter((e) => visible(e) && !e.disabled);
    const box = pick(boxes);
    if (!box) return "no boxes";
    box.value = pick(TEXTS);
    box.dispatchEvent(new Event("input", { bubbles: true }));
    if (box.form && below(2) === 0) box.form.requestSubmit();
    return "type " + (box.id || "box") + " " + box.value;
  }
  const action = pick(ACTIONS);
  const body = pick(BODIES);
  Jungle.link.backend.request(action, body === "junk" ? "{" : body);
  return "request " + action + " " + JSON.stringify(body);
}
window.jungleMonkey = async (steps) => {
  const done = [];
  for (let i = 0; i < steps; i++) {
    try { done.push(await act()); } catch (e) { window.jungleErrors.push("monkey: " + e); }
    await new Promise((r) => setTimeout(r, 20 + below(60)));
  }
  return done;
};
"##;

/// Runs the monkey on the page at `url`, checking as it goes.
async fn monkey(client: &Client, url: &str, name: &str) {
    let (seed, steps) = settings();
    client.goto(url).await.expect("page loads");
    browser_common::board_ready(client).await;
    client
        .execute(MONKEY, vec![serde_json::json!(seed)])
        .await
        .expect("the monkey is set");
    let started = Instant::now();
    let mut done = 0;
    let mut log: Vec<String> = Vec::new();
    let mut longest = 0;
    while done < steps {
        let n = CHUNK.min(steps - done);
        let did = client
            .execute_async(
                "const [n, back] = arguments; window.jungleMonkey(n).then(back, (e) => back(['failed: ' + e]));",
                vec![serde_json::json!(n)],
            )
            .await
            .expect("the monkey runs");
        let did: Vec<String> = serde_json::from_value(did).unwrap_or_default();
        log.extend(did);
        done += n;
        let errors =
            browser_common::eval::<Vec<String>>(client, "return window.jungleErrors").await;
        assert!(
            errors.is_empty(),
            "{name}: script errors {errors:?} after: {:?}",
            &log[log.len().saturating_sub(10)..]
        );
        longest = longest.max(check_state(client, name, &log).await);
    }
    if std::env::var_os("JUNGLE_MONKEY_LOG").is_some() {
        eprintln!("{name}: {log:#?}");
    }
    shot(client, &format!("monkey-{name}")).await;
    not_stuck(client, name).await;
    eprintln!(
        "{name}: {steps} steps (seed {seed}) in {:.1} s, no script error, every state legal, \
         lines up to {longest} plies",
        started.elapsed().as_secs_f64()
    );
}

/// The back end's state, as the page reads it.
async fn state(client: &Client) -> serde_json::Value {
    let answer = client
        .execute_async(
            "const back = arguments[0]; Jungle.link.backend.request('state', null).then((a) => back(a), (e) => back({ status: 0, text: String(e) }));",
            vec![],
        )
        .await
        .expect("state request");
    let text = answer["text"].as_str().unwrap_or("");
    serde_json::from_str(text).unwrap_or_else(|_| panic!("state answer {answer}"))
}

/// The state shown is legal: its moves replay from its start under its rules, and the
/// position after `ply` of them is the one shown. Answers the line's length.
async fn check_state(client: &Client, name: &str, log: &[String]) -> usize {
    let s = state(client).await;
    let last = &log[log.len().saturating_sub(10)..];
    let variant = s["variant"].as_str().unwrap_or("");
    let Some(variant) = Variant::from_name(variant) else {
        panic!("{name}: unknown variant in {s} after {last:?}");
    };
    let rules = Rules {
        moves: MoveRuleFlags {
            dog_swims: s["dogSwims"].as_bool().unwrap_or(false),
            trapped_lose_attack: s["trappedLoseAttack"].as_bool().unwrap_or(false),
        },
        ..variant.rules()
    };
    // Under the line's rules: with DogSwims a start may have a dog in the water.
    let start = Position::from_fen_with(s["startFen"].as_str().unwrap_or(""), rules.moves)
        .unwrap_or_else(|e| panic!("{name}: start {e} after {last:?}"));
    let mut game = Game::with_rules(start, rules);
    let ply = s["ply"].as_u64().unwrap_or(0) as usize;
    let moves: Vec<String> = serde_json::from_value(s["moves"].clone()).unwrap_or_default();
    let mut shown = None;
    for (i, text) in moves.iter().enumerate() {
        if i == ply {
            shown = Some(game.position().to_fen());
        }
        let m: Move = text
            .parse()
            .unwrap_or_else(|e| panic!("{name}: move {text}: {e:?} after {last:?}"));
        game.play(m).unwrap_or_else(|e| {
            panic!("{name}: move {} {text} refused: {e} after {last:?}", i + 1)
        });
    }
    let shown = shown.unwrap_or_else(|| game.position().to_fen());
    assert_eq!(
        s["fen"].as_str(),
        Some(shown.as_str()),
        "{name}: the position shown is not the line's at ply {ply}, after {last:?}"
    );
    moves.len()
}

/// Nothing is stuck: dialogs close, a new game for a person against the engine is
/// taken, and the engine answers a move.
async fn not_stuck(client: &Client, name: &str) {
    client
        .execute(
            "for (const d of document.querySelectorAll('dialog[open]')) d.close(); \
             Jungle.link.backend.request('new', { players: 'red' });",
            vec![],
        )
        .await
        .expect("closes and starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut moved = false;
    loop {
        let s = state(client).await;
        let moves = s["moves"].as_array().map_or(0, Vec::len);
        if !moved && moves == 0 && s["sideToMove"] == "red" {
            client
                .execute(
                    "Jungle.link.backend.request('move', { move: 'a3a4' });",
                    vec![],
                )
                .await
                .expect("moves");
            moved = true;
        }
        if moved && moves >= 2 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{name}: stuck: no engine answer within 30 s; state {s}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_monkey_on_the_server_board() {
    let Some(browser) = Browser::open().await else {
        return;
    };
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
        "--movetime",
        "100",
    ]);
    monkey(&browser.client, &gui.url(), "server").await;
    browser.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_monkey_on_the_static_site() {
    let Some(site) = built_site() else {
        return;
    };
    let Some(browser) = Browser::open().await else {
        return;
    };
    let server = FileServer::start(site);
    monkey(&browser.client, &server.url(), "site").await;
    browser.close().await;
}
