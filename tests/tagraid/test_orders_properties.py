"""Property tests of whole Orders (hypothesis): one ARO per enemy per Order; replaying a declaration log gives the
identical state; every verdict of an Order survives the board's rotations and reflections.

Sections: Activating a Miner › Orders and AROs (a single ARO to each enemy Miner and the MegaBeast per Order);
Order Expenditure Sequence; Line of Fire (the geometry has no preferred direction).
"""

import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from explorer.games import get_game
from explorer.games.tagraid.orders.declarations import AroDecl, MoveDecl, OrderDeclarations
from explorer.games.tagraid.orders.sequence import STEPS, play, play_until_rejected
from explorer.games.tagraid.orders.state import TableGeometry
from explorer.games.tagraid.scenarios import list_order_scenarios
from explorer.hexgrid import Hex, neighbors

G = get_game("tagraid")
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ORDERS = [s["name"] for s in list_order_scenarios()]
SYMMETRIES = [(steps, axis) for axis in (None, "q") for steps in range(6) if (steps, axis) != (0, None)]


# ------------------------------------------------------------------ one ARO per enemy per Order


@st.composite
def declarations(draw):
    sc = G.load_builtin("tr-16-order")
    init = sc.initial
    layout = init.geometry.layout
    a = init.miner("X")
    here = init.geometry.hex_of(a.x, a.y)
    legs = draw(st.lists(st.sampled_from(neighbors(here)), min_size=0, max_size=1))
    route = tuple(layout.hex_to_pixel(h) for h in legs)
    aros = draw(st.lists(st.builds(AroDecl, st.sampled_from(["B", "C"]),
                                   st.sampled_from(["ranged_attack", "evade", "idle", "none"]),
                                   st.just("Rifle"), st.sampled_from([None, 2, 4])), max_size=4))
    second = draw(st.sampled_from([sc.declarations.second, replace(sc.declarations.second, skill="idle")]))
    return sc, OrderDeclarations("X", MoveDecl(route), second, tuple(aros), ())


@PROPS
@given(declarations())
def test_an_order_grants_each_enemy_at_most_one_aro(case):
    sc, decl = case
    frames, rejection = play_until_rejected(sc.initial, decl, sc.dice)
    for f in frames:
        declared = [m for m, _ in f.state.aros]
        assert len(declared) == len(set(declared))
        assert len([r.miner for r in f.state.rights]) == len({r.miner for r in f.state.rights})
        assert all(f.state.right_of(m) is not None for m in declared)  # nobody declares without the right
    names = [d.miner for d in decl.aros]
    if len(names) != len(set(names)):  # a second ARO by the same Miner is always refused
        assert rejection is not None


# ------------------------------------------------------------------ replay


@PROPS
@given(st.sampled_from(ORDERS), st.integers(1, len(STEPS)))
def test_replaying_the_log_gives_the_identical_state(name, upto):
    sc = G.load_builtin(name)
    full = play(sc.initial, sc.declarations, sc.dice)
    part = play(sc.initial, sc.declarations, sc.dice, upto=upto)
    assert part == full[:upto]  # stepping back is replaying fewer steps: the same frames
    again = play(sc.initial, sc.declarations, sc.dice)
    assert again[-1].state == full[-1].state and [f.steps for f in again] == [f.steps for f in full]


# ------------------------------------------------------------------ rotations and reflections


def _transform_scenario(sc, steps, axis):
    init = sc.initial
    geo = init.geometry
    layout = geo.layout

    def tp(p):
        return layout.transform_pixel(p, steps, axis)

    def tf(x, y, facing):
        c = tp((x, y))
        u = tp((x + math.cos(math.radians(facing)), y + math.sin(math.radians(facing))))
        return c, round(math.degrees(math.atan2(u[1] - c[1], u[0] - c[0])) % 360.0, 9) % 360.0

    geo2 = TableGeometry(geo.board.transformed(steps, axis), geo.calibration, geo.movement_segment,
                         tuple((n, tp(p)) for n, p in geo.access_points), geo.token_radius)
    miners = []
    for m in init.miners:
        (x, y), f = tf(m.x, m.y, m.facing)
        miners.append(replace(m, x=x, y=y, facing=f))
    mb = init.megabeast
    if mb is not None:
        (x, y), f = tf(mb.x, mb.y, mb.facing)
        mb = replace(mb, x=x, y=y, facing=f)
    init2 = replace(init, geometry=geo2, miners=tuple(miners), megabeast=mb,
                    containers=tuple(replace(c, x=tp((c.x, c.y))[0], y=tp((c.x, c.y))[1]) for c in init.containers),
                    loot_tokens=tuple(replace(t, x=tp((t.x, t.y))[0], y=tp((t.x, t.y))[1])
                                      for t in init.loot_tokens))

    def tmove(mv, at):
        if mv is None:
            return None
        fac = None if mv.facing is None else tf(0.0, 0.0, mv.facing)[1]
        return replace(mv, route=tuple(tp(p) for p in mv.route), facing=fac)

    d = sc.declarations
    d2 = replace(d, move=tmove(d.move, None), second=replace(d.second, move=tmove(d.second.move, None)),
                 evade_moves=tuple((k, tp(p)) for k, p in d.evade_moves))
    return replace(sc, initial=init2, declarations=d2), tf


def _verdicts(o):
    return {
        "rights": o["aro_rights"], "aros": o["aros"], "pairs": [(p["kind"], p.get("winner")) for p in o["pairs"]],
        "saves": o["saving_rolls"], "wounds": o["wounds_lost"], "states": o["states_entered"], "dead": o["dead"],
        "teseum": o["teseum"], "t_bezoar": o["t_bezoar"], "evade_moved": sorted(o["evade_moved"]),
        "evade_dropped": sorted(o["evade_dropped"]), "idle": o["counted_as_idle"],
        "megabeast_moved": (o.get("megabeast") or {}).get("moved") is not None,
        "redirected": (o.get("megabeast") or {}).get("facing_before") is not None,
        "interactions": o.get("interactions"), "tools": o.get("tools"),
    }


@PROPS
@given(st.sampled_from(ORDERS), st.sampled_from(SYMMETRIES))
def test_every_verdict_survives_rotations_and_reflections(name, sym):
    steps, axis = sym
    sc = G.load_builtin(name)
    t = G.resolve(sc)
    sc2, tf = _transform_scenario(sc, steps, axis)
    t2 = G.resolve(sc2)
    assert _verdicts(t2.outcome) == _verdicts(t.outcome)
    # positions after the Order are the transformed positions, the MegaBeast's facing the transformed facing
    for mid, m in t.outcome["miners"].items():
        (x, y), _ = tf(*m["position"], 0.0)
        assert t2.outcome["miners"][mid]["position"] == pytest.approx([x, y], abs=1e-5)
    if t.outcome.get("megabeast"):
        _, f = tf(0.0, 0.0, t.outcome["megabeast"]["facing"])
        g = t2.outcome["megabeast"]["facing"]
        assert min(abs(f - g) % 360.0, 360.0 - abs(f - g) % 360.0) < 1e-6
