"""One options table (jungle_core::protocol::options): the Python Engine takes its
options, limits and defaults from the table the `jungle` engine declares, and refuses
a value in the same words. The Python side of tests/one_protocol.rs: the same
setoption script answered by the native engine and by `Engine.configure`, and the
keyword arguments refused as the options they stand for."""

import subprocess

import pytest

import jungle
import jungle.engine

# The options the Python Engine takes, by protocol name, and values at and past
# their bounds (no Hash near its top: the native engine would allocate it).
SCRIPT = {
    "Hash": ["0", "1", "2", "65537", "-1", "abc", "", "99999999999999999999"],
    "Threads": ["0", "1", "2", "256", "257"],
    "MultiPV": ["0", "1", "32", "33", "64"],
    "Move Overhead": ["-1", "0", "5000", "5001"],
    "Skill Level": ["-1", "0", "20", "21"],
    "UCI_LimitStrength": ["true", "FALSE", "yes"],
    "UCI_Elo": [str(jungle.ELO_MIN - 1), str(jungle.ELO_MIN), str(jungle.ELO_MAX), str(jungle.ELO_MAX + 1)],
    "Eval": ["nnue", "Classical", "hce"],
    "TablebaseProbeLimit": ["-1", "0", "3", "99"],
    "SearchParams": ["rfp_margin=95", "rfp_margin=1", "<default>"],
    "hash": ["16"],
    # Options the engine declares and Engine does not take (the rules come with
    # each board), and one nobody declares.
    "DogSwims": ["true"],
    "Ponder": ["true"],
    "Colour": ["red"],
}
NOT_TAKEN = {"DogSwims", "Ponder", "Colour"}


class Native:
    """The `jungle` engine on pipes: each line's answer before `readyok`."""

    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.declared = [line for line in self.answer("uci") if line.startswith("option name ")]

    def answer(self, line):
        self.process.stdin.write(line + "\nisready\n")
        self.process.stdin.flush()
        lines = []
        for got in self.process.stdout:
            got = got.strip()
            if got == "readyok":
                return lines
            lines.append(got)
        raise RuntimeError(f"the engine ended after {line!r}")

    def error(self, line):
        """The error the engine answers `line` with, or None."""
        errors = [a[len("info string error: "):] for a in self.answer(line) if a.startswith("info string error: ")]
        assert len(errors) <= 1, errors
        return errors[0] if errors else None

    def close(self):
        self.process.communicate("quit\n", timeout=10)


@pytest.fixture(scope="module")
def native(engine_binary):
    engine = Native(engine_binary)
    yield engine
    engine.close()


def python_error(call):
    try:
        call()
    except ValueError as e:
        return str(e)
    return None


def test_configure_answers_the_script_as_the_engine(native):
    engine = jungle.Engine(hash_mb=1)
    compared = 0
    for name, values in SCRIPT.items():
        for value in values:
            ours = python_error(lambda: engine.configure({name: value}))
            if name in NOT_TAKEN:
                assert ours == f"unknown option '{name}'", (name, ours)
                continue
            theirs = native.error(f"setoption name {name} value {value}")
            assert ours == theirs, (name, value)
            compared += 1
    for button in ("Clear Hash",):
        assert python_error(lambda: engine.configure({button: None})) == native.error(f"setoption name {button}")
        assert python_error(lambda: engine.configure({button: "now"})) == native.error(f"setoption name {button} value now")
        compared += 2
    assert compared > 40


# Keyword arguments and the options they stand for.
KEYWORDS = [
    ("hash_mb", "Hash", lambda v: jungle.Engine(hash_mb=v)),
    ("threads", "Threads", lambda v: jungle.Engine(hash_mb=1, threads=v)),
    ("skill_level", "Skill Level", lambda v: jungle.Engine(hash_mb=1, skill_level=v)),
    ("elo", "UCI_Elo", lambda v: jungle.Engine(hash_mb=1, elo=v)),
    ("multipv", "MultiPV", lambda v: jungle.Engine(hash_mb=1).analyse(jungle.Board(), depth=1, multipv=v)),
]


@pytest.mark.parametrize("arg, option, call", KEYWORDS, ids=[k[0] for k in KEYWORDS])
def test_keyword_arguments_are_refused_as_their_options(native, arg, option, call):
    for value in [int(v) for v in SCRIPT[option] if v.lstrip("-").isdigit()] + [-(10**20)]:
        theirs = native.error(f"setoption name {option} value {value}")
        ours = python_error(lambda: call(value))
        assert ours == (None if theirs is None else f"{arg}: {theirs}"), (arg, value)


def test_defaults_are_the_tables(native):
    def default(option):
        line = next(d for d in native.declared if d.startswith(f"option name {option} type "))
        words = line.split()
        return int(words[words.index("default") + 1])

    engine = jungle.Engine()
    assert engine.hash_mb == default("Hash") == 64
    assert engine.threads == default("Threads")
    # analyse without multipv gives the table's MultiPV lines, and MultiPV set.
    assert len(engine.analyse(jungle.Board(), depth=2)) == default("MultiPV")
    engine.configure({"MultiPV": 3})
    assert len(engine.analyse(jungle.Board(), depth=2)) == 3


def test_depth_is_the_protocols(native):
    engine = jungle.Engine(hash_mb=1)
    for depth in (0, 125):
        theirs = native.error(f"go depth {depth}")
        assert theirs == f"go depth must be a whole number from 1 to 124, got '{depth}'"
        assert python_error(lambda: engine.analyse(jungle.Board(), depth=depth)) == \
            f"depth must be a whole number from 1 to 124, got {depth}"
    assert jungle.engine.go_line(depth=124) == "go depth 124"


def test_the_client_writes_its_lines_with_the_cores_writers():
    board = jungle.Board()
    assert jungle.engine.position_line(board) == "position startpos"
    board.push("g3g4")
    assert jungle.engine.position_line(board) == "position startpos moves g3g4"
    other = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    assert jungle.engine.position_line(other) == "position fen l5t/3R3/7/7/7/7/7/7/6L r 0 1"
    assert jungle.engine.go_line(movetime=0.25, nodes=10) == "go nodes 10 movetime 250"
    assert jungle.engine.go_line(clock=(60, 59.5), increment=(1, 1)) == "go wtime 60000 btime 59500 winc 1000 binc 1000"
    assert jungle.engine.setoption_line("Skill Level", "3") == "setoption name Skill Level value 3"
