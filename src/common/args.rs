//! What the subcommands of several applications share: the rule options, the `--eval`
//! choice, a line-flushed stdout, this process's command line, and logging.

use crate::board::rules::MoveRuleFlags;
use crate::game::{Rules, Variant};
use crate::nnue::EvalKind;
use std::io::{self, Write};

/// Rule options shared by the subcommands.
#[derive(clap::Args, Debug, Clone, Copy)]
pub(crate) struct RulesArgs {
    /// Rule set: jungle (protocol.md) or jungle-cn (Chinese online rules).
    #[arg(long, value_enum, default_value_t = VariantArg::Jungle)]
    rules: VariantArg,
    /// The dog may swim (seed 004's variant).
    #[arg(long)]
    dog_swims: bool,
    /// An animal on an enemy trap cannot capture (seed 003's reading).
    #[arg(long)]
    trapped_lose_attack: bool,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VariantArg {
    Jungle,
    #[value(name = "jungle-cn")]
    JungleCn,
}

impl RulesArgs {
    pub(crate) fn rules(self) -> Rules {
        let variant = match self.rules {
            VariantArg::Jungle => Variant::Jungle,
            VariantArg::JungleCn => Variant::JungleCn,
        };
        Rules {
            moves: MoveRuleFlags {
                dog_swims: self.dog_swims,
                trapped_lose_attack: self.trapped_lose_attack,
            },
            ..variant.rules()
        }
    }
}

/// The evaluation a command's searches use (`--eval`).
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EvalArg {
    Classical,
    Nnue,
}

impl EvalArg {
    pub(crate) fn kind(self) -> EvalKind {
        match self {
            EvalArg::Classical => EvalKind::Classical,
            EvalArg::Nnue => EvalKind::Nnue,
        }
    }
}

/// Writes and flushes stdout at once (progress lines of a match are read live).
pub(crate) struct LineWriter(pub(crate) io::Stdout);

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.0.write(buf)?;
        self.0.flush()?;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// This process's command line, program name shortened to `jungle`.
pub(crate) fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("jungle {}", args.join(" "))
}

pub(crate) fn init_logging() {
    // Off unless RUST_LOG says otherwise; always to stderr, never stdout.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .try_init();
}
