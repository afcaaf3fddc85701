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
    /// A directory of endgame table files (`jungle tb build`): the review judges the
    /// moves of positions of up to five animals by them, exactly. Without it, the 2- and
    /// 3-animal tables, built in memory.
    #[arg(long)]
    tb_dir: Option<String>,
}

/// Runs `jungle gui`; returns the exit code.
pub(crate) fn run_gui(a: GuiArgs) -> i32 {
    let tb_dir = match a.tb_dir.as_deref().map(crate::common::tables::table_dir) {
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return 2;
        }
        Some(Ok(dir)) => Some(dir),
        None => None,
    };
    gui::run(&gui::Settings {
        host: a.host,
        port: a.port,
        engines: a.engines,
        tc: a.tc,
        movetime_ms: a.movetime,
        tb_dir,
    })
}
