"""The observation's history planes (issue 65): they decide the legal moves (the
anti-chase rules included) and which moves draw at once; two histories that reach
one position with different legal moves get different observations; the same
tensor in every environment, from either perspective."""

import numpy as np
import pytest

import jungle
from jungle import rl

PLANE = {name: i for i, name in enumerate(rl.OBSERVATION_PLANES)}
LEGAL = slice(PLANE["legal north"], PLANE["legal north"] + 4)
DRAW = slice(PLANE["draw north"], PLANE["draw north"] + 4)


def turned(obs):
    """The fixed view `obs` as Blue sees it (jungle.rl, "From the side to move")."""
    t = obs[:, ::-1, ::-1]
    return np.concatenate([t[8:16], t[0:8], t[16:17], t[18:19], t[17:18], t[20:21], t[19:20], t[21:24],
                           t[26:28], t[24:26], t[30:32], t[28:30]])


def seen_action(board, move, perspective):
    """The action of `move` as the side to move sees it."""
    if perspective == "side_to_move" and board.turn == "blue":
        return (62 - move.from_square) * 4 + (move.action % 4 + 2) % 4
    return move.action


def shuffling_games(count, seed, plies=120, back=0.4, **rules):
    """Boards of games that often step back and forth (so positions repeat and the
    anti-chase rules bite), each position of each game, to its end."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        board = jungle.Board(**rules)
        for _ in range(plies):
            yield board
            moves = board.legal_moves
            if not moves:
                break
            undo = None
            if board.ply() >= 2 and rng.random() < back:
                last = board.move_stack[-2]
                undo = jungle.Move(last.to_square, last.from_square)
            board.push(undo if undo in moves else moves[rng.integers(len(moves))])
        yield board


def test_two_histories_reaching_one_position_get_different_observations():
    # protocol.md's 7-3 example: the wolf has gone onto a2 three times in Red's last
    # moves, so a3a2 is forbidden now; the same position reached by another shuffle
    # (onto b3 twice) leaves it allowed.
    start = "6l/7/1t5/7/7/7/W5R/7/7 r"
    a = jungle.Board(start, rules="jungle-cn")
    b = jungle.Board(start, rules="jungle-cn")
    for m in "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8".split():
        a.push(m)
    for m in "a3b3 g9f9 b3a3 f9f8 a3b3 f8g8 b3a3 g8g9 a3a2 g9f9 a2a3 f9f8".split():
        b.push(m)
    assert a.fen() == b.fen() and a.transposition_key() == b.transposition_key()
    assert "a3a2" not in {m.uci() for m in a.legal_moves} and b.is_legal("a3a2")
    for perspective in ("fixed", "side_to_move"):
        oa, ob = a.observation(perspective), b.observation(perspective)
        assert not np.array_equal(oa, ob)
        # They differ exactly in the legal-move planes, at a3 north... south (a3a2).
        differ = {int(p) for p in np.argwhere(oa != ob)[:, 0]}
        assert differ == {PLANE["legal south"]}
    # And in the default rules: one position, once before or twice before.
    once = jungle.Board()
    twice = jungle.Board()
    for m in ["a1a2", "g9g8", "a2a1"]:
        once.push(m)
    for m in ["a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1"]:
        twice.push(m)
    assert once.board_fen() == twice.board_fen() and once.turn == twice.turn
    o1, o2 = once.observation(), twice.observation()
    assert np.allclose(o1[PLANE["repetitions"]], 1 / 3) and np.allclose(o2[PLANE["repetitions"]], 2 / 3)
    # Blue's g8g9 would repeat the start a third time: a draw at once, on its plane.
    g8g9 = jungle.Move.from_uci("g8g9")
    assert o2[PLANE["draw north"]].reshape(-1)[g8g9.from_square] == 1
    assert o2[DRAW].sum() == 1 and o1[DRAW].sum() == 0


@pytest.mark.parametrize("rules", [{}, {"rules": "jungle-cn", "no_capture_plies": 50}, {"no_capture_plies": 16},
                                   {"rules": "jungle-cn", "repetitions": 3, "no_capture_plies": 30},
                                   {"repetitions": 2, "dog_swims": True}])
def test_the_planes_decide_the_legal_moves_and_the_draws(rules):
    seen = draws = forbidden = 0
    for board in shuffling_games(40, 3, **rules):
        over = board.is_game_over()
        for perspective in ("fixed", "side_to_move"):
            obs = board.observation(perspective)
            mask = board.legal_action_mask(perspective)
            # The legal planes are the mask, [direction, square].
            assert np.array_equal(obs[LEGAL].reshape(4, 63).T.reshape(-1), mask)
            if over:
                assert not obs[LEGAL].any() and not obs[DRAW].any()
        obs = board.observation()
        drawing = set()
        for m in board.legal_moves:
            after = board.copy()
            after.push(m)
            outcome = after.outcome()
            if outcome is not None and outcome.winner is None:
                drawing.add(m.action)
        marked = set(np.flatnonzero(obs[DRAW].reshape(4, 63).T.reshape(-1)))
        assert marked == drawing, (board.fen(), board.move_stack)
        repetitions = board.repetitions
        expected = min(1.0, board.repetition_count() / repetitions) if repetitions else 0.0
        assert np.allclose(obs[PLANE["repetitions"]], expected)
        if board.anti_chase and not over:
            # The same position without its history: the moves the history forbids.
            fresh = jungle.Board.from_moves(board.fen(), board.rules, [])
            if not fresh.is_game_over():
                assert set(board.legal_moves) <= set(fresh.legal_moves)
                forbidden += len(fresh.legal_moves) - len(board.legal_moves)
        seen += 1
        draws += len(drawing)
    assert seen > 300 and draws > 0
    if "rules" in rules:
        assert forbidden > 0, "the anti-chase rules never forbade a move"


def test_the_side_to_move_view_turns_the_board_and_the_moves():
    for board in shuffling_games(4, 8, rules="jungle-cn"):
        fixed = board.observation()
        for player in ("red", "blue"):
            mine = board.observation("side_to_move", player=player)
            assert np.array_equal(mine, fixed if player == "red" else turned(fixed))
        mover = board.observation("side_to_move")
        assert np.array_equal(mover, board.observation("side_to_move", player=board.turn))
        actions = board.legal_actions("side_to_move")
        assert sorted(seen_action(board, m, "side_to_move") for m in board.legal_moves) == actions
        for m in board.legal_moves:
            assert board.action_to_move(seen_action(board, m, "side_to_move"), "side_to_move") == m
    with pytest.raises(ValueError, match="perspective must be 'fixed' or 'side_to_move'"):
        jungle.Board().observation("blue")
    with pytest.raises(ValueError, match="not a side"):
        jungle.Board().observation("side_to_move", player="green")


@pytest.mark.parametrize("perspective", ["fixed", "side_to_move"])
def test_every_environment_shows_the_same_observation(perspective):
    import pyspiel

    import jungle.openspiel_game  # noqa: F401
    from jungle import pettingzoo_env

    rules = {"rules": "jungle-cn", "no_capture_plies": 40}
    zoo = pettingzoo_env.env(perspective=perspective, **rules)
    zoo.reset(seed=0)
    game = pyspiel.load_game("python_jungle", {"rules": "jungle-cn", "no_capture_plies": 40,
                                               "perspective": perspective})
    state = game.new_initial_state()
    vector = jungle.VectorEnv(1, perspective=perspective, seed=0, **rules)
    obs, masks = vector.reset()
    board = jungle.Board(**rules)
    rng = np.random.default_rng(1)
    for agent in zoo.agent_iter():
        seen, _, termination, truncation, _ = zoo.last()
        if termination or truncation:
            break
        expected = board.observation(perspective)
        assert np.array_equal(seen["observation"], expected)
        assert np.array_equal(np.asarray(state.observation_tensor(), np.float32).reshape(expected.shape), expected)
        assert np.array_equal(obs[0], expected)
        assert np.array_equal(seen["action_mask"].astype(bool), masks[0])
        assert sorted(state.legal_actions()) == list(np.flatnonzero(masks[0]))
        back = None
        if board.ply() >= 2 and rng.random() < 0.6:
            last = board.move_stack[-2]
            back = jungle.Move(last.to_square, last.from_square)
        move = back if back in board.legal_moves else board.legal_moves[rng.integers(len(board.legal_moves))]
        action = seen_action(board, move, perspective)
        board.push_action(action, perspective)
        zoo.step(action)
        state.apply_action(action)
        obs, masks, _, terminated, truncated, _ = vector.step([action])
        if terminated[0] or truncated[0]:
            assert np.array_equal(vector.final_observations()[1][0], board.observation(perspective))
    assert board.ply() > 10


def test_the_gymnasium_agent_sees_the_board_from_its_side():
    from jungle.gymnasium_env import JungleEnv

    env = JungleEnv(agent_color="blue", elo=1200, perspective="side_to_move")
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20):
        assert np.array_equal(obs, env.board.observation("side_to_move", player="blue"))
        assert np.array_equal(info["action_mask"], env.board.legal_action_mask("side_to_move"))
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            break


def test_openspiel_random_sim_test_from_each_players_side():
    import pyspiel

    import jungle.openspiel_game  # noqa: F401

    game = pyspiel.load_game("python_jungle", {"perspective": "side_to_move", "rules": "jungle-cn",
                                               "no_capture_plies": 60})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    with pytest.raises(Exception, match="perspective"):
        pyspiel.load_game("python_jungle", {"perspective": "blue"})
