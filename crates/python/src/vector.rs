//! `jungle.VectorEnv`: N games stepped in one call, in Rust, with the GIL released,
//! on numpy arrays. Self-play (each game's action is the move of its side to move),
//! or the agent against an opponent that answers inside the same call: the random
//! player, the greedy player or the engine at a strength level.

use crate::args;
use crate::board::PyBoard;
use crate::encoding::{self, NUM_ACTIONS, OBSERVATION_SIZE, PLANES};
use crate::rules::{parse_rules, start_position, RuleArgs};
use jungle_core::board::{Color, Move, MoveList, Position};
use jungle_core::game::{Game, GameResult, Rules};
use jungle_core::rng::{mix, Rng};
use jungle_core::search::greedy::{choose_among, greed, indifferent};
use jungle_core::search::search::SharedState;
use jungle_core::search::strength::{ELO_MAX, ELO_MIN};
use jungle_core::search::{Engine, Limits, SeedState};
use numpy::ndarray::{Array1, Array2, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray4, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Games per call below which stepping stays on one thread (spreading a few games
/// over threads costs more than it saves).
const PARALLEL_FROM: usize = 64;

/// The parts the games are cut into from `PARALLEL_FROM` games on: each is stepped
/// on one thread, in order, with its own engine when the opponent searches, so that
/// the moves do not depend on which thread steps which part.
const PARTS: usize = 8;

/// Most games one environment steps.
const MAX_ENVS: i64 = 1 << 20;

/// Nodes an engine opponent searches a move, unless told otherwise: as the strength
/// levels were measured (protocol.md).
const OPPONENT_NODES: u64 = 200_000;

/// Who answers the agent's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opponent {
    /// None: every move is an action (self-play).
    SelfPlay,
    /// Any legal move at random (`jungle greedy --random`).
    Random,
    /// The one-ply greedy player (`jungle greedy`), 1000 on the levels' scale.
    Greedy,
    /// The engine weakened to `elo` (full strength at `ELO_MAX`), `nodes` a move.
    Engine { elo: u32, nodes: u64 },
}

/// Which side the agent plays against an opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AgentColor {
    Red,
    Blue,
    /// Red in the even-numbered games, Blue in the odd ones.
    Both,
}

impl AgentColor {
    fn name(self) -> &'static str {
        match self {
            AgentColor::Red => "red",
            AgentColor::Blue => "blue",
            AgentColor::Both => "both",
        }
    }

    fn of_game(self, index: usize) -> Color {
        match self {
            AgentColor::Red => Color::Red,
            AgentColor::Blue => Color::Blue,
            AgentColor::Both if index % 2 == 0 => Color::Red,
            AgentColor::Both => Color::Blue,
        }
    }
}

/// What every game of an environment shares.
#[derive(Clone, Copy)]
struct Settings {
    start: Position,
    rules: Rules,
    max_plies: Option<usize>,
    /// Observations, masks and actions from the player's side (else Red's).
    side_to_move: bool,
    opponent: Opponent,
    agent: AgentColor,
}

/// One game with what stepping it needs.
#[derive(Clone)]
struct Slot {
    game: Game,
    /// The legal moves of its position (a game between steps is never over).
    legal: MoveList,
    /// The side the agent plays (against an opponent).
    agent: Color,
    /// The opponent's random choices in this game.
    rng: Rng,
    /// The seed of the game for an engine opponent (its level row).
    game_seed: u64,
}

/// What a step did to one game: its reward, whether it ended or was cut short, and
/// the observation it ended on.
struct Stepped {
    reward: f32,
    terminated: bool,
    truncated: bool,
    last: Option<Vec<f32>>,
}

/// Every game's observation, mask and player, built with the GIL released: each
/// game's part is written in one pass on the thread that builds it.
struct Seen {
    observations: Vec<f32>,
    masks: Vec<bool>,
    to_play: Vec<i8>,
}

type SeenArrays<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i8>>,
);

type StepArrays<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

/// What one part of the games is stepped with: its opponent engine (when the
/// opponent searches), created at the first need.
type Player = Option<Engine>;

impl Settings {
    fn fresh(&self) -> Game {
        Game::with_rules(self.start, self.rules)
    }

    /// Whether the observation of `slot` is seen from Blue's side.
    fn flipped(&self, slot: &Slot) -> bool {
        self.side_to_move && self.viewer(slot) == Color::Blue
    }

    /// The side an observation of `slot` is for: its side to move in self-play, else
    /// the agent.
    fn viewer(&self, slot: &Slot) -> Color {
        match self.opponent {
            Opponent::SelfPlay => slot.game.position().side_to_move(),
            _ => slot.agent,
        }
    }

    /// Starts `slot`'s game again; the opponent moves first when it is Red.
    fn restart(&self, slot: &mut Slot, player: &mut Player) {
        slot.game = self.fresh();
        slot.legal = slot.game.legal_moves();
        slot.game_seed = slot.rng.next_u64();
        if self.opponent != Opponent::SelfPlay && slot.agent == Color::Blue {
            self.answer(slot, player);
        }
    }

    /// The opponent's move in `slot` (whose game goes on); the legal moves after it.
    fn answer(&self, slot: &mut Slot, player: &mut Player) {
        let pos = slot.game.position();
        let m = match self.opponent {
            Opponent::SelfPlay => return,
            Opponent::Random => choose_among(pos, &slot.legal, &mut slot.rng, indifferent),
            Opponent::Greedy => choose_among(pos, &slot.legal, &mut slot.rng, greed),
            Opponent::Engine { elo, nodes } => {
                let engine = player.get_or_insert_with(|| opponent_engine(elo));
                engine.set_seed_state(SeedState {
                    stream: slot.rng.next_u64(),
                    game: slot.game_seed,
                });
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                engine
                    .search(&slot.game, &limits, &SharedState::new(1), &|_| {})
                    .best
            }
        };
        // The game goes on, so it has a legal move, and each player picks one of them.
        if let Some(m) = m.filter(|m| slot.legal.contains(*m)) {
            slot.game.play_legal(m);
            slot.legal = slot.game.legal_moves();
        }
    }

    /// Plays `m` (legal) in `slot` and the opponent's answer if any; starts the game
    /// again when it ended, keeping the observation it ended on.
    fn step(&self, slot: &mut Slot, m: Move, player: &mut Player) -> Stepped {
        let mover = slot.game.position().side_to_move();
        slot.game.play_legal(m);
        slot.legal = slot.game.legal_moves();
        let mut result = slot.game.result_with(&slot.legal);
        if result == GameResult::Ongoing && self.opponent != Opponent::SelfPlay {
            self.answer(slot, player);
            result = slot.game.result_with(&slot.legal);
        }
        let rewarded = match self.opponent {
            Opponent::SelfPlay => mover,
            _ => slot.agent,
        };
        let reward = match result {
            GameResult::Win { winner, .. } if winner == rewarded => 1.0,
            GameResult::Win { .. } => -1.0,
            _ => 0.0,
        };
        let terminated = result != GameResult::Ongoing;
        let truncated = !terminated
            && self
                .max_plies
                .is_some_and(|limit| slot.game.moves().len() >= limit);
        let mut last = None;
        if terminated || truncated {
            let mut final_observation = vec![0.0; OBSERVATION_SIZE];
            let shown: &[Move] = if terminated { &[] } else { &slot.legal };
            let flip = self.flipped(slot);
            encoding::write_observation(&slot.game, shown, final_observation.as_mut_slice(), flip);
            last = Some(final_observation);
            self.restart(slot, player);
        }
        Stepped {
            reward,
            terminated,
            truncated,
            last,
        }
    }
}

/// An engine for an opponent at `elo`: one thread, a small table, no tablebases, no
/// reports; its random choices are set before each search from the game's.
fn opponent_engine(elo: u32) -> Engine {
    // 1 MB cannot fail to allocate where the environment's arrays did not.
    let mut engine = Engine::new(1).unwrap_or_else(|_| std::process::abort());
    engine.options.report = false;
    engine.options.limit_elo = (elo < ELO_MAX).then_some(elo);
    engine
}

/// N games of Jungle stepped together: `VectorEnv(num_envs, rules="jungle", …,
/// fen=None, max_plies=None, seed=None, perspective="fixed", opponent=None,
/// agent_color="red", opponent_nodes=None)` (the rule settings as for `Board`;
/// `max_plies` truncates a game).
///
/// `reset()` and `step(actions)` return numpy arrays: `observations`
/// `float32[N, 32, 9, 7]` (`jungle.rl` has the planes), `masks` `bool[N, 252]`,
/// `rewards` `float32[N]`, `terminated` and `truncated` `bool[N]`, and `to_play`
/// `int8[N]` (0 Red, 1 Blue: whom the observation is for). A game that ends is
/// started again at once, so the observations after `step` are of the new game (and
/// `final_observations()` has the last of the old one).
///
/// Self-play (`opponent=None`): each action is the move of its game's side to move,
/// the reward is for the side that just moved (1 won, -1 lost, 0 otherwise). Against
/// an opponent (`"random"`, `"greedy"` or an Elo from `jungle.ELO_MIN`, the
/// beginner of level 1, to `jungle.ELO_MAX`, full strength, searching
/// `opponent_nodes` a move, 200,000 by default), each action is the agent's move and
/// the opponent answers in the same call; the agent plays `agent_color` (`"red"`,
/// `"blue"`, or `"both"`: Red in the even-numbered games), and the reward is the
/// agent's. `seed` seeds `random_actions` and the opponents' choices (each game its
/// own stream, so the moves do not depend on the threads); `perspective=
/// "side_to_move"` shows each game from the side of the player the observation is
/// for (`jungle.rl` says how), actions included. Copies and pickles keep the games.
#[pyclass(module = "jungle", name = "VectorEnv")]
pub struct PyVectorEnv {
    slots: Vec<Slot>,
    settings: Settings,
    /// The opponent engines, one per part of the games.
    players: Vec<Player>,
    /// The games that ended in the last step and their final observations.
    finals: Vec<(usize, Vec<f32>)>,
    /// Draws `random_actions`.
    rng: Rng,
}

impl PyVectorEnv {
    /// The observations, masks and players of `seen` as numpy arrays.
    fn arrays<'py>(&self, py: Python<'py>, seen: Seen) -> PyResult<SeenArrays<'py>> {
        let n = self.slots.len();
        let internal = |e: numpy::ndarray::ShapeError| PyRuntimeError::new_err(e.to_string());
        let obs = Array4::from_shape_vec((n, PLANES, 9, 7), seen.observations).map_err(internal)?;
        let masks = Array2::from_shape_vec((n, NUM_ACTIONS), seen.masks).map_err(internal)?;
        Ok((
            obs.into_pyarray(py),
            masks.into_pyarray(py),
            Array1::from_vec(seen.to_play).into_pyarray(py),
        ))
    }

    /// An environment of `n` games with these settings, its streams from `seed`
    /// (`None`: the clock); every game at its start.
    fn build(n: usize, settings: Settings, seed: Option<u64>) -> PyVectorEnv {
        let parts = part_count(n);
        let blank = Slot {
            game: settings.fresh(),
            legal: MoveList::new(),
            agent: Color::Red,
            rng: Rng::new(0),
            game_seed: 0,
        };
        let mut env = PyVectorEnv {
            slots: vec![blank; n],
            settings,
            players: (0..parts).map(|_| None).collect(),
            finals: Vec::new(),
            rng: Rng::new(0),
        };
        env.seed_streams(seed);
        for (i, slot) in env.slots.iter_mut().enumerate() {
            slot.agent = settings.agent.of_game(i);
        }
        env
    }

    /// Seeds `random_actions` and each game's stream from `seed` (`None`: the clock).
    fn seed_streams(&mut self, seed: Option<u64>) {
        let base = seed.unwrap_or_else(|| Rng::from_time().next_u64());
        self.rng = Rng::new(base);
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.rng = Rng::new(mix(base, i as u64, 1));
        }
    }

    /// Runs `work` on every game (with the engine of its part), on one thread below
    /// `PARALLEL_FROM` games, else the parts on all cores; returns what `work`
    /// returned, in the games' order, and every game's observation, mask and player
    /// after it.
    fn each<T: Send>(
        &mut self,
        work: impl Fn(usize, &mut Slot, &mut Player) -> T + Sync,
    ) -> (Vec<T>, Seen) {
        let (done, seen) = self.run(work, true);
        (
            done,
            seen.unwrap_or_else(|| unreachable!("`run` sees when asked")),
        )
    }

    /// `each` without the observations (as the constructor starts the games).
    fn each_unseen(&mut self, work: impl Fn(usize, &mut Slot, &mut Player) + Sync) {
        self.run(work, false);
    }

    /// `each`, the observations and masks written when `see`. Each game's are
    /// written in the same pass, right after its `work` (its game still in the
    /// cache), straight into the arrays returned: 8 kB a game written once, where
    /// zeroing the array first or copying into it would cost as much again.
    fn run<T: Send>(
        &mut self,
        work: impl Fn(usize, &mut Slot, &mut Player) -> T + Sync,
        see: bool,
    ) -> (Vec<T>, Option<Seen>) {
        let n = self.slots.len();
        let size = n.div_ceil(self.players.len());
        let settings = self.settings;
        // Each search of a step starts from clean tables: the moves depend on the
        // games alone (and a copy of the environment plays on as the original).
        for engine in self.players.iter_mut().flatten() {
            engine.forget();
        }
        let seen_games = if see { n } else { 0 };
        let mut observations: Vec<f32> = Vec::with_capacity(seen_games * OBSERVATION_SIZE);
        let mut masks: Vec<bool> = Vec::with_capacity(seen_games * NUM_ACTIONS);
        let observation_parts = parts_of(
            &mut observations.spare_capacity_mut()[..seen_games * OBSERVATION_SIZE],
            size * OBSERVATION_SIZE,
        );
        let mask_parts = parts_of(
            &mut masks.spare_capacity_mut()[..seen_games * NUM_ACTIONS],
            size * NUM_ACTIONS,
        );
        let part = |(k, (((slots, player), seen), mask)): (usize, PartOf<'_>)| {
            let mut outputs = seen
                .chunks_mut(OBSERVATION_SIZE)
                .zip(mask.chunks_mut(NUM_ACTIONS));
            let games = slots.iter_mut().enumerate();
            games
                .map(|(i, slot)| {
                    let done = work(k * size + i, slot, player);
                    if let Some((seen, mask)) = outputs.next() {
                        let flip = settings.flipped(slot);
                        encoding::write_observation(&slot.game, &slot.legal, seen, flip);
                        let (off, on) = (MaybeUninit::new(false), MaybeUninit::new(true));
                        encoding::write_mask(&slot.legal, mask, off, on, flip);
                    }
                    done
                })
                .collect::<Vec<T>>()
        };
        let parts = self
            .slots
            .chunks_mut(size)
            .zip(self.players.iter_mut())
            .zip(observation_parts)
            .zip(mask_parts);
        let done = if n >= PARALLEL_FROM {
            let parts: Vec<_> = parts.enumerate().collect();
            parts.into_par_iter().flat_map_iter(part).collect()
        } else {
            parts.enumerate().flat_map(part).collect()
        };
        if !see {
            return (done, None);
        }
        // SAFETY: the parts cover every game, and each game's observation and mask
        // were written whole (`write_observation` and `write_mask` write every value
        // of the part they are given: their first write fills it).
        unsafe {
            observations.set_len(n * OBSERVATION_SIZE);
            masks.set_len(n * NUM_ACTIONS);
        }
        let to_play = self
            .slots
            .iter()
            .map(|slot| settings.viewer(slot).index() as i8)
            .collect();
        let seen = Seen {
            observations,
            masks,
            to_play,
        };
        (done, Some(seen))
    }
}

/// `values` cut into parts of `size`, one for each part of the games (empty parts
/// when `values` is empty: the games' outputs are not written).
fn parts_of<T>(values: &mut [T], size: usize) -> impl Iterator<Item = &mut [T]> {
    let empty = values.is_empty();
    let parts = values.chunks_mut(size.max(1));
    parts.chain(std::iter::repeat_with(move || -> &mut [T] { &mut [] }).take_while(move |_| empty))
}

/// One part of the games as `each` steps it: its games, its engine, and where its
/// observations and masks go.
type PartOf<'a> = (
    ((&'a mut [Slot], &'a mut Player), &'a mut [MaybeUninit<f32>]),
    &'a mut [MaybeUninit<bool>],
);

/// The parts `n` games are cut into.
fn part_count(n: usize) -> usize {
    if n >= PARALLEL_FROM {
        PARTS
    } else {
        1
    }
}

/// The opponent of an `opponent` argument: `None`, `"random"`, `"greedy"`, or an Elo.
fn opponent_of(
    opponent: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Opponent> {
    let nodes = args::whole_opt(nodes, "opponent_nodes", 1, i64::MAX)?;
    let Some(opponent) = opponent.filter(|o| !o.is_none()) else {
        return match nodes {
            Some(_) => Err(PyValueError::new_err(
                "opponent_nodes needs an engine opponent (opponent=<an Elo>)",
            )),
            None => Ok(Opponent::SelfPlay),
        };
    };
    if let Ok(name) = opponent.cast::<PyString>() {
        let found = match name.to_cow()?.as_ref() {
            "random" => Opponent::Random,
            "greedy" => Opponent::Greedy,
            other => {
                return Err(PyValueError::new_err(format!(
                    "opponent must be None, 'random', 'greedy' or an Elo ({ELO_MIN} to {ELO_MAX}), not '{}'",
                    jungle_core::text::quote(other)
                )))
            }
        };
        if nodes.is_some() {
            return Err(PyValueError::new_err(
                "opponent_nodes needs an engine opponent (opponent=<an Elo>)",
            ));
        }
        return Ok(found);
    }
    let elo = args::whole_number(opponent, "opponent").map_err(|_| {
        PyTypeError::new_err(format!(
            "opponent must be None, 'random', 'greedy' or an Elo (int), not {}",
            args::type_name(opponent)
        ))
    })?;
    let elo = elo.within("opponent", ELO_MIN.into(), ELO_MAX.into())? as u32;
    Ok(Opponent::Engine {
        elo,
        nodes: nodes.map_or(OPPONENT_NODES, |n| n as u64),
    })
}

/// The agent's side of an `agent_color` argument (`None`: Red), which only an
/// environment with an opponent takes.
fn agent_color_of(color: Option<String>, opponent: Opponent) -> PyResult<AgentColor> {
    let agent = match color.as_deref() {
        None | Some("red") => AgentColor::Red,
        Some("blue") => AgentColor::Blue,
        Some("both") => AgentColor::Both,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "agent_color must be 'red', 'blue' or 'both', not '{}'",
                jungle_core::text::quote(other)
            )))
        }
    };
    if color.is_some() && opponent == Opponent::SelfPlay {
        return Err(PyValueError::new_err(
            "agent_color needs an opponent: in self-play every move is an action",
        ));
    }
    Ok(agent)
}

/// The `opponent` argument that gives `opponent` back.
fn opponent_arg(py: Python<'_>, opponent: Opponent) -> PyResult<(Py<PyAny>, Option<u64>)> {
    Ok(match opponent {
        Opponent::SelfPlay => (py.None(), None),
        Opponent::Random => ("random".into_pyobject(py)?.into_any().unbind(), None),
        Opponent::Greedy => ("greedy".into_pyobject(py)?.into_any().unbind(), None),
        Opponent::Engine { elo, nodes } => {
            (elo.into_pyobject(py)?.into_any().unbind(), Some(nodes))
        }
    })
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, *, rules=None, dog_swims=None, trapped_lose_attack=None,
        no_capture_plies=None, repetitions=None, anti_chase=None, fen=None, max_plies=None,
        seed=None, perspective=None, opponent=None, agent_color=None, opponent_nodes=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        dog_swims: Option<&Bound<'_, PyAny>>,
        trapped_lose_attack: Option<&Bound<'_, PyAny>>,
        no_capture_plies: Option<&Bound<'_, PyAny>>,
        repetitions: Option<&Bound<'_, PyAny>>,
        anti_chase: Option<&Bound<'_, PyAny>>,
        fen: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        perspective: Option<&Bound<'_, PyAny>>,
        opponent: Option<&Bound<'_, PyAny>>,
        agent_color: Option<&Bound<'_, PyAny>>,
        opponent_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyVectorEnv> {
        let side_to_move = args::perspective(perspective)?;
        let seed = seed.map(|s| args::seed(s, "seed")).transpose()?;
        let n = args::whole(num_envs, "num_envs", 1, MAX_ENVS)? as usize;
        let max_plies = args::whole_opt(max_plies, "max_plies", 1, i64::MAX)?.map(|m| m as usize);
        let opponent = opponent_of(opponent, opponent_nodes)?;
        let agent = agent_color_of(args::text_opt(agent_color, "agent_color")?, opponent)?;
        let rules = RuleArgs {
            rules,
            dog_swims,
            trapped_lose_attack,
            no_capture_plies,
            repetitions,
            anti_chase,
        }
        .resolve()?;
        let start = start_position(fen, &rules)?;
        let game = Game::with_rules(start, rules);
        if game.result() != GameResult::Ongoing {
            return Err(PyValueError::new_err(format!(
                "the start position is already over: {}",
                game.result()
            )));
        }
        let settings = Settings {
            start,
            rules,
            max_plies,
            side_to_move,
            opponent,
            agent,
        };
        let mut env = PyVectorEnv::build(n, settings, seed);
        // Every game at its start (the opponent's first move played).
        py.detach(|| env.each_unseen(|_, slot, player| settings.restart(slot, player)));
        Ok(env)
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// Starts the games again (all of them, or the games numbered in `indices`, a list
    /// or an integer array) and returns `(observations, masks)` of every game. `seed`
    /// (a whole number from 0) restarts the streams of `random_actions` and of the
    /// opponents' choices, as the constructor's does.
    #[pyo3(signature = (*, seed=None, indices=None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        indices: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<bool>>)> {
        let n = self.slots.len();
        let restart = match indices {
            None => vec![true; n],
            Some(list) => {
                let mut restart = vec![false; n];
                let indices = integers(py, list, "indices")?;
                for (k, &i) in indices.values.iter().enumerate() {
                    let game = usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
                        let shown = indices.shown(k);
                        PyIndexError::new_err(format!(
                            "indices: game {shown} does not exist (0 to {})",
                            n - 1
                        ))
                    })?;
                    restart[game] = true;
                }
                restart
            }
        };
        if let Some(seed) = seed {
            self.seed_streams(Some(args::seed(seed, "seed")?));
        }
        self.finals.clear();
        let settings = self.settings;
        let (_, seen) = py.detach(|| {
            self.each(|i, slot, player| {
                if restart[i] {
                    settings.restart(slot, player);
                }
            })
        });
        let (obs, masks, _) = self.arrays(py, seen)?;
        Ok((obs, masks))
    }

    /// Plays one action in every game (one integer per game: a list or an array of
    /// any integer type, each legal in its game, else `ValueError` and nothing moves),
    /// and the opponent's answers; returns `(observations, masks, rewards, terminated,
    /// truncated, to_play)`. A game that ends starts again at once: its observation
    /// is the new game's, and `final_observations()` has the one it ended on.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepArrays<'py>> {
        let given = integers(py, actions, "actions")?;
        let actions = &given.values;
        let n = self.slots.len();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "actions: step takes one action per game: {n}, not {}",
                actions.len()
            )));
        }
        let settings = self.settings;
        let moves = py
            .detach(|| moves_of(&self.slots, actions, &settings))
            .map_err(|(i, _)| {
                PyValueError::new_err(format!(
                    "actions: action {} of game {i} is not a legal move there (see the masks)",
                    given.shown(i)
                ))
            })?;
        let (stepped, seen) =
            py.detach(|| self.each(|i, slot, player| settings.step(slot, moves[i], player)));
        let mut rewards = Vec::with_capacity(n);
        let mut terminated = Vec::with_capacity(n);
        let mut truncated = Vec::with_capacity(n);
        self.finals.clear();
        for (i, s) in stepped.into_iter().enumerate() {
            rewards.push(s.reward);
            terminated.push(s.terminated);
            truncated.push(s.truncated);
            if let Some(last) = s.last {
                self.finals.push((i, last));
            }
        }
        let (obs, masks, to_play) = self.arrays(py, seen)?;
        Ok((
            obs,
            masks,
            Array1::from_vec(rewards).into_pyarray(py),
            Array1::from_vec(terminated).into_pyarray(py),
            Array1::from_vec(truncated).into_pyarray(py),
            to_play,
        ))
    }

    /// The games that ended (terminated or truncated) in the last `step`, and the
    /// observations they ended on, as Gymnasium's autoreset keeps them: `(indices
    /// int64[k], observations float32[k, 32, 9, 7])`.
    #[allow(clippy::type_complexity)]
    fn final_observations<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray4<f32>>)> {
        let indices: Vec<i64> = self.finals.iter().map(|(i, _)| *i as i64).collect();
        let data: Vec<f32> = self
            .finals
            .iter()
            .flat_map(|(_, o)| o.iter().copied())
            .collect();
        let obs = Array4::from_shape_vec((indices.len(), PLANES, 9, 7), data)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok((
            Array1::from_vec(indices).into_pyarray(py),
            obs.into_pyarray(py),
        ))
    }

    /// A legal action of each game, drawn uniformly by the environment's generator
    /// (`seed` of the constructor or of `reset`): `int64[N]`.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let rng = &mut self.rng;
        let settings = &self.settings;
        let actions: Vec<i64> = self
            .slots
            .iter()
            .map(|slot| {
                let m = slot.legal[rng.below(slot.legal.len())];
                encoding::action_in(m, settings.flipped(slot)) as i64
            })
            .collect();
        Array1::from_vec(actions).into_pyarray(py)
    }

    /// `"fixed"` (Red's view) or `"side_to_move"`.
    #[getter]
    fn perspective(&self) -> &'static str {
        args::perspective_name(self.settings.side_to_move)
    }

    /// The opponent: `None` (self-play), `"random"`, `"greedy"` or its Elo.
    #[getter]
    fn opponent(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(opponent_arg(py, self.settings.opponent)?.0)
    }

    /// The side the agent plays in each game (0 Red, 1 Blue): `int8[N]`; in
    /// self-play, the side to move.
    fn agent_colors<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let settings = &self.settings;
        let colors: Vec<i8> = self
            .slots
            .iter()
            .map(|s| settings.viewer(s).index() as i8)
            .collect();
        Array1::from_vec(colors).into_pyarray(py)
    }

    /// A copy of game `index` as a `Board`.
    fn board(&self, index: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let number = args::whole_number(index, "index")?;
        number
            .value
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.slots.get(i))
            .map(|s| PyBoard {
                game: s.game.clone(),
            })
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "game {} does not exist (0 to {})",
                    number.text,
                    self.slots.len() - 1
                ))
            })
    }

    /// Pickling and `copy.deepcopy` keep the settings, every game with its moves and
    /// the streams: the copy plays on as the original.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.borrow();
        let s = this.settings;
        let (opponent, nodes) = opponent_arg(py, s.opponent)?;
        let settings = (
            s.start.to_fen(),
            s.rules.to_string(),
            s.max_plies,
            args::perspective_name(s.side_to_move),
            opponent,
            nodes,
            s.agent.name(),
        );
        let games: Vec<(Vec<String>, u64, u64)> = this
            .slots
            .iter()
            .map(|slot| {
                let moves = slot.game.moves().iter().map(Move::to_string).collect();
                (moves, slot.rng.state(), slot.game_seed)
            })
            .collect();
        let args = (settings, games, this.rng.state()).into_pyobject(py)?;
        Ok((slf.get_type().getattr("_restore")?, args))
    }

    /// An environment from what `__reduce__` keeps.
    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _restore(
        py: Python<'_>,
        settings: (
            String,
            String,
            Option<usize>,
            String,
            Option<Bound<'_, PyAny>>,
            Option<u64>,
            String,
        ),
        games: Vec<(Vec<String>, u64, u64)>,
        rng: u64,
    ) -> PyResult<PyVectorEnv> {
        let (fen, rules, max_plies, perspective, opponent, nodes, agent) = settings;
        let rules = parse_rules(&rules)?;
        let start = Position::from_fen_with(&fen, rules.moves)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let nodes = nodes
            .map(|n| n.into_pyobject(py))
            .transpose()?
            .map(|n| n.into_any());
        let opponent = opponent_of(opponent.as_ref(), nodes.as_ref())?;
        let agent = Some(agent).filter(|_| opponent != Opponent::SelfPlay);
        let settings = Settings {
            start,
            rules,
            max_plies,
            side_to_move: args::perspective_named(&perspective)?,
            opponent,
            agent: agent_color_of(agent, opponent)?,
        };
        if games.is_empty() {
            return Err(PyValueError::new_err("a VectorEnv has games"));
        }
        let mut env = PyVectorEnv::build(games.len(), settings, Some(0));
        env.rng = Rng::new(rng);
        for (slot, (moves, stream, game_seed)) in env.slots.iter_mut().zip(games) {
            let mut game = settings.fresh();
            for text in moves {
                game.play_text(&text)
                    .map_err(|e| PyValueError::new_err(format!("a kept game: {e}")))?;
            }
            slot.legal = game.legal_moves();
            slot.game = game;
            slot.rng = Rng::new(stream);
            slot.game_seed = game_seed;
        }
        Ok(env)
    }
}

/// The move of each game's action, or a game (and its action) where the action is
/// not a legal move (the first such game).
fn moves_of(
    slots: &[Slot],
    actions: &[i64],
    settings: &Settings,
) -> Result<Vec<Move>, (usize, i64)> {
    let resolve = |(i, (slot, &a)): (usize, (&Slot, &i64))| {
        usize::try_from(a)
            .ok()
            .filter(|&a| a < NUM_ACTIONS)
            .and_then(|a| encoding::move_of(a, &slot.legal, settings.flipped(slot)))
            .ok_or((i, a))
    };
    // On one thread: finding a move among a game's legal ones is too little work to
    // share out (a pass over the threads cost more than it saved).
    slots.iter().zip(actions).enumerate().map(resolve).collect()
}

/// Whole numbers from Python, one per game: their values, and those too large for
/// 64 bits (place and text) so that an error can name them as given.
struct Integers {
    values: Vec<i64>,
    /// The first number that does not fit in an `i64`, if any (its place and text).
    too_big: Option<(usize, String)>,
}

impl Integers {
    /// Number `i` as given.
    fn shown(&self, i: usize) -> String {
        match &self.too_big {
            Some((j, text)) if *j == i => text.clone(),
            _ => self.values[i].to_string(),
        }
    }
}

/// One-dimensional integers from Python: a list or an array of any integer type (not
/// bools or floats), else `TypeError` naming `name`. A number of any size is taken
/// (a list's `2**70`, a `uint64`'s `2**64 - 1`): it is no action or game, which the
/// caller says with its value.
fn integers(py: Python<'_>, obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Integers> {
    let numpy = py.import("numpy")?;
    let wrong = |what: String| {
        PyTypeError::new_err(format!(
            "{name} must be a list or a 1-d array of integers, not {what}"
        ))
    };
    let array = numpy
        .call_method1("asarray", (obj,))
        .map_err(|_| wrong(args::type_name(obj)))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    let size: usize = array.getattr("size")?.extract()?;
    let dtype_name = dtype.str()?.to_string();
    let not_integers = || wrong(format!("{} of {dtype_name}", args::type_name(obj)));
    if ndim != 1 {
        return Err(not_integers());
    }
    if kind == "O" {
        // Python ints beyond 64 bits make an array of objects.
        let mut values = Vec::with_capacity(size);
        let mut too_big = None;
        for (i, item) in array.try_iter()?.enumerate() {
            let number = args::whole_number(&item?, name).map_err(|_| not_integers())?;
            match number.value {
                Some(v) => values.push(v),
                None => {
                    too_big.get_or_insert((i, number.text));
                    values.push(-1);
                }
            }
        }
        return Ok(Integers { values, too_big });
    }
    // An empty list reads as floats.
    if !(kind == "i" || kind == "u" || size == 0) {
        return Err(not_integers());
    }
    let mut too_big = None;
    if kind == "u" {
        let limit = numpy.call_method1("uint64", (i64::MAX as u64,))?;
        let over = numpy.call_method1("flatnonzero", (array.call_method1("__gt__", (limit,))?,))?;
        if over.len()? > 0 {
            let i: usize = over.get_item(0)?.extract()?;
            let text = array.get_item(i)?.str()?.to_string();
            too_big = Some((i, text));
        }
    }
    let array = array.call_method1("astype", ("int64",))?;
    let array: PyReadonlyArray1<'_, i64> = array.extract()?;
    let mut values = array.as_array().to_vec();
    if let Some((i, _)) = too_big {
        values[i] = -1;
    }
    Ok(Integers { values, too_big })
}
