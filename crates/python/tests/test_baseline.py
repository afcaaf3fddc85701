"""The baseline agent (issue 65): its shipped weights and how they were made, play
with numpy alone, the training command for a few iterations (as CI runs it, the
full run being a documented command), and the numpy network equal to the torch one
it was exported from."""

import csv
import json
import subprocess
import sys

import numpy as np
import pytest

import jungle
from jungle import baseline


def test_the_shipped_weights_are_small_and_say_how_they_were_made():
    assert baseline.WEIGHTS.stat().st_size < 400_000
    manifest = json.loads(baseline.MANIFEST.read_text())
    for key in ("command", "seed", "commit", "steps", "envs", "minutes"):
        assert key in manifest, key
    assert manifest["command"].startswith(("python -m jungle.baseline imitate", "python -m jungle.baseline train"))


def test_the_shipped_agent_plays_and_beats_the_random_player():
    agent = baseline.Agent()
    board = jungle.Board()
    for _ in range(6):
        move = agent.play(board)
        assert move in board.legal_moves
        board.push(move)
    over = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    over.push("d8d9")
    with pytest.raises(ValueError, match="the game is over"):
        agent.play(over)
    wins, losses, draws = baseline.evaluate(agent, "random", games=100, seed=3)
    assert wins >= 95, (wins, losses, draws)


def test_the_shipped_agent_beats_the_greedy_player():
    # The target is 80% over 1,000 games (docs/python.md has them); 200
    # games here, where the shipped weights score about 0.9 (the first weights,
    # PPO's, scored 0.644 and fail this).
    wins, losses, draws = baseline.evaluate(baseline.Agent(), "greedy", games=200, seed=3)
    assert (wins + draws / 2) / 200 >= 0.8, (wins, losses, draws)


def test_elo_from_scores():
    elo, low, high = baseline.elo_of({1000: (50, 50, 0)})
    assert abs(elo - 1000) <= 1 and low < 1000 < high
    elo, _, _ = baseline.elo_of({1000: (76, 24, 0), 969: (80, 20, 0)})
    assert 1150 < elo < 1250


def test_the_training_command_runs_a_few_iterations(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "run"
    subprocess.run([sys.executable, "-m", "jungle.baseline", "train", "--out", str(out), "--steps", "1500",
                    "--envs", "12", "--eval-every", "1000", "--eval-games", "4"],
                   check=True, capture_output=True, timeout=600)
    with open(out / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 2 and set(rows[0]) == {"steps", "minutes", "random", "greedy", "level1"}
    manifest = json.loads((out / "baseline.json").read_text())
    assert manifest["steps"] >= 1500 and manifest["seed"] == 0
    agent = baseline.Agent(out / "baseline.npz")
    assert baseline.evaluate(agent, "greedy", games=4) is not None
    subprocess.run([sys.executable, "-m", "jungle.baseline", "plot", str(out / "curve.csv"), str(out / "curve.svg")],
                   check=True, capture_output=True, timeout=120)
    assert (out / "curve.svg").read_text().startswith("<?xml")


def test_the_numpy_network_is_the_torch_network(tmp_path):
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    games = jungle.VectorEnv(8, opponent="greedy", agent_color="both", perspective="side_to_move", seed=2)
    env = baseline._vec_env_class()([games])
    model = sb3_contrib.MaskablePPO(baseline._policy_class(), env, n_steps=16, batch_size=64, seed=1, device="cpu")
    model.learn(256)
    baseline.export(model, tmp_path / "w.npz")
    agent = baseline.Agent(tmp_path / "w.npz")
    obs = env.reset()
    with torch.no_grad():
        tensor = torch.as_tensor(obs)
        logits = model.policy.get_distribution(tensor).distribution.logits.numpy()
        values = model.policy.predict_values(tensor).numpy()[:, 0]
    mine = agent.logits(obs)
    mine = mine - np.log(np.exp(mine - mine.max(1, keepdims=True)).sum(1, keepdims=True)) - mine.max(1, keepdims=True)
    # Half-precision weights: close, not equal.
    assert np.allclose(mine, logits, atol=0.05) and np.allclose(agent.value(obs), values, atol=0.05)
    assert np.array_equal(agent.act(obs, env.masks), np.argmax(np.where(env.masks, logits, -np.inf), axis=1))


def test_the_teacher_names_the_engine_move_as_an_action():
    board = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    teacher = baseline._Teacher(nodes=200)
    action = teacher.action(board)
    assert board.action_to_move(action, "side_to_move") == jungle.Move.from_uci("d8d9")
    blue = jungle.Board("l5t/7/7/7/7/7/7/3r3/6L b")
    assert blue.action_to_move(teacher.action(blue), "side_to_move") == jungle.Move.from_uci("d2d1")


def test_the_imitation_command_runs_a_few_rounds(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "run"
    subprocess.run([sys.executable, "-m", "jungle.baseline", "imitate", "--out", str(out), "--minutes", "10",
                    "--rounds", "2", "--envs", "8", "--round-steps", "4", "--eval-games", "2",
                    "--teacher-nodes", "100"],
                   check=True, capture_output=True, timeout=600)
    with open(out / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["steps"]) for r in rows] == [32, 64]
    manifest = json.loads((out / "baseline.json").read_text())
    assert manifest["command"].startswith("python -m jungle.baseline imitate")
    assert manifest["teacher_nodes"] == 100 and manifest["steps"] == 64
    agent = baseline.Agent(out / "baseline.npz")
    assert len([k for k in agent.params if k.startswith("trunk.") and k.endswith(".weight")]) == baseline.TRUNK
    assert agent.play(jungle.Board()) in jungle.Board().legal_moves
