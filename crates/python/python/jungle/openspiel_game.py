"""Jungle as an OpenSpiel game, registered with ``pyspiel`` when this module is
imported: ``pyspiel.load_game("python_jungle")``.

Parameters: ``rules`` (``"jungle"`` or ``"jungle-cn"``), ``dog_swims``,
``trapped_lose_attack`` (booleans), ``no_capture_plies`` and ``repetitions``
(-1: the rule set's own), ``perspective`` (``"fixed"`` or ``"side_to_move"``: each
player's observation and actions from its own side). Player 0 is Red, 1 Blue;
actions and the observation tensor are those of ``jungle.rl`` (252 actions,
``float32[32, 9, 7]``). A game is
bounded by the no-capture draw (at most 15 captures, each within that many plies),
so the rule cannot be switched off here. Returns: +1 / -1 to the winner and
loser, 0 each for a draw.
"""

import numpy as np
import pyspiel

from . import Board, NUM_ACTIONS, OBSERVATION_SHAPE
from .rl import describe_action

SHORT_NAME = "python_jungle"

_DEFAULTS = {
    "rules": "jungle",
    "dog_swims": False,
    "trapped_lose_attack": False,
    "no_capture_plies": -1,
    "repetitions": -1,
    "perspective": "fixed",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Jungle (Dou Shou Qi)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _board_settings(params):
    settings = {"rules": params.get("rules", "jungle"),
                "dog_swims": bool(params.get("dog_swims", False)),
                "trapped_lose_attack": bool(params.get("trapped_lose_attack", False))}
    for name in ("no_capture_plies", "repetitions"):
        value = int(params.get(name, -1))
        if value >= 0:
            settings[name] = value
    return settings


class JungleGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.settings = _board_settings(params)
        self.perspective = params["perspective"]
        board = Board(**self.settings)  # checks the settings (ValueError)
        board.observation(self.perspective)  # and the perspective
        limit = board.no_capture_plies
        if limit == 0:
            raise ValueError("OpenSpiel needs a bounded game: keep the no-capture draw (no_capture_plies > 0)")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=16 * limit,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return JungleState(self, Board(**self.settings))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return JungleObserver(params, self.perspective)


class JungleState(pyspiel.State):
    def __init__(self, game, board):
        super().__init__(game)
        self.board = board
        self.perspective = game.perspective

    def current_player(self):
        if self.board.is_game_over():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self.board.turn == "red" else 1

    def _legal_actions(self, player):
        return self.board.legal_actions(self.perspective)

    def _apply_action(self, action):
        self.board.push_action(action, self.perspective)

    def _action_to_string(self, player, action):
        try:
            return self.board.action_to_move(action, self.perspective).uci()
        except ValueError:
            return describe_action(action)

    def is_terminal(self):
        return self.board.is_game_over()

    def returns(self):
        outcome = self.board.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == "red" else [-1.0, 1.0]

    def __str__(self):
        return self.board.fen()


class JungleObserver:
    """The observation tensor of ``jungle.rl`` (with ``perspective="side_to_move"``
    from each player's own side, else the same for both)."""

    def __init__(self, params, perspective="fixed"):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perspective = perspective
        self.tensor = np.zeros(int(np.prod(OBSERVATION_SHAPE)), np.float32)
        self.dict = {"observation": self.tensor.reshape(OBSERVATION_SHAPE)}

    def set_from(self, state, player):
        color = "red" if player == 0 else "blue"
        self.tensor[:] = state.board.observation(self.perspective, player=color).reshape(-1)

    def string_from(self, state, player):
        return state.board.fen()


pyspiel.register_game(_GAME_TYPE, JungleGame)
