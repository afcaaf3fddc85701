"""The faults a reinforcement-learning researcher met (issue 65), one test or more
each: every one failed before its fix."""

import copy
import importlib.metadata
import pathlib
import pickle
import threading
import time

import numpy as np
import pytest

import jungle
import jungle.engine

SHUFFLE = ["a1a2", "g9g8", "a2a1", "g8g9"] * 2


def _den_entered():
    board = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    board.push("d8d9")
    return board


# 1. Parallel environments crash at the first game end ------------------------------


def test_outcomes_and_pieces_pickle():
    drawn = jungle.Board()
    for m in SHUFFLE:
        drawn.push(m)
    for outcome in (drawn.outcome(), _den_entered().outcome()):
        again = pickle.loads(pickle.dumps(outcome))
        assert again == outcome and str(again) == str(outcome) and again.reason == outcome.reason
        assert copy.deepcopy(outcome) == outcome
    for piece in (jungle.Piece("red", "rat"), jungle.Piece("blue", "elephant")):
        assert pickle.loads(pickle.dumps(piece)) == piece
    assert jungle.Outcome("blue", "no_moves").result() == "0-1"
    with pytest.raises(ValueError, match="winner is None"):
        jungle.Outcome("red", "repetition")
    with pytest.raises(ValueError, match="has a winner"):
        jungle.Outcome(None, "den")
    with pytest.raises(ValueError, match="termination: 'mate' is not one of"):
        jungle.Outcome("red", "mate")


def test_pettingzoo_infos_pickle_at_the_game_end():
    from jungle import pettingzoo_env

    env = pettingzoo_env.env(fen="l5t/3R3/7/7/7/7/7/7/6L r")
    env.reset(seed=1)
    env.step(jungle.Move.from_uci("d8d9").action)
    _, reward, termination, _, info = env.last()
    assert termination and isinstance(info["outcome"], jungle.Outcome)
    assert pickle.loads(pickle.dumps(info)) == info


def test_async_gymnasium_vector_env_runs_through_game_ends():
    import gymnasium

    import jungle.gymnasium_env  # noqa: F401  (registers the environment)

    envs = gymnasium.make_vec("jungle/Jungle-v0", num_envs=2, vectorization_mode="async", elo=1200)
    try:
        _, infos = envs.reset(seed=3)
        rng = np.random.default_rng(3)
        ends = 0
        for _ in range(1000):
            masks = infos["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            _, _, terminated, truncated, infos = envs.step(actions)
            ends += int((terminated | truncated).sum())
        assert ends >= 5
    finally:
        envs.close()


def test_the_gymnasium_env_deep_copies_and_the_copy_plays_on_as_the_original():
    from jungle.gymnasium_env import JungleEnv

    env = JungleEnv(elo=1200)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(3):
        _, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    twin = copy.deepcopy(env)
    pickled = pickle.loads(pickle.dumps(env))
    for _ in range(30):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        out = env.step(action)
        for other in (twin, pickled):
            again = other.step(action)
            assert np.array_equal(out[0], again[0]) and out[1:4] == again[1:4]
        info = out[4]
        if out[2] or out[3]:
            break
    assert twin.board == env.board and twin.board.move_stack == env.board.move_stack


@pytest.mark.parametrize("settings", [{}, {"opponent": "greedy", "agent_color": "both"},
                                      {"opponent": 1200, "opponent_nodes": 2000}])
def test_vector_envs_copy_and_pickle_and_play_on_as_the_original(settings):
    env = jungle.VectorEnv(70, seed=3, max_plies=80, perspective="side_to_move", rules="jungle-cn",
                           dog_swims=True, **settings)
    env.reset()
    for _ in range(30):
        env.step(env.random_actions())
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env)), copy.copy(env)]
    for other in copies:
        assert other.perspective == env.perspective and other.opponent == env.opponent
        assert all(other.board(i).move_stack == env.board(i).move_stack for i in range(70))
    for _ in range(40):
        actions = env.random_actions()
        out = env.step(actions)
        for other in copies:
            assert np.array_equal(other.random_actions(), actions)
            for mine, theirs in zip(out, other.step(actions)):
                assert np.array_equal(mine, theirs)


def test_engines_copy_with_their_settings_and_seed():
    engine = jungle.Engine(elo=1300, hash_mb=3, seed=11, options={"MultiPV": 2, "Move Overhead": 40})
    for other in (copy.deepcopy(engine), pickle.loads(pickle.dumps(engine))):
        assert other.hash_mb == 3 and other.threads == 1
        assert len(other.analyse(jungle.Board(), depth=2)) == 2
    board = jungle.Board()
    moves = []
    for e in (engine, copy.deepcopy(engine)):
        e.forget()
        moves.append([e.play(board, depth=2).move for _ in range(8)])
    assert moves[0] == moves[1]


# 2. A drawn game still has legal moves ------------------------------------------


@pytest.mark.parametrize("ended", ["repetition", "den"])
def test_a_finished_game_has_no_legal_moves(ended):
    if ended == "repetition":
        board = jungle.Board()
        for m in SHUFFLE:
            board.push(m)
        assert board.outcome().termination == "repetition"
    else:
        board = _den_entered()
    assert board.legal_moves == [] and board.legal_actions() == []
    assert not board.legal_action_mask().any()
    assert not board.is_legal("g3g4") and not board.is_legal("a1a2")
    with pytest.raises(ValueError, match="the game is over"):
        board.push("a1a2")
    with pytest.raises(ValueError, match="not a legal move"):
        board.push_action(jungle.Move.from_uci("a1a2").action)


# 3. Seeds do not reproduce ---------------------------------------------------------


@pytest.mark.parametrize("agent_color, elo", [("blue", 1000), ("red", 1200), ("blue", jungle.ELO_MIN)])
def test_check_env_passes_against_a_weakened_engine(agent_color, elo):
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import jungle.gymnasium_env  # noqa: F401

    check_env(gymnasium.make("jungle/Jungle-v0", agent_color=agent_color, elo=elo).unwrapped,
              skip_render_check=True)


def test_the_same_seed_gives_the_same_episode():
    from jungle.gymnasium_env import JungleEnv

    env = JungleEnv(agent_color="blue", elo=1000)
    firsts = {env.reset(seed=0)[0].tobytes() for _ in range(10)}
    assert len(firsts) == 1
    assert len({env.reset(seed=s)[0].tobytes() for s in range(10)}) > 1

    def episode(seed):
        observations = []
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        for _ in range(200):
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            observations.append(obs)
            if terminated or truncated:
                break
        return np.array(observations), reward

    first, reward = episode(4)
    again, reward_again = episode(4)
    assert np.array_equal(first, again) and reward == reward_again


def test_pettingzoo_seeds_its_spaces():
    from pettingzoo.test import seed_test

    from jungle import pettingzoo_env

    seed_test(pettingzoo_env.env, num_cycles=100)

    def game(seed):
        env = pettingzoo_env.env(max_plies=60)
        env.reset(seed=seed)
        actions = []
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
            actions.append(action)
            env.step(action)
        return actions

    assert game(9) == game(9)
    assert game(9) != game(10)


# 4. An episode ended by an illegal action goes on --------------------------------


def test_an_illegal_action_ends_the_episode_for_good():
    from jungle.gymnasium_env import JungleEnv

    env = JungleEnv(opponent_limits={"nodes": 100})
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, True)
    legal = jungle.Move.from_uci("g3g4").action
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(legal)
    env.reset()
    env.step(legal)


# 5. A Board is mutable and hashable --------------------------------------------------


def test_a_board_is_not_hashable_and_has_a_transposition_key():
    board = jungle.Board()
    with pytest.raises(TypeError, match="unhashable"):
        {board}
    start = board.transposition_key()
    board.push("g3g4")
    assert board.transposition_key() != start
    for m in ["a7a6", "g4g3", "a6a7"]:
        board.push(m)
    assert board.transposition_key() == start and board.ply() == 4
    assert jungle.Board("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b").transposition_key() != start


# 6. Errors that say the wrong thing -----------------------------------------------------


def test_actions_too_big_for_64_bits_are_named_as_given():
    env = jungle.VectorEnv(2)
    env.reset()
    g3g4 = jungle.Move.from_uci("g3g4").action
    with pytest.raises(ValueError, match=r"^actions: action 18446744073709551615 of game 0 is not a legal move"):
        env.step(np.array([2**64 - 1, g3g4], dtype=np.uint64))
    with pytest.raises(ValueError, match=rf"^actions: action {2**70} of game 1 is not a legal move"):
        env.step([g3g4, 2**70])
    with pytest.raises(IndexError, match=rf"^indices: game {2**70} does not exist"):
        env.reset(indices=[0, 2**70])
    assert env.board(0).ply() == 0 and env.board(1).ply() == 0
    env.step(np.array([g3g4, g3g4], dtype=np.uint64))
    assert env.board(1).ply() == 1


@pytest.mark.parametrize("make", [lambda s: jungle.VectorEnv(2, seed=s), lambda s: jungle.Engine(hash_mb=1, seed=s)])
def test_seeds_are_whole_numbers_from_zero(make):
    for bad in (-1, 2**64, -2**70):
        with pytest.raises(ValueError, match=r"^seed must be a whole number from 0 to 2\*\*64 - 1, got"):
            make(bad)
    with pytest.raises(TypeError, match="^seed must be a whole number"):
        make(1.5)
    make(0)
    make(2**64 - 1)


def test_squares_and_moves_say_what_is_wrong_once():
    with pytest.raises(ValueError) as raised:
        jungle.Board().piece_at("z9")
    assert str(raised.value) == "square: 'z9' is not a square (files a-g, ranks 1-9)"
    with pytest.raises(ValueError) as raised:
        jungle.Move(3, 3)
    assert str(raised.value) == "'d1d1' is not a move: it starts and ends on d1"
    for bad in (("a1", "g9"), ("a1", "a3"), ("a1", "b2"), ("a3", "a7")):
        with pytest.raises(ValueError, match="is not a move in Jungle"):
            jungle.Move(*bad)
        with pytest.raises(ValueError, match="is not a move in Jungle"):
            jungle.Move.from_uci("".join(bad))
        assert not jungle.Board().is_legal("".join(bad))
    # A step, and the river jumps (along a file across three water squares, along a
    # rank across two).
    for good in (("a3", "a4"), ("b3", "b7"), ("d4", "g4"), ("a5", "d5")):
        assert jungle.Move(*good).uci() == "".join(good)


def test_a_board_is_free_for_other_threads_during_perft():
    board = jungle.Board()
    counted = []
    worker = threading.Thread(target=lambda: counted.append(board.perft(7)))
    worker.start()
    overlapped = 0
    while worker.is_alive():
        board.push("g3g4")  # was: RuntimeError: Already borrowed
        board.pop()
        overlapped += worker.is_alive()
    worker.join()
    assert overlapped > 0 and counted == [1_908_199_299] and board.ply() == 0


def test_a_board_is_free_for_other_threads_during_a_search():
    engine = jungle.Engine(hash_mb=1)
    board = jungle.Board()
    found = []
    worker = threading.Thread(target=lambda: found.append(engine.analyse(board, movetime=5.0)))
    worker.start()
    time.sleep(0.1)
    board.push("g3g4")
    engine.stop()
    worker.join()
    assert found and found[0][0].pv[0] in jungle.Board().legal_moves


def test_a_clock_and_an_increment_may_be_one_number_for_both_sides():
    engine = jungle.Engine(hash_mb=1)
    assert engine.play(jungle.Board(), clock=1, increment=0.1).move in jungle.Board().legal_moves
    assert jungle.engine.go_line(clock=2, increment=0.5) == jungle.engine.go_line(clock=(2, 2), increment=(0.5, 0.5))
    with pytest.raises(TypeError, match=r"^increment must be seconds \(a number for both sides"):
        engine.play(jungle.Board(), clock=1, increment="x")


def test_engine_process_closes(engine_binary):
    engine = jungle.engine.EngineProcess(engine_binary)
    assert engine.play(jungle.Board(), nodes=500, clock=2).move in jungle.Board().legal_moves
    engine.close()
    assert engine._process.poll() is not None
    engine.close()


# 7. The name ---------------------------------------------------------------------------


def test_the_distribution_is_doushouqi_and_the_import_name_jungle():
    # `jungle` and `jungle-chess` are other projects' names on PyPI.
    dist = importlib.metadata.distribution("doushouqi")
    assert dist.version == jungle.__version__
    files = {str(f) for f in dist.files or []}
    if "doushouqi.pth" in files:  # an editable install (maturin develop): the sources
        source = pathlib.Path(dist.locate_file("doushouqi.pth").read_text().strip())
        assert (source / "jungle" / "__init__.py").is_file()
    else:
        assert "jungle/__init__.py" in files, sorted(files)
