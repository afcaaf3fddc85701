//! The command line of `jungle gui`: its options, handed to `gui::run`.

use crate::gui;

#[derive(clap::Args, Debug)]
pub(crate) struct GuiArgs {
    /// Port to listen on (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8017)]
    port: u16,
    /// Address to listen on. Anything but loopback (127.0.0.1) lets other machines in.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// An engine, as for `match`: the first plays and analyses, a second is Blue in a
    /// watched game. Default: this program.
    #[arg(long = "engine", num_args = 1)]
    engines: Vec<String>,
    /// Clock of a watched engine game, with its units: 60s+0.6s.
    #[arg(long, default_value = "60s+0.6s")]
    tc: String,
    /// The engine's thinking time per move against a person, in ms.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(50..=600_000))]
    movetime: u64,
}

/// Runs `jungle gui`; returns the exit code.
pub(crate) fn run_gui(a: GuiArgs) -> i32 {
    gui::run(&gui::Settings {
        host: a.host,
        port: a.port,
        engines: a.engines,
        tc: a.tc,
        movetime_ms: a.movetime,
    })
}
