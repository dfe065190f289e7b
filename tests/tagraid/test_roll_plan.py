"""Who rolls (Face to Face / Normal / no roll) is derived once, by odds.roll_plan, and the engine agrees.

Rules: Common Skills › Idle (no action), › Evade (Requirements: the Active Miner may always Evade, a Reactive Miner
only when attacked or in the Active Miner's Hexagon; a single roll whatever the Burst); Activating a Miner › Order
Expenditure Sequence (a Skill failing its Requirements counts as Idle); Rolls › Face to Face Rolls ("Important":
both Skills must affect each other), › Normal Roll.
"""

from itertools import product

import pytest

from explorer.games.tagraid.odds import ODDS_SKILLS, roll_plan
from explorer.games.tagraid.resolve import resolve_detailed

from engine_helpers import build, miner

ENGINE_SKILL = {"ranged": "ranged_attack", "cc": "close_combat_attack", "evade": "evade", "idle": "idle"}
ATTACKS = ("ranged", "cc")


def _bursts(skill, choices):
    return choices if skill in ATTACKS else ((1,) if skill == "evade" else (0,))


CASES = [(sa, na, sb, nb, c) for sa, sb in product(ODDS_SKILLS, ODDS_SKILLS)
         for na in _bursts(sa, (0, 2)) for nb in _bursts(sb, (0, 1)) for c in (False, True)]


def _engine(sa, na, sb, nb, contact):
    """(kind, a rolls, b rolls, b's skill at Resolution) from resolve_detailed on the equivalent scenario: a is the
    Active Miner, b a Reactive Miner with LoF to it, not in its Hexagon."""
    active = miner("A", ENGINE_SKILL[sa], wounds=30)
    if sa in ATTACKS:
        active["weapon"]["burst"] = na
        active["attacks"] = [{"target": "B", "burst": na}]
    reactive = miner("B", ENGINE_SKILL[sb], wounds=30, lof_to_active=True, same_hexagon=False,
                     silhouette_contact=contact)
    if sb in ATTACKS:
        reactive["burst_mod"] = nb - 1   # an ARO has Burst 1 plus its Burst MOD
    res = resolve_detailed(build(active, [reactive]))
    a_rolls = any(p.a is not None and p.a.dice and p.a.owner == "A" for p in res.pairs)
    b_rolls = any(p.b is not None and p.b.dice and p.b.owner == "B" for p in res.pairs)
    kinds = {p.kind for p in res.pairs}
    assert len(kinds) <= 1, kinds
    kind = {"face_to_face": "face_to_face", "normal_roll": "normal", "normal_evade": "normal"}[kinds.pop()] \
        if kinds else "none"
    skill_b = {v: k for k, v in ENGINE_SKILL.items()}[res.miner("B").skill]
    return kind, a_rolls, b_rolls, skill_b


@pytest.mark.parametrize("sa,na,sb,nb,contact", CASES)
def test_roll_plan_agrees_with_engine(sa, na, sb, nb, contact):
    plan = roll_plan(sa, na, sb, nb, silhouette_contact=contact)
    assert (plan.kind, plan.a_rolls, plan.b_rolls, plan.b_skill) == _engine(sa, na, sb, nb, contact)


def test_silhouette_contact_requirements_make_attacks_idle():
    """Common Skills › Close Combat Attack / Ranged Attack, Requirements: a Skill failing them counts as Idle."""
    p = roll_plan("cc", 2, "ranged", 1)               # no contact: a's Close Combat Attack counts as Idle
    assert (p.kind, p.a_rolls, p.b_rolls, p.a_skill) == ("normal", False, True, "idle")
    p = roll_plan("ranged", 2, "cc", 1, silhouette_contact=True)   # in contact: a's Ranged Attack counts as Idle
    assert (p.kind, p.a_rolls, p.b_rolls, p.a_skill, p.b_skill) == ("normal", False, True, "idle", "cc")
    assert roll_plan("cc", 2, "cc", 1, silhouette_contact=True).kind == "face_to_face"


def test_idle_never_rolls_and_evade_needs_an_attack():
    assert roll_plan("ranged", 3, "idle", 0).kind == "normal" and not roll_plan("ranged", 3, "idle", 0).b_rolls
    assert roll_plan("idle", 0, "idle", 0).kind == "none"
    p = roll_plan("evade", 1, "evade", 1)       # b is not attacked: its Evade counts as Idle; a's is a Normal Roll
    assert (p.kind, p.a_rolls, p.b_rolls, p.b_skill) == ("normal", True, False, "idle")
    assert roll_plan("ranged", 2, "evade", 1).section == "Rolls › Face to Face Rolls › Face to Face: Evade"
