"""The learning environments: the action encoding, the observation, the vectorised
environment, PettingZoo's api_test, Gymnasium's env checker, OpenSpiel's
random_sim_test and full games of OpenSpiel's MCTSBot."""

import numpy as np
import pytest

import jungle
from jungle import rl


def random_games(count, seed, **rules):
    """Positions of random games (each game to its end)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        board = jungle.Board(**rules)
        while not board.is_game_over():
            yield board
            moves = board.legal_moves
            board.push(moves[rng.integers(len(moves))])
        yield board


def test_every_move_has_one_action_and_back():
    seen = 0
    for board in random_games(20, 1, dog_swims=True):
        moves = board.legal_moves
        actions = [m.action for m in moves]
        assert len(set(actions)) == len(actions)
        assert sorted(actions) == board.legal_actions()
        mask = board.legal_action_mask()
        assert mask.dtype == bool and mask.shape == (jungle.NUM_ACTIONS,)
        assert set(np.flatnonzero(mask)) == set(actions)
        for m in moves:
            assert board.action_to_move(m.action) == m
            sq, direction = divmod(m.action, 4)
            assert sq == m.from_square
            assert rl.describe_action(m.action).startswith(jungle.SQUARE_NAMES[sq])
        seen += len(moves)
    assert seen > 10_000


def test_jumps_are_actions_in_their_direction():
    board = jungle.Board("l6/7/7/7/7/7/1L5/7/6t r")
    jump = jungle.Move.from_uci("b3b7")
    assert jump in board.legal_moves
    assert jump.action == rl.action_of(jungle.parse_square("b3"), 0)
    assert board.action_to_move(jump.action) == jump
    sideways = jungle.Board("l6/7/7/A6/7/7/7/7/6t r".replace("A", "L"))
    assert sideways.action_to_move(rl.action_of(jungle.parse_square("a6"), 1)) == jungle.Move.from_uci("a6d6")


def test_observation_planes():
    board = jungle.Board()
    obs = board.observation()
    assert obs.shape == jungle.OBSERVATION_SHAPE == (23, 9, 7) and obs.dtype == np.float32
    assert obs[:16].sum() == 16
    red_tiger = rl.OBSERVATION_PLANES.index("red tiger")
    assert obs[red_tiger, 0, 0] == 1  # a1
    blue_rat = rl.OBSERVATION_PLANES.index("blue rat")
    assert obs[blue_rat, 6, 0] == 1  # a7
    assert obs[16].sum() == 12 and obs[16, 3, 1] == 1  # water b4
    assert obs[17, 0, 2] == 1 and obs[18, 8, 4] == 1 and obs[19, 0, 3] == 1 and obs[20, 8, 3] == 1
    assert (obs[21] == 1).all() and (obs[22] == 0).all()
    board.push("g3g4")
    obs = board.observation()
    assert (obs[21] == 0).all() and np.allclose(obs[22], 0.01)


def test_vector_env_steps_games_to_their_end():
    env = jungle.VectorEnv(8, max_plies=300)
    obs, masks = env.reset()
    assert obs.shape == (8, 23, 9, 7) and masks.shape == (8, 252)
    assert (masks.sum(axis=1) == 24).all()
    rng = np.random.default_rng(3)
    finished = 0
    boards = [jungle.Board() for _ in range(8)]
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)
        obs, masks, rewards, terminated, truncated, to_play = env.step(actions)
        for i, a in enumerate(actions):
            # The same game played by Board gives the same outcome.
            mover = boards[i].turn
            boards[i].push_action(int(a))
            outcome = boards[i].outcome()
            if terminated[i]:
                assert outcome is not None
                expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == mover else -1.0)
                assert rewards[i] == expected
                boards[i] = jungle.Board()
                finished += 1
            elif truncated[i]:
                assert boards[i].ply() == 300
                boards[i] = jungle.Board()
            else:
                assert outcome is None and rewards[i] == 0
                assert np.array_equal(obs[i], boards[i].observation())
                assert np.array_equal(masks[i], boards[i].legal_action_mask())
            assert to_play[i] == (0 if boards[i].turn == "red" else 1)
    assert finished > 0


def test_vector_env_refuses_bad_actions_and_moves_nothing():
    env = jungle.VectorEnv(3)
    env.reset()
    with pytest.raises(ValueError, match="action 2 of game 1"):
        env.step(np.array([80, 2, 80], dtype=np.int64))  # 80 = g3 north
    with pytest.raises(ValueError, match="one action per game"):
        env.step(np.array([80], dtype=np.int64))
    with pytest.raises(ValueError):
        env.step(np.array([80, 80, 999], dtype=np.int64))
    assert all(env.board(i) == jungle.Board() for i in range(3))
    with pytest.raises(IndexError):
        env.board(3)
    with pytest.raises(ValueError):
        jungle.VectorEnv(0)


def test_vector_env_parallel_and_serial_agree():
    """From 64 games on, the games are stepped on all cores: the same answers."""
    big = jungle.VectorEnv(70)
    small = [jungle.VectorEnv(1) for _ in range(70)]
    _, masks = big.reset()
    for s in small:
        s.reset()
    rng = np.random.default_rng(5)
    for _ in range(50):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)
        out = big.step(actions)
        masks = out[1]
        for i, s in enumerate(small):
            one = s.step(actions[i:i + 1])
            for a, b in zip(out, one):
                assert np.array_equal(a[i], b[0])


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    from jungle import pettingzoo_env

    api_test(pettingzoo_env.env(), num_cycles=300)
    api_test(pettingzoo_env.env(rules="jungle-cn", dog_swims=True, max_plies=50), num_cycles=100)


def test_pettingzoo_game_to_the_end():
    from jungle import pettingzoo_env

    env = pettingzoo_env.env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    board = jungle.Board()
    final = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        board.push_action(action)
        env.step(action)
    outcome = board.outcome()
    assert outcome is not None
    expected = {a: 0 if outcome.winner is None else (1 if a == outcome.winner else -1) for a in ("red", "blue")}
    assert final == expected


def test_gymnasium_env_checker_and_an_episode():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import jungle.gymnasium_env  # noqa: F401  (registers the environment)

    # At full strength on a node limit the engine's replies are deterministic, as
    # the checker wants them; a weakened engine draws its moves from the clock.
    check_env(gymnasium.make("jungle/Jungle-v0", opponent_limits={"nodes": 200}).unwrapped,
              skip_render_check=True)
    env = gymnasium.make("jungle/Jungle-v0", elo=jungle.ELO_MIN, agent_color="blue")
    obs, info = env.reset(seed=0)
    assert env.unwrapped.board.ply() == 1, "the engine, Red, moved first"
    rng = np.random.default_rng(0)
    for _ in range(400):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated and reward in (-1.0, 0.0, 1.0)
    # An illegal action ends the episode as a loss.
    obs, info = env.reset()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, True)
    with pytest.raises(ValueError):
        gymnasium.make("jungle/Jungle-v0", elo=5)


def test_openspiel_random_sim_test():
    import pyspiel

    import jungle.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_jungle")
    assert game.num_distinct_actions() == 252
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    variant = pyspiel.load_game("python_jungle", {"rules": "jungle-cn", "dog_swims": True})
    pyspiel.random_sim_test(variant, num_sims=3, serialize=False, verbose=False)
    with pytest.raises(Exception, match="no-capture"):
        pyspiel.load_game("python_jungle", {"no_capture_plies": 0})


def test_openspiel_mcts_bots_play_a_full_game():
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import jungle.openspiel_game  # noqa: F401

    # A short no-capture rule keeps random rollouts short; the game is played to
    # its end under the rules.
    game = pyspiel.load_game("python_jungle", {"no_capture_plies": 30})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=16, evaluator=evaluator, random_state=rng)
            for _ in range(2)]
    state = game.new_initial_state()
    board = jungle.Board(no_capture_plies=30)
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        board.push_action(action)
        state.apply_action(action)
    assert board.is_game_over()
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
