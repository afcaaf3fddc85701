//! `jungle.VectorEnv`: N games stepped in one call, in Rust, with the GIL released,
//! on numpy arrays. Self-play: each game's action is the move of its side to move.

use crate::args;
use crate::board::PyBoard;
use crate::encoding::{self, NUM_ACTIONS, OBSERVATION_SIZE, PLANES};
use crate::rules::{start_position, RuleArgs};
use jungle_core::board::{Color, Move, Position};
use jungle_core::game::{Game, GameResult, Rules};
use jungle_core::rng::Rng;
use numpy::ndarray::{Array1, Array2, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray4, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Games per call below which stepping stays on one thread (spreading a few games
/// over threads costs more than it saves).
const PARALLEL_FROM: usize = 64;

/// Most games one environment steps.
const MAX_ENVS: i64 = 1 << 20;

/// What `reset` and `step` return, built with the GIL released.
struct Batch {
    observations: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    to_play: Vec<i8>,
}

impl Batch {
    fn new(n: usize) -> Batch {
        Batch {
            observations: vec![0.0; n * OBSERVATION_SIZE],
            masks: vec![false; n * NUM_ACTIONS],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            to_play: vec![0; n],
        }
    }
}

type StepArrays<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

/// N games of Jungle stepped together: `VectorEnv(num_envs, rules="jungle", …,
/// max_plies=None)` (the rule settings as for `Board`; `max_plies` truncates a game).
///
/// `reset()` and `step(actions)` return numpy arrays: `observations`
/// `float32[N, 23, 9, 7]`, `masks` `bool[N, 252]`, `rewards` `float32[N]` (for the
/// side that just moved: 1 won, -1 lost, 0 otherwise), `terminated` and `truncated`
/// `bool[N]`, and `to_play` `int8[N]` (0 Red, 1 Blue to move). A game that ends is
/// started again at once, so the observations after `step` are of the new game (and
/// `final_observations()` has the last of the old one). `seed` seeds
/// `random_actions`; `perspective="side_to_move"` shows each game from its mover's
/// side (`jungle.rl` says how), actions included.
#[pyclass(module = "jungle", name = "VectorEnv")]
pub struct PyVectorEnv {
    games: Vec<Game>,
    start: Position,
    rules: Rules,
    max_plies: Option<usize>,
    /// Observations, masks and actions from the side to move (else Red's).
    side_to_move: bool,
    /// The games that ended in the last step and their final observations.
    finals: Vec<(usize, Vec<f32>)>,
    /// Draws `random_actions`.
    rng: Rng,
}

impl PyVectorEnv {
    fn fresh(&self) -> Game {
        Game::with_rules(self.start, self.rules)
    }

    fn arrays<'py>(&self, py: Python<'py>, batch: Batch) -> PyResult<StepArrays<'py>> {
        let n = self.games.len();
        let internal = |e: numpy::ndarray::ShapeError| PyRuntimeError::new_err(e.to_string());
        let obs =
            Array4::from_shape_vec((n, PLANES, 9, 7), batch.observations).map_err(internal)?;
        let masks = Array2::from_shape_vec((n, NUM_ACTIONS), batch.masks).map_err(internal)?;
        Ok((
            obs.into_pyarray(py),
            masks.into_pyarray(py),
            Array1::from_vec(batch.rewards).into_pyarray(py),
            Array1::from_vec(batch.terminated).into_pyarray(py),
            Array1::from_vec(batch.truncated).into_pyarray(py),
            Array1::from_vec(batch.to_play).into_pyarray(py),
        ))
    }
}

/// One game's part of a batch.
struct Slot<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [bool],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    to_play: &'a mut i8,
}

/// What stays the same for every game of a step.
#[derive(Clone, Copy)]
struct StepRules<'a> {
    fresh: &'a Game,
    max_plies: Option<usize>,
    flip: bool,
}

/// Plays `m` (a legal move of `game`, found from its action) in `game`, fills the
/// slot, and starts the game again when it ended; returns the ended game's final
/// observation then.
fn step_one(game: &mut Game, m: Move, step: StepRules, slot: Slot) -> Option<Vec<f32>> {
    let mover = game.position().side_to_move();
    // Found among the legal moves before any game moved: `play` cannot refuse it.
    let _ = game.play(m);
    let result = game.result();
    *slot.reward = match result {
        GameResult::Win { winner, .. } if winner == mover => 1.0,
        GameResult::Win { .. } => -1.0,
        _ => 0.0,
    };
    *slot.terminated = result != GameResult::Ongoing;
    *slot.truncated = !*slot.terminated && step.max_plies.is_some_and(|m| game.moves().len() >= m);
    let mut last = None;
    if *slot.terminated || *slot.truncated {
        let mut final_observation = vec![0.0; OBSERVATION_SIZE];
        encoding::write_observation(game, &mut final_observation, flipped(game, step.flip));
        last = Some(final_observation);
        *game = step.fresh.clone();
    }
    observe(game, slot, step.flip);
    last
}

/// Whether `game` is seen from Blue's side (observations from the side to move).
fn flipped(game: &Game, side_to_move: bool) -> bool {
    side_to_move && game.position().side_to_move() == Color::Blue
}

fn observe(game: &Game, slot: Slot, side_to_move: bool) {
    let flip = flipped(game, side_to_move);
    encoding::write_observation(game, slot.observation, flip);
    encoding::write_mask(&game.legal_moves(), slot.mask, false, true, flip);
    *slot.to_play = game.position().side_to_move().index() as i8;
}

type SlotParts<'a> = (
    (
        (((&'a mut [f32], &'a mut [bool]), &'a mut f32), &'a mut bool),
        &'a mut bool,
    ),
    &'a mut i8,
);

fn slot(parts: SlotParts<'_>) -> Slot<'_> {
    let (((((observation, mask), reward), terminated), truncated), to_play) = parts;
    Slot {
        observation,
        mask,
        reward,
        terminated,
        truncated,
        to_play,
    }
}

/// The slots of a batch, one per game, for the threads.
fn par_slots(batch: &mut Batch) -> impl IndexedParallelIterator<Item = Slot<'_>> {
    batch
        .observations
        .par_chunks_mut(OBSERVATION_SIZE)
        .zip(batch.masks.par_chunks_mut(NUM_ACTIONS))
        .zip(batch.rewards.par_iter_mut())
        .zip(batch.terminated.par_iter_mut())
        .zip(batch.truncated.par_iter_mut())
        .zip(batch.to_play.par_iter_mut())
        .map(slot)
}

/// The slots of a batch, one per game, on this thread.
fn seq_slots(batch: &mut Batch) -> impl Iterator<Item = Slot<'_>> {
    batch
        .observations
        .chunks_mut(OBSERVATION_SIZE)
        .zip(batch.masks.chunks_mut(NUM_ACTIONS))
        .zip(batch.rewards.iter_mut())
        .zip(batch.terminated.iter_mut())
        .zip(batch.truncated.iter_mut())
        .zip(batch.to_play.iter_mut())
        .map(slot)
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, *, rules=None, dog_swims=None, trapped_lose_attack=None,
        no_capture_plies=None, repetitions=None, anti_chase=None, fen=None, max_plies=None,
        seed=None, perspective=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
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
    ) -> PyResult<PyVectorEnv> {
        let perspective = args::text_opt(perspective, "perspective")?;
        let side_to_move = match perspective.as_deref().unwrap_or("fixed") {
            "fixed" => false,
            "side_to_move" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "perspective must be 'fixed' or 'side_to_move', not '{}'",
                    jungle_core::text::quote(other)
                )))
            }
        };
        let rng = rng_of(seed)?;
        let n = args::whole(num_envs, "num_envs", 1, MAX_ENVS)? as usize;
        let max_plies = args::whole_opt(max_plies, "max_plies", 1, i64::MAX)?.map(|m| m as usize);
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
        Ok(PyVectorEnv {
            games: vec![game; n],
            start,
            rules,
            max_plies,
            side_to_move,
            finals: Vec::new(),
            rng,
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Starts the games again (all of them, or the games numbered in `indices`, a list
    /// or an integer array) and returns `(observations, masks)` of every game. `seed`
    /// (an int) restarts the generator of `random_actions`; the games themselves have
    /// no chance in them.
    #[pyo3(signature = (*, seed=None, indices=None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        indices: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<bool>>)> {
        let n = self.games.len();
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
        if seed.is_some() {
            self.rng = rng_of(seed)?;
        }
        self.finals.clear();
        let fresh = self.fresh();
        let flip = self.side_to_move;
        let games = &mut self.games;
        let batch = py.detach(|| {
            let mut batch = Batch::new(n);
            let work = |((game, &again), slot): ((&mut Game, &bool), Slot)| {
                if again {
                    *game = fresh.clone();
                }
                observe(game, slot, flip)
            };
            if n >= PARALLEL_FROM {
                games
                    .par_iter_mut()
                    .zip(restart.par_iter())
                    .zip(par_slots(&mut batch))
                    .for_each(work);
            } else {
                games
                    .iter_mut()
                    .zip(restart.iter())
                    .zip(seq_slots(&mut batch))
                    .for_each(work);
            }
            batch
        });
        let (obs, masks, ..) = self.arrays(py, batch)?;
        Ok((obs, masks))
    }

    /// Plays one action in every game (one integer per game: a list or an array of
    /// any integer type, each legal in its game, else `ValueError` and nothing moves);
    /// returns `(observations, masks, rewards, terminated, truncated, to_play)`. A game
    /// that ends starts again at once: its observation is the new game's, and
    /// `final_observations()` has the one it ended on.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepArrays<'py>> {
        let given = integers(py, actions, "actions")?;
        let actions = &given.values;
        let n = self.games.len();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "actions: step takes one action per game: {n}, not {}",
                actions.len()
            )));
        }
        let flip = self.side_to_move;
        let moves = py
            .detach(|| moves_of(&self.games, actions, flip))
            .map_err(|(i, _)| {
                PyValueError::new_err(format!(
                    "actions: action {} of game {i} is not a legal move there (see the masks)",
                    given.shown(i)
                ))
            })?;
        let fresh = self.fresh();
        let step = StepRules {
            fresh: &fresh,
            max_plies: self.max_plies,
            flip,
        };
        let games = &mut self.games;
        let (batch, finals) = py.detach(|| {
            let mut batch = Batch::new(n);
            let work =
                |((game, &m), slot): ((&mut Game, &Move), Slot)| step_one(game, m, step, slot);
            let finals: Vec<Option<Vec<f32>>> = if n >= PARALLEL_FROM {
                games
                    .par_iter_mut()
                    .zip(moves.par_iter())
                    .zip(par_slots(&mut batch))
                    .map(work)
                    .collect()
            } else {
                games
                    .iter_mut()
                    .zip(moves.iter())
                    .zip(seq_slots(&mut batch))
                    .map(work)
                    .collect()
            };
            (batch, finals)
        });
        self.finals = finals
            .into_iter()
            .enumerate()
            .filter_map(|(i, o)| o.map(|o| (i, o)))
            .collect();
        self.arrays(py, batch)
    }

    /// The games that ended (terminated or truncated) in the last `step`, and the
    /// observations they ended on, as Gymnasium's autoreset keeps them: `(indices
    /// int64[k], observations float32[k, 23, 9, 7])`.
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
        let flip = self.side_to_move;
        let rng = &mut self.rng;
        let actions: Vec<i64> = self
            .games
            .iter()
            .map(|g| {
                let legal = g.legal_moves();
                let m = legal[rng.below(legal.len())];
                encoding::action_in(m, flipped(g, flip)) as i64
            })
            .collect();
        Array1::from_vec(actions).into_pyarray(py)
    }

    /// `"fixed"` (Red's view) or `"side_to_move"`.
    #[getter]
    fn perspective(&self) -> &'static str {
        if self.side_to_move {
            "side_to_move"
        } else {
            "fixed"
        }
    }

    /// A copy of game `index` as a `Board`.
    fn board(&self, index: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let number = args::whole_number(index, "index")?;
        number
            .value
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.games.get(i))
            .map(|g| PyBoard { game: g.clone() })
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "game {} does not exist (0 to {})",
                    number.text,
                    self.games.len() - 1
                ))
            })
    }
}

/// The move of each game's action, or a game (and its action) where the action is
/// not a legal move (the first such game when fewer than `PARALLEL_FROM`).
fn moves_of(games: &[Game], actions: &[i64], flip: bool) -> Result<Vec<Move>, (usize, i64)> {
    let resolve = |(i, (game, &a)): (usize, (&Game, &i64))| {
        usize::try_from(a)
            .ok()
            .filter(|&a| a < NUM_ACTIONS)
            .and_then(|a| encoding::move_of(a, &game.legal_moves(), flipped(game, flip)))
            .ok_or((i, a))
    };
    if games.len() >= PARALLEL_FROM {
        games
            .par_iter()
            .zip(actions)
            .enumerate()
            .map(resolve)
            .collect()
    } else {
        games.iter().zip(actions).enumerate().map(resolve).collect()
    }
}

/// The generator of a seed (an int; `None`: from the clock).
fn rng_of(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Rng> {
    Ok(match seed {
        Some(s) => Rng::new(args::seed(s, "seed")?),
        None => Rng::from_time(),
    })
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
