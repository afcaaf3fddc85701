//! `jungle gui`: a board for people in the browser. An HTTP server (axum, as `jungle
//! serve`) on the loopback address serves the page (its files built into the binary)
//! and a JSON API; live updates go to the page as Server-Sent Events. One controller
//! thread owns the game (`controller`), engines run behind driver threads (`driver`),
//! and the rules core checks every move. The browser can only choose among the
//! engines of the command line and never names a program or a file. `jungle serve`
//! runs such boards for its visitors' own games where the browser's engine is not
//! built (`boards`).

pub mod boards;
pub mod command;
pub mod driver;
pub mod http;

use jungle_app::engines::{ANALYSER, PLAYER, SECOND};
use jungle_app::events::Event;
pub use jungle_app::{api, controller, view};

use crate::common::engine_process::EngineSpec;
use controller::Controller;
use driver::Driver;
use jungle_app::engines::{EngineRequest, Host};
use jungle_app::review::ReviewTables;
use jungle_core::game::Game;
use jungle_core::tb::store::BUILD_IN_MEMORY;
use jungle_core::tb::MoveValue;
use jungle_core::time_control::TimeControl;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::Duration;

/// What the controller thread receives.
pub enum Msg {
    /// A request of the page and where to send the answer.
    Api(
        api::Request,
        tokio::sync::oneshot::Sender<Result<api::Answer, api::Refusal>>,
    ),
    /// An engine's event.
    Engine(driver::EngineEvent),
    /// A page wants live updates.
    Subscribe(tokio::sync::mpsc::UnboundedSender<Event>),
    /// Ten times a second: clocks, analysis updates, forgetting closed pages.
    Tick,
    /// The board is closed: the controller ends, its engines with it.
    Stop,
}

/// The command line of `jungle gui`.
#[derive(Clone, Debug)]
pub struct Settings {
    pub host: String,
    pub port: u16,
    /// Engine specs (`cmd=… name=…`); empty: this program itself.
    pub engines: Vec<String>,
    /// Clock of a watched game, `seconds[+increment]`.
    pub tc: String,
    /// Thinking time per move against a person (ms).
    pub movetime_ms: u64,
    /// Table files the review judges positions of up to five animals by (`--tb-dir`);
    /// without, the 2- and 3-animal tables built in memory.
    pub tb_dir: Option<std::path::PathBuf>,
}

/// The engines of the command line, checked: a missing program is an error now.
pub fn engine_specs(texts: &[String]) -> Result<Vec<EngineSpec>, String> {
    if texts.len() > 2 {
        return Err(format!(
            "give at most two --engine (the player and its opponent in a watched game), got {}",
            texts.len()
        ));
    }
    let mut specs = Vec::new();
    if texts.is_empty() {
        let me = std::env::current_exe()
            .map_err(|e| format!("cannot find this program to run it as the engine: {e}"))?;
        specs.push(EngineSpec {
            cmd: me.to_string_lossy().into_owned(),
            name: "Jungle".into(),
            args: Vec::new(),
            jcei: false,
            ponder: false,
            options: Vec::new(),
        });
    }
    for t in texts {
        specs.push(EngineSpec::parse(t)?);
    }
    if specs.len() == 2 && specs[0].name == specs[1].name {
        specs[1].name.push_str("-2");
    }
    for s in &specs {
        s.check()?;
    }
    Ok(specs)
}

/// Runs the GUI server until it is killed; returns the exit code.
pub fn run(settings: &Settings) -> i32 {
    match serve(settings) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn serve(settings: &Settings) -> Result<(), String> {
    let engines = engine_specs(&settings.engines)?;
    let watch_clock = watch_clock(&settings.tc)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((settings.host.as_str(), settings.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", settings.host, settings.port))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        if !addr.ip().is_loopback() {
            eprintln!(
                "warning: the GUI listens on {addr}, reachable from other machines: anyone who \
                 can reach it can play and start the engines named on this command line"
            );
        }
        let url = match addr {
            std::net::SocketAddr::V6(a) => format!("http://[{}]:{}/", a.ip(), a.port()),
            std::net::SocketAddr::V4(a) => format!("http://{}:{}/", a.ip(), a.port()),
        };
        let config = controller::Config {
            names: [String::new(), String::new(), String::new()],
            watch_clock,
            movetime_ms: settings.movetime_ms,
        };
        let board = start_board(engines, config, review_tables(settings.tb_dir.clone()))?;
        let hosts = Arc::new(http::accepted_hosts(addr, &settings.host));
        let app = http::api_routes(board)
            .merge(http::page_routes())
            .layer(axum::middleware::from_fn(move |req, next| {
                http::check_host(hosts.clone(), req, next)
            }))
            .layer(axum::extract::DefaultBodyLimit::max(http::MAX_RECORD_BODY));
        println!("Jungle GUI at {url} (Ctrl-C stops it)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| e.to_string())
    })
}

/// The tables a board's review judges by: from `dir` (up to five animals, the 2- and
/// 3-animal ones built in memory when missing), or the small ones built in memory.
pub fn review_tables(dir: Option<std::path::PathBuf>) -> ReviewTables {
    match dir {
        Some(dir) => ReviewTables::new(jungle_core::tb::MAX_ANIMALS, move |rules| {
            crate::common::tables::tables_for(rules, Some(&dir), BUILD_IN_MEMORY)
        }),
        None => ReviewTables::small(),
    }
}

/// Starts a board app with its engines (`config.names` are theirs): the controller
/// thread, the engines' driver threads and the tick. The board lives until its last
/// handle (`http::Board`) and the engines' senders are gone.
pub fn start_board(
    engines: Vec<EngineSpec>,
    mut config: controller::Config,
    tables: ReviewTables,
) -> Result<Arc<http::Board>, String> {
    let (tx, rx) = mpsc::channel();
    let host = ServerHost::start(engines, &tx, tables);
    config.names = host.names();
    let ctl = Controller::new(config, host);
    std::thread::Builder::new()
        .name("gui-controller".into())
        .spawn(move || run_controller(ctl, rx))
        .map_err(|e| format!("cannot start the board: {e}"))?;
    let board = http::Board::new(tx.clone());
    // The tick ends with the board: when no one holds its handle.
    let ticks = tx;
    let alive = Arc::downgrade(&board);
    std::thread::Builder::new()
        .name("gui-tick".into())
        .spawn(move || {
            while alive.strong_count() > 0 && ticks.send(Msg::Tick).is_ok() {
                std::thread::sleep(Duration::from_millis(100));
            }
        })
        .map_err(|e| format!("cannot start the board: {e}"))?;
    Ok(board)
}

/// The clock of a watched game from `--tc`.
pub fn watch_clock(tc: &str) -> Result<(u64, u64), String> {
    match TimeControl::parse_clock(tc).map_err(|e| format!("--tc {e}"))? {
        TimeControl::Clock { base_ms, inc_ms } => Ok((base_ms, inc_ms)),
        other => Err(format!("--tc '{other}': a clock, like 60s+0.6s")),
    }
}

/// The server's host of the controller: engine processes behind driver threads, and
/// the pages' event streams.
struct ServerHost {
    drivers: Vec<Driver>,
    subscribers: Vec<tokio::sync::mpsc::UnboundedSender<Event>>,
    /// The review's endgame tables.
    tables: ReviewTables,
}

impl ServerHost {
    /// One or two engines: the first plays and analyses, the second is Blue in a
    /// watched game (the first again when only one is given).
    fn start(engines: Vec<EngineSpec>, events: &Sender<Msg>, tables: ReviewTables) -> ServerHost {
        let first = engines[0].clone();
        let second = engines.get(1).cloned().unwrap_or_else(|| {
            let mut s = first.clone();
            s.name.push_str("-2");
            s
        });
        let drivers = vec![
            Driver::spawn(PLAYER, first.clone(), events.clone()),
            Driver::spawn(SECOND, second, events.clone()),
            Driver::spawn(ANALYSER, first, events.clone()),
        ];
        ServerHost {
            drivers,
            subscribers: Vec::new(),
            tables,
        }
    }

    fn names(&self) -> [String; 3] {
        [PLAYER, SECOND, ANALYSER].map(|slot| self.drivers[slot].spec.name.clone())
    }
}

impl Host for ServerHost {
    fn to_engine(&mut self, slot: usize, request: EngineRequest) {
        self.drivers[slot].send(request);
    }

    fn publish(&mut self, event: Event) {
        self.subscribers.retain(|s| s.send(event.clone()).is_ok());
    }

    fn table_values(&mut self, game: &Game) -> Option<Vec<MoveValue>> {
        self.tables.values(game)
    }
}

/// Serves the controller's messages until every sender is gone.
fn run_controller(mut ctl: Controller<ServerHost>, inbox: Receiver<Msg>) {
    ctl.start();
    while let Ok(msg) = inbox.recv() {
        match msg {
            Msg::Api(request, reply) => {
                let answer = ctl.handle(request);
                let _ = reply.send(answer);
            }
            Msg::Engine(event) => ctl.engine_event(event),
            Msg::Subscribe(tx) => {
                let _ = tx.send(ctl.state_event());
                ctl.host_mut().subscribers.push(tx);
            }
            Msg::Tick => {
                ctl.tick();
                // Forget pages that have gone away.
                ctl.host_mut().subscribers.retain(|s| !s.is_closed());
            }
            Msg::Stop => break,
        }
    }
}
