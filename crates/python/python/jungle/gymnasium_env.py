"""Jungle as a Gymnasium environment: one agent plays the engine at a chosen level.

``gymnasium.make("jungle/Jungle-v0", agent_color="red", elo=1200)`` (registered when
this module is imported) or ``JungleEnv(...)``. The opponent is ``jungle.Engine``
weakened to ``elo`` (``jungle.ELO_MIN`` to ``jungle.ELO_MAX``) or ``skill_level``
(0-20), or at full strength when neither is given, searching ``opponent_limits``
per move (default ``{"nodes": 2000}``). The rule settings are those of
``jungle.Board``; ``max_plies`` truncates long games.

Observations are ``float32[32, 9, 7]`` and actions ``Discrete(252)`` (``jungle.rl``
documents both); ``info["action_mask"]`` (and ``action_masks()``, for maskable
agents) has the legal actions; ``perspective="side_to_move"`` shows the board and
the actions from the agent's side (Blue's turned half round). Reward: +1 win, -1 loss, 0 draw or while the game
goes on. An illegal action ends the episode as a loss (``info["illegal_move"]``),
and a finished episode takes no more steps (``RuntimeError``: call ``reset()``).
``reset(seed=s)`` seeds the engine's random choices (a weakened engine's moves,
the level row of its game), so that the same seed and the same actions give the
same episode; the engine searches each move from a fresh table, so a copy of the
environment (``copy.deepcopy``, pickling) plays on exactly as the original.

``JungleVectorEnv(num_envs, ...)`` is a ``gymnasium.vector.VectorEnv`` of games
stepped together in Rust (``jungle.VectorEnv``, whose arguments it takes): in
self-play each step plays one move in every game, by its side to move, and the
reward is for the side that just moved; with ``opponent=`` (``"random"``,
``"greedy"`` or an Elo) the agent plays ``agent_color`` (``"red"``, ``"blue"`` or
``"both"``) and the opponent answers within the step, without a Python loop.
``infos`` has ``action_mask`` (``bool[N, 252]``) and ``to_play`` (``int8[N]``, 0 Red);
a game that ends starts again in the same step (``autoreset_mode`` ``SAME_STEP``), and
its last observation is in ``infos["final_obs"]`` (where ``infos["_final_obs"]`` is
true). ``reset(seed=s)`` seeds ``random_actions()`` (a legal action per game),
``reset(options={"reset_mask": mask})`` restarts only the games where ``mask`` is
true, and ``perspective="side_to_move"`` shows each game from its mover's side.
"""

import gymnasium
import numpy as np
from gymnasium import spaces

from gymnasium.vector.utils import batch_space

from . import Board, Engine, NUM_ACTIONS, OBSERVATION_SHAPE, VectorEnv, pictures

ENV_ID = "jungle/Jungle-v0"


class JungleEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(self, render_mode=None, agent_color="red", elo=None, skill_level=None,
                 opponent_limits=None, fen=None, max_plies=None, perspective="fixed", **rules):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if agent_color not in ("red", "blue"):
            raise ValueError(f"agent_color must be 'red' or 'blue', not {agent_color!r}")
        self.render_mode = render_mode
        self.agent_color = agent_color
        self._fen = fen
        self._rules = rules
        self._max_plies = max_plies
        self._limits = dict(opponent_limits or {"nodes": 2000})
        self.board = Board(fen, **rules)  # checks the settings now
        self.board.observation(perspective)  # and the perspective
        self.perspective = perspective
        # A small table: each move is searched from a fresh one (see the module).
        self.engine = Engine(elo=elo, skill_level=skill_level, hash_mb=2)
        self._over = False
        self.observation_space = spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def _info(self, **extra):
        return {"action_mask": self.action_masks(), **extra}

    def action_masks(self):
        """The legal-action mask (all false once the game is over)."""
        if self.board.turn != self.agent_color:
            return np.zeros(NUM_ACTIONS, bool)
        return self.board.legal_action_mask(self.perspective)

    def _observation(self):
        return self.board.observation(self.perspective, player=self.agent_color)

    def _engine_moves(self):
        self.engine.forget()
        self.board.push(self.engine.play(self.board, **self._limits).move)

    def _reward(self):
        outcome = self.board.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.agent_color else -1.0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.board = Board(self._fen, **self._rules)
        # The engine's stream comes from the environment's generator, which `seed`
        # seeded (or Gymnasium from the operating system's entropy).
        self.engine.seed(int(self.np_random.integers(2**63)))
        self.engine.new_game()
        self._over = False
        if self.board.turn != self.agent_color and not self.board.is_game_over():
            self._engine_moves()
        return self._observation(), self._info()

    def step(self, action):
        if self._over or self.board.is_game_over():
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if not (0 <= action < NUM_ACTIONS and self.action_masks()[action]):
            self._over = True
            return self._observation(), -1.0, True, False, self._info(illegal_move=True)
        self.board.push_action(action, self.perspective)
        if not self.board.is_game_over():
            self._engine_moves()
        terminated = self.board.is_game_over()
        truncated = not terminated and self._max_plies is not None and self.board.ply() >= self._max_plies
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._reward(), terminated, truncated, self._info(outcome=self.board.outcome())

    def render(self):
        """The board as text (``ansi``), printed (``human``), or as ``uint8[360, 280,
        3]`` (``rgb_array``: ``jungle.pictures.rgb_array``, the agent's side at the
        bottom with ``perspective="side_to_move"``, the last move marked), which
        ``gymnasium.wrappers.RecordVideo`` records."""
        if self.render_mode == "rgb_array":
            flipped = self.perspective == "side_to_move" and self.agent_color == "blue"
            last = self.board.peek() if self.board.ply() else None
            return pictures.rgb_array(self.board, flipped=flipped, lastmove=last)
        if self.render_mode == "ansi":
            return str(self.board)
        if self.render_mode == "human":
            print(self.board)
        return None


class JungleVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` self-play games as a Gymnasium vector environment (see the module)."""

    metadata = {"render_modes": [], "autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, num_envs, **settings):
        self.games = VectorEnv(num_envs, **settings)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed=None, options=None):
        """Starts the games again (``options={"reset_mask": bool[N]}``: only those);
        returns the observations and ``{"action_mask": …}``."""
        super().reset(seed=seed)
        indices = None
        if options and "reset_mask" in options:
            indices = np.flatnonzero(np.asarray(options["reset_mask"], dtype=bool))
        observations, masks = self.games.reset(seed=seed, indices=indices)
        return observations, {"action_mask": masks}

    def step(self, actions):
        """One move in every game: ``(observations, rewards, terminated, truncated, infos)``."""
        observations, masks, rewards, terminated, truncated, to_play = self.games.step(actions)
        infos = {"action_mask": masks, "to_play": to_play}
        ended, finals = self.games.final_observations()
        if len(ended):
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i, observation in zip(ended, finals):
                final_obs[i] = observation
            infos["final_obs"] = final_obs
            infos["_final_obs"] = terminated | truncated
        return observations, rewards.astype(np.float64), terminated, truncated, infos

    def random_actions(self):
        """A legal action of each game, drawn by the generator ``reset(seed=…)`` seeded."""
        return self.games.random_actions()


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="jungle.gymnasium_env:JungleEnv")
