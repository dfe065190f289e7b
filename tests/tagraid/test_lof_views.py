"""The LoF explorer: verdicts agree with the engine, overlays connect the bases, drag/rotate/click update the
verdicts, bad input keeps the previous state, one message per layer redraw, golden SVG with overlays."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
import shapely

from explorer.board import small_board
from explorer.games.tagraid.lof import TableTop, line_of_fire, partial_cover
from explorer.games.tagraid.lof_views import (LofExplorer, LofSnapshot, analyse, board_svg, default_lof_scenario)
from explorer.games.tagraid.megabeast import corner_angles
from explorer.games.tagraid.pieces import Model, disc_in_arc
from explorer.games.tagraid.options import rulings as tag_rulings
from explorer.games.tagraid.ranges import RangeCalibration, WeaponRanges, measure_range
from explorer.hexgrid import Hex
from explorer.render.svg import Segment

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "small_board_lof.svg"


@pytest.fixture(scope="module")
def scenario():
    return default_lof_scenario()


@pytest.fixture
def explorer():
    return LofExplorer()


def test_default_scenario_is_big_legal_and_shows_every_kind_of_verdict(scenario):
    assert len(scenario.board) >= 300
    assert scenario.board.tileless
    table = scenario.table()  # validates the placement
    kinds = {m.kind for m in table.models.values()}
    assert kinds == {"miner", "megabeast"}
    mb = next(m for m in table.models.values() if m.kind == "megabeast")
    assert not scenario.board[table.hex_of(mb)].tile
    vs = analyse(table, scenario.shooter, calibration=scenario.calibration, weapon=scenario.weapon,
                 threat=scenario.threat)
    reasons = {v.lof.reason for v in vs}
    assert {"clear", "outside_arc", "blocked"} <= reasons
    # clear LoF at every band of the default Range Ruler, including Out of Range
    assert {v.range.band for v in vs if v.range is not None} == {"short", "mid", "long", "out_of_range"}
    assert any(v.cover is not None and v.cover.in_cover for v in vs)
    blockers = {b.split(":")[0] for v in vs for b in v.lof.blocked_by}
    assert {"hex", "scenery", "model"} <= blockers
    # one target blocked by a Model only, one by hexagons without tile only
    assert any(v.lof.blocked_by and all(b.startswith("model:") for b in v.lof.blocked_by) for v in vs)
    assert any(v.lof.blocked_by and all(b.startswith("hex:") for b in v.lof.blocked_by) for v in vs)
    assert any(v.threat is not None for v in vs)


def test_verdicts_agree_with_the_engine(scenario):
    table = scenario.table()
    rul = tag_rulings()
    cal = RangeCalibration(1.5, 2.5, 3.0)
    for shooter in ("Cutter", "Digger", "Stoorworm"):
        for v in analyse(table, shooter, rul, cal, scenario.weapon, scenario.threat):
            ref = line_of_fire(table, shooter, v.target, rul)
            assert (v.lof.has_lof, v.lof.reason) == (ref.has_lof, ref.reason)
            if ref.has_lof:
                r = measure_range(table, shooter, v.target, rul, cal)
                assert v.range.band == r.band and v.range.distance == pytest.approx(r.distance)
                assert (v.band, v.mod) == scenario.weapon.mod(r.band)
                if table.model(v.target).kind != "megabeast":
                    assert v.cover.in_cover == partial_cover(table, shooter, v.target, rul).in_cover


def test_witness_segments_connect_the_two_bases_and_blocked_rays_end_at_the_obstacle(scenario):
    table = scenario.table()
    vs = analyse(table, "Cutter", threat=scenario.threat)
    s = table.disc("Cutter")
    n_blocked = 0
    for v in vs:
        t = table.disc(v.target)
        if v.lof.has_lof:
            (x0, y0), (x1, y1) = v.lof.witness.p0, v.lof.witness.p1
            assert math.hypot(x0 - s.x, y0 - s.y) <= s.r + 1e-6
            assert math.hypot(x1 - t.x, y1 - t.y) <= t.r + 1e-6
        for br in v.blocked_rays:
            n_blocked += 1
            kind, _, ident = br.obstacle.partition(":")
            geom = (table._scenery_polys[ident] if kind == "scenery" else
                    table._hole_polys[Hex(*map(int, ident.split(",")))] if kind == "hex" else table.disc(ident).polygon())
            assert geom.boundary.distance(shapely.Point(br.hit)) < 1e-6  # the ray stops on the obstacle's edge
            # and nothing of that obstacle lies on the drawn (red) part before it
            drawn = shapely.LineString([br.start, br.hit])
            assert drawn.length < shapely.LineString([br.start, br.end]).length
            assert geom.intersection(drawn).length < 1e-6
    assert n_blocked >= 3


def test_overlays_draw_witness_green_and_blocked_red(scenario):
    snap = LofSnapshot(scenario.board, scenario.models, "Cutter", threat=scenario.threat)
    segs = [o for o in snap.overlays() if isinstance(o, Segment)]
    green = [o for o in segs if o.stroke == "#1a9641"]
    red = [o for o in segs if o.stroke == "#d7191c" and o.dash == "5 3"]
    assert len(green) == sum(v.lof.has_lof for v in snap.verdicts)
    assert len(red) == sum(len(v.blocked_rays) for v in snap.verdicts)
    svg = snap._repr_svg_()
    assert svg.startswith("<svg") and "Partial Cover" in svg and "blocked" in svg


def test_click_picks_the_shooter_and_updates_the_verdict_list(explorer):
    bv = explorer.board_view
    x, y = bv.to_pixel(explorer.models["Digger"].center)
    bv._mouse_down(x, y)
    bv._mouse_up(x, y)
    assert explorer.shooter == "Digger" and explorer.shooter_pick.value == "Digger"
    assert "<b>Digger</b> has LoF" in explorer.verdict_html.value
    assert {v.target for v in explorer.verdicts} == set(explorer.models) - {"Digger"}


def test_drag_moves_the_model_and_changes_the_verdicts(explorer):
    assert not explorer.verdict("Lurker").lof.has_lof  # behind Spotter
    bv = explorer.board_view
    src = explorer.models["Cutter"].center
    dst = explorer.scenario.board.layout.hex_to_pixel(Hex(6, 11))
    bv._mouse_down(*bv.to_pixel(src))
    bv._mouse_move(*bv.to_pixel(((src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2)))
    bv._mouse_up(*bv.to_pixel(dst))
    m = explorer.models["Cutter"]
    assert (m.x, m.y) == pytest.approx(dst)
    table = TableTop.from_board(explorer.scenario.board, explorer.models.values())
    for v in explorer.verdicts:
        assert v.lof.has_lof == line_of_fire(table, "Cutter", v.target).has_lof
    assert explorer.message.value == ""
    assert explorer.verdict("Lurker").lof.has_lof  # Spotter is no longer in the way


def test_rotating_updates_the_arc_and_the_verdicts(explorer):
    before = explorer.models["Cutter"].facing
    assert explorer.verdict("Driller").lof.reason == "outside_arc"
    for _ in range(12):  # 12 x 15° clockwise: from 270° (north) to 90° (south), towards Driller
        explorer.board_view.select("Cutter")
        explorer.board_view._key("e")
    m = explorer.models["Cutter"]
    assert m.facing == pytest.approx((before + 180) % 360)
    d = explorer.table.disc("Driller")
    assert explorer.verdict("Driller").lof.in_arc == disc_in_arc(m.center, m.facing, 180, d)
    assert explorer.verdict("Driller").lof.reason != "outside_arc"
    arc = [o for o in explorer.board_view.overlays if type(o).__name__ == "Poly"][0]
    # the arc wedge is centred on the facing: its middle edge point lies in the facing direction
    mid = arc.points[1 + (len(arc.points) - 1) // 2]
    ang = math.degrees(math.atan2(mid[1] - m.y, mid[0] - m.x)) % 360
    assert abs((ang - m.facing + 180) % 360 - 180) < 6


def test_megabeast_turns_from_corner_to_corner(explorer):
    explorer.rotate_model("Stoorworm", +1)
    f = explorer.models["Stoorworm"].facing
    assert any(abs(f - c) < 1e-9 for c in corner_angles(explorer.scenario.board.layout))
    assert f == pytest.approx(90.0)


@pytest.mark.parametrize("where", ["overlap", "tileless"])
def test_illegal_drop_shows_a_message_and_keeps_the_previous_state(explorer, where):
    before = dict(explorer.models)
    verdicts = [(v.target, v.lof.reason) for v in explorer.verdicts]
    dst = explorer.models["Crawler"].center if where == "overlap" else \
        explorer.scenario.board.layout.hex_to_pixel(Hex(6, 8))
    bv = explorer.board_view
    sent = []
    bv.canvas._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(cmd)
    src = explorer.models["Cutter"].center
    bv._mouse_down(*bv.to_pixel(src))
    bv._mouse_move(*bv.to_pixel(dst))
    bv._mouse_up(*bv.to_pixel(dst))
    assert explorer.models == before
    assert [(v.target, v.lof.reason) for v in explorer.verdicts] == verdicts
    msg = explorer.message.value
    assert "Not allowed" in msg and ("overlaps" in msg if where == "overlap" else "no tile" in msg)
    assert bv.pieces["Cutter"].center == src  # the ghost went back


def test_bad_settings_keep_the_previous_ones(explorer):
    explorer.cal_inputs["mid"].value = "-1"
    # the refusal under its field (the Range Ruler box), the top line saying the previous settings are kept
    assert "range_calibration.mid" in explorer.settings_msgs["ruler"].value and explorer.calibration.mid == 3.5
    assert "previous settings" in explorer.message.value
    explorer.cal_inputs["mid"].value = "2"
    explorer.mod_inputs["long"].value = "minus three"
    assert "weapon.long" in explorer.settings_msgs["mods"].value
    explorer.mod_inputs["long"].value = "-2"
    explorer.cal_inputs["mid"].value = "2"
    assert explorer.message.value == "" and explorer.weapon.long == -2
    explorer.cal_inputs["short"].value = "4"
    assert explorer.calibration.short == 4.0
    assert explorer.verdict("Peeker").band == "short"  # 3.65 hex units now falls in a 4-unit Short Segment


def test_flipping_a_ruling_changes_the_verdict(explorer):
    explorer.set_shooter("Digger")
    explorer.ruling_inputs["scenery_height"].value = "lower_than_both_does_not_block"
    assert explorer.rulings.reading("scenery_height") == "lower_than_both_does_not_block"
    table = explorer.table
    rul = tag_rulings({"scenery_height": "lower_than_both_does_not_block"})
    for v in explorer.verdicts:
        assert v.lof.has_lof == line_of_fire(table, "Digger", v.target, rul).has_lof


def test_explorer_update_is_one_message(explorer):
    bv = explorer.board_view
    sent = []
    bv.canvas._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(cmd)
    explorer.set_shooter("Digger")
    assert len(sent) == 1  # the pieces layer and the overlays layer in one held message
    explorer.redraw()
    assert len(sent) == 2  # every layer, one message


@pytest.mark.parametrize("ruler_to, shooter, kept", [("Peeker", "Digger", "Peeker"), ("Digger", "Digger", "")])
def test_a_new_row_moving_the_range_ruler_is_still_one_canvas_message(ruler_to, shooter, kept):
    # the Range Ruler dropdown's options change with the shooter (its value kept, or cleared when the ruler pointed
    # at the new shooter): its own observer used to draw the board once or twice more before the answer's message
    e = LofExplorer()
    e.ruler_pick.value = ruler_to
    sent = []
    e.board_view.canvas._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(cmd)
    e.set_shooter(shooter)
    assert e.ruler_pick.value == kept
    assert len(sent) == 1
    ruler = [o for o in e.board_view.overlays if isinstance(o, Segment) and o.width == 9.0]
    assert bool(ruler) == bool(kept)   # the one message carries the ruler to the kept target, or none
    e.ruler_pick.value = "" if kept else "Peeker"   # the user's own pick still draws (one message)
    assert len(sent) == 2
    assert bool([o for o in e.board_view.overlays if isinstance(o, Segment) and o.width == 9.0]) == (not kept)


def test_a_refused_answer_keeps_its_message_when_the_range_ruler_loses_its_target():
    from explorer.errors import ScenarioError

    e = LofExplorer()
    e.ruler_pick.value = "Peeker"
    e._show_verdicts(ScenarioError("table", "the refusal the user must read"))
    assert e.ruler_pick.value == ""
    assert "the refusal the user must read" in e.message.value


def _golden_snapshot() -> LofSnapshot:
    b = small_board()
    lay = b.layout
    ms = [Model("A", *lay.hex_to_pixel(Hex(-2, 1)), facing=330.0, side="A"),
          Model("B", *lay.hex_to_pixel(Hex(1, -2)), facing=150.0, side="B"),
          Model("C", *lay.hex_to_pixel(Hex(2, 0)), facing=180.0, side="B"),
          Model("D", -2.598, -1.2, facing=90.0, side="B"),
          Model("E", *lay.hex_to_pixel(Hex(2, -2)), facing=200.0, side="B"),
          Model("F", -2.598, 0.0, silhouette=8, facing=90.0, side="A")]
    return board_svg(b, ms, "A", weapon=WeaponRanges(3, 0, -3), calibration=RangeCalibration(2.0, 2.0, 2.0),
                     size=40.0)


def test_golden_svg_of_a_board_with_lof_overlays():
    svg = _golden_snapshot().to_svg()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(svg)
    assert GOLDEN.exists(), "run with UPDATE_GOLDEN=1 once"
    assert svg == GOLDEN.read_text()
    assert "blocked" in svg and svg.count('stroke="#1a9641"') >= 3


def test_range_ruler_drawn_from_the_base_edge_with_calibrated_segments(explorer):
    explorer.cal_inputs["short"].value = "1.5"
    explorer.ruler_pick.value = "Peeker"
    v = explorer.verdict("Peeker")
    bands = [o for o in explorer.board_view.overlays if isinstance(o, Segment) and o.width == 9.0]
    assert len(bands) == 3
    s = explorer.table.disc("Cutter")
    x0, y0 = bands[0].p0
    assert math.hypot(x0 - s.x, y0 - s.y) == pytest.approx(s.r)     # the Short end touches the shooter's base
    lengths = [math.dist(b.p0, b.p1) for b in bands]
    assert lengths == pytest.approx([1.5, 3.5, 3.5])
    # the band that reaches the target's Silhouette first is the verdict's band
    t = explorer.table.disc("Peeker")
    reach = [math.dist(b.p0, (t.x, t.y)) <= t.r + 1e-9 or math.dist(b.p1, (t.x, t.y)) <= t.r + 1e-9 or
             shapely.LineString([b.p0, b.p1]).distance(shapely.Point(t.x, t.y)) <= t.r + 1e-9 for b in bands]
    assert ["short", "mid", "long"][reach.index(True)] == v.band
    explorer.set_shooter("Digger")  # Peeker out of Digger's reach? the choice is kept only if still measurable
    assert explorer.ruler_pick.value in ("", "Peeker")


def test_threat_level_of_the_side_the_miner_stands_on(scenario):
    # TR-09: the Threat Level used is the one of the side the Miner attacks from (8 / 5 / 2 by pair of sides)
    from explorer.games.tagraid.megabeast import ThreatLevels, side_pairs, sides_facing

    table = scenario.table()
    levels = ThreatLevels(front=8, adjacent=5, opposite=2)
    mb = table.model("Stoorworm")
    pairs = side_pairs(table.layout, mb.facing)
    for v in analyse(table, "Stoorworm", threat=levels):
        if v.threat is None:
            continue
        side = sides_facing(table.layout, table.hex_of(mb), table.model(v.target).center)
        assert v.threat.level in {levels.of(pairs[d]) for d in side}
    adj = [v for v in analyse(table, "Stoorworm", threat=levels) if v.threat and v.threat.pair == "adjacent"]
    assert adj and all(v.threat.level == 5 for v in adj)


def test_arrow_keys_nudge_the_selected_model(explorer):
    x0, y0 = explorer.models["Cutter"].center
    explorer.board_view.select("Cutter")
    explorer.board_view._key("ArrowRight")
    explorer.board_view._key("ArrowUp", True)
    m = explorer.models["Cutter"]
    assert (m.x, m.y) == pytest.approx((x0 + 0.1, y0 - 0.5))


def test_board_svg_from_plain_lof_results(scenario):
    table = scenario.table()
    results = [line_of_fire(table, "Cutter", t) for t in ("Digger", "Crawler")]
    snap = board_svg(scenario.board, scenario.models, results)
    assert snap.shooter == "Cutter" and [v.target for v in snap.verdicts] == ["Digger", "Crawler"]
    assert snap.verdicts[1].blocked_rays and "blocked by rock" in snap._repr_svg_()
    from explorer.errors import ScenarioError
    with pytest.raises(ScenarioError):
        board_svg(scenario.board, scenario.models, results + [line_of_fire(table, "Digger", "Cutter")])


@pytest.mark.parametrize("kind, lo, hi", [("same", 0, 0), ("adjacent", 1, 1), ("same_and_adjacent", 0, 1),
                                           ("up_to_2", 0, 2), ("from_1_to_2", 1, 2)])
def test_range_in_hexagons_outlines_the_right_hexagons(explorer, kind, lo, hi):
    from explorer.hexgrid import distance
    from explorer.render.svg import HexMark

    explorer.hex_range_pick.value = kind
    marks = {o.hex for o in explorer.board_view.overlays if isinstance(o, HexMark)}
    h0 = explorer.table.hex_of("Cutter")
    expect = {h for h in explorer.scenario.board if lo <= distance(h0, h) <= hi}
    assert marks == expect


def test_declared_move_gives_360_degrees(explorer):
    assert explorer.verdict("Driller").lof.reason == "outside_arc"
    explorer.moving.value = True
    assert explorer.models["Cutter"].declared_move
    table = explorer.table
    for v in explorer.verdicts:
        assert v.lof.reason != "outside_arc"
        assert v.lof.has_lof == line_of_fire(table, "Cutter", v.target).has_lof
    assert not any(type(o).__name__ == "Poly" for o in explorer.board_view.overlays)  # no wedge: a full circle
    explorer.set_shooter("Stoorworm")
    assert explorer.moving.disabled  # only Miners declare Move


def _label_boxes(overlays, px):
    from explorer.render.svg import Label

    out = []
    for o in overlays:
        if isinstance(o, Label):
            w, h = 0.62 * o.size * len(o.text), o.size
            out.append((o.text, o.pos[0] * px - w / 2, o.pos[1] * px - h / 2, o.pos[0] * px + w / 2,
                        o.pos[1] * px + h / 2))
    return out


@pytest.mark.parametrize("px", [24.0, 32.0, 48.0])
def test_model_labels_of_the_default_scenario_do_not_collide(scenario, px):
    snap = LofSnapshot(scenario.board, scenario.models, "Cutter", weapon=scenario.weapon, threat=scenario.threat,
                       calibration=scenario.calibration)
    ovs = snap.overlays(px_per_unit=px)
    names = {m.id for m in scenario.models}
    boxes = [b for b in _label_boxes(ovs, px) if b[0] in names]
    # every Model's name is drawn once, and the name / verdict blocks overlap neither each other nor any base
    assert sorted(b[0] for b in boxes) == sorted(names)
    table = snap.table
    model_labels = [b for b in _label_boxes(ovs, px) if len(b[0]) > 2]  # names and verdicts, not band letters
    for i, a in enumerate(model_labels):
        for b in model_labels[i + 1:]:
            ox = min(a[3], b[3]) - max(a[1], b[1])
            oy = min(a[4], b[4]) - max(a[2], b[2])
            assert ox <= 0.5 or oy <= 0.5, (a[0], b[0])
        for m in scenario.models:
            d = table.disc(m)
            cx, cy, r = m.x * px, m.y * px, d.r * px
            nx, ny = min(max(cx, a[1]), a[3]), min(max(cy, a[2]), a[4])
            assert math.hypot(nx - cx, ny - cy) >= r - 0.5, (a[0], m.id)


def test_verdict_table_names_sections_and_blockers_in_words(explorer):
    import html

    html_ = html.unescape(explorer.verdict_html.value)
    assert "blocked by scenery rock 1, rock 4" in html_
    assert "blocked by Spotter's base" in html_
    assert "blocked by hexagon (6, 8) without tile" in html_
    assert "outside Cutter's 180° front arc" in html_
    assert "hex:" not in html_ and "scenery:" not in html_ and "model:" not in html_
    rows = html_.split("<tr class='lof-row'")[1:]
    assert len(rows) == len(explorer.verdicts)
    for row, v in zip(rows, explorer.verdicts):
        for rule in v.rules:
            assert rule.split(": ", 1)[-1] in row
        assert "Line of Fire" in row  # every row names the section that decides LoF


def test_zoom_re_places_labels_for_the_new_scale(explorer):
    bv = explorer.board_view
    sent = []
    bv.canvas._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(cmd)
    before = [o for o in bv.overlays if type(o).__name__ == "Label"]
    bv.zoom_in.click()
    after = [o for o in bv.overlays if type(o).__name__ == "Label"]
    assert [o.text for o in after] == [o.text for o in before] and [o.pos for o in after] != [o.pos for o in before]
    assert len(sent) == 1  # one full redraw, every layer in one message


def test_threat_level_input_uses_the_scenario_models_bounds(explorer):
    """The LoF tab, the TOML roll scenarios and `explorer odds` share one Threat Level range (model.field_bounds)."""
    from explorer.games.tagraid.model import MegaBeast, field_bounds

    lo, hi = field_bounds(MegaBeast, "threat_level")
    before = explorer.threat
    explorer.threat_inputs["front"].value = str(hi + 1)
    msg = explorer.settings_msgs["threat"].value        # under the Threat Level fields
    assert "threat.front" in msg and f"{lo}..{hi}" in msg and "previous settings" in explorer.message.value
    assert explorer.threat == before
    explorer.threat_inputs["front"].value = str(hi)
    assert explorer.message.value == "" and explorer.threat.front == hi


def test_the_page_offers_lof_shooter_arc_beside_lof_arc_part_on_tr35():
    """Issue 22, item 3: the Line of Fire page offers the shooter-side arc reading beside lof_arc_part. On TR-35 the
    default sees T (a line from B's rear half), front_half does not, and both arc readings together are answered
    (before session 15 that combination was refused as not built)."""
    from explorer.games.tagraid.lof_scenario import LOF_RULING_KEYS, scenario_from_table
    from explorer.games.tagraid.table_file import load_packaged_table

    keys = list(LOF_RULING_KEYS)
    assert keys.index("lof_shooter_arc") == keys.index("lof_arc_part") + 1
    ex = LofExplorer(scenario_from_table(load_packaged_table("tr-35")))
    assert ex.shooter == "B" and ex.verdict("T").lof.has_lof
    ex.ruling_inputs["lof_shooter_arc"].value = "front_half"
    assert not ex.verdict("T").lof.has_lof and ex.message.value == ""
    ex.ruling_inputs["lof_arc_part"].value = "seen_part_in_arc"
    assert not ex.verdict("T").lof.has_lof and ex.message.value == ""
    assert ex.verdict("T").lof.rulings["lof_shooter_arc"] == "front_half"
    ex.ruling_inputs["lof_shooter_arc"].value = "any_point"
    assert ex.verdict("T").lof.has_lof  # the part of T in the arc is seen from the rear half, under the wall
