"""Property tests of whole Orders (hypothesis): one ARO per enemy per Order; replaying a declaration log gives the
identical state; every verdict of an Order survives the board's rotations and reflections.

Sections: Activating a Miner › Orders and AROs (a single ARO to each enemy Miner and the MegaBeast per Order);
Order Expenditure Sequence; Line of Fire (the geometry has no preferred direction); Game Sequence › Game Round and
MegaBeast › Deployment (a whole Round, its deployment included, survives the same symmetries).
"""

import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from explorer.games import get_game
from explorer.games.tagraid.orders.declarations import AroDecl, MoveDecl, OrderDeclarations, OrderDice
from explorer.games.tagraid.orders.orderfile import outcome as order_outcome
from explorer.games.tagraid.orders.round import replay_round
from explorer.games.tagraid.orders.sequence import STEPS, play, play_until_rejected
from explorer.games.tagraid.orders.state import TableGeometry
from explorer.games.tagraid.scenarios import list_order_scenarios
from explorer.hexgrid import Hex, neighbors

G = get_game("tagraid")
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ORDERS = [s["name"] for s in list_order_scenarios()]
ROUNDS = [s.name for s in G.scenarios() if s.kind == "round"]
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
    # every die from a seed: the built-in's fixed faces fit its own declarations only (another declaration may need
    # more Saving Rolls than it fixes, a refusal of the file's dice, not of the declaration)
    dice = OrderDice(seed=draw(st.integers(0, 10_000)))
    return sc, OrderDeclarations("X", MoveDecl(route), second, tuple(aros), ()), dice


@PROPS
@given(declarations())
def test_an_order_grants_each_enemy_at_most_one_aro(case):
    sc, decl, dice = case
    frames, rejection = play_until_rejected(sc.initial, decl, dice)
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


def _transformers(layout, steps, axis):
    """``tp(point)`` and ``tf(x, y, facing) -> (point, facing)``: a board point and a facing (degrees) under the grid
    symmetry ``(steps, axis)``."""

    def tp(p):
        return layout.transform_pixel(p, steps, axis)

    def tf(x, y, facing):
        c = tp((x, y))
        u = tp((x + math.cos(math.radians(facing)), y + math.sin(math.radians(facing))))
        return c, round(math.degrees(math.atan2(u[1] - c[1], u[0] - c[0])) % 360.0, 9) % 360.0

    return tp, tf


def _transform_table(init, steps, axis):
    """The table (``OrderState``) under a grid symmetry: board, Access Points, Miners, MegaBeast, Tool Containers and
    Loot Tokens."""
    geo = init.geometry
    tp, tf = _transformers(geo.layout, steps, axis)
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
    return replace(init, geometry=geo2, miners=tuple(miners), megabeast=mb,
                   containers=tuple(replace(c, x=tp((c.x, c.y))[0], y=tp((c.x, c.y))[1]) for c in init.containers),
                   loot_tokens=tuple(replace(t, x=tp((t.x, t.y))[0], y=tp((t.x, t.y))[1])
                                     for t in init.loot_tokens))


def _transform_declarations(d, layout, steps, axis):
    """An Order's declarations under a grid symmetry: the Move routes and facings, the Evade movements."""
    tp, tf = _transformers(layout, steps, axis)

    def tmove(mv):
        if mv is None:
            return None
        fac = None if mv.facing is None else tf(0.0, 0.0, mv.facing)[1]
        return replace(mv, route=tuple(tp(p) for p in mv.route), facing=fac)

    return replace(d, move=tmove(d.move), second=replace(d.second, move=tmove(d.second.move)),
                   evade_moves=tuple((k, tp(p)) for k, p in d.evade_moves))


def _transform_scenario(sc, steps, axis):
    layout = sc.initial.geometry.layout
    init2 = _transform_table(sc.initial, steps, axis)
    d2 = _transform_declarations(sc.declarations, layout, steps, axis)
    return replace(sc, initial=init2, declarations=d2), _transformers(layout, steps, axis)[1]


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


# ------------------------------------------------------------------ a whole Round under the same symmetries


def _transform_round(sc, steps, axis):
    """A round scenario under a grid symmetry: its table, the waiting MegaBeast, its deployment and every Order."""
    rs = sc.initial
    layout = rs.table.geometry.layout
    tp, tf = _transformers(layout, steps, axis)
    wm = rs.waiting_megabeast
    if wm is not None:
        (x, y), f = tf(wm.x, wm.y, wm.facing)
        wm = replace(wm, x=x, y=y, facing=f)
    rs2 = replace(rs, table=_transform_table(rs.table, steps, axis), waiting_megabeast=wm)
    d = sc.declarations
    dep = d.deployment
    if dep is not None:
        (x, y), f = tf(dep.x, dep.y, dep.facing)
        dep = replace(dep, x=x, y=y, facing=f)
    orders = tuple((_transform_declarations(od, layout, steps, axis), dice) for od, dice in d.orders)
    return replace(sc, initial=rs2, declarations=replace(d, orders=orders, deployment=dep)), tf


def _round_verdicts(sc):
    """The Round's outcome without positions (``trace.outcome`` less Miner, MegaBeast and Loot Token positions and
    the MegaBeast's facing) and every Order's verdicts, each Order played from the table the Round gives it."""
    o = G.resolve(sc).outcome
    rp = replay_round(sc.initial, sc.declarations)
    assert rp.rejection is None, rp.rejection
    orders = [_verdicts(order_outcome(play(table, od, dice)))
              for table, (od, dice) in zip(rp.tables, sc.declarations.orders, strict=True)]
    plain = {k: v for k, v in o.items() if k not in ("miners", "megabeast", "loot_tokens")}
    plain["miners"] = {m: {k: v for k, v in d.items() if k != "position"} for m, d in o["miners"].items()}
    plain["megabeast"] = None if o["megabeast"] is None else o["megabeast"]["wounds"]
    plain["loot_tokens"] = {k: v["owner"] for k, v in o.get("loot_tokens", {}).items()}
    return o, plain, orders


_ROUND_BASE = {}


@pytest.mark.slow
@pytest.mark.parametrize("sym", SYMMETRIES, ids=[f"rot{s}-{a or 'none'}" for s, a in SYMMETRIES])
@pytest.mark.parametrize("name", ROUNDS)
def test_a_rounds_outcome_survives_rotations_and_reflections(name, sym):
    """Every Order's verdicts (AROs, Rolls, Wounds, States, Loot, Tools, MegaBeast move and redirection) and the
    Round's outcome (Neomaterial Units, T-Bezoar, Events, result) are the same on the transformed table; positions,
    Loot Tokens and the MegaBeast's facing are the transformed ones."""
    steps, axis = sym
    sc = G.load_builtin(name)
    if name not in _ROUND_BASE:
        _ROUND_BASE[name] = _round_verdicts(sc)
    o, plain, orders = _ROUND_BASE[name]
    assert len(orders) == len(sc.declarations.orders) >= 3
    sc2, tf = _transform_round(sc, steps, axis)
    o2, plain2, orders2 = _round_verdicts(sc2)
    assert orders2 == orders
    assert plain2 == plain
    for mid, m in o["miners"].items():
        (x, y), _ = tf(*m["position"], 0.0)
        assert o2["miners"][mid]["position"] == pytest.approx([x, y], abs=1e-5)
    for k, tok in o.get("loot_tokens", {}).items():
        (x, y), _ = tf(*tok["position"], 0.0)
        assert o2["loot_tokens"][k]["position"] == pytest.approx([x, y], abs=1e-5)
    if o["megabeast"]:
        (x, y), f = tf(*o["megabeast"]["position"], o["megabeast"]["facing"])
        assert o2["megabeast"]["position"] == pytest.approx([x, y], abs=1e-5)
        g = o2["megabeast"]["facing"]
        assert min(abs(f - g) % 360.0, 360.0 - abs(f - g) % 360.0) < 1e-6
