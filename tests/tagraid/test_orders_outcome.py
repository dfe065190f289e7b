"""The outcome of a whole Order (kind = "order"): the summary reads the trace's own numbers, for every built-in and
every reading of the ruling options it consults; the Teseum wording; dropped Evade movements; errors name the file."""

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.tagraid.game import outcome_text
from explorer.games.tagraid.options import ALL_OPTIONS
from explorer.games.tagraid.orders.orderfile import parse_order
from explorer.games.tagraid.scenarios import list_order_scenarios

G = get_game("tagraid")
ORDERS = [s["name"] for s in list_order_scenarios()]
OPTIONS = {o.key: o for o in ALL_OPTIONS}


def _runs():
    """Every order built-in under its defaults and under every other reading of each option its trace consulted."""
    out = []
    for name in ORDERS:
        sc = G.load_builtin(name)
        t = G.resolve(sc)
        out.append((name, {}, t))
        for key in t.rulings:
            for reading in OPTIONS[key].readings:
                if reading != t.rulings[key]:
                    out.append((name, {key: reading}, G.resolve(sc, {key: reading})))
    return out


RUNS = _runs()


def _wounds_from_steps(t):
    """Wounds lost per Miner, read from the trace's own steps (the 'loses N Wounds points' facts)."""
    lost = {}
    for s in t.steps:
        if "wounds" in s.facts and "target" in s.facts and "attacker" in s.facts:
            lost[s.facts["target"]] = lost.get(s.facts["target"], 0) + s.facts["wounds"]
    return {k: v for k, v in lost.items() if v}


@pytest.mark.parametrize("name,rulings,t", RUNS, ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in r.items()) or 'default'}"
                                                      for n, r, _ in RUNS])
def test_summary_comes_from_the_trace(name, rulings, t):
    o = t.outcome
    text = outcome_text(t)
    lost = _wounds_from_steps(t)
    assert o["wounds_lost"] == lost
    assert ("Wounds lost: " + (", ".join(f"{k} {v}" for k, v in lost.items()) or "none")) in text
    for p in o["pairs"]:
        assert f"winner {p.get('winner') or 'none'}" in text
    for m, n in o["saving_rolls"].items():
        if n:
            assert f"{m} {n} ({o['failed_saves'].get(m, 0)} failed)" in text
    for m, st in o["states_entered"]:
        assert f"{m} {st}" in text and st in o["miners"][m]["states"]
    for m in o["evade_moved"]:
        assert f"Evade movement: {m} moves one Segment" in text
    for m in o["evade_dropped"]:
        assert f"{m}'s declared move is dropped" in text
    # Teseum by side equals what the trace's Neomaterial steps grant, attacker by attacker
    sc = G.load_builtin(name)
    side = {m.id: m.side for m in sc.initial.miners}
    granted = {}
    for s in t.steps:
        if "teseum" in s.facts and "attacker" in s.facts:
            granted[side[s.facts["attacker"]]] = granted.get(side[s.facts["attacker"]], 0) + s.facts["teseum"]
    assert o["teseum"] == {k: v for k, v in granted.items() if v}
    for k, v in o["teseum"].items():
        assert f"{k} +{v} Teseum" in text
    # Wounds on the cards after the Order agree with the losses (nobody died in these Orders)
    for m in sc.initial.miners:
        if m.id not in o["dead"]:
            assert o["miners"][m.id]["wounds"] == m.wounds - lost.get(m.id, 0)


def test_tr18_order_summary_reports_r_losing_one_wound():
    t = G.resolve(G.load_builtin("tr-18-order"))
    text = outcome_text(t)
    assert "Wounds lost: R 1" in text and "A vs R: normal roll, winner A" in text and "R 2 (1 failed)" in text
    assert "R's ranged attack fails its Requirements at Resolution: counted as Idle" in text


def test_teseum_wording_never_contradicts_its_numbers():
    """Under each_attacker the points below 0 are paid: no step may grant Teseum and say they 'give nothing'."""
    from explorer.games.tagraid.model import parse_scenario
    from explorer.games.tagraid.resolve import resolve

    def m(name, skill="ranged_attack", **kw):
        d = {"name": name, "skill": skill, "attribute": 12, "armor": 0, "wounds": 3}
        if skill == "ranged_attack":
            d["weapon"] = {"damage": 13, "burst": 1, "ammunition": "DA"}
        d.update(kw)
        return d

    sc = parse_scenario({"active": m("A", "idle", wounds=2, save_dice=[1, 1, 1, 1]),
                         "reactive": [m("B", dice=[1]), m("C", dice=[1])]}, "test")
    for reading in ("timeline", "each_attacker"):
        t = resolve(sc, rulings={"teseum_several_attackers": reading})
        for s in t.steps:
            if "teseum" in s.facts:
                gain, real = s.facts["teseum"], s.facts["wounds"]
                assert ("give nothing" in s.title) == (gain == real and "below 0" in s.title)
                assert f"gains {gain} Teseum" in s.title


def test_teseum_per_wound_on_death_reading():
    sc = G.load_builtin("tr-18-order")
    t = G.resolve(sc, {"teseum_per_wound": "on_death"})
    assert t.outcome["teseum"] == {} and t.outcome["wounds_lost"] == {"R": 1}
    assert t.rulings["teseum_per_wound"] == "on_death"
    step = next(s for s in t.steps if "teseum" in s.facts)
    assert step.facts["teseum"] == 0 and "on_death" in step.title
    # default: the handed case TR-07 reading, 1 Teseum for a Wound that does not kill
    t0 = G.resolve(sc)
    assert t0.outcome["teseum"] == {"blue": 1} and t0.rulings["teseum_per_wound"] == "every_point"


def test_teseum_per_wound_not_consulted_on_a_kill():
    from explorer.games.tagraid.model import parse_scenario
    from explorer.games.tagraid.resolve import resolve

    sc = parse_scenario({"active": {"name": "A", "skill": "ranged_attack", "attribute": 12,
                                    "weapon": {"damage": 13, "burst": 1}, "attacks": [{"target": "B", "dice": [3]}]},
                         "reactive": [{"name": "B", "skill": "none", "armor": 0, "wounds": 1, "save_dice": [1]}]},
                        "test")
    t = resolve(sc, rulings={"teseum_per_wound": "on_death"})
    assert t.outcome["teseum"] == {"A": 1} and "teseum_per_wound" not in t.rulings


def test_illegal_declaration_names_the_file():
    sc = G.load_builtin("tr-18-order")
    from dataclasses import replace

    bad = replace(sc, declarations=replace(sc.declarations, evade_moves=(("A", (0.0, 0.0)),)))
    with pytest.raises(ScenarioError) as e:
        G.resolve(bad)
    assert str(e.value).startswith("tr-18-order (built-in): field 'order.evade_moves.A'")
    assert "declared no Evade" in str(e.value)
