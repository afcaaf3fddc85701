//! One protocol, one answer: the three programs that speak the engine protocol (the
//! engine `jungle`, the one-ply player `jungle greedy`, and the browser's engine in
//! WebAssembly under Node, `crates/web/js/uci.mjs`) are given the same script of
//! option and position lines (valid, at the bounds, out of range, in another case,
//! junk), and must answer each line alike. An option a program does not offer is
//! refused by it as unknown, in the same words; the options two programs both offer
//! are declared alike. The match referee (`jungle match`) refuses the same bad values
//! in the engine's words.
//!
//! The Python package's in-process `Engine` takes its options from the same table:
//! `crates/python/tests/test_options.py` answers the same kind of script with
//! `Engine.configure` against this engine, in the same words.
//!
//! The browser's engine needs the module (`scripts/build-web.sh`) and `node`; without
//! them that part says SKIPPED, except under CI (`CI` set), where it fails.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_jungle");

/// A program on pipes, read line by line on a thread.
struct Program {
    name: &'static str,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Program {
    fn start(name: &'static str, cmd: &str, args: &[&str]) -> Program {
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG")
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Program {
            name,
            child,
            stdin,
            lines,
        }
    }

    /// Sends `line`, then `isready`: the lines answered before `readyok`.
    fn answer(&mut self, line: &str) -> Vec<String> {
        writeln!(self.stdin, "{line}\nisready").expect("the program reads");
        let mut answer = Vec::new();
        loop {
            let got = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{} did not answer '{line}'", self.name));
            if got == "readyok" {
                return answer;
            }
            answer.push(got);
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The option name of a `setoption` line, if it is one.
fn option_of(line: &str) -> Option<String> {
    let rest = line.strip_prefix("setoption name ")?;
    let name = rest.split(" value").next().unwrap_or(rest).trim();
    Some(name.to_string())
}

/// The script: every line is answered by each program.
fn script() -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let values = [
        "true",
        "false",
        "TRUE",
        "False",
        "yes",
        "1",
        "",
        " 3 ",
        "-1",
        "0",
        "10",
        "11",
        "50",
        "1000",
        "1001",
        "32",
        "33",
        "2",
        "jungle",
        "JUNGLE-CN",
        "jungle-xx",
        "nnue",
        "abc",
        "99999999999999999999",
    ];
    let options = [
        "DogSwims",
        "dogswims",
        "TrappedLoseAttack",
        "UCI_Variant",
        "NoCaptureDrawPlies",
        "RepetitionDraw",
        "MultiPV",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Hash",
        "Threads",
        "Ponder",
        "Eval",
        "TablebaseProbeLimit",
        "Colour",
    ];
    for option in options {
        for value in values {
            lines.push(format!("setoption name {option} value {value}"));
        }
        lines.push(format!("setoption name {option}"));
    }
    lines.extend(
        [
            "setoption name Clear Hash",
            "setoption name Clear Hash value now",
            "setoption name",
            "setoption DogSwims true",
            // Back to the default rules before the positions.
            "setoption name UCI_Variant value jungle",
            "setoption name DogSwims value false",
            "setoption name TrappedLoseAttack value false",
            "setoption name NoCaptureDrawPlies value 100",
            "setoption name RepetitionDraw value 3",
            "position startpos",
            "position startpos moves a3a4 a7a6",
            "position startpos moves a3a4 a1a9",
            "position startpos moves a3a4 zz99",
            "position startpos moves",
            "position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1 moves a3a4",
            "position fen l5t/3R3/7/7/7/7/7/7/6L r",
            "position fen 9/9/9 r",
            "position fen",
            "position sideways",
            "position",
            "setoption name DogSwims value true",
            "position fen l5t/7/7/7/7/2D4/7/7/6L r moves c4c5",
            "setoption name DogSwims value false",
            "position fen l5t/7/7/7/7/2D4/7/7/6L r moves c4c5",
        ]
        .map(String::from),
    );
    lines
}

#[test]
fn three_programs_answer_one_script_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let module = root.join("target/web/jungle.wasm");
    let node_ok = Command::new("node").arg("--version").output().is_ok();
    let mut programs = vec![
        Program::start("jungle", BIN, &[]),
        Program::start("jungle greedy", BIN, &["greedy"]),
    ];
    if module.exists() && node_ok {
        let uci = root.join("crates/web/js/uci.mjs");
        programs.push(Program::start(
            "the browser's engine",
            "node",
            &[&uci.to_string_lossy(), &module.to_string_lossy()],
        ));
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must build the module (scripts/build-web.sh) and have node"
        );
        eprintln!("SKIPPED the browser's engine: no target/web/jungle.wasm or no node");
    }

    // What each program declares, by option name (any case).
    let declared: Vec<Vec<(String, String)>> = programs
        .iter_mut()
        .map(|p| {
            let answer = p.answer("uci");
            assert!(
                answer.contains(&"uciok".to_string()),
                "{}: {answer:?}",
                p.name
            );
            answer
                .iter()
                .filter_map(|l| l.strip_prefix("option name "))
                .map(|d| {
                    let name = d.split(" type ").next().unwrap_or(d).to_ascii_lowercase();
                    (name, d.to_string())
                })
                .collect()
        })
        .collect();
    let offers = |i: usize, option: &str| {
        declared[i]
            .iter()
            .find(|(n, _)| *n == option.to_ascii_lowercase())
    };
    // An option declared by two programs is declared alike.
    for (i, options) in declared.iter().enumerate() {
        for (name, declaration) in options {
            for j in 0..programs.len() {
                if let Some((_, other)) = offers(j, name) {
                    assert_eq!(
                        declaration, other,
                        "{} and {} declare {name} differently",
                        programs[i].name, programs[j].name
                    );
                }
            }
        }
    }

    let mut compared = 0;
    for line in script() {
        let answers: Vec<Vec<String>> = programs.iter_mut().map(|p| p.answer(&line)).collect();
        let option = option_of(&line);
        // The programs that offer the line's option (all, for other lines) answer alike.
        let offering: Vec<usize> = (0..programs.len())
            .filter(|&i| match option.as_deref() {
                Some(o) => offers(i, o).is_some(),
                None => true,
            })
            .collect();
        for &i in &offering {
            assert_eq!(
                answers[i], answers[offering[0]],
                "'{line}': {} and {} answer differently",
                programs[i].name, programs[offering[0]].name
            );
            compared += 1;
        }
        // The others refuse it as unknown.
        if let Some(option) = &option {
            for i in (0..programs.len()).filter(|i| !offering.contains(i)) {
                assert_eq!(
                    answers[i],
                    vec![format!("info string error: unknown option '{option}'")],
                    "'{line}' to {}",
                    programs[i].name
                );
            }
        }
    }
    assert!(compared > 300, "{compared} answers compared");
}

/// The referee (`jungle match`) refuses an engine whose options are out of range, and
/// says why in the engine's own words: the same words as the engine's answer to the
/// `setoption` line, for every kind of option.
#[test]
fn the_referee_refuses_bad_values_in_the_engines_words() {
    let mut engine = Program::start("jungle", BIN, &[]);
    let cases = [
        ("Hash", "0"),
        ("Hash", "65537"),
        ("Threads", "0"),
        ("MultiPV", "33"),
        ("Move Overhead", "-1"),
        ("Skill Level", "21"),
        ("UCI_Elo", "5"),
        ("RepetitionDraw", "11"),
        ("NoCaptureDrawPlies", "1001"),
        ("TablebaseProbeLimit", "99"),
        ("DogSwims", "maybe"),
        ("UCI_Variant", "jungle-xx"),
        ("Eval", "hce"),
        ("Colour", "red"),
    ];
    for (option, value) in cases {
        let answer = engine.answer(&format!("setoption name {option} value {value}"));
        let [words] = answer.as_slice() else {
            panic!("{option}={value}: the engine answered {answer:?}");
        };
        assert!(words.starts_with("info string error: "), "{words}");
        // Underscores stand for spaces in the referee's engine options.
        let spec = format!(
            "cmd={BIN} name=A option.{}={value}",
            option.replace(' ', "_")
        );
        let out = Command::new(BIN)
            .args(["match", "--engine", &spec, "--engine"])
            .arg(format!("cmd={BIN} name=B"))
            .args(["--depth", "1"])
            .env_remove("RUST_LOG")
            .output()
            .expect("jungle match runs");
        assert!(
            !out.status.success(),
            "{option}={value}: a match was played"
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("engine 'A' refused its options: {words}")),
            "{option}={value}: the referee said {err}"
        );
    }
}
