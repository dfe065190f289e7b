"""One table: the roll exchange the board decides (board_roll), on the built-in tables and under grid symmetries."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import load_any
from explorer.games.tagraid.board_roll import (DEFAULT_THREAT_LEVELS, DEFAULT_WEAPON_RANGES, SECTION, board_roll,
                                               resolve_board_roll)
from explorer.games.tagraid.lof import TableTop, line_of_fire
from explorer.games.tagraid.lof_analysis import analyse
from explorer.games.tagraid.model import parse_scenario
from explorer.games.tagraid.pieces import SILHOUETTE_BASE_RADIUS, Model
from explorer.games.tagraid.random_tables import random_table
from explorer.games.tagraid.situation import geometry_facts
from explorer.games.tagraid.table_file import load_packaged_table
from explorer.hexgrid import Hex, Layout, hex_range
from test_lof_properties import transformed  # the same board symmetries the LoF property tests use

L = Layout()


def _roll(name: str, shooter: str, targets, **kw):
    lt = load_packaged_table(name)
    return lt, board_roll(lt.table, shooter, targets, rulings=lt.rulings, weapon=lt.weapon or DEFAULT_WEAPON_RANGES,
                          threat=lt.threat or DEFAULT_THREAT_LEVELS, calibration=lt.range_calibration, **kw)


def test_tr22_range_band_and_mod_come_from_the_range_ruler():
    """TR-22: B at Short Range along the shortest clear LoF (5.662 hex units): the shooter's Short MOD (+3)."""
    lt, br = _roll("tr-22", "A", ["B"])
    f = br.facts_by_field()
    assert f["active.attacks[0].lof"] is True and f["reactive[0].lof_to_active"] is True
    assert f["active.attacks[0].mods.Range"] == DEFAULT_WEAPON_RANGES.short == 3
    assert f["reactive[0].same_hexagon"] is False and f["reactive[0].silhouette_contact"] is False
    assert br.document["active"]["attacks"] == [{"target": "B", "burst": 3, "mods": {"Range": 3}}]
    assert dict(br.readings)["lof_grazing"] == "touching_blocks"  # the table file's reading was used
    parse_scenario(br.document, "test")  # a valid roll scenario
    range_fact = next(x for x in br.facts if x.field.endswith("mods.Range"))
    assert "5.662" in range_fact.title and "Range Ruler" in str(range_fact.rule)


def test_the_cli_question_gives_the_same_verdict():
    """`explorer resolve tr-22 --target B` (table scenario + question) and the pure function: the same roll."""
    game, sc = load_any("tr-22")
    trace = game.resolve(sc.with_question("A", ["B"]))
    lt, br = _roll("tr-22", "A", ["B"])
    res = resolve_board_roll(br)
    assert trace.outcome == res.trace.outcome
    assert [s.title for s in trace.steps] == [s.title for s in res.trace.steps]
    assert trace.steps[0].section == SECTION and trace.sections()[0] == SECTION
    assert trace.outcome["pairs"][0]["kind"] == "face_to_face"


def test_split_burst_and_every_miner_with_lof_reacts():
    """The quarry: Cutter splits Burst 3 over Spotter and Digger (2 + 1); every enemy Miner with LoF to Cutter
    reacts, the others do not (checked against line_of_fire on the whole table)."""
    lt, br = _roll("lof-quarry", "Cutter", ["Spotter", "Digger"])
    t, rul = lt.table, lt.rulings.copy()
    doc = br.document
    assert [a["burst"] for a in doc["active"]["attacks"]] == [2, 1]
    cutter = t.model("Cutter")
    with_lof = [m.id for m in t.models.values() if cutter.is_enemy_miner_of(m) and m.id not in ("Spotter", "Digger")
                and line_of_fire(t, m.id, "Cutter", rul, explain=False).has_lof]
    assert [r["name"] for r in doc["reactive"]] == ["Spotter", "Digger", *with_lof]
    assert len(doc["reactive"]) >= 3
    # the Range MODs are the Line of Fire explorer's verdicts
    vs = {v.target: v for v in analyse(t, "Cutter", lt.rulings.copy(), lt.range_calibration, lt.weapon, lt.threat)}
    for at in doc["active"]["attacks"]:
        assert at.get("mods", {}).get("Range", 0) == vs[at["target"]].mod
    res = resolve_board_roll(br)
    # every Reactive Miner is in a roll, except an ARO Out of Range that nobody attacks (no dice on either side)
    assert {p["reactive"] for p in res.trace.outcome["pairs"] if p.get("reactive")} == {
        r["name"] for r in doc["reactive"] if not r.get("out_of_range") or r["name"] in ("Spotter", "Digger")}
    # the MegaBeast with LoF to Cutter comes in with the Threat Level of the side facing Cutter
    if "megabeast" in doc:
        mb = doc["megabeast"]
        assert mb["aro"] is line_of_fire(t, mb["name"], "Cutter", rul, explain=False).has_lof


def test_facts_agree_with_the_whole_table_geometry():
    """The cached local-table verdicts give the same facts as geometry_facts on the whole table (lof-demo)."""
    lt = load_packaged_table("lof-demo")
    t = lt.table
    sh = next(iter(t.models))
    enemies = [m.id for m in t.models.values() if t.model(sh).is_enemy_miner_of(m)]
    br = board_roll(t, sh, enemies[:1], rulings=lt.rulings, weapon=DEFAULT_WEAPON_RANGES, all_aros=False,
                    calibration=lt.range_calibration)
    facts, _ = geometry_facts(t, sh, enemies[:1], active_weapon=DEFAULT_WEAPON_RANGES, rulings=lt.rulings.copy(),
                              calibration=lt.range_calibration)
    r = facts["reactive"][enemies[0]]
    f = br.facts_by_field()
    assert f["reactive[0].lof_to_active"] == r["lof_to_active"]
    assert f["reactive[0].same_hexagon"] == r["same_hexagon"]
    assert f["reactive[0].silhouette_contact"] == r["silhouette_contact"]
    assert f["active.attacks[0].lof"] == facts["active"]["lof_to"][enemies[0]]


def test_contact_and_same_hexagon_from_positions():
    """A Miner in Silhouette Contact with its target: Close Combat Attack by default, contact and same Hexagon are
    board facts, and the ARO in contact is a Close Combat Attack."""
    r = SILHOUETTE_BASE_RADIUS[7]
    cx, cy = L.hex_to_pixel(Hex(0, 0))
    t = TableTop([Model("A", cx - r, cy, facing=0.0, side="a"), Model("R", cx + r, cy, facing=180.0, side="r")],
                 tiles={h: True for h in hex_range(Hex(0, 0), 2)}, layout=L)
    br = board_roll(t, "A", ["R"])
    f = br.facts_by_field()
    assert f["reactive[0].silhouette_contact"] is True and f["reactive[0].same_hexagon"] is True
    assert br.document["active"]["skill"] == "close_combat_attack"
    assert dict(br.declared) == {"A": "close_combat_attack", "R": "close_combat_attack"}
    res = resolve_board_roll(br)
    assert res.trace.outcome["pairs"][0]["kind"] == "face_to_face"


def test_no_lof_to_the_target_makes_the_ranged_attack_idle():
    t = TableTop([Model("A", 0, 0, facing=180.0, side="a"), Model("R", 3, 0, facing=180.0, side="r")])
    br = board_roll(t, "A", ["R"], skill="ranged_attack")
    f = br.facts_by_field()
    assert f["active.attacks[0].lof"] is False and f["active.skill"] == "idle"
    assert br.document["active"]["skill"] == "idle"
    step = next(s for s in br.steps() if s.facts["field"] == "active.skill")
    assert "Requirements" in str(step.rule)


@pytest.mark.parametrize("shooter,targets,kw,field", [
    ("A", ["A"], {}, "targets"),
    ("A", ["F"], {}, "targets"),          # a friendly Miner is not a target of an attack
    ("A", ["R", "S"], {"profiles": {"A": {"weapon": {"burst": 1}}}}, "targets"),
    ("Z", ["R"], {}, "shooter"),
    ("A", [], {}, "targets"),
    ("A", ["R"], {"skill": "jump"}, "skill"),
])
def test_bad_questions_are_one_line_errors(shooter, targets, kw, field):
    t = TableTop([Model("A", 0, 0, side="a"), Model("F", 0, 2, side="a"), Model("R", 3, 0, side="r"),
                  Model("S", 3, 2, side="s")])
    with pytest.raises(ScenarioError) as e:
        board_roll(t, shooter, targets, **kw)
    assert e.value.field == field and "\n" not in str(e.value)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(0, 5), st.sampled_from([None, "q", "r", "s"]))
def test_board_facts_survive_rotations_and_reflections(seed, steps, axis):
    """Every board fact and the whole roll document are the same on the board rotated / reflected."""
    t = random_table(seed, radius=4, n_models=5, n_scenery=5, n_holes=4, n_sides=2, layout=L)
    ids = list(t.models)
    if len(ids) < 3:
        return
    targets = [i for i in ids if t.model(i).side != t.model(ids[0]).side][:2]
    if not targets:
        return
    br = board_roll(t, ids[0], targets)
    br2 = board_roll(transformed(t, steps, axis), ids[0], targets)
    assert br.facts_by_field() == br2.facts_by_field()
    assert br.document == br2.document


def test_target_out_of_range_of_its_own_weapon_rolls_no_aro_dice():
    """A Reactive target beyond the Long Range Segment of its (stand-in) ARO weapon: its Ranged Attack ARO is declared
    and automatically fails, no dice (Common Skills › Ranged Attack, Ranged Combat MODs; Distances and Measurements ›
    Range Ruler); the Active Miner, whose weapon may fire Out of Range, makes a Normal Roll (Rolls › Face to Face
    Rolls: Skills that do not affect each other). Newcomer finding: the ARO dice used to be rolled."""
    from explorer.games.tagraid.ranges import RangeCalibration, WeaponRanges

    t = TableTop([Model("A", 0, 0, facing=0.0, side="a"), Model("R", 12, 0, facing=180.0, side="r")])
    br = board_roll(t, "A", ["R"], weapon=WeaponRanges(3, 0, -3, -6), calibration=RangeCalibration(2, 2, 2))
    f = br.facts_by_field()
    assert f["active.attacks[0].mods.Range"] == -6 and f["reactive[0].out_of_range"] is True
    assert br.document["reactive"][0]["out_of_range"] is True
    res = resolve_board_roll(br)
    r = res.miners["R"]
    assert r.skill == "ranged_attack" and all(not p.dice for p in r.pools)       # declared, no die rolled
    assert [p.kind for p in res.pairs] == ["normal_roll"]
    assert any("Out of Range of R's Weapon" in s.title for s in res.trace.steps)
    # within the Long Range Segment the same ARO rolls its die and the exchange is Face to Face
    near = board_roll(t, "A", ["R"], weapon=WeaponRanges(3, 0, -3, -6), calibration=RangeCalibration(8, 8, 8))
    assert "reactive[0].out_of_range" not in near.facts_by_field()
    assert [p.kind for p in resolve_board_roll(near).pairs] == ["face_to_face"]


def test_a_target_of_an_idle_attack_is_not_said_to_react_then_not_attacked():
    """The shooter has no LoF to its target: the Attack counts as Idle, so the target is named as a target that is
    not attacked (not "reacts: it is a target"), and its ARO fails its own Requirements at Resolution (Order
    Expenditure Sequence, steps 4 and 5) instead of "no right to an ARO ... not attacked"."""
    t = TableTop([Model("A", 0, 0, facing=180.0, side="a"), Model("R", 3, 0, facing=0.0, side="r")])
    br = board_roll(t, "A", ["R"], skill="ranged_attack")
    res = resolve_board_roll(br)
    titles = [s.title for s in res.trace.steps]
    lof_fact = next(x for x in titles if x.startswith("R has no Line of Fire to A"))
    assert "reacts" not in lof_fact and "not attacked" in lof_fact
    assert not any("R has no right to an ARO" in x for x in titles)
    idle = next(s for s in res.trace.steps if s.facts.get("miner") == "R" and s.facts.get("skill") == "idle")
    assert idle.facts["aro_right_step"] == 4 and "counts as Idle" in idle.title
    assert "target of A's Attack" in idle.facts["requirement"]


def test_split_burst_without_lof_to_one_target_follows_the_ruling_from_a_table_file(tmp_path):
    """A table file whose shooter splits its Burst over R (in front) and S (behind it, outside its 180° arc):
    `explorer resolve TABLE --target R --target S` makes the whole Skill Idle by default, and with the table's
    ``[rulings] split_burst_without_lof = "share_lost"`` (or --ruling) only S's share is lost."""
    text = ('title = "split"\nboard = { shape = { kind = "hexagon", radius = 4 } }\n'
            '[[models]]\nid = "A"\nhex = "0,0"\nfacing = 0.0\nside = "a"\n'
            '[[models]]\nid = "R"\nhex = "2,0"\nfacing = 180.0\nside = "r"\n'
            '[[models]]\nid = "S"\nhex = "-2,0"\nfacing = 180.0\nside = "r"\n')
    outs = {}
    for rd in (None, "share_lost"):
        f = tmp_path / f"split-{rd}.toml"
        f.write_text(text + (f'[rulings]\nsplit_burst_without_lof = "{rd}"\n' if rd else ""), encoding="utf-8")
        game, sc = load_any(str(f))
        trace = game.resolve(sc.with_question("A", ["R", "S"]))
        outs[rd] = trace
    idle, lost = outs[None], outs["share_lost"]
    assert idle.rulings["split_burst_without_lof"] == "whole_skill_idle"
    assert [p["kind"] for p in idle.outcome["pairs"]] != [] and not any(
        s.facts.get("miner") == "A" and s.facts.get("kind") == "attack" for s in idle.steps)
    assert any("counts as Idle" in s.title and "A (Active)" in s.title for s in idle.steps)
    assert lost.rulings["split_burst_without_lof"] == "share_lost"
    assert any(s.facts.get("failed_targets") == ["S"] for s in lost.steps)
    assert any(p.get("reactive") == "R" and p["kind"] == "face_to_face" for p in lost.outcome["pairs"])
