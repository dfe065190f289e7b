"""The 3D route check's stated bound (issue 22 audit item 3): with a Model on scenery, LoF along a Move is asked at
positions of each one-surface leg at most ``2 delta`` apart (``delta`` = 1/8 of the larger base radius, the bound of
the 3D LoF search's nets), so every position lies within ``delta`` of a sample; a "no LoF along the route" verdict
says so in its step text and facts (``route_resolution = delta + e``, ``route_spacing``).

Sections: Line of Fire and Distances › Line of Fire (360° LoF along the route of a Miner that declared Move);
Activating a Miner › Orders and AROs (the right to an ARO); Common Skills › Move (the climbed position counts for LoF).
"""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

import explorer.games.tagraid.lof as L
from explorer.games import get_game
from explorer.games.tagraid.elevation import NET_DIVISIONS
from explorer.games.tagraid.lof import line_of_fire, lof_during_move, route_samples, route_spacing
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid.orders.orderfile import parse_order


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 40.0), st.floats(0.005, 2.0), st.floats(0.0, 1.0))
def test_every_position_of_a_leg_lies_within_half_the_spacing_of_a_sample(length, spacing, u):
    ts = route_samples((0.0, 0.0), (length, 0.0), spacing)
    assert ts[0] == 0.0 and ts[-1] == 1.0 and len(ts) >= L.ROUTE_SAMPLES + 1
    assert all(b - a <= spacing / max(length, 1e-300) + 1e-12 for a, b in zip(ts, ts[1:])) or length == 0.0
    x = u * length
    assert min(abs(t * length - x) for t in ts) <= spacing / 2 + 1e-9


def test_the_spacing_is_twice_the_search_bound():
    assert route_spacing(0.2, 0.4) == 2 * 0.4 / NET_DIVISIONS == 0.1


def _doc(slit: float, route=((-2.0, 0.0), (2.0, 0.0)), start=(-2.0, 0.0)):
    """A on a long deck (0.5 high) moving east along it; R on the ground far north, behind two tall walls (10 high)
    with a slit ``slit`` wide at x = 0 (negative: the walls overlap). R sees A only through the slit."""
    return {"game": "tagraid", "kind": "order", "title": "slit", "seed": 1,
            "board": {"name": "slit", "orientation": "pointy", "shape": {"kind": "hexagon", "radius": 12},
                      "terrain": "sand",
                      "scenery": [{"name": "deck", "polygon": [[-15.0, -1.0], [15.0, -1.0], [15.0, 1.0], [-15.0, 1.0]],
                                   "height": 0.5},
                                  {"name": "w1", "polygon": [[-15.0, 3.0], [-slit / 2, 3.0], [-slit / 2, 3.2],
                                                             [-15.0, 3.2]], "height": 10.0},
                                  {"name": "w2", "polygon": [[slit / 2, 3.0], [15.0, 3.0], [15.0, 3.2], [slit / 2, 3.2]],
                                   "height": 10.0}]},
            "miners": [{"id": "A", "side": "blue", "x": start[0], "y": start[1], "facing": 0.0, "on": "deck"},
                       {"id": "R", "side": "red", "x": 0.0, "y": 12.0, "facing": 270.0}],
            "order": {"active": "A", "move": {"route": [list(p) for p in route[1:]]}, "second": {"skill": "idle"}}}


def test_a_window_narrower_than_sixteen_samples_per_leg_is_found(monkeypatch):
    """R sees A only while A's centre is within 0.32 of x = 0 (dense brute force). On a 13.5-unit leg, 16 samples
    (0.84 apart, none within 0.32 of 0) miss it; the bounded spacing (2 delta = 0.049) cannot."""
    sc = parse_order(_doc(0.1, start=(-5.5, 0.0)), "slit.toml")
    table = sc.initial.table(moving="A")
    route = [(-5.5, 0.0), (8.0, 0.0)]
    a = table.model("A")
    seen = [x / 50 for x in range(-50, 51)
            if line_of_fire(table.with_model(replace(a, x=x / 50, hex=None)), "R", "A", rulings(),
                            explain=False).has_lof]
    assert seen and min(seen) > -0.4 and max(seen) < 0.4                   # the window: about +-0.32
    r = lof_during_move(table, "A", route, "R", rulings(), surfaces=("deck", "deck"))
    delta = table.disc(a).r / NET_DIVISIONS
    assert r.observer_sees_mover and r.spacing == 2 * delta and r.resolution is not None
    monkeypatch.setattr(L, "route_spacing", lambda r1, r2: 1e9)           # the old 16 samples a leg
    assert not lof_during_move(table, "A", route, "R", rulings(), surfaces=("deck", "deck")).observer_sees_mover


def test_no_right_along_a_sampled_route_states_its_bound_in_text_and_facts():
    g = get_game("tagraid")
    t = g.resolve(parse_order(_doc(-0.1), "closed.toml"))                 # the walls overlap: no slit
    (s,) = [s for s in t.steps if s.title == "R has no right to an ARO at step 2"]
    delta = 0.19642857142857142 / NET_DIVISIONS
    assert s.facts["route_spacing"] == round(2 * delta, 6)
    assert s.facts["route_resolution"] >= round(delta, 6)
    assert "at most 0.049 hex units apart" in s.detail and "passes within" in s.detail
    t = g.resolve(parse_order(_doc(0.1), "open.toml"))                    # the slit open: R gains its right
    assert any(s.title.startswith("R gains the right to an ARO at step 2") for s in t.steps)


# --- Partial Cover with a Model on scenery: the points of the target's base tried, and the stated bound ----------

def _climb_table(r_x: float):
    """tr-elev-climb-order with A on top of the block at (1.6, 0) and R on the ground at (``r_x``, 0)."""
    import tomllib
    from pathlib import Path

    import explorer.games.tagraid as pkg

    doc = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "tr-elev-climb-order.toml").read_text("utf-8"))
    a, r = doc["miners"]
    a.update(x=1.6, y=0.0, on="block")
    r.update(x=r_x)
    doc["order"] = {"active": "A", "move": {"route": []}, "second": {"skill": "idle"}}
    doc.pop("dice")
    return parse_order(doc, "climb.toml").initial.table()


def test_not_in_cover_at_heights_states_the_bound_of_the_points_tried():
    """R against the near side of the low wall (the wall behind it, seen from A on the block): R touches the wall
    but A sees its whole Silhouette; the verdict names the spacing of the points of R's base tried (r / 8)."""
    from explorer.games.tagraid.lof import partial_cover

    table = _climb_table(3.5 - 0.19642857142857142)
    cov = partial_cover(table, "A", "R", rulings())
    assert cov.touching == ("wall",) and cov.lof.has_lof and not cov.in_cover
    assert cov.resolution == table.disc(table.model("R")).r / NET_DIVISIONS
    assert "0.025 hex units of every point" in cov.detail and cov.to_step().facts["resolution"] == round(
        cov.resolution, 6)


def test_in_cover_proved_at_a_point_has_no_bound():
    """The built-in's position (R behind the wall, A looking down past its top edge): proved at a point."""
    from explorer.games.tagraid.lof import partial_cover

    cov = partial_cover(_climb_table(3.89642857), "A", "R", rulings())
    assert cov.in_cover and cov.pieces == ("wall",) and cov.resolution is None
    assert "resolution" not in cov.to_step().facts


def test_the_points_tried_come_within_the_bound_of_every_point_of_the_base():
    """Every point of the target's base lies within r / 8 of a point tried (the net of the base)."""
    import numpy as np

    from explorer.games.tagraid.elevation import net_points
    from explorer.games.tagraid.geometry import Disc

    d = Disc(0.3, -0.2, 0.19642857142857142)
    delta = d.r / NET_DIVISIONS
    net = net_points(d, delta)
    rng = np.random.default_rng(5)
    ang, rad = rng.uniform(0, 2 * np.pi, 4000), d.r * np.sqrt(rng.uniform(0, 1, 4000))
    q = np.stack([d.x + rad * np.cos(ang), d.y + rad * np.sin(ang)], axis=1)
    gaps = np.min(np.hypot(q[:, None, 0] - net[None, :, 0], q[:, None, 1] - net[None, :, 1]), axis=1)
    assert gaps.max() <= delta + 1e-12


def test_the_cover_bound_is_in_the_json_the_words_and_the_page_cell():
    from types import SimpleNamespace

    from explorer.games.tagraid.lof import partial_cover
    from explorer.games.tagraid.lof_report import verdict_line, verdict_to_dict

    table = _climb_table(3.5 - 0.19642857142857142)
    cov = partial_cover(table, "A", "R", rulings())
    v = SimpleNamespace(target="R", lof=cov.lof, range=None, cover=cov, hex_distance=2, threat=None, rules=(),
                        band=None, mod=None)
    assert verdict_to_dict(v)["partial_cover"]["resolution"] == round(cov.resolution, 6)
    assert "no Partial Cover [not proved: points tried within 0.025 hex units" in verdict_line(v, "A")
    proved = partial_cover(_climb_table(3.89642857), "A", "R", rulings())
    v.cover = proved
    assert "resolution" not in verdict_to_dict(v)["partial_cover"] and "not proved" not in verdict_line(v, "A")
