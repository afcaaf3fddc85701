//! Parsing protocol lines into commands. Parsing never changes state: a command either
//! parses completely or is rejected with a message naming the bad token.

use crate::search::Limits;
use crate::text::quote;

/// The deepest `go depth` (the search's deepest iteration).
pub const MAX_DEPTH: i32 = 124;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Uci,
    Jcei,
    IsReady,
    NewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoCommand),
    Stop,
    PonderHit,
    Quit,
    Display,
    Eval,
    /// `go perft N`: per-move counts (`--divide`).
    Perft(u32),
    /// jcei `perft [N]`: one line `perft(N) = <count>  (<ms> ms)`.
    PerftCount(u32),
    /// jcei `moves`: one line `Legal moves (<n>): <m>…`.
    Moves,
    Bench(Option<i32>),
}

/// `go`, with moves kept as text until the session checks them against its position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GoCommand {
    pub limits: Limits,
    pub searchmoves: Vec<String>,
}

/// Reads one line; `Ok(None)` for an empty line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&name, args)) = tokens.split_first() else {
        return Ok(None);
    };
    let no_args = |cmd: Command| {
        if args.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(format!(
                "'{name}' takes no arguments, got '{}'",
                quote(&args.join(" "))
            ))
        }
    };
    match name {
        "uci" => no_args(Command::Uci),
        "jcei" => no_args(Command::Jcei),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::NewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => Ok(Some(Command::Quit)),
        "d" => no_args(Command::Display),
        // The extra commands of jungine's jcei dialect (its GUI relies on them).
        "exit" => Ok(Some(Command::Quit)),
        "newgame" => no_args(Command::NewGame),
        "display" => no_args(Command::Display),
        "moves" => no_args(Command::Moves),
        "perft" => match args {
            [] => Ok(Some(Command::PerftCount(1))),
            [d] => {
                parse_number::<u32>("perft depth", d, 0, 32).map(|d| Some(Command::PerftCount(d)))
            }
            _ => Err("perft takes at most one argument: the depth".into()),
        },
        "eval" => no_args(Command::Eval),
        "setoption" => parse_setoption(args).map(Some),
        "position" => parse_position(args).map(Some),
        "go" => parse_go(args).map(Some),
        "bench" => match args {
            [] => Ok(Some(Command::Bench(None))),
            [d] => {
                parse_number::<i32>("bench depth", d, 1, 64).map(|d| Some(Command::Bench(Some(d))))
            }
            _ => Err("bench takes at most one argument: the depth".into()),
        },
        other => Err(format!("unknown command '{}'", quote(other))),
    }
}

fn parse_number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    what: &str,
    token: &str,
    min: T,
    max: T,
) -> Result<T, String> {
    match token.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(format!(
            "{what} must be a whole number from {min} to {max}, got '{}'",
            quote(token)
        )),
    }
}

fn parse_setoption(args: &[&str]) -> Result<Command, String> {
    if args.first() != Some(&"name") {
        return Err("expected 'setoption name <name> [value <value>]'".into());
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|&t| t == "value");
    let (name_tokens, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name_tokens.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, String> {
    let (fen, rest) = match args.first() {
        Some(&"startpos") => (None, &args[1..]),
        Some(&"fen") => {
            let end = args
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(args.len());
            if end == 1 {
                return Err("position fen: the position string is missing".into());
            }
            (Some(args[1..end].join(" ")), &args[end..])
        }
        Some(other) => {
            return Err(format!(
                "position: expected 'startpos' or 'fen', got '{}'",
                quote(other)
            ))
        }
        None => return Err("position: expected 'startpos' or 'fen'".into()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list.iter().map(|s| s.to_string()).collect(),
        Some((other, _)) => {
            return Err(format!(
                "position: expected 'moves', got '{}'",
                quote(other)
            ))
        }
    };
    Ok(Command::Position { fen, moves })
}

fn parse_go(args: &[&str]) -> Result<Command, String> {
    let mut go = GoCommand::default();
    if let [first, rest @ ..] = args {
        if *first == "perft" {
            return match rest {
                [d] => parse_number::<u32>("perft depth", d, 0, 32).map(Command::Perft),
                _ => Err("expected 'go perft <depth>'".into()),
            };
        }
    }
    let mut i = 0;
    let value = |i: usize, what: &str| -> Result<&str, String> {
        args.get(i + 1)
            .copied()
            .ok_or_else(|| format!("go {what}: the value is missing"))
    };
    const MAX_MS: u64 = 1 << 40;
    while i < args.len() {
        let token = args[i];
        let l = &mut go.limits;
        match token {
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "searchmoves" => {
                go.searchmoves = args[i + 1..].iter().map(|s| s.to_string()).collect();
                if go.searchmoves.is_empty() {
                    return Err("go searchmoves: no moves given".into());
                }
                break;
            }
            "depth" => {
                l.depth = Some(parse_number("go depth", value(i, token)?, 1, MAX_DEPTH)?);
                i += 1;
            }
            "nodes" => {
                l.nodes = Some(parse_number("go nodes", value(i, token)?, 1, u64::MAX)?);
                i += 1;
            }
            "movetime" => {
                l.movetime = Some(parse_number("go movetime", value(i, token)?, 0, MAX_MS)?);
                i += 1;
            }
            "wtime" | "rtime" | "btime" => {
                let side = usize::from(token == "btime");
                l.time[side] = Some(parse_number(
                    &format!("go {token}"),
                    value(i, token)?,
                    0,
                    MAX_MS,
                )?);
                i += 1;
            }
            "winc" | "rinc" | "binc" => {
                let side = usize::from(token == "binc");
                l.inc[side] = parse_number(&format!("go {token}"), value(i, token)?, 0, MAX_MS)?;
                i += 1;
            }
            "movestogo" => {
                l.movestogo = Some(parse_number("go movestogo", value(i, token)?, 1, 10_000)?);
                i += 1;
            }
            "mate" => {
                l.mate = Some(parse_number("go mate", value(i, token)?, 1, 60)?);
                i += 1;
            }
            other => return Err(format!("go: unknown parameter '{}'", quote(other))),
        }
        i += 1;
    }
    Ok(Command::Go(go))
}

/// The `go` line of `limits` (as `parse` reads it back): how the board app, the match
/// referee and other callers ask a program for a search. `ponder` comes first
/// (`go ponder wtime …`), as UCI writes it.
pub fn go_line(limits: &Limits) -> String {
    let mut words = vec!["go".to_string()];
    if limits.ponder {
        words.push("ponder".into());
    }
    let mut push = |key: &str, value: Option<String>| {
        if let Some(v) = value {
            words.push(format!("{key} {v}"));
        }
    };
    push("depth", limits.depth.map(|d| d.to_string()));
    push("nodes", limits.nodes.map(|n| n.to_string()));
    push("movetime", limits.movetime.map(|t| t.to_string()));
    if limits.time.iter().any(Option::is_some) {
        push("wtime", limits.time[0].map(|t| t.to_string()));
        push("btime", limits.time[1].map(|t| t.to_string()));
        push("winc", Some(limits.inc[0].to_string()));
        push("binc", Some(limits.inc[1].to_string()));
    }
    push("movestogo", limits.movestogo.map(|m| m.to_string()));
    push("mate", limits.mate.map(|m| m.to_string()));
    if limits.infinite {
        words.push("infinite".into());
    }
    if !limits.searchmoves.is_empty() {
        let moves: Vec<String> = limits.searchmoves.iter().map(|m| m.to_string()).collect();
        words.push(format!("searchmoves {}", moves.join(" ")));
    }
    words.join(" ")
}

/// The `setoption` line that gives option `name` the value `value`.
pub fn setoption_line(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_commands() {
        assert_eq!(parse("  uci  ").unwrap(), Some(Command::Uci));
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("\t").unwrap(), None);
        assert_eq!(
            parse("setoption name Move Overhead value 100").unwrap(),
            Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1 moves a1a2")
                .unwrap(),
            Some(Command::Position {
                fen: Some("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1".into()),
                moves: vec!["a1a2".into()]
            })
        );
        assert_eq!(parse("go perft 3").unwrap(), Some(Command::Perft(3)));
        assert_eq!(parse("bench 4").unwrap(), Some(Command::Bench(Some(4))));
    }

    #[test]
    fn parses_go_limits() {
        let Some(Command::Go(g)) = parse("go rtime 1000 btime 2000 rinc 10 binc 20 movestogo 5 depth 7 nodes 99 searchmoves a1a2 g1g2").unwrap() else {
            panic!("not a go");
        };
        assert_eq!(g.limits.time, [Some(1000), Some(2000)]);
        assert_eq!(g.limits.inc, [10, 20]);
        assert_eq!(g.limits.movestogo, Some(5));
        assert_eq!(g.limits.depth, Some(7));
        assert_eq!(g.limits.nodes, Some(99));
        assert_eq!(g.searchmoves, vec!["a1a2".to_string(), "g1g2".to_string()]);
    }

    #[test]
    fn go_lines_read_back_as_written() {
        let a3a4 = "a3a4".parse().expect("a move");
        for limits in [
            Limits::default(),
            Limits {
                infinite: true,
                ..Limits::default()
            },
            Limits {
                movetime: Some(700),
                ..Limits::default()
            },
            Limits {
                nodes: Some(200_000),
                depth: Some(9),
                ..Limits::default()
            },
            Limits {
                time: [Some(60_000), Some(59_000)],
                inc: [600, 600],
                movestogo: Some(20),
                ponder: true,
                ..Limits::default()
            },
        ] {
            let line = go_line(&limits);
            let Ok(Some(Command::Go(go))) = parse(&line) else {
                panic!("{line} does not read");
            };
            assert_eq!(go.limits, limits, "{line}");
        }
        let with_moves = Limits {
            searchmoves: vec![a3a4],
            ..Limits::default()
        };
        assert_eq!(go_line(&with_moves), "go searchmoves a3a4");
        let pondering = Limits {
            time: [Some(900), Some(800)],
            inc: [10, 10],
            ponder: true,
            ..Limits::default()
        };
        assert_eq!(
            go_line(&pondering),
            "go ponder wtime 900 btime 800 winc 10 binc 10"
        );
        let line = setoption_line("Skill Level", "3");
        assert_eq!(
            parse(&line),
            Ok(Some(Command::SetOption {
                name: "Skill Level".into(),
                value: Some("3".into())
            }))
        );
    }

    #[test]
    fn rejects_malformed_lines() {
        for bad in [
            "foo",
            "uci extra",
            "go depth",
            "go depth x",
            "go depth -1",
            "go depth 0",
            "go nodes",
            "go wtime",
            "go wtime -5",
            "go frobnicate",
            "go searchmoves",
            "go perft",
            "go perft x",
            "position",
            "position fen",
            "position fen moves a1a2",
            "position start",
            "position startpos a1a2",
            "setoption",
            "setoption Hash 1",
            "setoption name",
            "setoption name value 3",
            "bench x",
            "bench 1 2",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
