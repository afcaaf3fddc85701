"""Pictures (issue 65): Board._repr_svg_ with the page's animals, for Jupyter, and
the environments' rgb_array render mode, which RecordVideo records."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import jungle
from jungle import pictures

SVG = "{http://www.w3.org/2000/svg}"


def test_a_board_draws_itself_as_svg_with_the_pages_animals(repo_root):
    board = jungle.Board()
    board.push("g3g4")
    root = ET.fromstring(board._repr_svg_())
    symbols = {s.get("id") for s in root.iter(f"{SVG}symbol")}
    page = (repo_root / "page" / "index.html").read_text()
    for animal in jungle.ANIMALS:
        assert f"animal-{animal}" in symbols and f'<symbol id="animal-{animal}"' in page
    uses = [u.get("href") for u in root.iter(f"{SVG}use")]
    assert len(uses) == 16 and uses.count("#animal-rat") == 2
    # The last move's two squares are marked.
    assert board._repr_svg_().count('fill="#f2b01e"') == 2
    flipped = pictures.svg(board, flipped=True, size=200)
    assert 'width="200"' in flipped and flipped != board._repr_svg_()


def test_rgb_arrays_show_the_board():
    board = jungle.Board()
    image = pictures.rgb_array(board)
    assert image.shape == (360, 280, 3) and image.dtype == np.uint8
    water, red, blue = (pictures._rgb(pictures.COLORS[c]) for c in ("water", "red", "blue"))

    def pixel(square, dx=0.3, dy=0.0, flipped=False, img=image):
        file, rank = "abcdefg".index(square[0]), int(square[1]) - 1
        x, y = (6 - file, rank) if flipped else (file, 8 - rank)
        return img[int((y + 0.5 + dy) * 40), int((x + 0.5 + dx) * 40)]

    assert np.array_equal(pixel("a1"), red) and np.array_equal(pixel("a9"), blue)
    assert np.array_equal(pixel("b4", dx=0.1, dy=0.2), water) or np.array_equal(pixel("b4", dx=0.1, dy=0.2),
                                                                                 pictures._rgb("#78aee8"))
    turned = pictures.rgb_array(board, flipped=True)
    assert np.array_equal(pixel("a1", flipped=True, img=turned), red)
    assert np.array_equal(turned[-10, 140], image[10, 140])  # Blue's den at the bottom
    board.push("g3g4")
    assert not np.array_equal(pictures.rgb_array(board), image)
    with pytest.raises(ValueError, match="square must be a whole number of pixels"):
        pictures.rgb_array(board, square=3)


def test_pettingzoo_render_test_with_rgb_arrays():
    from pettingzoo.test import render_test

    from jungle import pettingzoo_env

    render_test(pettingzoo_env.env)
    env = pettingzoo_env.env(render_mode="rgb_array")
    env.reset()
    assert env.render().shape == (360, 280, 3)


def test_record_video_records_a_gymnasium_episode(tmp_path):
    pytest.importorskip("moviepy")
    import gymnasium
    from gymnasium.wrappers import RecordVideo

    import jungle.gymnasium_env  # noqa: F401

    env = RecordVideo(gymnasium.make("jungle/Jungle-v0", render_mode="rgb_array", elo=jungle.ELO_MIN, max_plies=16,
                                     perspective="side_to_move", agent_color="blue"),
                      video_folder=str(tmp_path), episode_trigger=lambda episode: True, disable_logger=True)
    obs, info = env.reset(seed=1)
    frame = env.render()
    assert frame.shape == (360, 280, 3) and frame.dtype == np.uint8
    rng = np.random.default_rng(1)
    terminated = truncated = False
    while not (terminated or truncated):
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
