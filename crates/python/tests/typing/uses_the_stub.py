"""A script that uses the package as a typed program would; `mypy --strict` must
accept it (tests/test_typing.py), and it runs."""

import numpy as np
import numpy.typing as npt

import jungle
from jungle import rl, tablebase


def best_line(board: jungle.Board, engine: jungle.Engine) -> list[str]:
    lines: list[jungle.InfoLine] = engine.analyse(board, depth=3, multipv=2)
    score: jungle.Score = lines[0].score
    assert score.cp is not None or score.mate is not None
    return [m.uci() for m in lines[0].pv]


def main() -> None:
    board = jungle.Board(rules="jungle-cn", dog_swims=True)
    board.push("g3g4")
    board.push(jungle.Move.from_uci("a7a6"))
    pieces: dict[int, jungle.Piece] = board.piece_map()
    rank: int = pieces[0].rank
    outcome: jungle.Outcome | None = board.outcome()
    engine = jungle.Engine(hash_mb=16, options={"MultiPV": 2, "Clear Hash": None})
    played: jungle.PlayResult = engine.play(board, movetime=0.05, clock=None)
    pv: list[str] = best_line(board, engine)
    level: jungle.Level = jungle.LEVELS[0]
    mask: npt.NDArray[np.bool_] = board.legal_action_mask()
    env = jungle.VectorEnv(4, seed=1, perspective="side_to_move", opponent=jungle.ELO_MIN, agent_color="both")
    observations, masks = env.reset(seed=2)
    colors: npt.NDArray[np.int8] = env.agent_colors()
    seen: npt.NDArray[np.float32] = board.observation("side_to_move", player="blue")
    key: int = board.transposition_key()
    actions: npt.NDArray[np.int64] = env.random_actions()
    step = env.step(actions)
    ended, finals = env.final_observations()
    probe = tablebase.probe(jungle.Board("7/3e3/7/7/7/7/2L4/7/6R r"))
    wdl: str | None = probe.wdl if probe is not None else None
    described: str = rl.describe_action(int(actions[0]))
    print(rank, outcome, played.move, pv, level.elo, mask.sum(), observations.shape, masks.shape,
          step[2], ended, finals.shape, wdl, described, board.mirror().turn, board.root().fen(),
          colors, seen.shape, key, env.opponent)


if __name__ == "__main__":
    main()
