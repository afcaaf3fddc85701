//! `jungle.VectorEnv`: N games stepped in one call, in Rust, with the GIL released,
//! on numpy arrays. Self-play: each game's action is the move of its side to move.

use crate::args;
use crate::board::PyBoard;
use crate::encoding::{self, NUM_ACTIONS, OBSERVATION_SIZE, PLANES};
use crate::rules::RuleArgs;
use jungle_core::board::{Move, Position};
use jungle_core::game::{Game, GameResult, Rules};
use numpy::ndarray::{Array1, Array2, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray4, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
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
/// started again at once, so the observations after `step` are of the new game.
#[pyclass(module = "jungle", name = "VectorEnv")]
pub struct PyVectorEnv {
    games: Vec<Game>,
    start: Position,
    rules: Rules,
    max_plies: Option<usize>,
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

/// Plays `m` (a legal move of `game`, found from its action) in `game`, fills the
/// slot, and starts the game again when it ended.
fn step_one(game: &mut Game, m: Move, fresh: &Game, max_plies: Option<usize>, slot: Slot) {
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
    *slot.truncated = !*slot.terminated && max_plies.is_some_and(|m| game.moves().len() >= m);
    if *slot.terminated || *slot.truncated {
        *game = fresh.clone();
    }
    observe(game, slot);
}

fn observe(game: &Game, slot: Slot) {
    encoding::write_observation(game, slot.observation);
    encoding::write_mask(&game.legal_moves(), slot.mask, false, true);
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
        no_capture_plies=None, repetitions=None, anti_chase=None, fen=None, max_plies=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: &Bound<'_, PyAny>,
        rules: Option<&str>,
        dog_swims: Option<bool>,
        trapped_lose_attack: Option<bool>,
        no_capture_plies: Option<&Bound<'_, PyAny>>,
        repetitions: Option<&Bound<'_, PyAny>>,
        anti_chase: Option<bool>,
        fen: Option<&str>,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyVectorEnv> {
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
        let start = match fen {
            None => Position::startpos(),
            Some(text) => Position::from_fen_with(text, rules.moves)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        };
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
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Starts every game again; returns `(observations, masks)`.
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<bool>>)> {
        let fresh = self.fresh();
        let n = self.games.len();
        let games = &mut self.games;
        let batch = py.detach(|| {
            let mut batch = Batch::new(n);
            games.iter_mut().for_each(|g| *g = fresh.clone());
            let work = |(game, slot): (&mut Game, Slot)| observe(game, slot);
            if n >= PARALLEL_FROM {
                games
                    .par_iter_mut()
                    .zip(par_slots(&mut batch))
                    .for_each(work);
            } else {
                games.iter_mut().zip(seq_slots(&mut batch)).for_each(work);
            }
            batch
        });
        let (obs, masks, ..) = self.arrays(py, batch)?;
        Ok((obs, masks))
    }

    /// Plays one action in every game (`int[N]`, each legal in its game, else
    /// `ValueError` and nothing moves); returns `(observations, masks, rewards,
    /// terminated, truncated, to_play)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = actions.as_slice()?.to_vec();
        let n = self.games.len();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "step takes one action per game: {n}, not {}",
                actions.len()
            )));
        }
        let moves = py
            .detach(|| moves_of(&self.games, &actions))
            .map_err(|(i, a)| {
                PyValueError::new_err(format!(
                    "action {a} of game {i} is not a legal move there (see the masks)"
                ))
            })?;
        let fresh = self.fresh();
        let max_plies = self.max_plies;
        let games = &mut self.games;
        let batch = py.detach(|| {
            let mut batch = Batch::new(n);
            let work = |((game, &m), slot): ((&mut Game, &Move), Slot)| {
                step_one(game, m, &fresh, max_plies, slot)
            };
            if n >= PARALLEL_FROM {
                games
                    .par_iter_mut()
                    .zip(moves.par_iter())
                    .zip(par_slots(&mut batch))
                    .for_each(work);
            } else {
                games
                    .iter_mut()
                    .zip(moves.iter())
                    .zip(seq_slots(&mut batch))
                    .for_each(work);
            }
            batch
        });
        self.arrays(py, batch)
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
fn moves_of(games: &[Game], actions: &[i64]) -> Result<Vec<Move>, (usize, i64)> {
    let resolve = |(i, (game, &a)): (usize, (&Game, &i64))| {
        usize::try_from(a)
            .ok()
            .filter(|&a| a < NUM_ACTIONS)
            .and_then(|a| encoding::move_of(a, &game.legal_moves()))
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
