"""Game records (issue 65): read and written as `jungle match` writes them, every
game of data/ round-tripped, a match file read, bad files refused with the line."""

import io
import lzma
import subprocess

import pytest

import jungle
from jungle import records

START = jungle.STARTING_FEN


def shipped_record_files(root):
    return sorted(root.glob("data/**/*.txt.xz"))


def test_every_record_in_data_round_trips(repo_root):
    files = shipped_record_files(repo_root)
    assert files, "data/ has record files"
    count = 0
    for path in files:
        text = lzma.decompress(path.read_bytes()).decode("utf-8")
        games = records.read_text(text)
        assert records.write_text(games) == text, path
        for game in games:
            board = game.board()
            assert len(board.move_stack) == len(game.moves) and board.start_fen() == game.start_fen
            if board.is_game_over():
                assert board.result() == game.result == game.headers["Result"]
                assert game.headers["Termination"] == str(board.outcome())
        count += len(games)
    assert count >= 1000


def test_a_match_file_reads_back(engine_binary, tmp_path):
    out = tmp_path / "match.txt"
    subprocess.run([engine_binary, "match", "--engine", f"cmd={engine_binary} arg=greedy name=greedy",
                    "--engine", f"cmd={engine_binary} arg=greedy arg=--random name=random",
                    "--games", "4", "--movetime", "10", "--pgn", str(out)],
                   check=True, capture_output=True, timeout=300)
    games = records.read(out)
    assert [g.headers["Game"] for g in games] == ["1", "2", "3", "4"]
    for game in games:
        assert {game.headers["Red"], game.headers["Blue"]} == {"greedy", "random"}
        board = game.board()
        assert board.is_game_over() and board.result() == game.result
    with open(out) as f:
        assert records.read(f) == games


def test_headers_moves_comments_and_results_write_and_read_back():
    board = jungle.Board(rules="jungle-cn", dog_swims=True)
    for m in ("g3g4", "a7a6", "g4g5"):
        board.push(m)
    game = records.Game.from_board(board, headers={"Red": "me", "Blue": "you", "Event": "test"},
                                   comments=["a {brace}", None, "eval +0.20"])
    assert game.result == "*" and game.headers["Termination"] == "unfinished"
    over = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    over.push("d8d9")
    won = records.Game.from_board(over)
    text = records.write_text([game, won])
    assert "[Event \"test\"]" in text and "1. g3g4 {a (brace)} a7a6 2. g4g5 {eval +0.20} *" in text
    again = records.read_text(text)
    assert len(again) == 2 and again[1] == won
    assert again[0].comments == ["a (brace)", None, "eval +0.20"] and again[0].headers["Event"] == "test"
    assert again[0].board() == board and again[0].board().rules == board.rules
    assert again[1].result == "1-0" and again[1].headers["Termination"] == "red wins (den entered)"
    buffer = io.StringIO()
    records.write([won], buffer)
    assert records.read(io.StringIO(buffer.getvalue())) == [won]
    with pytest.raises(ValueError, match="a tag's name is one word"):
        records.write_text([records.Game({"Bad key": "x", "FEN": START})])
    with pytest.raises(ValueError, match="result must be one of"):
        records.Game({}, [], result="2-0")
    with pytest.raises(ValueError, match="one per move"):
        records.Game({}, ["g3g4"], comments=[])
    with pytest.raises(TypeError, match="games must be jungle.records.Game"):
        records.write_text(["1. g3g4 *"])


@pytest.mark.parametrize("text, line, words", [
    ('[Game "1"\n[FEN "' + START + '"]\n\n1. g3g4 *\n', 1, "unterminated tag"),
    ('[Game "1"]\n\n1. g3g4 *\n', 3, "moves without a FEN tag"),
    ('[Game "1"]\n[Red "a"]\n[FEN "l5t/7 r"]\n\n1. g3g4 *\n', 3, "rank"),
    ('[Rules "jungle-xx"]\n[FEN "' + START + '"]\n\n1. g3g4 *\n', 1, "jungle-xx"),
    ('[FEN "' + START + '"]\n\n1. g3g4 a7a6 *\n\n[FEN "' + START + '"]\n\n1. g3g4 a1a3 *\n', 7,
     "move 2 'a1a3'"),
    ('[FEN "' + START + '"]\n\n1. g3g4 {eval +0.2 a7a6 *\n', 3, "comment"),
])
def test_bad_files_are_refused_with_the_line(text, line, words):
    with pytest.raises(ValueError, match=rf"^line {line}: .*{words}"):
        records.read_text(text)
