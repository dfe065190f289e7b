"""The rulebook's worked examples about Orders, as built-in whole Orders (kind = "order"), reproduce the book.

Sections: Order Expenditure Sequence (Example); Common Skills › Evade (Example of Evade); MegaBeast › Skills,
Attacks, and AROs (Example of a MegaBeast's movement and attack; Examples of MegaBeast redirection 1 and 2).
"""

import pytest

from explorer.games import get_game
from explorer.games.tagraid.lof import line_of_fire
from explorer.games.tagraid.orders.megabeast import interior_hexes
from explorer.games.tagraid.orders.sequence import play
from explorer.games.tagraid.pieces import disc_in_arc
from explorer.hexgrid import Hex, distance

G = get_game("tagraid")


def _play(name, **rulings):
    sc = G.load_builtin(name)
    return sc, play(sc.initial, sc.declarations, sc.dice), G.resolve(sc, rulings)


def _in_arc(state, who):
    mb = state.megabeast
    return disc_in_arc((mb.x, mb.y), mb.facing, mb.behavior.angle_of_vision, state.table().disc(who))


def test_oes_example_a_tag_and_the_megabeast_aro_two_face_to_face_one_t_bezoar_one_save():
    sc, frames, t = _play("book-oes-order")
    o = t.outcome
    # only one Reactive TAG and the MegaBeast gain the right to an ARO, at step 2; nobody else at step 4
    assert set(o["aro_rights"]) == {"Reactive TAG", "Stoorworm"}
    assert all(r["step"] == 2 for r in o["aro_rights"].values())
    assert o["aros"] == {"Reactive TAG": "ranged_attack", "Stoorworm": "behavior"}
    # the MegaBeast's Behavior is Move + an Attack: it moves when declaring its ARO
    assert o["megabeast"]["moved"] is not None
    # two Face to Face Rolls, the Active TAG wins both
    assert [(p["kind"], p["winner"]) for p in o["pairs"]] == [("face_to_face", "Active TAG")] * 2
    # one T-Bezoar Unit for wounding the MegaBeast, one Saving Roll for the Reactive TAG
    assert o["t_bezoar"] == {"blue": 1} and o["megabeast"]["wounds"] == 9
    assert o["saving_rolls"] == {"Reactive TAG": 1}


def test_evade_example_moves_one_segment_and_the_move_generates_no_aro():
    sc, frames, t = _play("book-evade-order")
    o = t.outcome
    x, green = "Yuè Minerals TAG", "Sterling Forge TAG"
    assert set(o["aro_rights"]) == {"RocaWorks TAG", "Minescorp TAG"}
    assert all(p["winner"] == x for p in o["pairs"]) and len(o["pairs"]) == 2
    assert list(o["evade_moved"]) == [x]
    after_move = next(f.state for f in frames if f.name == "1.2 First Skill: Move")
    last = frames[-1].state
    moved = ((last.miner(x).x - after_move.miner(x).x) ** 2 + (last.miner(x).y - after_move.miner(x).y) ** 2) ** .5
    assert 0 < moved <= last.geometry.movement_segment + 1e-9  # one Segment
    # the Evade movement took it into the green TAG's LoF, and the green TAG still has no ARO
    rul = last.ruling_set()
    assert not line_of_fire(after_move.table(), green, x, rul, explain=False).has_lof
    assert line_of_fire(last.table(), green, x, rul, explain=False).has_lof
    assert last.right_of(green) is None and last.aro_of(green) is None
    assert o["wounds_lost"] == {}


def test_megabeast_movement_example_position_1_to_position_2():
    sc, frames, t = _play("book-megabeast-move-order")
    first = frames[0].state
    last = frames[-1].state
    geo = last.geometry
    a = last.active_miner
    ah = geo.hex_of(a.x, a.y)
    p1, p2 = geo.hex_of(first.megabeast.x, first.megabeast.y), geo.hex_of(last.megabeast.x, last.megabeast.y)
    assert p1 != p2
    # Position 2 is the hexagon without tile (Interior: surrounded by >= 4 tiles) closest to the Active TAG
    cands = interior_hexes(last)
    assert p2 in cands and distance(p2, ah) == min(distance(h, ah) for h in cands)
    # it moves when declaring its ARO (step 2.2), and faces the Active TAG
    decl = next(f for f in frames if f.name == "2.2 ARO declaration")
    assert geo.hex_of(decl.state.megabeast.x, decl.state.megabeast.y) == p2
    assert _in_arc(last, a.id)
    # its Attack is resolved at step 5, from Position 2: the Threat Level is the side of Position 2 facing the TAG
    tl = next(s for s in t.steps if s.rule.section == "MegaBeast › Threat Level" and "uses Threat Level" in s.title)
    assert tl.facts["pair"] == "front"
    assert t.outcome["pairs"][0]["winner"] == "Stoorworm" and t.outcome["wounds_lost"] == {"Active TAG": 1}


def test_megabeast_does_not_move_when_already_nearest():
    sc = G.load_builtin("book-megabeast-move-order")
    from dataclasses import replace

    a = sc.initial.miners[0]
    x, y = sc.initial.geometry.layout.hex_to_pixel(Hex(2, 1))
    mb = replace(sc.initial.megabeast)
    # start the TAG next to Position 1: Position 1 is then the nearest Interior hexagon already
    start = sc.initial.geometry.layout.hex_to_pixel(Hex(3, 0))
    init = sc.initial.with_miner(replace(a, x=start[0], y=start[1], facing=180.0))
    init = replace(init, megabeast=replace(mb, facing=30.0))
    end = sc.initial.geometry.layout.hex_to_pixel(Hex(3, -1))
    decl = replace(sc.declarations, move=replace(sc.declarations.move, route=(end,)))
    frames = play(init, decl, sc.dice)
    last = frames[-1].state
    assert (last.megabeast.x, last.megabeast.y) == pytest.approx((x, y)) and last.megabeast.facing == 30.0
    assert any(s.facts.get("moved") is False for f in frames for s in f.steps)


@pytest.mark.parametrize("name,active,why", [
    ("book-megabeast-redirect-adjacent-order", "Stonebreaker", "adjacent"),
    ("book-megabeast-redirect-attacked-order", "Rockeater", "target of an Attack"),
])
def test_redirection_examples(name, active, why):
    sc, frames, t = _play(name)
    first, last = frames[0].state, frames[-1].state
    assert last.right_of(last.megabeast.id) is None  # no LoF: no ARO
    assert not _in_arc(first, active)  # before: the Active TAG is out of its Angle of Vision
    assert _in_arc(last, active)  # after the Conclusion it has the Active TAG in it ...
    concl = next(f for f in frames if f.name == "5.2 Conclusion")
    step = concl.steps[0]
    assert step.facts["redirects"] and why in step.title and step.rule.section == "MegaBeast › Skills, Attacks, and AROs"
    # ... with the most TAGs possible, pointing at the Active TAG (ruling megabeast_facing_tie, default face_active)
    counts = step.facts["tags_by_facing"]
    assert counts[f"{last.megabeast.facing:g}"] == max(counts.values())
    assert t.outcome["megabeast"]["facing_at_start"] != t.outcome["megabeast"]["facing"]


def test_redirect_tie_reading_least_turn():
    sc = G.load_builtin("book-megabeast-redirect-adjacent-order")
    a = G.resolve(sc)
    b = G.resolve(sc, {"megabeast_facing_tie": "least_turn"})
    assert a.rulings["megabeast_facing_tie"] == "face_active" and b.rulings["megabeast_facing_tie"] == "least_turn"
    counts = next(s for s in b.steps if s.facts.get("redirects")).facts["tags_by_facing"]
    top = [float(f) for f, c in counts.items() if c == max(counts.values())]
    gap = lambda f: min(abs(f - 330.0) % 360.0, 360.0 - abs(f - 330.0) % 360.0)  # noqa: E731
    assert b.outcome["megabeast"]["facing"] == min(top, key=lambda f: (gap(f), f))
