"""Pictures of a board: SVG with the page's drawings of the animals (what Jupyter
shows for a ``Board``, through ``Board._repr_svg_``, as python-chess's
``chess.svg.board``), and an RGB array drawn with numpy (the environments'
``render_mode="rgb_array"``, which Gymnasium's ``RecordVideo`` records)::

    jungle.pictures.svg(board, size=360, lastmove=board.peek())   # text of an SVG
    jungle.pictures.rgb_array(board, square=40)                   # uint8[H, W, 3]

Colours are the page's (``page/app.css``): grass, water, traps, dens, Red and Blue.
``flipped=True`` shows Blue's side at the bottom.
"""

import numpy as np

from ._jungle import animal_symbols

__all__ = ["rgb_array", "svg"]

FILES, RANKS = 7, 9
WATER = {"b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"}
TRAPS = {"c1": "red", "e1": "red", "d2": "red", "c9": "blue", "e9": "blue", "d8": "blue"}
DENS = {"d1": "red", "d9": "blue"}
RANKS_OF = {"rat": 1, "cat": 2, "dog": 3, "wolf": 4, "leopard": 5, "tiger": 6, "lion": 7, "elephant": 8}
COLORS = {"grass": "#a7cf8a", "grass-dark": "#98c37b", "water": "#4f8fd6", "trap": "#c9a86a",
          "den": "#e7c25a", "red": "#c8322d", "red-dark": "#8e1e1a", "blue": "#2d5fc8",
          "blue-dark": "#1a3a8e", "frame": "#3f5f2f", "last": "#f2b01e"}


def _square_name(file, rank):
    return "abcdefg"[file] + str(rank + 1)


def _terrain(name):
    if name in WATER:
        return "water"
    if name in DENS:
        return "den"
    if name in TRAPS:
        return "trap"
    return "grass"


def _grid(flipped):
    """(file, rank, x, y) of each square: x, y its column and row in the picture."""
    for rank in range(RANKS):
        for file in range(FILES):
            x, y = (FILES - 1 - file, rank) if flipped else (file, RANKS - 1 - rank)
            yield file, rank, x, y


def svg(board, *, size=None, flipped=False, lastmove=None, coordinates=True):
    """The board as the text of an SVG image (``size``: its width in pixels;
    ``lastmove``: a ``Move`` whose squares are marked)."""
    s, m = 40, 14 if coordinates else 0
    width, height = FILES * s + 2 * m, RANKS * s + 2 * m
    marked = set() if lastmove is None else {lastmove.from_square, lastmove.to_square}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           f'viewBox="0 0 {width} {height}"' + (f' width="{size}" height="{size * height / width:.0f}"' if size else "")
           + ">",
           "<style>.pic-ink{fill:var(--pic-ink)}.pic-line{fill:none;stroke:var(--pic-ink);stroke-width:1.2;"
           "stroke-linecap:round}.coord{font:10px sans-serif;fill:#e8e6df}.rank{font:bold 8px sans-serif;"
           "fill:#fff}</style>",
           "<defs>" + "".join(symbol for _, symbol in animal_symbols()) + "</defs>",
           f'<rect width="{width}" height="{height}" fill="{COLORS["frame"]}"/>']
    pieces = board.piece_map()
    for file, rank, x, y in _grid(flipped):
        name = _square_name(file, rank)
        terrain = _terrain(name)
        fill = COLORS["grass-dark" if terrain == "grass" and (file + rank) % 2 else terrain]
        px, py = m + x * s, m + y * s
        out.append(f'<rect x="{px}" y="{py}" width="{s}" height="{s}" fill="{fill}"/>')
        side = DENS.get(name) or TRAPS.get(name)
        if side:
            inset = 2 if terrain == "den" else 1.5
            out.append(f'<rect x="{px + inset}" y="{py + inset}" width="{s - 2 * inset}" height="{s - 2 * inset}" '
                       f'fill="none" stroke="{COLORS[side]}" stroke-opacity="{1 if terrain == "den" else 0.4}" '
                       f'stroke-width="{2 * inset}"/>')
        square = rank * FILES + file
        if square in marked:
            out.append(f'<rect x="{px}" y="{py}" width="{s}" height="{s}" fill="{COLORS["last"]}" '
                       'fill-opacity="0.45"/>')
        piece = pieces.get(square)
        if piece is not None:
            color = piece.color
            cx, cy = px + s / 2, py + s / 2
            out.append(f'<g style="--pic-ink:{COLORS[color + "-dark"]}" fill="#fff" color="#fff">'
                       f'<circle cx="{cx}" cy="{cy}" r="{0.41 * s:.1f}" fill="{COLORS[color]}" '
                       f'stroke="{COLORS[color + "-dark"]}" stroke-width="1.5"/>'
                       f'<use href="#animal-{piece.animal}" xlink:href="#animal-{piece.animal}" '
                       f'x="{cx - 0.3 * s:.1f}" y="{cy - 0.3 * s:.1f}" width="{0.6 * s:.1f}" height="{0.6 * s:.1f}"/>'
                       f'<circle cx="{cx + 0.3 * s:.1f}" cy="{cy - 0.3 * s:.1f}" r="5.5" '
                       f'fill="{COLORS[color + "-dark"]}"/>'
                       f'<text class="rank" x="{cx + 0.3 * s:.1f}" y="{cy - 0.3 * s + 3:.1f}" '
                       f'text-anchor="middle">{RANKS_OF[piece.animal]}</text></g>')
    if coordinates:
        for i in range(FILES):
            letter = "abcdefg"[FILES - 1 - i if flipped else i]
            out.append(f'<text class="coord" x="{m + i * s + s / 2}" y="{height - 3}" '
                       f'text-anchor="middle">{letter}</text>')
        for j in range(RANKS):
            number = j + 1 if flipped else RANKS - j
            out.append(f'<text class="coord" x="{m / 2}" y="{m + j * s + s / 2 + 3.5}" '
                       f'text-anchor="middle">{number}</text>')
    out.append("</svg>")
    return "".join(out)


# 3 × 5 pixel digits for the ranks drawn on the pieces of the RGB picture.
_DIGITS = {
    1: ("010", "110", "010", "010", "111"), 2: ("111", "001", "111", "100", "111"),
    3: ("111", "001", "111", "001", "111"), 4: ("101", "101", "111", "001", "001"),
    5: ("111", "100", "111", "001", "111"), 6: ("111", "100", "111", "101", "111"),
    7: ("111", "001", "001", "001", "001"), 8: ("111", "101", "111", "101", "111"),
}


def _rgb(hex_color):
    return np.array([int(hex_color[i:i + 2], 16) for i in (1, 3, 5)], np.uint8)


def rgb_array(board, *, square=40, flipped=False, lastmove=None):
    """The board as ``uint8[9 * square, 7 * square, 3]``: the squares in the page's
    colours, each animal a disc in its side's colour with its rank (1 rat to 8
    elephant) in white, ``lastmove``'s squares tinted."""
    if not isinstance(square, int) or square < 10:
        raise ValueError(f"square must be a whole number of pixels from 10, not {square!r}")
    image = np.empty((RANKS * square, FILES * square, 3), np.uint8)
    yy, xx = np.mgrid[0:square, 0:square]
    centre = (square - 1) / 2
    distance = np.hypot(yy - centre, xx - centre)
    disc, rim = distance <= 0.41 * square, distance <= 0.41 * square + max(1, square // 20)
    border = np.zeros((square, square), bool)
    width = max(2, square // 12)
    border[:width], border[-width:], border[:, :width], border[:, -width:] = True, True, True, True
    stripes = ((xx + yy) // max(2, square // 8)) % 3 == 0
    pixel = max(1, square // 10)
    marked = set() if lastmove is None else {lastmove.from_square, lastmove.to_square}
    pieces = board.piece_map()
    for file, rank, x, y in _grid(flipped):
        name = _square_name(file, rank)
        terrain = _terrain(name)
        cell = image[y * square:(y + 1) * square, x * square:(x + 1) * square]
        cell[:] = _rgb(COLORS["grass-dark" if terrain == "grass" and (file + rank) % 2 else terrain])
        if terrain == "water":
            cell[stripes] = _rgb("#78aee8")
        side = DENS.get(name) or TRAPS.get(name)
        if side:
            cell[border] = _rgb(COLORS[side])
        if rank * FILES + file in marked:
            cell[:] = (cell * 0.55 + _rgb(COLORS["last"]) * 0.45).astype(np.uint8)
        piece = pieces.get(rank * FILES + file)
        if piece is not None:
            cell[rim] = _rgb(COLORS[piece.color + "-dark"])
            cell[disc] = _rgb(COLORS[piece.color])
            glyph = np.array([[c == "1" for c in row] for row in _DIGITS[RANKS_OF[piece.animal]]])
            glyph = np.kron(glyph, np.ones((pixel, pixel), bool))
            top, left = (square - glyph.shape[0]) // 2, (square - glyph.shape[1]) // 2
            cell[top:top + glyph.shape[0], left:left + glyph.shape[1]][glyph] = 255
    return image
