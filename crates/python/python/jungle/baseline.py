"""The baseline agent for Jungle: a small convolutional network trained by imitation
of the engine (DAgger: ``imitate``) on ``jungle.VectorEnv`` games against the random
player, the greedy player and the engine's level 1, each game stepped in Rust; or by
PPO with action masks (sb3-contrib's ``MaskablePPO``: ``train``) on the same games.
Its weights ship with the package (``jungle/data/baseline.npz``, with
``baseline.json`` saying how they were made), and playing needs numpy only::

    agent = jungle.baseline.Agent()                  # the shipped weights
    move = agent.play(board)                         # a Move for a Board
    actions = agent.act(observations, masks)         # for VectorEnv(perspective="side_to_move")

Training needs the optional extra ``baseline`` (``pip install
"./crates/python[baseline]"``: torch, stable-baselines3, sb3-contrib)::

    python -m jungle.baseline imitate --out runs/imitate --minutes 45
    python -m jungle.baseline evaluate runs/imitate/baseline.npz --games 1000
    python -m jungle.baseline plot runs/imitate/curve.csv docs/baseline-curve.svg

The network sees the observation from its own side (``perspective="side_to_move"``),
so one network plays both colours. Four 3×3 convolutions of 32 channels, a 1×1
convolution to 16; the policy is a 1×1 convolution to 4 channels, one logit per
from-square and direction, which is the action encoding itself; the value a layer of
64 over the 16 × 63 features.
"""

import argparse
import csv
import json
import math
import pathlib
import subprocess
import sys
import time

import numpy as np

import jungle

DATA = pathlib.Path(__file__).resolve().parent / "data"
WEIGHTS = DATA / "baseline.npz"
MANIFEST = DATA / "baseline.json"

CHANNELS = 32
TRUNK = 4
FEATURES = 16
VALUE = 64
PLANES, RANKS, FILES = jungle.OBSERVATION_SHAPE
SQUARES = RANKS * FILES

# The opponents of training and of the scores, by name: what VectorEnv(opponent=…) takes.
OPPONENTS = {"random": "random", "greedy": "greedy", "level1": jungle.ELO_MIN}
# Their Elo on the levels' scale (protocol.md: the greedy player is 1000 by
# definition; level 1, the beginner, measured 969).
OPPONENT_ELO = {"greedy": 1000, "level1": jungle.ELO_MIN}


# ----- playing (numpy) ---------------------------------------------------------------


def _conv(x, weight, bias):
    """A convolution with zero padding that keeps the 9 × 7 board: x [N, C, 9, 7],
    weight [O, C, k, k]; one matrix product over every game and square."""
    n, c = x.shape[:2]
    o, _, k, _ = weight.shape
    if k == 1:
        cols = x.reshape(n, c, SQUARES)
    else:
        pad = k // 2
        padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        shifted = [padded[:, :, i:i + RANKS, j:j + FILES] for i in range(k) for j in range(k)]
        cols = np.stack(shifted, axis=2).reshape(n, c * k * k, SQUARES)
    flat = cols.transpose(1, 0, 2).reshape(cols.shape[1], n * SQUARES)
    out = weight.reshape(o, -1) @ flat + bias[:, None]
    return out.reshape(o, n, RANKS, FILES).transpose(1, 0, 2, 3)


class Agent:
    """The baseline network with its weights (``WEIGHTS`` by default), in numpy."""

    def __init__(self, weights=WEIGHTS):
        with np.load(weights) as data:
            self.params = {name: data[name].astype(np.float32) for name in data.files}

    def features(self, observations):
        x = np.asarray(observations, np.float32)
        for layer in range(sum(1 for name in self.params if name.startswith("trunk.") and name.endswith(".weight"))):
            x = np.maximum(_conv(x, self.params[f"trunk.{layer}.weight"], self.params[f"trunk.{layer}.bias"]), 0)
        return np.maximum(_conv(x, self.params["squeeze.weight"], self.params["squeeze.bias"]), 0)

    def logits(self, observations):
        """The policy's logits, ``float32[N, 252]`` (actions as the player sees them)."""
        f = self.features(observations)
        per_direction = _conv(f, self.params["head.weight"], self.params["head.bias"])  # [N, 4, 9, 7]
        return per_direction.reshape(len(f), 4, SQUARES).transpose(0, 2, 1).reshape(len(f), -1)

    def value(self, observations):
        """The value of each observation for the player it is for, ``float32[N]``."""
        f = self.features(observations).reshape(len(observations), -1)
        hidden = np.tanh(f @ self.params["value.0.weight"].T + self.params["value.0.bias"])
        return (hidden @ self.params["value.1.weight"].T + self.params["value.1.bias"])[:, 0]

    def act(self, observations, masks):
        """The most likely legal action of each observation (``int64[N]``);
        observations from the player's side, ``masks`` ``bool[N, 252]``."""
        logits = np.where(np.asarray(masks, bool), self.logits(observations), -np.inf)
        return np.argmax(logits, axis=1)

    def play(self, board):
        """The agent's move in ``board`` (a ``jungle.Board`` whose game goes on)."""
        obs = board.observation("side_to_move")[None]
        mask = board.legal_action_mask("side_to_move")[None]
        if not mask.any():
            raise ValueError(f"the game is over: {board.outcome()}")
        return board.action_to_move(int(self.act(obs, mask)[0]), "side_to_move")


def evaluate(agent, opponent, games=1000, seed=1, max_plies=400):
    """Plays ``games`` games of ``agent`` (an ``Agent``) against ``opponent`` (a
    name of ``OPPONENTS``, or what ``VectorEnv(opponent=…)`` takes), half as Red and
    half as Blue, all at once in a ``VectorEnv``; returns ``(wins, losses, draws)``.
    A game still going at ``max_plies`` counts as a draw."""
    opponent = OPPONENTS.get(opponent, opponent)
    env = jungle.VectorEnv(games, opponent=opponent, agent_color="both", perspective="side_to_move",
                           seed=seed, max_plies=max_plies)
    obs, masks = env.reset()
    result = np.full(games, np.nan)
    while np.isnan(result).any():
        # The network plays the games still counted; a game that ended (and started
        # again) takes its first legal action, which costs nothing.
        going = np.isnan(result)
        actions = np.argmax(masks, axis=1)
        actions[going] = agent.act(obs[going], masks[going])
        obs, masks, rewards, terminated, truncated, _ = env.step(actions)
        ended = (terminated | truncated) & np.isnan(result)
        result[ended] = rewards[ended]
    return int((result > 0).sum()), int((result < 0).sum()), int((result == 0).sum())


def elo_of(results):
    """The Elo that best explains ``results`` (``{opponent Elo: (wins, losses,
    draws)}``) by the logistic model, with its 95% interval, by maximum likelihood."""
    def log_likelihood(elo):
        total = 0.0
        for opponent, (w, l, d) in results.items():
            p = 1 / (1 + 10 ** ((opponent - elo) / 400))
            p = min(max(p, 1e-12), 1 - 1e-12)
            total += (w + d / 2) * math.log(p) + (l + d / 2) * math.log(1 - p)
        return total
    grid = np.arange(0, 4000, 1.0)
    values = np.array([log_likelihood(e) for e in grid])
    best = grid[int(np.argmax(values))]
    inside = grid[values >= values.max() - 1.92]  # a 95% likelihood interval
    return float(best), float(inside.min()), float(inside.max())


# ----- training (torch, stable-baselines3, sb3-contrib) ------------------------------


def _vec_env_class():
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnv

    class VectorEnvs(VecEnv):
        """``jungle.VectorEnv``s (of opponents) as one stable-baselines3 ``VecEnv``
        with action masks (``env_method("action_masks")``, as ``MaskablePPO`` asks)."""

        def __init__(self, envs):
            self.envs = envs
            n = sum(len(e) for e in envs)
            super().__init__(n, spaces.Box(0.0, 1.0, jungle.OBSERVATION_SHAPE, np.float32),
                             spaces.Discrete(jungle.NUM_ACTIONS))
            self.masks = np.zeros((n, jungle.NUM_ACTIONS), bool)
            self._actions = None

        def reset(self):
            parts = [e.reset() for e in self.envs]
            self.masks = np.concatenate([m for _, m in parts])
            return np.concatenate([o for o, _ in parts])

        def step_async(self, actions):
            self._actions = np.asarray(actions, np.int64)

        def step_wait(self):
            observations, masks, rewards, dones, infos = [], [], [], [], []
            start = 0
            for env in self.envs:
                n = len(env)
                obs, mask, reward, terminated, truncated, _ = env.step(self._actions[start:start + n])
                ended, finals = env.final_observations()
                info = [{} for _ in range(n)]
                for i, final in zip(ended, finals):
                    info[i] = {"terminal_observation": final, "TimeLimit.truncated": bool(truncated[i])}
                observations.append(obs)
                masks.append(mask)
                rewards.append(reward)
                dones.append(terminated | truncated)
                infos += info
                start += n
            self.masks = np.concatenate(masks)
            return np.concatenate(observations), np.concatenate(rewards), np.concatenate(dones), infos

        def action_masks(self):
            return self.masks

        def env_method(self, method_name, *args, indices=None, **kwargs):
            if method_name != "action_masks":
                raise AttributeError(method_name)
            rows = range(self.num_envs) if indices is None else indices
            return [self.masks[i] for i in rows]

        def has_attr(self, attr_name):
            return attr_name == "action_masks"

        def get_attr(self, attr_name, indices=None):
            rows = range(self.num_envs) if indices is None else indices
            return [None for _ in rows]

        def set_attr(self, attr_name, value, indices=None):
            pass

        def env_is_wrapped(self, wrapper_class, indices=None):
            rows = range(self.num_envs) if indices is None else indices
            return [False for _ in rows]

        def seed(self, seed=None):
            for k, env in enumerate(self.envs):
                env.reset(seed=None if seed is None else seed + k)

        def close(self):
            pass

    return VectorEnvs


def _policy_class():
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class Trunk(BaseFeaturesExtractor):
        def __init__(self, observation_space):
            super().__init__(observation_space, FEATURES * SQUARES)
            layers, channels = [], PLANES
            for _ in range(TRUNK):
                layers += [nn.Conv2d(channels, CHANNELS, 3, padding=1), nn.ReLU()]
                channels = CHANNELS
            self.trunk = nn.Sequential(*layers)
            self.squeeze = nn.Conv2d(CHANNELS, FEATURES, 1)

        def forward(self, x):
            return torch.relu(self.squeeze(self.trunk(x))).flatten(1)

    class Head(nn.Module):
        """One logit per from-square and direction: the action encoding."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(FEATURES, 4, 1)

        def forward(self, latent):
            per_direction = self.conv(latent.view(-1, FEATURES, RANKS, FILES))
            return per_direction.flatten(2).transpose(1, 2).flatten(1)

    class Policy(MaskableActorCriticPolicy):
        def __init__(self, *args, **kwargs):
            kwargs.update(features_extractor_class=Trunk, net_arch=dict(pi=[], vf=[VALUE]),
                          activation_fn=nn.Tanh)
            super().__init__(*args, **kwargs)

        def _build(self, lr_schedule):
            super()._build(lr_schedule)
            self.action_net = Head()
            self.action_net.apply(lambda m: self.init_weights(m, gain=0.01))
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    return Policy


def export(model, path):
    """The numpy weights of a ``MaskablePPO`` model of this module's policy."""
    state = {k: v.detach().cpu().numpy() for k, v in model.policy.state_dict().items()}
    names = {}
    for layer in range(TRUNK):
        for part in ("weight", "bias"):
            names[f"trunk.{layer}.{part}"] = f"features_extractor.trunk.{2 * layer}.{part}"
    for part in ("weight", "bias"):
        names[f"squeeze.{part}"] = f"features_extractor.squeeze.{part}"
        names[f"head.{part}"] = f"action_net.conv.{part}"
        names[f"value.0.{part}"] = f"mlp_extractor.value_net.0.{part}"
        names[f"value.1.{part}"] = f"value_net.{part}"
    # Half precision: a few hundred kB in the package, and play is as good.
    np.savez_compressed(path, **{mine: state[theirs].astype(np.float16) for mine, theirs in names.items()})


def _commit():
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=pathlib.Path(__file__).parent, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def _mixed_envs(mix, envs, seed):
    """The games of ``mix`` (``name:share,…``) as one stable-baselines3 ``VecEnv``
    of ``envs`` games, the agent as Red in half of each opponent's games and Blue in
    the other half, from its own side; with the games per opponent."""
    shares = {}
    for part in mix.split(","):
        name, share = part.split(":")
        if name not in OPPONENTS:
            raise ValueError(f"unknown opponent {name!r} (one of {', '.join(OPPONENTS)})")
        shares[name] = float(share)
    total = sum(shares.values())
    counts = {name: max(2, 2 * round(envs * share / total / 2)) for name, share in shares.items()}
    games = [jungle.VectorEnv(n, opponent=OPPONENTS[name], agent_color="both", perspective="side_to_move",
                              seed=seed + k, max_plies=300)
             for k, (name, n) in enumerate(counts.items())]
    return _vec_env_class()(games), counts


class _Progress:
    """The learning curve and the weights kept: ``record`` exports the model's
    weights (``latest.npz``), plays ``eval_games`` games against each opponent with
    the greedy choice, writes a row of ``curve.csv``, and keeps as ``baseline.npz``
    the weights that scored best against greedy and level 1 so far (PPO's and
    imitation's scores swing: the best, not the last)."""

    def __init__(self, out, eval_games):
        self.curve = out / "curve.csv"
        self.latest, self.weights = out / "latest.npz", out / "baseline.npz"
        self.eval_games = eval_games
        self.started = time.monotonic()
        self.best = {"score": -1.0, "steps": 0}
        self.rows = 0

    def minutes(self):
        return (time.monotonic() - self.started) / 60

    def record(self, model, steps, seed, extra=None):
        export(model, self.latest)
        agent = Agent(self.latest)
        row = {"steps": steps, "minutes": round(self.minutes(), 2)}
        for name in OPPONENTS:
            w, l, d = evaluate(agent, name, games=self.eval_games, seed=seed)
            row[name] = round((w + d / 2) / self.eval_games, 4)
        with open(self.curve, "a" if self.rows else "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(row))
            if not self.rows:
                writer.writeheader()
            writer.writerow(row)
        self.rows += 1
        print(json.dumps({**row, **(extra or {}), "cpu_seconds": round(time.process_time())}), flush=True)
        score = row["greedy"] + row["level1"]
        if score > self.best["score"]:
            self.best.update(score=score, steps=steps)
            self.weights.write_bytes(self.latest.read_bytes())
        return row

    def manifest(self, steps, kept, seed, envs, **more):
        """Writes ``baseline.json``: how the weights were made."""
        import torch

        manifest = {
            "command": "python -m jungle.baseline " + " ".join(sys.argv[1:]),
            "steps": steps,
            "kept": f"the weights after {self.best['steps']} {kept}, the best score against greedy and level 1 "
                    f"of the evaluations in curve.csv",
            "seed": seed,
            "envs": envs,
            **more,
            "minutes": round(self.minutes(), 1),
            "cpu_minutes": round(time.process_time() / 60, 1),
            "commit": _commit(),
            "torch": torch.__version__,
            "network": {"trunk": [CHANNELS] * TRUNK, "features": FEATURES, "value": VALUE},
        }
        (self.weights.parent / "baseline.json").write_text(json.dumps(manifest, indent=2) + "\n")
        return self.weights


def train(out, steps, seed=0, envs=192, mix="random:1,greedy:2,level1:1", eval_every=200_000,
          eval_games=200, rollout=64, minutes=None):
    """Trains the baseline: ``steps`` agent moves on ``envs`` games at once, split
    between the opponents of ``mix`` (name:share), the agent as Red in half of each
    opponent's games and Blue in the other half, from its own side. Every
    ``eval_every`` moves it plays ``eval_games`` games against each opponent with the
    greedy choice and writes a row of ``curve.csv``; ``baseline.npz`` is kept as the
    weights that scored best against greedy and level 1 so far (``latest.npz`` the
    last ones), and ``baseline.json`` says how they were made. It stops after
    ``steps`` moves or ``minutes``. Returns the path of the weights."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    env, counts = _mixed_envs(mix, envs, seed)
    model = MaskablePPO(_policy_class(), env, n_steps=rollout, batch_size=2048, n_epochs=4,
                        learning_rate=1e-4, gamma=0.995, gae_lambda=0.95, ent_coef=0.01, clip_range=0.1,
                        target_kl=0.03, seed=seed, verbose=0, device="cpu")
    progress = _Progress(out, eval_games)

    class Curve(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next = 0

        def _on_step(self):
            if self.num_timesteps >= self.next:
                self.next += eval_every
                progress.record(model, self.num_timesteps, seed=10_000 + self.num_timesteps)
            return minutes is None or progress.minutes() < minutes

    model.learn(total_timesteps=steps, callback=Curve())
    return progress.manifest(int(model.num_timesteps), "moves", seed, counts)


def _outputs(policy, obs):
    """The policy's logits and values for a float tensor of observations."""
    latent_pi, latent_vf = policy.mlp_extractor(policy.features_extractor(obs))
    return policy.action_net(latent_pi), policy.value_net(latent_vf)[:, 0]


class _Teacher:
    """The engine at full strength searching ``nodes`` a move, its move as the
    action of the observation seen from the mover's side."""

    def __init__(self, nodes):
        self.engine = jungle.Engine(threads=1, hash_mb=16, tablebases=False)
        self.nodes = nodes

    def action(self, board):
        move = self.engine.play(board, nodes=self.nodes).move
        for action in board.legal_actions("side_to_move"):
            if board.action_to_move(action, "side_to_move") == move:
                return action
        raise RuntimeError(f"the engine's move {move} is not a legal action")


def imitate(out, minutes, seed=0, envs=128, mix="random:1,greedy:2,level1:1", teacher_nodes=2000,
            round_steps=300, passes=2.0, batch=512, lr=1e-3, keep=400_000, teacher_share=(1.0, 0.3),
            explore=0.05, eval_games=100, rounds=None, threads=1):
    """Trains the baseline by imitation of the engine (DAgger): in each round the
    games of ``mix`` are played ``round_steps`` moves, each move the teacher's
    (``_Teacher``, the engine at ``teacher_nodes`` nodes) with the share
    ``teacher_share`` (the first round's, then the others'), else the network's own
    most likely move (or a random one, ``explore``); every position met is labelled
    with the teacher's move and the game's result, kept (the last ``keep``), and the
    network trained on ``passes`` times the round's positions drawn from all those
    kept (cross-entropy to the teacher's move over the legal actions, squared error
    of the value to the result). After each round it plays ``eval_games`` games
    against each opponent and writes a row of ``curve.csv`` (steps: the positions
    labelled so far); ``baseline.npz`` is kept as the weights that scored best
    against greedy and level 1. It stops after ``minutes`` (or ``rounds``)."""
    import torch
    from sb3_contrib import MaskablePPO

    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # One thread: on two busy cores PyTorch's second thread costs seven times the CPU
    # a sample (measured: 183 µs a sample on one thread, 1,273 on two).
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    env, counts = _mixed_envs(mix, envs, seed)
    model = MaskablePPO(_policy_class(), env, n_steps=64, batch_size=64, seed=seed, verbose=0, device="cpu")
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    teacher = _Teacher(teacher_nodes)
    where = [(k, i) for k, e in enumerate(env.envs) for i in range(len(e))]
    n = env.num_envs
    size = int(np.prod(jungle.OBSERVATION_SHAPE))
    buffer_obs = np.zeros((keep, size), np.uint8)
    buffer_mask = np.zeros((keep, jungle.NUM_ACTIONS), bool)
    buffer_action = np.zeros(keep, np.int64)
    buffer_value = np.full(keep, np.nan, np.float32)
    stored = 0
    pending = [[] for _ in range(n)]  # buffer rows of each game still going
    progress = _Progress(out, eval_games)
    obs = env.reset()
    round_number = 0
    while (rounds is None or round_number < rounds) and progress.minutes() < minutes:
        share = teacher_share[0] if round_number == 0 else teacher_share[1]
        policy.train(False)
        for _ in range(round_steps):
            masks = env.masks.copy()
            taught = np.array([teacher.action(env.envs[k].board(i)) for k, i in where])
            with torch.no_grad():
                logits, _ = _outputs(policy, torch.as_tensor(obs))
            own = np.argmax(np.where(masks, logits.numpy(), -np.inf), axis=1)
            random_legal = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            draw = rng.random(n)
            played = np.where(draw < share, taught, np.where(draw < share + explore, random_legal, own))
            rows = np.arange(stored, stored + n) % keep
            buffer_obs[rows] = np.rint(obs.reshape(n, -1) * 255)
            buffer_mask[rows] = masks
            buffer_action[rows] = taught
            buffer_value[rows] = np.nan
            for j, row in enumerate(rows):
                pending[j].append(row)
            stored += n
            obs, rewards, dones, _ = env.step(played)
            for j in np.flatnonzero(dones):
                buffer_value[pending[j]] = rewards[j]
                pending[j] = []
        policy.train(True)
        available = min(stored, keep)
        for _ in range(max(1, int(passes * round_steps * n / batch))):
            pick = rng.integers(0, available, batch)
            x = torch.as_tensor(buffer_obs[pick].astype(np.float32) / 255).view(batch, *jungle.OBSERVATION_SHAPE)
            legal = torch.as_tensor(buffer_mask[pick])
            logits, values = _outputs(policy, x)
            logits = logits.masked_fill(~legal, -1e9)
            loss = torch.nn.functional.cross_entropy(logits, torch.as_tensor(buffer_action[pick]))
            target = torch.as_tensor(buffer_value[pick])
            known = ~torch.isnan(target)
            if known.any():
                loss = loss + 0.5 * torch.mean((values[known] - target[known]) ** 2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for group in optimizer.param_groups:  # down to a tenth by the end
            group["lr"] = lr * 0.1 ** min(1.0, progress.minutes() / minutes)
        round_number += 1
        progress.record(model, stored, seed=10_000 + round_number, extra={"loss": round(float(loss.detach()), 4)})
    return progress.manifest(stored, "labelled positions", seed, counts, teacher_nodes=teacher_nodes)


def plot(curve, out):
    """The learning curve of ``curve.csv`` (score against each opponent by agent
    moves) as an image (SVG or PNG, by ``out``'s suffix), with matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(curve) as f:
        rows = list(csv.DictReader(f))
    steps = [int(r["steps"]) / 1e6 for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for name in OPPONENTS:
        ax.plot(steps, [float(r[name]) for r in rows], label=f"against {name}")
    ax.axhline(0.99, color="grey", lw=0.5, ls=":")
    ax.axhline(0.8, color="grey", lw=0.5, ls=":")
    ax.set_xlabel("agent moves played in training (millions)")
    ax.set_ylabel("score (wins + draws / 2)")
    ax.set_ylim(0, 1.02)
    ax.set_title("Jungle baseline on VectorEnv")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m jungle.baseline", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train the baseline (needs the extra 'baseline')")
    t.add_argument("--out", required=True)
    t.add_argument("--steps", type=int, default=20_000_000)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--envs", type=int, default=192)
    t.add_argument("--mix", default="random:1,greedy:2,level1:1")
    t.add_argument("--eval-every", type=int, default=200_000)
    t.add_argument("--eval-games", type=int, default=200)
    t.add_argument("--minutes", type=float, default=None, help="stop after this long")
    e = sub.add_parser("evaluate", help="play the weights against each opponent")
    e.add_argument("weights", nargs="?", default=str(WEIGHTS))
    e.add_argument("--games", type=int, default=1000)
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--elos", default=str(jungle.LEVELS[1].elo),
                   help="the engine at these Elos too, for the agent's Elo (comma-separated)")
    i = sub.add_parser("imitate", help="train the baseline by imitation of the engine (DAgger)")
    i.add_argument("--out", required=True)
    i.add_argument("--minutes", type=float, required=True, help="stop after this long")
    i.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    i.add_argument("--seed", type=int, default=0)
    i.add_argument("--envs", type=int, default=128)
    i.add_argument("--mix", default="random:1,greedy:2,level1:1")
    i.add_argument("--teacher-nodes", type=int, default=2000)
    i.add_argument("--round-steps", type=int, default=300)
    i.add_argument("--passes", type=float, default=2.0)
    i.add_argument("--lr", type=float, default=1e-3)
    i.add_argument("--eval-games", type=int, default=100)
    p = sub.add_parser("plot", help="draw the learning curve")
    p.add_argument("curve")
    p.add_argument("out")
    args = parser.parse_args(argv)
    if args.command == "train":
        path = train(args.out, args.steps, seed=args.seed, envs=args.envs, mix=args.mix,
                     eval_every=args.eval_every, eval_games=args.eval_games, minutes=args.minutes)
        print(f"weights: {path}")
    elif args.command == "imitate":
        path = imitate(args.out, args.minutes, seed=args.seed, envs=args.envs, mix=args.mix,
                       teacher_nodes=args.teacher_nodes, round_steps=args.round_steps, passes=args.passes,
                       lr=args.lr, eval_games=args.eval_games, rounds=args.rounds)
        print(f"weights: {path}")
    elif args.command == "evaluate":
        agent = Agent(args.weights)
        scored = {}
        for name in OPPONENTS:
            w, l, d = evaluate(agent, name, games=args.games, seed=args.seed)
            print(f"against {name}: {w} won, {l} lost, {d} drawn of {args.games} "
                  f"(score {(w + d / 2) / args.games:.3f})", flush=True)
            if name in OPPONENT_ELO:
                scored[OPPONENT_ELO[name]] = (w, l, d)
        for elo in filter(None, args.elos.split(",")):
            w, l, d = evaluate(agent, int(elo), games=args.games, seed=args.seed)
            print(f"against the engine at {elo}: {w} won, {l} lost, {d} drawn of {args.games} "
                  f"(score {(w + d / 2) / args.games:.3f})", flush=True)
            scored[int(elo)] = (w, l, d)
        elo, low, high = elo_of(scored)
        print(f"Elo on the levels' scale: {elo:.0f} [{low:.0f}, {high:.0f}] (95%)")
    else:
        plot(args.curve, args.out)


if __name__ == "__main__":
    main()
