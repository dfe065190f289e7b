"""Seeded random TAG Raid tables for property tests, benchmarks and demos.

A table is a hexagonal patch of tiles with some tile-less holes, rotated rectangular scenery pieces and Models placed
on random tiled hexes (a placement whose base overlaps another Model is redrawn). Same seed and arguments, same table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from explorer.errors import ScenarioError
from explorer.hexgrid import Hex, Layout, hex_range

from .lof import TableTop
from .pieces import Model, Scenery


def random_table(seed: int, *, radius: int = 4, n_models: int = 5, n_scenery: int = 5, n_holes: int = 5,
                 extent: float | None = None, scenery_size: tuple[float, float] = (0.1, 0.9),
                 scenery_height: tuple[float, float] | None = (0.05, 1.0),
                 silhouettes: Sequence[int] = (3, 5, 7, 8), kinds: Sequence[str] | None = None,
                 n_sides: int | None = None, max_tries: int = 400, layout: Layout | None = None) -> TableTop:
    """A random table, reproducible from ``seed`` (``numpy.random.default_rng``).

    Args:
        seed: the random seed.
        radius: hex radius of the patch around ``Hex(0, 0)``.
        n_models: how many Models to place (fewer when ``max_tries`` placements run out).
        n_scenery: how many scenery rectangles.
        n_holes: how many hexes of the patch are tile-less.
        extent: scenery centres are uniform in ``[-extent, extent]²`` (board units); ``None`` = ``1.25 * radius``.
        scenery_size: range of each rectangle's width and depth (board units).
        scenery_height: range of scenery heights (hex units); ``None`` = the default height (unknown/tall).
        silhouettes: Silhouettes to draw from.
        kinds: the kind of the i-th Model (``None``: all Miners).
        n_sides: Models are on sides ``p0 .. p{n_sides-1}`` in turn; ``None`` = each Model its own side.
        max_tries: how many placements to draw at most.
        layout: the hex layout (default :class:`Layout()`).

    Returns:
        :class:`TableTop` with Models ``m0, m1, ...`` and scenery ``s0, s1, ...``.
    """
    lay = layout or Layout()
    rng = np.random.default_rng(seed)
    cells = {h: True for h in hex_range(Hex(0, 0), radius)}
    hexes = sorted(cells)
    for i in rng.choice(len(hexes), n_holes, replace=False):
        cells[hexes[i]] = False
    extent = 1.25 * radius if extent is None else extent
    scenery = []
    for i in range(n_scenery):
        cx, cy = rng.uniform(-extent, extent, 2)
        w, h = rng.uniform(*scenery_size, 2)
        th = rng.uniform(0, math.pi)
        pts = tuple((cx + x * math.cos(th) - y * math.sin(th), cy + x * math.sin(th) + y * math.cos(th))
                    for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)))
        if scenery_height is None:
            scenery.append(Scenery(f"s{i}", pts))
        else:
            scenery.append(Scenery(f"s{i}", pts, float(rng.uniform(*scenery_height))))
    tiled = [h for h in hexes if cells[h]]
    models: list[Model] = []
    tries = 0
    while len(models) < n_models and tries < max_tries:
        tries += 1
        h = tiled[rng.integers(len(tiled))]
        cx, cy = lay.hex_to_pixel(h)
        i = len(models)
        m = Model(f"m{i}", float(cx + rng.uniform(-0.5, 0.5)), float(cy + rng.uniform(-0.5, 0.5)),
                  silhouette=int(rng.choice(list(silhouettes))), facing=float(rng.uniform(0, 360)),
                  side=f"p{i if n_sides is None else i % n_sides}", kind=kinds[i] if kinds else "miner")
        try:
            TableTop(models + [m], scenery, cells, lay)
        except ScenarioError:
            continue
        models.append(m)
    return TableTop(models, scenery, cells, lay)
