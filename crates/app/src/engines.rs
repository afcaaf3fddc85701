//! What the controller says to its engines and hears from them. Each host carries
//! these its own way: the GUI server to engine processes behind driver threads, the
//! browser build to the engine in its worker.

use crate::events::Event;
use jungle_core::board::{Move, Position};
use jungle_core::game::Game;
use jungle_core::protocol;
use jungle_core::protocol::client::{declaration, spin_range};
use jungle_core::search::{Limits, SearchInfo};
use jungle_core::tb::MoveValue;
use std::time::Duration;

/// A search to run: the game (its start and moves), the limits, and how long the
/// engine may take to answer (`None`: until stopped). A host that speaks to a program
/// writes it as a `position` and a `go` line; an engine in the same process takes it
/// as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    pub id: u64,
    pub start: Position,
    pub moves: Vec<Move>,
    pub limits: Limits,
    pub deadline: Option<Duration>,
}

impl Search {
    pub fn position_line(&self) -> String {
        protocol::position::line(&self.start, &self.moves)
    }

    pub fn go_line(&self) -> String {
        protocol::command::go_line(&self.limits)
    }
}

#[derive(Clone, Debug)]
pub enum EngineRequest {
    /// Starts a search, stopping the running one first.
    Go(Box<Search>),
    /// Stops the running search (its `bestmove` is still reported).
    Stop,
    /// `setoption` lines, sent between searches; options the engine did not declare
    /// are skipped (listed in the `Ready` event).
    Options(Vec<(String, String)>),
    /// `ucinewgame` between searches.
    NewGame,
    Quit,
}

/// What a driver tells the controller. `slot` says which driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// The engine is up (after a start or a restart): its name and declared options.
    Ready {
        slot: usize,
        name: String,
        options: Vec<String>,
    },
    /// A report of search `id`.
    Info {
        slot: usize,
        id: u64,
        info: SearchInfo,
    },
    /// An `info string` line outside a search, e.g. an error about an option.
    Said { slot: usize, line: String },
    /// Search `id` ended with this move text (`0000` for none).
    BestMove { slot: usize, id: u64, text: String },
    /// The engine crashed or hung during search `id` (if any) and was restarted
    /// (`restarted`) or could not be.
    Failed {
        slot: usize,
        id: Option<u64>,
        message: String,
        restarted: bool,
    },
}

/// Engine slots: the engine that plays (Red's in a watched game), the second engine
/// (Blue's in a watched game), and the one that analyses, hints and reviews.
pub const PLAYER: usize = 0;
pub const SECOND: usize = 1;
pub const ANALYSER: usize = 2;
pub const SLOTS: [usize; 3] = [PLAYER, SECOND, ANALYSER];

/// What is known of the engine of a slot.
#[derive(Clone, Debug, Default)]
pub struct EngineInfo {
    /// The name given on the command line (as `jungle match` records it).
    pub name: String,
    /// The name the engine gives itself (`id name`), once it has started.
    pub id_name: Option<String>,
    /// Its `option` declarations (without the word `option`).
    pub options: Vec<String>,
}

impl EngineInfo {
    /// `(min, max)` of a spin option the engine declared.
    pub fn spin(&self, name: &str) -> Option<(i64, i64)> {
        spin_range(&self.options, name)
    }

    pub fn declares(&self, name: &str) -> bool {
        declaration(&self.options, name).is_some()
    }

    /// It has started (and so declared its options).
    pub fn started(&self) -> bool {
        self.id_name.is_some()
    }
}

/// Where the controller's words go: requests to the engines, events to the pages.
/// The host carries them its own way (the GUI server writes events as an event
/// stream; the browser's worker posts them).
pub trait Host {
    /// Hands `request` to the engine of `slot` (`PLAYER`, `SECOND`, `ANALYSER`).
    fn to_engine(&mut self, slot: usize, request: EngineRequest);
    /// Sends `event` to every page.
    fn publish(&mut self, event: Event);
    /// The endgame tables' value of every legal move of `game`'s position, where the
    /// tables the host holds cover it (`jungle_core::tb::game_move_values`); `None`
    /// otherwise, and for a host without tables (the default). The review judges the
    /// moves of such positions by them, exactly.
    fn table_values(&mut self, _game: &Game) -> Option<Vec<MoveValue>> {
        None
    }
}
