//! The bench: a fixed set of positions searched to a fixed depth with a fresh table.
//! With one thread the total node count is the engine's signature.

use crate::board::Position;
use crate::clock::Instant;
use crate::game::{Game, Rules};
use crate::nnue::{EvalKind, Network};
use crate::search::parameters::SearchParams;
use crate::search::search::SharedState;
use crate::search::{Engine, Limits};
use std::io::{self, Write};
use std::sync::Arc;

pub const DEFAULT_DEPTH: i32 = 13;
const POSITIONS: &str = include_str!("bench_positions.txt");

#[derive(Clone, Debug)]
pub struct Settings {
    pub depth: i32,
    pub threads: usize,
    pub hash_mb: usize,
    pub json: bool,
    pub rules: Rules,
    pub eval: EvalKind,
    /// The network for `EvalKind::Nnue`; `None`: the embedded one.
    pub network: Option<Arc<Network>>,
    /// The search's parameters (a tuned candidate's signature differs).
    pub params: SearchParams,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: DEFAULT_DEPTH,
            threads: 1,
            hash_mb: 16,
            json: false,
            rules: Rules::default(),
            eval: EvalKind::default(),
            network: None,
            params: SearchParams::DEFAULT,
        }
    }
}

/// The bench positions (comments and labels stripped), read under `rules`.
pub fn positions_with(rules: Rules) -> Vec<Position> {
    POSITIONS
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| match Position::from_fen_with(l, rules.moves) {
            Ok(p) => Some(p),
            Err(e) => {
                log::error!("bad bench position {l:?}: {e}");
                None
            }
        })
        .collect()
}

/// Runs the bench, printing per position and the final `<nodes> nodes <nps> nps`.
/// Returns the total node count.
pub fn run(settings: &Settings, out: &mut impl Write) -> io::Result<u64> {
    let mut engine = Engine::new(settings.hash_mb).map_err(|e| io::Error::other(e.to_string()))?;
    engine.options.threads = settings.threads.max(1);
    engine.options.report = false;
    engine.options.eval = settings.eval;
    engine.options.params = settings.params;
    if let Some(net) = &settings.network {
        engine.set_network(Arc::clone(net));
    }
    let limits = Limits::depth(settings.depth);
    let positions = positions_with(settings.rules);
    let start = Instant::now();
    let mut total = 0u64;
    let mut json_rows = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        engine.clear();
        let shared = SharedState::new(settings.threads.max(1));
        let game = Game::with_rules(*pos, settings.rules);
        let outcome = engine.search(&game, &limits, &shared, &|_| {});
        total += outcome.nodes;
        let best = outcome.best.map_or("0000".to_string(), |m| m.to_string());
        if settings.json {
            json_rows.push(format!(
                "{{\"fen\":\"{}\",\"nodes\":{},\"bestmove\":\"{}\"}}",
                pos.to_fen(),
                outcome.nodes,
                best
            ));
        } else {
            writeln!(
                out,
                "{}/{} {} nodes {} {}",
                i + 1,
                positions.len(),
                outcome.nodes,
                best,
                pos.to_fen()
            )?;
        }
    }
    let elapsed = start.elapsed();
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
    if settings.json {
        writeln!(
            out,
            "{{\"depth\":{},\"threads\":{},\"positions\":[{}],\"nodes\":{},\"nps\":{},\"time_ms\":{}}}",
            settings.depth,
            settings.threads,
            json_rows.join(","),
            total,
            nps,
            elapsed.as_millis()
        )?;
    } else {
        writeln!(out, "{total} nodes {nps} nps")?;
    }
    out.flush()?;
    Ok(total)
}

/// Runs the bench with the classical evaluation, then with the network, in one
/// process, and prints both summaries and the ratio of their speeds.
pub fn compare(settings: &Settings, out: &mut impl Write) -> io::Result<()> {
    let mut nps = [0.0f64; 2];
    for (i, eval) in [EvalKind::Classical, EvalKind::Nnue]
        .into_iter()
        .enumerate()
    {
        let one = Settings {
            eval,
            json: false,
            ..settings.clone()
        };
        let start = Instant::now();
        let nodes = run(&one, &mut io::sink())?;
        nps[i] = nodes as f64 / start.elapsed().as_secs_f64().max(1e-6);
        writeln!(out, "{}: {nodes} nodes {} nps", eval.name(), nps[i] as u64)?;
    }
    writeln!(out, "nnue/classical nps: {:.3}", nps[1] / nps[0].max(1.0))?;
    out.flush()
}
