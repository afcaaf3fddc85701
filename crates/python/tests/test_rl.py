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
    assert obs.shape == jungle.OBSERVATION_SHAPE == (32, 9, 7) and obs.dtype == np.float32
    assert obs[:16].sum() == 16
    red_tiger = rl.OBSERVATION_PLANES.index("red tiger")
    assert obs[red_tiger, 0, 0] == 1  # a1
    blue_rat = rl.OBSERVATION_PLANES.index("blue rat")
    assert obs[blue_rat, 6, 0] == 1  # a7
    assert obs[16].sum() == 12 and obs[16, 3, 1] == 1  # water b4
    assert obs[17, 0, 2] == 1 and obs[18, 8, 4] == 1 and obs[19, 0, 3] == 1 and obs[20, 8, 3] == 1
    assert (obs[21] == 1).all() and (obs[22] == 0).all() and np.allclose(obs[23], 1 / 3)
    assert obs[24:28].sum() == 24 and obs[24, 2, 6] == 1  # g3 north
    assert not obs[28:].any()
    board.push("g3g4")
    obs = board.observation()
    assert (obs[21] == 0).all() and np.allclose(obs[22], 0.01)


def test_vector_env_steps_games_to_their_end():
    env = jungle.VectorEnv(8, max_plies=300)
    obs, masks = env.reset()
    assert obs.shape == (8, 32, 9, 7) and masks.shape == (8, 252)
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


def test_vector_env_takes_any_integer_actions_and_refuses_others():
    env = jungle.VectorEnv(2)
    env.reset()
    g3_north, a7_south = 80, 4 * jungle.parse_square("a7") + 2
    for actions in ([g3_north, g3_north], np.array([g3_north] * 2, dtype=np.int32),
                    np.array([g3_north] * 2, dtype=np.uint8), (g3_north, g3_north)):
        env.reset()
        env.step(actions)
        assert env.board(0).move_stack == [jungle.Move.from_uci("g3g4")]
    env.step([a7_south, a7_south])
    for bad in (np.array([80.0, 80.0]), ["g3g4", "g3g4"], [[80], [80]], 80, [True, True]):
        with pytest.raises(TypeError, match="^actions must be a list or a 1-d array of integers"):
            env.step(bad)
    assert env.board(1).ply() == 2


def test_vector_env_resets_one_game_and_keeps_final_observations():
    env = jungle.VectorEnv(3, fen="l5t/7/3R3/7/7/7/7/7/6L r")
    env.reset()
    d7d8 = jungle.Move.from_uci("d7d8").action
    obs, masks, rewards, terminated, truncated, _ = env.step([d7d8] * 3)
    assert env.final_observations()[0].size == 0
    board = jungle.Board("l5t/7/3R3/7/7/7/7/7/6L r")
    board.push("d7d8")
    obs, masks = env.reset(indices=[1])
    assert env.board(1) == jungle.Board("l5t/7/3R3/7/7/7/7/7/6L r") and env.board(0) == board
    assert np.array_equal(obs[0], board.observation()) and np.array_equal(obs[1], env.board(1).observation())
    # Game 0 and 2 end (the rook... the red rat walks into the den); game 1 does not.
    a9 = jungle.Move.from_uci("a9a8").action
    env.step([a9, d7d8, a9])
    d8d9 = jungle.Move.from_uci("d8d9").action
    _, _, rewards, terminated, _, _ = env.step([d8d9, a9, d8d9])
    assert list(terminated) == [True, False, True] and list(rewards) == [1.0, 0.0, 1.0]
    indices, finals = env.final_observations()
    board.push("a9a8")
    board.push("d8d9")
    assert list(indices) == [0, 2] and finals.shape == (2, 32, 9, 7)
    assert np.array_equal(finals[0], board.observation()) and np.array_equal(finals[1], board.observation())
    assert env.board(0).ply() == 0, "restarted in the same step"
    with pytest.raises(IndexError, match="indices: game 3 does not exist"):
        env.reset(indices=[3])


def test_vector_env_seeded_random_actions_repeat():
    def trajectory(seed):
        env = jungle.VectorEnv(4, seed=seed, max_plies=40)
        env.reset()
        taken = []
        for _ in range(60):
            actions = env.random_actions()
            taken.append(actions.copy())
            env.step(actions)
        return np.array(taken)

    assert np.array_equal(trajectory(7), trajectory(7))
    assert not np.array_equal(trajectory(7), trajectory(8))
    env = jungle.VectorEnv(2, seed=1)
    env.reset(seed=5)
    first = env.random_actions()
    env.reset(seed=5)
    assert np.array_equal(first, env.random_actions())


def test_side_to_move_perspective_turns_the_board_and_the_actions():
    fixed = jungle.VectorEnv(6, seed=3, max_plies=60)
    mover = jungle.VectorEnv(6, seed=3, max_plies=60, perspective="side_to_move")
    assert mover.perspective == "side_to_move"
    obs_f, masks_f = fixed.reset()
    obs_m, masks_m = mover.reset()
    assert np.array_equal(obs_f, obs_m), "Red to move: the same view"
    rng = np.random.default_rng(0)
    for _ in range(80):
        actions_f = np.array([rng.choice(np.flatnonzero(m)) for m in masks_f])
        # The same moves, as the mover sees them.
        actions_m = []
        for i, a in enumerate(actions_f):
            board = fixed.board(i)
            m = board.action_to_move(int(a))
            if board.turn == "blue":
                a = (62 - m.from_square) * 4 + (int(a) % 4 + 2) % 4
            assert masks_m[i][a]
            actions_m.append(a)
        obs_f, masks_f, *_ , to_play = fixed.step(actions_f)
        obs_m, masks_m, *_ = mover.step(actions_m)
        for i in range(6):
            assert fixed.board(i) == mover.board(i)
            if to_play[i] == 1:
                # Blue to move: turned half round, colours swapped; plane 21 says Blue.
                turned = obs_f[i][:, ::-1, ::-1]
                swapped = np.concatenate([turned[8:16], turned[0:8], turned[16:17], turned[18:19],
                                          turned[17:18], turned[20:21], turned[19:20], turned[21:24],
                                          turned[26:28], turned[24:26], turned[30:32], turned[28:30]])
                assert np.array_equal(obs_m[i], swapped)
            else:
                assert np.array_equal(obs_m[i], obs_f[i])
    with pytest.raises(ValueError, match="perspective"):
        jungle.VectorEnv(1, perspective="blue")


def test_gymnasium_vector_adapter():
    import gymnasium
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from jungle.gymnasium_env import JungleVectorEnv

    env = JungleVectorEnv(4, max_plies=30)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    obs, info = env.reset(seed=11)
    assert env.observation_space.contains(obs) and obs.shape == (4, 32, 9, 7)
    assert env.single_action_space.n == 252 and env.action_space.shape == (4,)
    assert info["action_mask"].shape == (4, 252)
    wrapped = RecordEpisodeStatistics(env)
    wrapped.reset(seed=11)
    episodes = 0
    for _ in range(100):
        obs, rewards, terminated, truncated, infos = wrapped.step(env.random_actions())
        assert env.observation_space.contains(obs) and rewards.dtype == np.float64
        ended = terminated | truncated
        if ended.any():
            assert list(infos["_final_obs"]) == list(ended)
            for i in np.flatnonzero(ended):
                assert infos["final_obs"][i].shape == (32, 9, 7)
                assert env.games.board(i).ply() == 0
            episodes += int(ended.sum())
            assert "episode" in infos
    assert episodes >= 4
    obs, info = env.reset(options={"reset_mask": np.array([True, False, False, False])})
    assert env.games.board(0).ply() == 0
    # The same seed, the same games.
    runs = []
    for _ in range(2):
        env.reset(seed=2)
        runs.append([env.step(env.random_actions())[0] for _ in range(20)][-1])
    assert np.array_equal(runs[0], runs[1])
