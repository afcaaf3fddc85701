//! `jungle match` and `jungle replay`.

use crate::board::Position;
use crate::common::args::{LineWriter, RulesArgs};
use crate::common::engine_process::EngineSpec;
use crate::common::shard::Shard;
use crate::game::Rules;
use crate::matches::match_runner::{self, Adjudication, TimeControl};
use crate::matches::merge;
use crate::matches::stats::Sprt;
use crate::protocol::options::rule_settings;
use crate::record;
use std::io;

#[derive(clap::Args, Debug)]
pub(crate) struct MatchArgs {
    /// An engine: "cmd=PATH name=NAME [arg=A]… [proto=uci|jcei] [tc=TC, e.g. 10s+0.1s]
    /// [option.NAME=VALUE]…" (underscores in option names stand for spaces; tc= gives
    /// this engine its own clock, for time odds). Give exactly two.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Number of games (pairs of games per opening, colours swapped).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Clock per game, with its units: 10s+0.1s (10 seconds, 0.1 s a move), 5m+3s.
    #[arg(long, group = "limit")]
    tc: Option<String>,
    /// Fixed time per move in ms.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// With --movetime: an answer later than movetime + this many ms loses on time
    /// (without it, only an engine silent for 5 s past the movetime loses, as hung).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    timemargin: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..=124))]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Openings file (one position string per line); default: the start position.
    #[arg(long)]
    openings: Option<String>,
    /// Write the games to this record file.
    #[arg(long)]
    pgn: Option<String>,
    /// Sequential test: elo0=E0 elo1=E1 alpha=A beta=B; stops when decided.
    #[arg(long, num_args = 1..=4)]
    sprt: Vec<String>,
    /// Draw adjudication: movenumber=M movecount=N score=S.
    #[arg(long, num_args = 1..=3)]
    draw: Vec<String>,
    /// Resign adjudication: movecount=N score=S.
    #[arg(long, num_args = 1..=2)]
    resign: Vec<String>,
    /// Adjudicate a draw after this many moves.
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Play part K of N of the game pairs (K from 1), numbered as in the whole match;
    /// `jungle replay` merges the N record files.
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    shard: Shard,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The record files.
    files: Vec<String>,
    /// Sequential test on all the pairs: elo0=E0 elo1=E1 alpha=A beta=B (the words
    /// after these that are not key=value are files).
    #[arg(long, num_args = 1..=4)]
    sprt: Vec<String>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `jungle match`; returns the exit code.
pub(crate) fn run_match(args: MatchArgs) -> i32 {
    match build_match(&args) {
        Ok(settings) => {
            let stdout = io::stdout();
            let mut out = LineWriter(stdout);
            match match_runner::run(&settings, &mut out) {
                Ok(_) => 0,
                Err(e) => {
                    eprintln!("error: match failed: {e}");
                    1
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Runs `jungle replay`; returns the exit code.
pub(crate) fn run_replay(args: ReplayArgs) -> i32 {
    let ReplayArgs { files, sprt, rules } = args;
    let rules = rules.rules();
    // `--sprt` takes up to four words: those of them that are not key=value are the
    // first files (`replay --sprt elo0=0 elo1=10 *.pgn`).
    let (sprt, mut paths): (Vec<String>, Vec<String>) =
        sprt.iter().cloned().partition(|w| w.contains('='));
    paths.extend(files.iter().cloned());
    if paths.is_empty() {
        eprintln!("error: give at least one record file");
        return 2;
    }
    let sprt = match parse_sprt(&sprt) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut games = Vec::new();
    for path in &paths {
        let read = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", crate::text::quote(path)))
            .and_then(|text| {
                record::read_records(&text, rules)
                    .map_err(|e| format!("{}: {e}", crate::text::quote(path)))
            });
        match read {
            Ok(g) => games.extend(g),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    let mut bad = 0;
    for (i, g) in games.iter().enumerate() {
        let tag = |k: &str| {
            g.tags
                .iter()
                .find(|(t, _)| t == k)
                .map_or("?", |(_, v)| v.as_str())
        };
        let number = g
            .tags
            .iter()
            .find(|(t, _)| t == "Game")
            .map_or((i + 1).to_string(), |(_, v)| v.clone());
        match record::replay(g) {
            Ok(game) => println!(
                "Game {number} ({} vs {}): {} moves, recorded {} {{{}}}, final position {} [{}]",
                tag("Red"),
                tag("Blue"),
                g.moves.len(),
                g.result.map_or("", |r| r.as_str()),
                tag("Termination"),
                game.position().to_fen(),
                game.result()
            ),
            Err(e) => {
                bad += 1;
                println!("Game {number}: cannot be replayed: {e}");
            }
        }
    }
    let mut merged = match merge::merge(&games) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: cannot count the games: {e}");
            return 2;
        }
    };
    merged.tally.judge(sprt.as_ref());
    let mut out = LineWriter(io::stdout());
    if let Err(e) = match_runner::summary(&mut out, &merged.tally, &merged.names, sprt.as_ref()) {
        eprintln!("error: cannot write output: {e}");
        return 1;
    }
    i32::from(bad > 0)
}

/// `key=value` pairs of an option list, checked against the allowed keys.
fn key_values(
    items: &[String],
    what: &str,
    allowed: &[&str],
) -> Result<Vec<(String, f64)>, String> {
    items
        .iter()
        .flat_map(|s| s.split_whitespace())
        .map(|kv| {
            let (k, v) = kv.split_once('=').ok_or_else(|| {
                format!("--{what}: '{}' is not key=value", crate::text::quote(kv))
            })?;
            if !allowed.contains(&k) {
                return Err(format!(
                    "--{what}: unknown key '{}' (allowed: {})",
                    crate::text::quote(k),
                    allowed.join(", ")
                ));
            }
            let v: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("--{what}: '{}' is not a number", crate::text::quote(v)))?;
            Ok((k.to_string(), v))
        })
        .collect()
}

fn get(kvs: &[(String, f64)], key: &str, what: &str) -> Result<f64, String> {
    kvs.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("--{what}: {key}= is missing"))
}

/// The SPRT of `--sprt` values, if any.
fn parse_sprt(items: &[String]) -> Result<Option<Sprt>, String> {
    if items.is_empty() {
        return Ok(None);
    }
    let kv = key_values(items, "sprt", &["elo0", "elo1", "alpha", "beta"])?;
    Ok(Some(Sprt::new(
        get(&kv, "elo0", "sprt")?,
        get(&kv, "elo1", "sprt")?,
        get(&kv, "alpha", "sprt").unwrap_or(0.05),
        get(&kv, "beta", "sprt").unwrap_or(0.05),
    )?))
}

/// An engine's text without its `tc=` setting, and that clock (time odds: the engine
/// plays on it instead of `--tc`'s).
fn engine_clock(text: &str) -> Result<(String, Option<TimeControl>), String> {
    let mut clock = None;
    let mut rest = Vec::new();
    for token in text.split_whitespace() {
        match token.strip_prefix("tc=") {
            Some(_) if clock.is_some() => return Err("an engine has two tc= settings".into()),
            Some(value) => {
                clock = Some(TimeControl::parse_clock(value).map_err(|e| format!("tc= {e}"))?)
            }
            None => rest.push(token),
        }
    }
    Ok((rest.join(" "), clock))
}

/// Each engine's limit: the match's (`--tc`, `--movetime`, `--depth`, `--nodes`), or
/// the engine's own clock (`tc=`), which needs a clock match or no limit at all.
fn engine_limits(
    tc: Option<TimeControl>,
    clocks: [Option<TimeControl>; 2],
) -> Result<[TimeControl; 2], String> {
    let on_clock = matches!(tc, None | Some(TimeControl::Clock { .. }));
    if !on_clock && clocks.iter().any(Option::is_some) {
        return Err(
            "an engine's tc= sets its clock: use it with --tc (or alone), not with --movetime, --depth or --nodes".into(),
        );
    }
    match (clocks, tc) {
        ([Some(a), Some(b)], _) => Ok([a, b]),
        ([a, b], Some(tc)) => Ok([a.unwrap_or(tc), b.unwrap_or(tc)]),
        ([Some(_), None] | [None, Some(_)], None) => {
            Err("one engine has tc= but the other has no clock: give --tc".into())
        }
        ([None, None], None) => Err("give one of --tc, --movetime, --depth, --nodes".into()),
    }
}

/// Checks every match argument before any game starts.
fn build_match(a: &MatchArgs) -> Result<match_runner::MatchSettings, String> {
    let rules = a.rules.rules();
    if a.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine, got {}",
            a.engines.len()
        ));
    }
    let (text0, clock0) = engine_clock(&a.engines[0])?;
    let (text1, clock1) = engine_clock(&a.engines[1])?;
    let mut e0 = EngineSpec::parse(&text0)?;
    let mut e1 = EngineSpec::parse(&text1)?;
    // Engines are told the rules the referee enforces (nothing is sent for the
    // default rules, so engines without these options work).
    if rules != Rules::default() {
        for e in [&mut e0, &mut e1] {
            e.options.splice(0..0, rule_settings(rules));
        }
    }
    if e0.name == e1.name {
        e1.name.push_str("-2");
    }
    let tc = match (&a.tc, a.movetime, a.depth, a.nodes) {
        (Some(tc), ..) => Some(TimeControl::parse_clock(tc).map_err(|e| format!("--tc {e}"))?),
        (_, Some(ms), ..) => Some(TimeControl::MoveTime(ms)),
        (_, _, Some(d), _) => Some(TimeControl::Depth(d)),
        (_, _, _, Some(n)) => Some(TimeControl::Nodes(n)),
        _ => None,
    };
    let tc = engine_limits(tc, [clock0, clock1])?;
    if a.timemargin.is_some() && a.movetime.is_none() {
        return Err("--timemargin applies to --movetime only".into());
    }
    let openings = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                format!(
                    "cannot read openings file {}: {e}",
                    crate::text::quote(path)
                )
            })?;
            record::read_openings(&text, rules)?
        }
        None => vec![Position::startpos()],
    };
    let sprt = parse_sprt(&a.sprt)?;
    if sprt.is_some() && a.shard != Shard::WHOLE {
        return Err(
            "--sprt stops a match early, so the shards would not add up to the match: give --sprt to `jungle replay` over the shards' record files instead".into(),
        );
    }
    let mut adjudication = Adjudication {
        max_moves: a.maxmoves,
        ..Adjudication::default()
    };
    if !a.draw.is_empty() {
        let kv = key_values(&a.draw, "draw", &["movenumber", "movecount", "score"])?;
        adjudication.draw = Some((
            get(&kv, "movenumber", "draw")? as u32,
            get(&kv, "movecount", "draw")? as u32,
            get(&kv, "score", "draw")? as i32,
        ));
    }
    if !a.resign.is_empty() {
        let kv = key_values(&a.resign, "resign", &["movecount", "score"])?;
        adjudication.resign = Some((
            get(&kv, "movecount", "resign")? as u32,
            get(&kv, "score", "resign")? as i32,
        ));
    }
    if let Some(path) = &a.pgn {
        std::fs::File::create(path)
            .map_err(|e| format!("cannot write record file {}: {e}", crate::text::quote(path)))?;
    }
    // Start each engine once now: a missing or broken binary is an error before any game.
    e0.check()?;
    e1.check()?;
    Ok(match_runner::MatchSettings {
        engines: [e0, e1],
        games: a.games,
        tc,
        concurrency: a.concurrency as usize,
        openings,
        pgn: a.pgn.clone(),
        sprt,
        adjudication,
        rules,
        time_margin_ms: a.timemargin,
        shard: a.shard,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEN: TimeControl = TimeControl::Clock {
        base_ms: 10_000,
        inc_ms: 100,
    };
    const HALF: TimeControl = TimeControl::Clock {
        base_ms: 500,
        inc_ms: 5,
    };

    #[test]
    fn an_engines_clock_is_taken_out_of_its_settings() {
        let (text, clock) = engine_clock("cmd=./a tc=0.5s+0.005s name=A").expect("valid");
        assert_eq!(text, "cmd=./a name=A");
        assert_eq!(clock, Some(HALF));
        assert_eq!(
            engine_clock("cmd=./a name=A").expect("valid"),
            ("cmd=./a name=A".to_string(), None)
        );
        let err = engine_clock("cmd=./a tc=soon").expect_err("bad clock");
        assert!(err.contains("is not a time control"), "{err}");
        let err = engine_clock("cmd=./a tc=0.5+0.005").expect_err("no units");
        assert!(err.contains("does not say its units"), "{err}");
        let err = engine_clock("cmd=./a tc=1s tc=2s").expect_err("two clocks");
        assert!(err.contains("two tc="), "{err}");
    }

    #[test]
    fn time_odds_need_clocks_on_both_sides() {
        assert_eq!(engine_limits(Some(TEN), [None, None]), Ok([TEN, TEN]));
        assert_eq!(
            engine_limits(Some(TEN), [None, Some(HALF)]),
            Ok([TEN, HALF])
        );
        assert_eq!(
            engine_limits(None, [Some(HALF), Some(TEN)]),
            Ok([HALF, TEN])
        );
        assert_eq!(
            engine_limits(Some(TimeControl::Nodes(5)), [None, None]),
            Ok([TimeControl::Nodes(5); 2])
        );
        let err = engine_limits(None, [Some(HALF), None]).expect_err("one clock");
        assert!(err.contains("give --tc"), "{err}");
        let err = engine_limits(Some(TimeControl::Depth(3)), [Some(HALF), None])
            .expect_err("clock with depth");
        assert!(
            err.contains("not with --movetime, --depth or --nodes"),
            "{err}"
        );
        let err = engine_limits(None, [None, None]).expect_err("no limit");
        assert!(err.contains("give one of"), "{err}");
    }
}
