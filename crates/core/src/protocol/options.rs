//! The engine options: one table of every option a program of this project declares
//! (its name, type, default, range, and what setting it does), and the one reading of
//! a `setoption` value against it. The engine's session, the greedy player and the
//! browser's engine each offer a part of the table (`ENGINE`, `GREEDY`, `BROWSER`) and
//! apply the `Setting` they get; a value means the same, and a bad value is refused
//! with the same words, in all of them.

use crate::game::{Rules, Variant};
use crate::nnue::EvalKind;
use crate::search::parameters::SearchParams;
use crate::search::strength;
use crate::text::quote;

/// What an option is and which values it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number from `min` to `max`.
    Spin { default: i64, min: i64, max: i64 },
    /// `true` or `false`, in any case.
    Check { default: bool },
    /// One of `choices`, in any case.
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    /// Any text (a file or a directory); `default` stands for none.
    Text { default: &'static str },
    /// An action, without a value.
    Button,
}

/// The options, as named in `setoption` (any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    Hash,
    Threads,
    MultiPv,
    MoveOverhead,
    ClearHash,
    SkillLevel,
    LimitStrength,
    Elo,
    Ponder,
    Variant,
    DogSwims,
    TrappedLoseAttack,
    NoCaptureDrawPlies,
    RepetitionDraw,
    Eval,
    EvalFile,
    TablebasePath,
    TablebaseProbeLimit,
    SearchParams,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct EngineOption {
    pub id: OptionId,
    pub name: &'static str,
    pub kind: Kind,
    /// What setting it does (protocol.md says more).
    pub does: &'static str,
}

const fn spin(default: i64, min: i64, max: i64) -> Kind {
    Kind::Spin { default, min, max }
}

/// Every option, in the order the engine declares them.
pub const TABLE: [EngineOption; 19] = [
    EngineOption {
        id: OptionId::Hash,
        name: "Hash",
        kind: spin(64, 1, 65536),
        does: "the transposition table's size in MB",
    },
    EngineOption {
        id: OptionId::Threads,
        name: "Threads",
        kind: spin(1, 1, 256),
        does: "search threads (Lazy SMP)",
    },
    EngineOption {
        id: OptionId::MultiPv,
        name: "MultiPV",
        kind: spin(1, 1, 32),
        does: "lines of analysis reported",
    },
    EngineOption {
        id: OptionId::MoveOverhead,
        name: "Move Overhead",
        kind: spin(30, 0, 5000),
        does: "ms of the clock kept back for the interface's delays",
    },
    EngineOption {
        id: OptionId::ClearHash,
        name: "Clear Hash",
        kind: Kind::Button,
        does: "empties the transposition table",
    },
    EngineOption {
        id: OptionId::SkillLevel,
        name: "Skill Level",
        kind: spin(20, 0, 20),
        does: "weakened play, 0 weakest to 20 full strength",
    },
    EngineOption {
        id: OptionId::LimitStrength,
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
        does: "play at the strength UCI_Elo gives",
    },
    EngineOption {
        id: OptionId::Elo,
        name: "UCI_Elo",
        kind: spin(
            strength::ELO_MIN as i64,
            strength::ELO_MIN as i64,
            strength::ELO_MAX as i64,
        ),
        does: "the strength of UCI_LimitStrength, on the scale of the measured levels",
    },
    EngineOption {
        id: OptionId::Ponder,
        name: "Ponder",
        kind: Kind::Check { default: false },
        does: "the interface may send go ponder",
    },
    EngineOption {
        id: OptionId::Variant,
        name: "UCI_Variant",
        kind: Kind::Combo {
            default: "jungle",
            choices: &["jungle", "jungle-cn"],
        },
        does: "the rule set; a new game starts from the start position",
    },
    EngineOption {
        id: OptionId::DogSwims,
        name: "DogSwims",
        kind: Kind::Check { default: false },
        does: "the dog may swim (rule variant); a new game starts",
    },
    EngineOption {
        id: OptionId::TrappedLoseAttack,
        name: "TrappedLoseAttack",
        kind: Kind::Check { default: false },
        does: "an animal in an enemy trap cannot capture (rule variant); a new game starts",
    },
    EngineOption {
        id: OptionId::NoCaptureDrawPlies,
        name: "NoCaptureDrawPlies",
        kind: spin(100, 0, 1000),
        does: "plies without a capture that draw (0: never); a new game starts",
    },
    EngineOption {
        id: OptionId::RepetitionDraw,
        name: "RepetitionDraw",
        kind: spin(3, 0, 10),
        does: "the occurrence of a position that draws (0: never); a new game starts",
    },
    EngineOption {
        id: OptionId::Eval,
        name: "Eval",
        kind: Kind::Combo {
            default: "nnue",
            choices: &["classical", "nnue"],
        },
        does: "the evaluation: the learned network or the hand-set terms",
    },
    EngineOption {
        id: OptionId::EvalFile,
        name: "EvalFile",
        kind: Kind::Text {
            default: "<embedded>",
        },
        does: "a network file instead of the embedded one",
    },
    EngineOption {
        id: OptionId::TablebasePath,
        name: "TablebasePath",
        kind: Kind::Text { default: "<empty>" },
        does: "a directory of endgame table files",
    },
    EngineOption {
        id: OptionId::TablebaseProbeLimit,
        name: "TablebaseProbeLimit",
        kind: spin(
            crate::tb::MAX_ANIMALS as i64,
            0,
            crate::tb::MAX_ANIMALS as i64,
        ),
        does: "most animals of a position the tables are probed for",
    },
    EngineOption {
        id: OptionId::SearchParams,
        name: "SearchParams",
        kind: Kind::Text {
            default: "<default>",
        },
        does: "the search's margins and reductions, for tuning: name=value pairs (jungle params)",
    },
];

/// The options that select the rules, which every program of the project offers.
const RULES: [OptionId; 5] = [
    OptionId::Variant,
    OptionId::DogSwims,
    OptionId::TrappedLoseAttack,
    OptionId::NoCaptureDrawPlies,
    OptionId::RepetitionDraw,
];

/// What `jungle` offers: the whole table.
pub const ENGINE: &[OptionId] = &[
    OptionId::Hash,
    OptionId::Threads,
    OptionId::MultiPv,
    OptionId::MoveOverhead,
    OptionId::ClearHash,
    OptionId::SkillLevel,
    OptionId::LimitStrength,
    OptionId::Elo,
    OptionId::Ponder,
    RULES[0],
    RULES[1],
    RULES[2],
    RULES[3],
    RULES[4],
    OptionId::Eval,
    OptionId::EvalFile,
    OptionId::TablebasePath,
    OptionId::TablebaseProbeLimit,
    OptionId::SearchParams,
];

/// What `jungle greedy` offers: the rules, since it only plays by them.
pub const GREEDY: &[OptionId] = &RULES;

/// What the browser's engine offers: its lines, its strength and the rules (it has one
/// thread, a fixed table and the embedded network).
pub const BROWSER: &[OptionId] = &[
    OptionId::MultiPv,
    OptionId::SkillLevel,
    OptionId::LimitStrength,
    OptionId::Elo,
    RULES[0],
    RULES[1],
    RULES[2],
    RULES[3],
    RULES[4],
];

/// A value of an option, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    MoveOverhead(u64),
    ClearHash,
    SkillLevel(u32),
    LimitStrength(bool),
    Elo(u32),
    Ponder(bool),
    Variant(Variant),
    DogSwims(bool),
    TrappedLoseAttack(bool),
    NoCaptureDrawPlies(u16),
    RepetitionDraw(u8),
    Eval(EvalKind),
    /// `None`: the embedded network.
    EvalFile(Option<String>),
    /// `None`: no directory (the small tables are built in memory).
    TablebasePath(Option<String>),
    TablebaseProbeLimit(u32),
    SearchParams(SearchParams),
}

impl Setting {
    /// `rules` with this setting, when it is a rule option (`None` otherwise). A new
    /// variant keeps the move-rule variants chosen before it.
    pub fn applied_to(&self, rules: Rules) -> Option<Rules> {
        let mut new = rules;
        match *self {
            Setting::Variant(v) => {
                new = Rules {
                    moves: rules.moves,
                    ..v.rules()
                }
            }
            Setting::DogSwims(on) => new.moves.dog_swims = on,
            Setting::TrappedLoseAttack(on) => new.moves.trapped_lose_attack = on,
            Setting::NoCaptureDrawPlies(n) => new.draw.no_capture_plies = n,
            Setting::RepetitionDraw(n) => new.draw.repetitions = n,
            _ => return None,
        }
        Some(new)
    }
}

fn row(id: OptionId) -> &'static EngineOption {
    // Every id has its row: `rows_are_complete` checks it.
    TABLE.iter().find(|o| o.id == id).unwrap_or(&TABLE[0])
}

/// The `option name …` lines that declare `offered` (without the word `option`, as
/// handshakes are stored), in the table's order.
pub fn declarations(offered: &[OptionId]) -> Vec<String> {
    TABLE
        .iter()
        .filter(|o| offered.contains(&o.id))
        .map(|o| {
            let kind = match o.kind {
                Kind::Spin { default, min, max } => {
                    format!("spin default {default} min {min} max {max}")
                }
                Kind::Check { default } => format!("check default {default}"),
                Kind::Combo { default, choices } => {
                    let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                    format!("combo default {default} {}", vars.join(" "))
                }
                Kind::Text { default } => format!("string default {default}"),
                Kind::Button => "button".to_string(),
            };
            format!("name {} type {kind}", o.name)
        })
        .collect()
}

/// Reads `setoption name <name> [value <value>]` against the options `offered`: the
/// setting, or the one error text of what is wrong.
pub fn read(name: &str, value: Option<&str>, offered: &[OptionId]) -> Result<Setting, String> {
    let option = TABLE
        .iter()
        .find(|o| offered.contains(&o.id) && o.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| format!("unknown option '{}'", quote(name)))?;
    let text = value.unwrap_or("");
    let word = text.trim();
    let refuse = |takes: String| {
        format!(
            "option {} takes {takes}, got '{}'",
            option.name,
            quote(text)
        )
    };
    let number = || -> Result<i64, String> {
        let Kind::Spin { min, max, .. } = option.kind else {
            return Err(refuse("no number".into()));
        };
        if value.is_none() {
            return Err(format!("option {} needs a value", option.name));
        }
        match word.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(refuse(format!("a whole number from {min} to {max}"))),
        }
    };
    let check = || -> Result<bool, String> {
        match word.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(refuse("true or false".into())),
        }
    };
    let choice = || -> Result<String, String> {
        let Kind::Combo { choices, .. } = option.kind else {
            return Err(refuse("no choice".into()));
        };
        choices
            .iter()
            .find(|c| c.eq_ignore_ascii_case(word))
            .map(|c| c.to_string())
            .ok_or_else(|| refuse(choices.join(" or ")))
    };
    // A text option's default word stands for none.
    let path = || {
        let Kind::Text { default } = option.kind else {
            return None;
        };
        (!word.is_empty() && word != default).then(|| word.to_string())
    };
    Ok(match option.id {
        OptionId::Hash => Setting::Hash(number()? as usize),
        OptionId::Threads => Setting::Threads(number()? as usize),
        OptionId::MultiPv => Setting::MultiPv(number()? as usize),
        OptionId::MoveOverhead => Setting::MoveOverhead(number()? as u64),
        OptionId::ClearHash => match value {
            None => Setting::ClearHash,
            Some(v) => {
                return Err(format!(
                    "option Clear Hash is a button and takes no value, got '{}'",
                    quote(v)
                ))
            }
        },
        OptionId::SkillLevel => Setting::SkillLevel(number()? as u32),
        OptionId::LimitStrength => Setting::LimitStrength(check()?),
        OptionId::Elo => Setting::Elo(number()? as u32),
        OptionId::Ponder => Setting::Ponder(check()?),
        OptionId::Variant => Setting::Variant(
            Variant::from_name(&choice()?).ok_or_else(|| refuse("a rule set".into()))?,
        ),
        OptionId::DogSwims => Setting::DogSwims(check()?),
        OptionId::TrappedLoseAttack => Setting::TrappedLoseAttack(check()?),
        OptionId::NoCaptureDrawPlies => Setting::NoCaptureDrawPlies(number()? as u16),
        OptionId::RepetitionDraw => Setting::RepetitionDraw(number()? as u8),
        OptionId::Eval => Setting::Eval(
            EvalKind::from_name(&choice()?).ok_or_else(|| refuse("an evaluation".into()))?,
        ),
        OptionId::EvalFile => Setting::EvalFile(path()),
        OptionId::TablebasePath => Setting::TablebasePath(path()),
        OptionId::TablebaseProbeLimit => Setting::TablebaseProbeLimit(number()? as u32),
        OptionId::SearchParams => Setting::SearchParams(
            SearchParams::parse(text).map_err(|e| format!("option SearchParams: {e}"))?,
        ),
    })
}

/// The `setoption`s that select `rules` in an engine speaking protocol.md.
pub fn rule_settings(rules: Rules) -> Vec<(String, String)> {
    let name = |id| row(id).name.to_string();
    vec![
        (name(OptionId::Variant), rules.variant.name().into()),
        (name(OptionId::DogSwims), rules.moves.dog_swims.to_string()),
        (
            name(OptionId::TrappedLoseAttack),
            rules.moves.trapped_lose_attack.to_string(),
        ),
        (
            name(OptionId::NoCaptureDrawPlies),
            rules.draw.no_capture_plies.to_string(),
        ),
        (
            name(OptionId::RepetitionDraw),
            rules.draw.repetitions.to_string(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_complete() {
        for id in ENGINE {
            assert_eq!(row(*id).id, *id);
        }
        assert_eq!(ENGINE.len(), TABLE.len());
        for id in GREEDY.iter().chain(BROWSER) {
            assert!(ENGINE.contains(id), "{id:?}");
        }
        // The table's defaults are what the engine starts with.
        assert_eq!(
            row(OptionId::Eval).kind,
            Kind::Combo {
                default: EvalKind::default().name(),
                choices: &["classical", "nnue"]
            }
        );
        let rules = Rules::default();
        for (name, value) in rule_settings(rules) {
            let setting = read(&name, Some(&value), ENGINE).expect("the default reads");
            assert_eq!(setting.applied_to(rules), Some(rules), "{name}");
        }
    }

    #[test]
    fn declares_each_kind() {
        let lines = declarations(ENGINE);
        assert_eq!(lines[0], "name Hash type spin default 64 min 1 max 65536");
        assert!(lines.contains(&"name Clear Hash type button".to_string()));
        assert!(lines.contains(&"name DogSwims type check default false".to_string()));
        assert!(lines.contains(
            &"name UCI_Variant type combo default jungle var jungle var jungle-cn".to_string()
        ));
        assert!(lines.contains(&"name TablebasePath type string default <empty>".to_string()));
        assert_eq!(declarations(GREEDY).len(), 5);
    }

    #[test]
    fn reads_values_as_uci_engines_do() {
        let r = |name: &str, value: Option<&str>| read(name, value, ENGINE);
        assert_eq!(r("hash", Some(" 128 ")), Ok(Setting::Hash(128)));
        assert_eq!(r("DogSwims", Some("TRUE")), Ok(Setting::DogSwims(true)));
        assert_eq!(
            r("uci_variant", Some("Jungle-CN")),
            Ok(Setting::Variant(Variant::JungleCn))
        );
        assert_eq!(r("Clear Hash", None), Ok(Setting::ClearHash));
        assert_eq!(
            r("EvalFile", Some("<embedded>")),
            Ok(Setting::EvalFile(None))
        );
        assert_eq!(
            r("TablebasePath", Some("tb4")),
            Ok(Setting::TablebasePath(Some("tb4".into())))
        );
        assert_eq!(
            r("RepetitionDraw", Some("50")),
            Err("option RepetitionDraw takes a whole number from 0 to 10, got '50'".into())
        );
        assert_eq!(
            r("DogSwims", Some("maybe")),
            Err("option DogSwims takes true or false, got 'maybe'".into())
        );
        assert_eq!(
            r("Eval", Some("hce")),
            Err("option Eval takes classical or nnue, got 'hce'".into())
        );
        assert_eq!(r("Hash", None), Err("option Hash needs a value".into()));
        assert_eq!(
            r("Clear Hash", Some("now")),
            Err("option Clear Hash is a button and takes no value, got 'now'".into())
        );
        let tuned = SearchParams {
            rfp_margin: 95,
            ..SearchParams::DEFAULT
        };
        assert_eq!(
            r("SearchParams", Some("rfp_margin=95")),
            Ok(Setting::SearchParams(tuned))
        );
        assert_eq!(
            r("SearchParams", Some("<default>")),
            Ok(Setting::SearchParams(SearchParams::DEFAULT))
        );
        assert_eq!(
            r("SearchParams", Some("rfp_margin=1")),
            Err("option SearchParams: search parameter rfp_margin takes a whole number from 20 to 250, got '1'".into())
        );
        assert_eq!(
            r("Colour", Some("red")),
            Err("unknown option 'Colour'".into())
        );
        // An option another program offers is unknown here.
        assert_eq!(
            read("Hash", Some("16"), GREEDY),
            Err("unknown option 'Hash'".into())
        );
    }

    #[test]
    fn rule_settings_change_the_rules() {
        let rules = Rules::default();
        let cn = Setting::Variant(Variant::JungleCn).applied_to(rules);
        assert_eq!(cn.map(|r| r.variant), Some(Variant::JungleCn));
        let swims = Setting::DogSwims(true).applied_to(rules).expect("a rule");
        // A new variant keeps the move-rule variants.
        let both = Setting::Variant(Variant::JungleCn).applied_to(swims);
        assert!(both.is_some_and(|r| r.moves.dog_swims));
        assert_eq!(Setting::Hash(1).applied_to(rules), None);
    }
}
