"""Line of Fire between Models at different heights: where the answer is a search, not a proof (issue 22).

The named limit ``lof_3d_search`` (docs/limits.md): with a piece whose top lies between the two Silhouettes' tops
across the plan, a "no LoF" verdict comes from testing candidate lines (sampled points of both bases and the lines
grazing each top corner); every other verdict is exact. These tests pin where the answer is flagged, that the flag
reaches the words, the JSON and the page, and that the flagged verdict agrees with a dense search here.
"""

from __future__ import annotations

import numpy as np

from explorer.games.tagraid.elevation import segments_clear_3d
from explorer.games.tagraid.lof import LIMIT_3D_SEARCH, TableTop, line_of_fire
from explorer.games.tagraid.pieces import Model, Scenery

TOWER = Scenery("tower", ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)), 2.0)
WALL = Scenery("wall", ((3.4, -1.0), (3.5, -1.0), (3.5, 1.0), (3.4, 1.0)), 1.0)


def _table(ax: float, *pieces: Scenery) -> TableTop:
    return TableTop([Model("A", ax, 0.0, 3, 0.0, "A", on="tower"), Model("G", 4.0, 0.0, 3, 180.0, "B")],
                    [TOWER, *(pieces or (WALL,))])


def test_blocked_by_a_piece_between_the_tops_is_flagged_not_proved():
    """A (S3) in the middle of a tower 2 high cannot see down past the tower's own edge to G on the ground beyond
    a wall 1 high: both pieces' tops lie between the two Silhouettes' tops, so the verdict is the sampled stage's
    and says so (exact False, the limit named in the detail and the step's facts)."""
    r = line_of_fire(_table(0.0), "A", "G")
    assert not r.has_lof and r.reason == "blocked" and r.exact is False
    assert LIMIT_3D_SEARCH in r.detail and "Not proved" in r.detail
    step = r.to_step()
    assert step.facts["exact"] is False and step.facts["limit"] == LIMIT_3D_SEARCH


def test_flagged_verdict_agrees_with_a_dense_search():
    """The truth in this configuration is 'no LoF': no line of 160 x 160 random top-to-top pairs (the tops are the
    best points of each volume, elevation.py) is clear, checked with the exact per-line test."""
    t = _table(0.0)
    rng = np.random.default_rng(7)
    a, g = t.disc(t.model("A")), t.disc(t.model("G"))

    def pts(d, n):
        ang, rr = rng.uniform(0, 2 * np.pi, n), d.r * np.sqrt(rng.uniform(0, 1, n))
        return np.stack([d.x + rr * np.cos(ang), d.y + rr * np.sin(ang)], axis=1)

    pa, pg = pts(a, 160), pts(g, 160)
    segs = np.concatenate([np.repeat(pa, len(pg), axis=0), np.tile(pg, (len(pa), 1))], axis=1)
    prisms, _ = t.prisms(t.model("A"), t.model("G"), __import__("explorer.games.tagraid.options",
                                                                fromlist=["rulings"]).rulings())
    assert not segments_clear_3d(segs, t.top(t.model("A")), t.top(t.model("G")), prisms, touching_blocks=False).any()


def test_exact_verdicts_are_not_flagged():
    """From the tower's edge A sees G past the tower's own edge (a checked clear line found by the same sampled
    stage: exact); a low wall lower than both tops is never met (exact); a flat table is never flagged."""
    r = line_of_fire(_table(0.8, Scenery("low", ((3.4, -1.0), (3.5, -1.0), (3.5, 1.0), (3.4, 1.0)), 0.2)), "A", "G")
    assert r.has_lof and r.exact is True and LIMIT_3D_SEARCH not in r.detail
    flat = TableTop([Model("A", 0.0, 0.0, 3, 0.0, "A"), Model("G", 4.0, 0.0, 3, 180.0, "B")], [WALL])
    f = line_of_fire(flat, "A", "G")
    assert not f.has_lof and f.exact is True and "exact" not in f.to_step().facts


def test_limit_reaches_the_words_json_and_page():
    from types import SimpleNamespace

    from explorer.games.tagraid.lof_picture import verdict_table_html
    from explorer.games.tagraid.lof_report import verdict_line, verdict_to_dict

    r = line_of_fire(_table(0.0), "A", "G")
    v = SimpleNamespace(target="G", lof=r, range=None, cover=None, hex_distance=3, threat=None, rules=(), band=None,
                        mod=None)
    assert f"not proved: limit {LIMIT_3D_SEARCH}" in verdict_line(v, "A")
    assert verdict_to_dict(v)["lof"]["limit"] == LIMIT_3D_SEARCH
    assert "lof-limit" in verdict_table_html([v], "A")
