"""Errors a Python user reads: a wrong type is a TypeError and a value out of range a
ValueError, each naming the argument and what it accepts; never a message about
Rust types, never an OverflowError."""

import pytest

import jungle
from jungle import tablebase
from jungle.engine import EngineError, EngineProcess

BIG = 10**20


def _over():
    board = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    board.push("d8d9")
    return board


def test_the_messages_of_the_issue():
    board = jungle.Board()
    with pytest.raises(TypeError, match=r"^move must be a jungle.Move or coordinate text such as 'g3g4', not int$"):
        board.push(42)
    with pytest.raises(ValueError, match=r"^from_square: square 100000000000000000000 is off the board \(0 = a1 to 62 = g9\)$"):
        jungle.Move(BIG, 5)
    with pytest.raises(ValueError, match=r"^depth must be a whole number from 0 to 32, got -1$"):
        board.perft(-1)
    with pytest.raises(TypeError, match=r"^depth must be a whole number \(int\), not str$"):
        board.perft("3")


# Every call taking a number, a square or a move, with its argument's name.
CALLS = [
    ("move", lambda v: jungle.Board().push(v)),
    ("move", lambda v: jungle.Board().is_capture(v)),
    ("move", lambda v: jungle.Board().chase_reason(v)),
    ("from_square", lambda v: jungle.Move(v, 5)),
    ("to_square", lambda v: jungle.Move(5, v)),
    ("square", lambda v: jungle.Board().piece_at(v)),
    ("depth", lambda v: jungle.Board().perft(v)),
    ("action", lambda v: jungle.Board().action_to_move(v)),
    ("action", lambda v: jungle.Board().push_action(v)),
    ("no_capture_plies", lambda v: jungle.Board(no_capture_plies=v)),
    ("repetitions", lambda v: jungle.Board(repetitions=v)),
    ("num_envs", lambda v: jungle.VectorEnv(v)),
    ("max_plies", lambda v: jungle.VectorEnv(1, max_plies=v)),
    ("index", lambda v: jungle.VectorEnv(1).board(v)),
    ("threads", lambda v: jungle.Engine(threads=v)),
    ("hash_mb", lambda v: jungle.Engine(hash_mb=v)),
    ("elo", lambda v: jungle.Engine(elo=v)),
    ("skill_level", lambda v: jungle.Engine(skill_level=v)),
    ("depth", lambda v: jungle.Engine(hash_mb=1).analyse(jungle.Board(), depth=v)),
    ("nodes", lambda v: jungle.Engine(hash_mb=1).analyse(jungle.Board(), nodes=v)),
    ("multipv", lambda v: jungle.Engine(hash_mb=1).analyse(jungle.Board(), depth=1, multipv=v)),
    ("depth", lambda v: jungle.Engine(hash_mb=1).play(jungle.Board(), depth=v)),
    ("depth", lambda v: jungle.engine.go_line(depth=v)),
    ("movetime", lambda v: jungle.Engine(hash_mb=1).analyse(jungle.Board(), movetime=v)),
    ("clock", lambda v: jungle.Engine(hash_mb=1).play(jungle.Board(), clock=v)),
    ("clock", lambda v: jungle.Engine(hash_mb=1).play(jungle.Board(), clock=(1, v))),
    ("increment", lambda v: jungle.Engine(hash_mb=1).play(jungle.Board(), clock=(1, 1), increment=v)),
    ("build", lambda v: tablebase.probe(jungle.Board("7/3e3/7/7/7/7/2L4/7/6R r"), build=v)),
]


TIMES = ("movetime", "clock", "increment")


@pytest.mark.parametrize("name, call", CALLS, ids=[f"{i}-{c[0]}" for i, c in enumerate(CALLS)])
def test_every_argument_names_itself(name, call):
    # Each value is refused (2.5 is a fine number of seconds: the times get -1).
    for value in (BIG, -BIG, -1 if name in TIMES else 2.5, "x", [1], True, object()):
        with pytest.raises((TypeError, ValueError, IndexError)) as raised:
            call(value)
        text = str(raised.value)
        assert "extract" not in text and "Arg" not in text and "C long" not in text, text
        assert not isinstance(raised.value, OverflowError), text
        assert name in text or "not a legal move" in text or "does not exist" in text, (name, value, text)
        if isinstance(raised.value, TypeError):
            assert text.startswith(name), text


def test_analyse_and_play_refuse_a_finished_game_alike():
    engine = jungle.Engine(hash_mb=1)
    for search in (engine.analyse, engine.play):
        with pytest.raises(ValueError, match="^the game is over: red wins"):
            search(_over(), depth=3)


def test_a_missing_tablebase_folder_raises(tmp_path):
    missing = tmp_path / "no-tables"
    board = jungle.Board("7/3e3/7/7/7/7/2L4/7/6R r")
    with pytest.raises(ValueError, match="^directory: cannot read directory '.*no-tables': "):
        tablebase.probe(board, directory=missing)
    with pytest.raises(ValueError, match="^option TablebasePath: cannot read directory '.*no-tables': "):
        jungle.Engine(hash_mb=1, options={"TablebasePath": str(missing)})
    # An existing (empty) folder is read; the small tables are still built in memory.
    assert tablebase.probe(board, directory=tmp_path) is not None
    engine = jungle.Engine(hash_mb=1, options={"TablebasePath": str(tmp_path)})
    assert engine.analyse(board, depth=3)[0].tbhits >= 0


def test_a_refused_option_reads_properly(engine_binary):
    with pytest.raises(EngineError, match=r"refused: unknown option 'Colour'$"):
        EngineProcess(engine_binary, options={"Colour": "red"})
    with pytest.raises(EngineError, match=r"refused: option Hash takes a whole number from 1 to 65536, got 'lots'$"):
        EngineProcess(engine_binary, options={"Hash": "lots"})


# Every argument taking text, a flag or a board, with its name.
TYPED = [
    ("fen", lambda v: jungle.Board(v)),
    ("rules", lambda v: jungle.Board(rules=v)),
    ("dog_swims", lambda v: jungle.Board(dog_swims=v)),
    ("trapped_lose_attack", lambda v: jungle.Board(trapped_lose_attack=v)),
    ("anti_chase", lambda v: jungle.Board(anti_chase=v)),
    ("fen", lambda v: jungle.Board().set_fen(v)),
    ("color", lambda v: jungle.Piece(v, "rat")),
    ("animal", lambda v: jungle.Piece("red", v)),
    ("symbol", lambda v: jungle.Piece.from_symbol(v)),
    ("text", lambda v: jungle.Move.from_uci(v)),
    ("text", lambda v: jungle.Board().push_uci(v)),
    ("text", lambda v: jungle.Board().parse_uci(v)),
    ("fen", lambda v: jungle.VectorEnv(1, fen=v)),
    ("rules", lambda v: jungle.VectorEnv(1, rules=v)),
    ("perspective", lambda v: jungle.VectorEnv(1, perspective=v)),
    ("eval", lambda v: jungle.Engine(hash_mb=1, eval=v)),
    ("tablebases", lambda v: jungle.Engine(hash_mb=1, tablebases=v)),
    ("board", lambda v: jungle.Engine(hash_mb=1).analyse(v, depth=1)),
    ("board", lambda v: jungle.Engine(hash_mb=1).play(v, depth=1)),
    ("board", lambda v: tablebase.probe(v)),
    ("board", lambda v: jungle.engine.position_line(v)),
]


@pytest.mark.parametrize("name, call", TYPED, ids=[f"{i}-{c[0]}" for i, c in enumerate(TYPED)])
def test_every_typed_argument_names_itself(name, call):
    for value in (5, 2.5, [1], object()):
        with pytest.raises(TypeError) as raised:
            call(value)
        assert str(raised.value).startswith(f"{name} must be"), str(raised.value)
