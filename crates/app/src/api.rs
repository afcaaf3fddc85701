//! The requests the page may make (JSON bodies of `POST /api/<name>`), and the
//! answers. Every field is checked here or by the rules core before anything
//! changes; unknown fields are refused.

use serde::Deserialize;

/// Who plays which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Players {
    /// A person plays Red, the engine Blue.
    Red,
    /// A person plays Blue, the engine Red.
    Blue,
    /// People play both sides (the engine only analyses and hints).
    Both,
    /// Engine against engine (watching, with clocks).
    Engines,
}

impl Players {
    /// A person plays one side and the engine the other.
    pub fn against_engine(self) -> bool {
        matches!(self, Players::Red | Players::Blue)
    }
}

/// A rule set the page may choose.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RulesChoice {
    pub variant: String,
    #[serde(default)]
    pub dog_swims: bool,
    #[serde(default)]
    pub trapped_lose_attack: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    pub mv: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GotoRequest {
    pub ply: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewGameRequest {
    #[serde(default)]
    pub players: Option<Players>,
    /// A position string to start from (default: the start position).
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub rules: Option<RulesChoice>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SettingsRequest {
    /// 1 (beginner) to `LEVELS` (full strength).
    #[serde(default)]
    pub level: Option<u32>,
    /// Thinking time of the engine per move when it plays a person.
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Changes sides without a new game; the engine moves if it is now its turn.
    #[serde(default)]
    pub players: Option<Players>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnalysisRequest {
    pub on: bool,
    #[serde(default)]
    pub multipv: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchRequest {
    /// Starts (or resumes) the engines' game, or pauses it.
    pub run: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    /// The text of a record file (as `jungle match --pgn` writes).
    pub text: String,
    /// Which game of the file, from 1 (default 1).
    #[serde(default)]
    pub game: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// Start a review of the game line (or stop the one running).
    pub on: bool,
}

/// A request of the page, checked for form; the controller checks it for sense.
/// `POST /api/puzzle`: the next puzzle for a person. The page keeps the person's
/// progress (`puzzles::Progress` as JSON) and sends it; a finished puzzle is counted
/// first. Nothing of the game changes.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PuzzleRequest {
    #[serde(default)]
    pub progress: Option<serde_json::Value>,
    /// A theme's name (`puzzles/puzzles.txt`'s), or none for any.
    #[serde(default)]
    pub theme: Option<String>,
    #[serde(default)]
    pub finished: Option<FinishedPuzzle>,
    /// Draws the puzzle among those near the rating.
    #[serde(default)]
    pub seed: u64,
    /// This puzzle of the set rather than the next one (a puzzle's address, a reload).
    #[serde(default)]
    pub id: Option<String>,
    /// The puzzle on the board being left ("Next"): not offered again at once.
    #[serde(default)]
    pub left: Option<String>,
}

/// A puzzle the person finished: solved cleanly, or not.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinishedPuzzle {
    pub id: String,
    pub solved: bool,
}

/// `POST /api/judge`: the judge of puzzles and lessons (`judge`). A puzzle or a lesson's
/// task is set on the board; the person's moves then go by `move` and are judged; the
/// view's `judge` says the answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
/// (The variants without fields are written `{}` so that unknown fields are refused.)
#[serde(tag = "do", rename_all = "lowercase", deny_unknown_fields)]
pub enum JudgeRequest {
    /// Sets puzzle `id` of the shipped set on the board (two people play).
    Puzzle { id: String },
    /// Sets task `task` (from 0) of lesson `id` on the board.
    Lesson { id: String, task: usize },
    /// Plays the reply to a right move (the view's `judge.reply`).
    Reply {},
    /// Shows the puzzle's next move to find (the puzzle then counts as not solved).
    Hint {},
    /// Shows the rest of the puzzle's line (it then counts as not solved).
    Solution {},
    /// Sets the task again: a lesson's from its start, a puzzle where it stands.
    Again {},
    /// Ends the task; the board stays as it is.
    Leave {},
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    State,
    Move(MoveRequest),
    Undo,
    Redo,
    Goto(GotoRequest),
    NewGame(NewGameRequest),
    Settings(SettingsRequest),
    Hint,
    MoveNow,
    Analysis(AnalysisRequest),
    Watch(WatchRequest),
    Load(LoadRequest),
    Review(ReviewRequest),
    Record,
    Puzzle(PuzzleRequest),
    Judge(JudgeRequest),
}

/// Why a request was refused: the HTTP status, a sentence (English), and for the
/// refusals a person meets on the board a code the page words in its language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
    pub code: Option<Code>,
}

/// Words the page says in its language: their key in the page's catalogues and the
/// values of its placeholders. A refusal's key is `refusal.<key>`, a notice's
/// `notice.<key>`, the end of a game's `reason.<key>`; the key sent is the part after
/// the dot. tests/page_data.rs finds every key given to `coded`, `Code::notice` and
/// `Code::reason` as a literal, and checks that it is in every catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Code {
    fn new(key: &'static str, args: &[(&'static str, &str)]) -> Code {
        Code {
            key,
            args: args.iter().map(|&(k, v)| (k, v.to_string())).collect(),
        }
    }

    /// A notice's words (`notice.<key>`).
    pub fn notice(key: &'static str, args: &[(&'static str, &str)]) -> Code {
        Code::new(key, args)
    }

    /// The words of the reason a game ended (`reason.<key>`).
    pub fn reason(key: &'static str, args: &[(&'static str, &str)]) -> Code {
        Code::new(key, args)
    }

    /// The placeholders' values as a JSON object.
    pub fn args_json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.args
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::from(v.as_str())))
            .collect()
    }
}

impl Refusal {
    /// A refusal without a code: the page shows `message` as it is. Those a person
    /// can meet are all coded (`coded`), which tests/page_data.rs checks.
    pub fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
            code: None,
        }
    }

    pub fn bad(message: impl Into<String>) -> Refusal {
        Self::new(400, message)
    }

    pub fn conflict(message: impl Into<String>) -> Refusal {
        Self::new(409, message)
    }

    /// The same refusal, with the code the page words it by (`refusal.<key>`).
    pub fn coded(self, key: &'static str, args: &[(&'static str, &str)]) -> Refusal {
        Refusal {
            code: Some(Code::new(key, args)),
            ..self
        }
    }

    /// The body of the answer: `{"error": sentence}`, with `"code"` and `"args"` when
    /// it has a code.
    pub fn body(&self) -> String {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(code) = &self.code {
            body["code"] = code.key.into();
            body["args"] = code.args_json().into();
        }
        body.to_string()
    }
}

/// The answer to a request: the new state, or a text (the record file).
#[derive(Clone, Debug)]
pub enum Answer {
    State(Box<crate::view::View>),
    Text(String),
    /// An answer that is not the game's state (`puzzle`'s).
    Json(serde_json::Value),
}

/// Reads the body of `POST /api/<name>`.
pub fn parse(name: &str, body: &str) -> Result<Request, Refusal> {
    fn json<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, Refusal> {
        serde_json::from_str(body)
            .map_err(|e| Refusal::bad(format!("bad request body: {e}")).coded("badRequest", &[]))
    }
    // Requests without fields take an empty body or `{}`.
    let empty = || -> Result<(), Refusal> {
        let trimmed = body.trim();
        if trimmed.is_empty() || trimmed == "{}" {
            Ok(())
        } else {
            Err(Refusal::bad(format!(
                "'{}' takes no fields",
                jungle_core::text::quote(name)
            ))
            .coded("badRequest", &[]))
        }
    };
    Ok(match name {
        "move" => Request::Move(json(body)?),
        "undo" => empty().map(|_| Request::Undo)?,
        "redo" => empty().map(|_| Request::Redo)?,
        "goto" => Request::Goto(json(body)?),
        "new" => Request::NewGame(json(body)?),
        "settings" => Request::Settings(json(body)?),
        "hint" => empty().map(|_| Request::Hint)?,
        "movenow" => empty().map(|_| Request::MoveNow)?,
        "analysis" => Request::Analysis(json(body)?),
        "watch" => Request::Watch(json(body)?),
        "load" => Request::Load(json(body)?),
        "review" => Request::Review(json(body)?),
        "puzzle" => Request::Puzzle(json(body)?),
        "judge" => Request::Judge(json(body)?),
        _ => {
            return Err(Refusal::new(
                404,
                format!("no such action '{}'", jungle_core::text::quote(name)),
            )
            .coded("badRequest", &[]))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_requests() {
        assert_eq!(
            parse("move", r#"{"move":"g3g4"}"#),
            Ok(Request::Move(MoveRequest { mv: "g3g4".into() }))
        );
        assert_eq!(parse("undo", ""), Ok(Request::Undo));
        assert_eq!(parse("undo", "{}"), Ok(Request::Undo));
        assert_eq!(
            parse("judge", r#"{"do":"lesson","id":"rat","task":1}"#),
            Ok(Request::Judge(JudgeRequest::Lesson {
                id: "rat".into(),
                task: 1
            }))
        );
        assert_eq!(
            parse("judge", r#"{"do":"hint"}"#),
            Ok(Request::Judge(JudgeRequest::Hint {}))
        );
        assert_eq!(
            parse(
                "new",
                r#"{"players":"blue","rules":{"variant":"jungle-cn","dogSwims":true}}"#
            ),
            Ok(Request::NewGame(NewGameRequest {
                players: Some(Players::Blue),
                fen: None,
                rules: Some(RulesChoice {
                    variant: "jungle-cn".into(),
                    dog_swims: true,
                    trapped_lose_attack: false
                })
            }))
        );
    }

    #[test]
    fn refuses_malformed_requests() {
        for (name, body) in [
            ("move", ""),
            ("move", "{"),
            ("move", r#"{"move":3}"#),
            ("move", r#"{"move":"a1a2","x":1}"#),
            ("undo", r#"{"steps":2}"#),
            ("goto", r#"{"ply":-1}"#),
            ("new", r#"{"players":"martians"}"#),
            ("settings", r#"{"level":"high"}"#),
            ("analysis", r#"{}"#),
            ("load", r#"{"path":"/etc/passwd"}"#),
            ("puzzle", r#"{"theme":3}"#),
            ("puzzle", r#"{"finished":{"id":"x"}}"#),
            ("judge", r#"{}"#),
            ("judge", r#"{"do":"cheat"}"#),
            ("judge", r#"{"do":"puzzle"}"#),
            ("judge", r#"{"do":"hint","id":"x"}"#),
            ("judge", r#"{"do":"lesson","id":"rat","task":-1}"#),
        ] {
            let r = parse(name, body);
            assert!(
                matches!(r, Err(Refusal { status: 400, .. })),
                "{name} {body}: {r:?}"
            );
        }
        assert_eq!(parse("launch", "{}").map_err(|r| r.status), Err(404));
    }
}
