"""Jungle as a PettingZoo AEC environment (two agents, ``"red"`` and ``"blue"``).

``env(**rules)`` is the wrapped environment (illegal moves end the game with -1,
actions checked, order enforced), ``raw_env`` the bare one. The rule settings are
those of ``jungle.Board`` (``rules="jungle-cn"``, ``dog_swims=True``, …); ``fen``
starts from another position; ``max_plies`` truncates long games.

Observations are ``{"observation": float32[32, 9, 7], "action_mask": int8[252]}``
(``jungle.rl`` documents both); the mask is all zeros for the agent not to move.
``perspective="side_to_move"`` shows each agent the board from its own side (Blue's
turned half round), its actions too; ``"fixed"`` (the default) from Red's.
Rewards: +1 to the winner and -1 to the loser when the game ends, 0 otherwise.
The game has no chance in it; ``reset(seed=s)`` seeds ``np_random`` and the agents'
action and observation spaces, so that actions sampled from them repeat.
"""

import copy

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import Board, NUM_ACTIONS, OBSERVATION_SHAPE, pictures

AGENTS = ["red", "blue"]


def env(**kwargs):
    """The environment with PettingZoo's usual wrappers."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "name": "jungle_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, render_mode=None, fen=None, max_plies=None, perspective="fixed", **rules):
        EzPickle.__init__(self, render_mode, fen, max_plies, perspective, **rules)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self._fen = fen
        self._rules = rules
        self._max_plies = max_plies
        self.board = Board(fen, **rules)  # checks the settings now
        self.board.observation(perspective)  # and the perspective
        self.perspective = perspective
        self.possible_agents = AGENTS[:]
        self.agents = AGENTS[:]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: copy.deepcopy(obs_space) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if agent == self.board.turn:
            mask[self.board.legal_action_mask(self.perspective)] = 1
        observation = self.board.observation(self.perspective, player=agent)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
                self.observation_spaces[agent].seed(seed + i)
        self.board = Board(self._fen, **self._rules)
        self.agents = AGENTS[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.board.turn

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.board.push_action(int(action), self.perspective)
        outcome = self.board.outcome()
        if outcome is not None:
            for a in self.agents:
                self.rewards[a] = 0 if outcome.winner is None else (1 if a == outcome.winner else -1)
                self.infos[a] = {"outcome": outcome}
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._max_plies is not None and self.board.ply() >= self._max_plies:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.board.turn
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The board as text (``ansi``), printed (``human``), or as ``uint8[360, 280,
        3]`` (``rgb_array``: ``jungle.pictures.rgb_array``, the last move marked)."""
        if self.render_mode == "rgb_array":
            return pictures.rgb_array(self.board, lastmove=self.board.peek() if self.board.ply() else None)
        if self.render_mode == "ansi":
            return str(self.board)
        if self.render_mode == "human":
            print(self.board)
        return None

    def close(self):
        pass
