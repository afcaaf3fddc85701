"""VectorEnv against an opponent that answers inside the step, in Rust: the random
player, the greedy player, and the engine at a strength level (issue 65)."""

import numpy as np
import pytest

import jungle

GREEDY_RANK = {"rat": 1, "cat": 2, "dog": 3, "wolf": 4, "leopard": 5, "tiger": 6, "lion": 7, "elephant": 8}


def greed(board, move):
    """What the greedy player wants (jungle_core::search::greedy)."""
    if move.to_square == jungle.parse_square("d9" if board.turn == "red" else "d1"):
        return 100
    victim = board.piece_at(move.to_square)
    return GREEDY_RANK[victim.animal] if victim else 0


@pytest.mark.parametrize("opponent", ["random", "greedy", jungle.ELO_MIN, 1200])
def test_the_opponent_answers_each_move_in_the_step(opponent):
    env = jungle.VectorEnv(6, opponent=opponent, agent_color="both", seed=4, max_plies=200)
    obs, masks = env.reset()
    assert env.opponent == opponent
    assert list(env.agent_colors()) == [0, 1] * 3
    # Blue's games start with the opponent's move.
    assert [env.board(i).ply() for i in range(6)] == [0, 1] * 3
    ended = 0
    for _ in range(150):
        before = [env.board(i) for i in range(6)]
        actions = env.random_actions()
        obs, masks, rewards, terminated, truncated, to_play = env.step(actions)
        assert list(to_play) == [0, 1] * 3
        for i in range(6):
            board = before[i]
            board.push_action(int(actions[i]))
            if terminated[i] or truncated[i]:
                ended += 1
                if terminated[i] and board.is_game_over():
                    outcome = board.outcome()
                    agent = "red" if i % 2 == 0 else "blue"
                    assert rewards[i] == (0 if outcome.winner is None else 1 if outcome.winner == agent else -1)
                continue
            after = env.board(i)
            assert after.move_stack[:-1] == board.move_stack, "the agent's move, then one answer"
            reply = after.move_stack[-1]
            assert reply in board.legal_moves
            if opponent == "greedy":
                assert greed(board, reply) == max(greed(board, m) for m in board.legal_moves)
            assert after.turn == ("red" if i % 2 == 0 else "blue")
            assert np.array_equal(obs[i], after.observation())
            assert rewards[i] == 0
    assert ended >= 3


def test_the_engine_takes_a_win_at_once():
    # Blue (the engine at full strength, few nodes) can enter Red's den at once.
    env = jungle.VectorEnv(2, fen="6l/7/7/7/7/7/7/3r3/T6 r", opponent=jungle.ELO_MAX, opponent_nodes=500)
    env.reset()
    a1a2 = jungle.Move.from_uci("a1a2").action
    _, _, rewards, terminated, _, _ = env.step([a1a2, a1a2])
    assert list(terminated) == [True, True] and list(rewards) == [-1.0, -1.0]


def test_the_levels_beat_random_play_in_batches():
    # protocol.md: the beginner (level 1) won 980 of 1000 games against random play.
    env = jungle.VectorEnv(64, opponent=jungle.ELO_MIN, agent_color="both", seed=1, max_plies=400)
    env.reset()
    results = []
    while len(results) < 64:
        _, _, rewards, terminated, truncated, _ = env.step(env.random_actions())
        results += list(rewards[terminated | truncated])
    results = np.array(results[:64])
    assert (results == -1).mean() >= 0.85, results


@pytest.mark.parametrize("opponent", ["greedy", jungle.ELO_MIN, 1300])
def test_a_seed_gives_the_same_opponent_moves_whatever_the_threads(opponent):
    nodes = {"opponent_nodes": 3000} if isinstance(opponent, int) else {}

    def run(seed, n=70):
        env = jungle.VectorEnv(n, opponent=opponent, agent_color="both", seed=seed, max_plies=60, **nodes)
        _, masks = env.reset()
        walk = np.random.default_rng(0)
        for _ in range(25):
            actions = np.argmax(masks * walk.random(masks.shape), axis=1)
            masks = env.step(actions)[1]
        return [env.board(i).move_stack for i in range(n)]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_opponent_arguments_are_checked():
    with pytest.raises(ValueError, match="opponent must be None, 'random', 'greedy' or an Elo"):
        jungle.VectorEnv(1, opponent="beginner")
    with pytest.raises(ValueError, match=rf"^opponent must be a whole number from {jungle.ELO_MIN} to {jungle.ELO_MAX}"):
        jungle.VectorEnv(1, opponent=500)
    with pytest.raises(TypeError, match="^opponent must be None, 'random', 'greedy' or an Elo"):
        jungle.VectorEnv(1, opponent=1.5)
    with pytest.raises(ValueError, match="agent_color needs an opponent"):
        jungle.VectorEnv(1, agent_color="blue")
    with pytest.raises(ValueError, match="agent_color must be 'red', 'blue' or 'both'"):
        jungle.VectorEnv(1, opponent="random", agent_color="green")
    with pytest.raises(ValueError, match="opponent_nodes needs an engine opponent"):
        jungle.VectorEnv(1, opponent="greedy", opponent_nodes=100)
    with pytest.raises(ValueError, match="opponent_nodes must be a whole number from 1"):
        jungle.VectorEnv(1, opponent=1500, opponent_nodes=0)


def test_the_gymnasium_adapter_plays_an_opponent():
    import gymnasium
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from jungle.gymnasium_env import JungleVectorEnv

    env = RecordEpisodeStatistics(JungleVectorEnv(8, opponent="greedy", agent_color="both",
                                                  perspective="side_to_move", max_plies=100))
    obs, infos = env.reset(seed=3)
    assert isinstance(env.unwrapped, gymnasium.vector.VectorEnv)
    episodes = statistics = 0
    for _ in range(200):
        obs, rewards, terminated, truncated, infos = env.step(env.unwrapped.random_actions())
        assert list(infos["to_play"]) == [0, 1] * 4
        episodes += int((terminated | truncated).sum())
        statistics += "episode" in infos
    assert episodes >= 8 and statistics > 0


def test_the_opponents_moves_do_not_depend_on_the_threads():
    import json
    import os
    import subprocess
    import sys

    script = """
import json, numpy as np, jungle
env = jungle.VectorEnv(70, opponent=1300, agent_color="both", seed=9, max_plies=40, opponent_nodes=3000)
_, masks = env.reset()
walk = np.random.default_rng(0)
for _ in range(15):
    masks = env.step(np.argmax(masks * walk.random(masks.shape), axis=1))[1]
print(json.dumps([[m.uci() for m in env.board(i).move_stack] for i in range(70)]))
"""
    runs = []
    for threads in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                             env={**os.environ, "RAYON_NUM_THREADS": threads})
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1]
