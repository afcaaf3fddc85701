"""The rules through the python-chess-like API: every answer is the core's."""

import copy
import pickle

import pytest

import jungle
from jungle import Board, Move, Piece


def test_start_position_and_its_moves():
    board = Board()
    assert board.fen() == jungle.STARTING_FEN
    assert board.turn == jungle.RED
    assert len(board.legal_moves) == 24
    assert Move.from_uci("g3g4") in board.legal_moves
    assert board.piece_at("a1") == Piece("red", "tiger")
    assert board.piece_at(jungle.parse_square("g9")) == Piece.from_symbol("t")
    assert board.piece_at("d4") is None
    assert not board.is_game_over() and board.outcome() is None and board.result() == "*"
    assert board.ply() == 0 and board.halfmove_clock == 0 and board.fullmove_number == 1


def test_push_pop_copy_restore_everything():
    board = Board()
    before = board.fen()
    board.push(Move.from_uci("g3g4"))
    board.push("a7a6")
    assert board.turn == "red" and board.fullmove_number == 2
    assert board.move_stack == [Move.from_uci("g3g4"), Move.from_uci("a7a6")]
    other = board.copy()
    assert board.pop() == Move.from_uci("a7a6")
    assert board.peek() == Move.from_uci("g3g4")
    assert other.ply() == 2, "a copy does not share the stack"
    board.pop()
    assert board.fen() == before
    with pytest.raises(IndexError):
        board.pop()


def test_equality_follows_the_position_and_the_rules():
    a, b = Board(), Board()
    assert a == b and a.transposition_key() == b.transposition_key()
    a.push("g3g4")
    assert a != b
    b.push("g3g4")
    assert a == b and len({a.transposition_key(), b.transposition_key()}) == 1
    assert Board() != Board(rules="jungle-cn")
    assert Move.from_uci("g3g4") == Move("g3", "g4") == Move(20, 27)
    assert len({Move.from_uci("g3g4"), Move.from_uci("g3g4")}) == 1


def test_pickle_and_deepcopy_keep_the_game():
    board = Board(rules="jungle-cn", dog_swims=True)
    for m in ("g3g4", "a7a6", "g4g5"):
        board.push(m)
    for clone in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board), copy.copy(board)):
        assert clone == board and clone.move_stack == board.move_stack and clone.rules == board.rules
    assert pickle.loads(pickle.dumps(Move.from_uci("b3b7"))) == Move.from_uci("b3b7")


def test_diagram_and_repr():
    text = str(Board())
    assert text.splitlines()[0].split() == ["9", "l", ".", "#", "*", "#", ".", "t"]
    assert "~" in text and text.rstrip().endswith("a b c d e f g")
    assert repr(Board()) == f"Board('{jungle.STARTING_FEN}')"
    assert "jungle-cn" in repr(Board(rules="jungle-cn"))


@pytest.mark.parametrize(
    "fen, moves, winner, termination",
    [
        ("l5t/3R3/7/7/7/7/7/7/6L r", "d8d9", "red", "den"),
        ("7/7/7/7/c6/D6/7/7/7 r", "a4a5", "red", "no_animals"),
        ("rC5/D6/7/7/7/7/7/7/6L b", "", "red", "no_moves"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1", "a1b1 a9b9 b1a1 b9a9 a1b1 a9b9 b1a1 b9a9", None, "repetition"),
    ],
)
def test_outcomes_say_who_won_and_why(fen, moves, winner, termination):
    board = Board(fen)
    for m in moves.split():
        board.push(m)
    outcome = board.outcome()
    assert board.is_game_over()
    assert (outcome.winner, outcome.termination) == (winner, termination)
    assert board.result() == {"red": "1-0", "blue": "0-1", None: "1/2-1/2"}[winner]


def test_no_capture_draw_and_its_settings():
    fen = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 98 60"
    board = Board(fen, repetitions=0)
    board.push("a1b1")
    assert not board.is_game_over()
    board.push("a9b9")
    assert board.outcome().termination == "no_capture"
    off = Board(fen, no_capture_plies=0, repetitions=0)
    off.push("a1b1")
    off.push("a9b9")
    assert not off.is_game_over()
    assert Board(rules="jungle-cn").no_capture_plies == 200 and Board(rules="jungle-cn").repetitions == 0


def test_dog_swims_and_trapped_lose_attack_change_the_moves():
    # A red dog next to the river: it may enter the water only when dogs swim.
    fen = "l6/7/7/7/7/7/1D5/7/6L r"
    assert "b3b4" not in [m.uci() for m in Board(fen).legal_moves]
    assert "b3b4" in [m.uci() for m in Board(fen, dog_swims=True).legal_moves]
    # A red dog on Blue's trap d8 next to a blue cat on d7: it takes it unless trapped
    # animals lose their attack.
    fen = "l5t/3D3/3c3/7/7/7/7/7/6L r"
    assert Board(fen).is_legal("d8d7")
    assert not Board(fen, trapped_lose_attack=True).is_legal("d8d7")
    # A dog in water is a position string only dogs that swim accept.
    with pytest.raises(ValueError, match="only rats swim"):
        Board("l6/7/7/7/1D5/7/7/7/6L r")
    assert Board("l6/7/7/7/1D5/7/7/7/6L r", dog_swims=True).piece_at("b5").animal == "dog"


def test_jumps_and_their_blocking_rat():
    board = Board("l6/7/7/7/7/7/3L3/7/6t r")
    assert board.is_legal("d3d7") is False  # d3 is not on the river's bank
    board = Board("l6/7/7/7/7/7/1L5/7/6t r")
    assert board.is_legal("b3b7")
    blocked = Board("l6/7/7/1r5/7/7/1L5/7/6t r")
    assert not blocked.is_legal("b3b7")
    assert Move.from_uci("b3b7").action == jungle.parse_square("b3") * 4 + 0


# The 7-3 rule (Chinese online rules): Red's wolf goes to a2 three times.
SHUFFLE = "6l/7/1t5/7/7/7/W5R/7/7 r"
WOLF_THREE_TIMES = "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8"


def test_anti_chase_refusals_name_their_rule():
    board = Board(SHUFFLE, rules="jungle-cn")
    for m in WOLF_THREE_TIMES.split():
        board.push(m)
    assert "a3a2" not in [m.uci() for m in board.legal_moves]
    reason = board.chase_reason("a3a2")
    assert reason.startswith("rule 7-3: the red wolf has moved onto a2 3 times in Red's last 7 moves")
    assert board.chase_reason("a3b3") is None
    before = board.fen()
    with pytest.raises(ValueError, match=r"forbidden now by the anti-chase rules .*: rule 7-3: the red wolf"):
        board.push("a3a2")
    with pytest.raises(ValueError, match="rule 7-3"):
        board.parse_uci("a3a2")
    assert board.fen() == before and board.ply() == 12
    plain = Board(SHUFFLE)
    for m in WOLF_THREE_TIMES.split():
        plain.push(m)
    assert plain.is_legal("a3a2") and plain.chase_reason("a3a2") is None
    # The rules can be turned on alone.
    alone = Board(SHUFFLE, anti_chase=True)
    for m in WOLF_THREE_TIMES.split():
        alone.push(m)
    assert not alone.is_legal("a3a2")


def test_seventeen_five_and_no_legal_move_loses():
    board = Board("6l/7/7/7/r6/7/7/7/1L5 r", rules="jungle-cn")
    red = ["b1a1", "a1a2", "a2b2", "b2b1"]
    blue = ["g9f9", "f9f8", "f8g8", "g8g9"]
    for i in range(17):
        board.push(red[i % 4])
        board.push(blue[i % 4])
    assert board.legal_moves == []
    assert (board.outcome().winner, board.outcome().termination) == ("blue", "no_moves")
    with pytest.raises(ValueError, match="the game is over"):
        board.push("a1a2")


BAD_FENS = ["", "xx", "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L", "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x",
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r -1 1", "8/7/7/7/7/7/7/7/7 r", "\x00", "é" * 100,
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1 extra", "ll5t/7/7/7/7/7/7/7/7 r"]


@pytest.mark.parametrize("fen", BAD_FENS)
def test_bad_position_strings_raise_value_error(fen):
    with pytest.raises(ValueError):
        Board(fen)


@pytest.mark.parametrize("text", ["", "zz", "a1", "a1a1", "a0a1", "h1h2", "a1a2a3", "é1a1", "\x00\x00\x00\x00", "A1A2"])
def test_bad_moves_raise_value_error_and_change_nothing(text):
    board = Board()
    with pytest.raises(ValueError):
        Move.from_uci(text)
    with pytest.raises(ValueError):
        board.push(text)
    with pytest.raises(ValueError):
        board.parse_uci(text)
    assert not board.is_legal(text)
    assert board == Board() and board.ply() == 0


def test_bad_arguments_raise_value_error_with_the_reason():
    with pytest.raises(ValueError, match="unknown rule set"):
        Board(rules="chess")
    with pytest.raises(ValueError, match="no_capture_plies"):
        Board(no_capture_plies=-1)
    with pytest.raises(ValueError, match="repetitions"):
        Board(repetitions=1000)
    with pytest.raises(ValueError, match="off the board"):
        Board().piece_at(63)
    with pytest.raises(ValueError, match="not a square"):
        Board().piece_at("z9")
    with pytest.raises(ValueError, match="not an animal"):
        Piece("red", "dragon")
    with pytest.raises(ValueError, match="not a side"):
        Piece("green", "rat")
    with pytest.raises(ValueError, match="not a legal move"):
        Board().push("g9g8")
    with pytest.raises(ValueError, match="not a move in Jungle"):
        Board().push("a1a3")
    with pytest.raises(ValueError, match="not a legal move"):
        Board().action_to_move(2)  # a1 south: off the board
    with pytest.raises(ValueError, match="not a legal move"):
        Board().push_action(-5)
    with pytest.raises(ValueError):
        Board.from_moves(jungle.STARTING_FEN, "jungle (flying dogs)", [])
    with pytest.raises(ValueError, match="depth must be a whole number from 0 to 32"):
        Board().perft(99)
    with pytest.raises(TypeError):
        Board().push(3.5)


def test_rules_text_round_trips():
    board = Board(rules="jungle", dog_swims=True, no_capture_plies=50, repetitions=0, anti_chase=True)
    again = Board.from_moves(board.start_fen(), board.rules, [])
    assert again.rules == board.rules and again == board
    assert board.variant == "jungle" and board.dog_swims and board.anti_chase
    assert ("DogSwims", "true") in board.rule_options()


def test_python_chess_habits():
    board = Board()
    board.push("g3g4")
    pieces = board.piece_map()
    assert isinstance(pieces, dict) and len(pieces) == 16
    assert pieces[jungle.parse_square("a1")] == Piece("red", "tiger") and list(pieces) == sorted(pieces)
    assert board.board_fen() == board.fen().split()[0]
    root = board.root()
    assert root == Board() and root.ply() == 0 and board.ply() == 1
    # Mirror: turned half round with the colours swapped; the start maps onto itself.
    assert Board().mirror() == Board("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1")
    mirrored = board.mirror()
    assert mirrored.turn == "red" and mirrored.piece_at("a6") == Piece("blue", "rat")
    assert mirrored.mirror() == Board(board.fen())
    assert Board(rules="jungle-cn").mirror().rules == "jungle-cn"
    board.set_fen("l5t/3R3/7/7/7/7/7/7/6L r")
    assert board.ply() == 0 and board.fen() == "l5t/3R3/7/7/7/7/7/7/6L r 0 1"
    with pytest.raises(ValueError):
        board.set_fen("xx")
    assert board.fen() == "l5t/3R3/7/7/7/7/7/7/6L r 0 1"
    shuffle = Board()
    assert not shuffle.is_repetition(2) and shuffle.is_repetition(1)
    for m in "a1b1 a9b9 b1a1 b9a9".split():
        shuffle.push(m)
    assert shuffle.is_repetition(2) and not shuffle.is_repetition() and not shuffle.can_claim_draw()
    for m in "a1b1 a9b9 b1a1 b9a9".split():
        shuffle.push(m)
    assert shuffle.is_repetition() and shuffle.can_claim_draw() and shuffle.outcome().termination == "repetition"
    with pytest.raises(ValueError, match="^count must be"):
        shuffle.is_repetition(0)
