"""Master Aliens (11.3): stages, the innate powers (immune to Paralyze, cannot be pushed back, ignore Stealth-like
powers), and a Mission Special Rule keeping a Stage I Master Alien fighting at 0 Health points; plus the citations a
judge would check (issue 21)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.galaxydefenders import sections as S
from explorer.games.galaxydefenders.activation import parse_activation, resolve_activation
from explorer.games.galaxydefenders.combat import parse_combat, resolve_combat

from .helpers import resolve

G = get_game("galaxydefenders")
BUILTINS = Path(__file__).parents[2] / "explorer" / "games" / "galaxydefenders" / "scenarios"


def data(name: str) -> dict:
    return tomllib.loads((BUILTINS / f"{name}.toml").read_text(encoding="utf-8"))


def steps_citing(trace, ref):
    return [s for s in trace.steps if s.rule == ref]


# ------------------------------------------------------------------------------------------------ activation

def test_master_alien_ignores_stealth_and_targets_the_closest():
    t = resolve("gd-ai-master-stealth")
    assert t.result.target == "Marine"
    titles = [s.title for s in steps_citing(t, S.MASTER_ALIENS)]
    assert titles == ["Wormoon is at Stage II: that side's A.I. section applies", "Wormoon ignores Paralyze",
                      "Wormoon ignores Marine's Stealth"]


def test_standard_alien_cannot_target_a_stealthy_agent():
    t = resolve("gd-ai-stealth")
    assert t.result.target == "Hulk"
    hidden = steps_citing(t, S.POWERS_ITEMS)
    assert len(hidden) == 1 and hidden[0].facts["hidden"] == ["Marine"]
    # the Marine still stands where he was: he is hidden from targeting, not removed from the map
    assert dict(t.result.figures)["Marine"].__str__() == "4,1"


def test_without_stealth_the_standard_alien_targets_the_marine():
    d = data("gd-ai-stealth")
    for f in d["figures"]:
        f.pop("stealth", None)
    t = resolve_activation(parse_activation(d, "x"))
    assert t.result.target == "Marine"
    assert not steps_citing(t, S.POWERS_ITEMS)


def test_a_master_alien_without_archenemy_is_still_immune_to_paralyze():
    d = data("gd-ai-master-stealth")
    t = resolve_activation(parse_activation(d, "x"))
    assert not t.result.skipped
    d["activating"]["master"] = False
    d["activating"].pop("stage")
    t = resolve_activation(parse_activation(d, "x"))
    assert t.result.skipped                     # a standard alien skips its activation (11.9.1)


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["activating"].update(kind="npc"), "activating.master"),
    (lambda d: d["activating"].update(master=False), "activating.stage"),
    (lambda d: d["activating"].update(stage=3), "activating.stage"),
    (lambda d: d["figures"].append({"name": "Xeno", "side": "alien", "at": "10,1", "stealth": True}),
     "figures[2].stealth"),
])
def test_activation_refuses_bad_master_alien_fields(edit, field):
    d = data("gd-ai-master-stealth")
    edit(d)
    with pytest.raises(ScenarioError) as e:
        parse_activation(d, "m.toml")
    assert e.value.field == field and str(e.value).startswith("m.toml: ")


# ------------------------------------------------------------------------------------------------ combat

def test_master_alien_cannot_be_pushed_back():
    t = resolve("gd-master-push")
    targets = {x.name: x for x in t.result.targets}
    assert targets["Xeno-Beast"].pushed == 1 and targets["Wormoon"].pushed == 0
    assert [s.title for s in steps_citing(t, S.MASTER_ALIENS)] == ["Wormoon cannot be pushed back"]
    assert t.outcome["targets"]["Xeno-Beast"]["pushed"] == 1 and "pushed" not in t.outcome["targets"]["Wormoon"]


def test_a_dead_target_is_not_pushed_back():
    d = data("gd-master-push")
    d["targets"][0]["wounds"] = 3                   # the Xeno-Beast dies of the hit
    t = resolve_combat(parse_combat(d, "x"))
    xb = next(x for x in t.result.targets if x.name == "Xeno-Beast")
    assert xb.status() == "dead" and xb.pushed == 0
    assert any(s.title == "Xeno-Beast is dead: nothing to push back" for s in t.steps)


def test_a_push_comes_from_an_agent():
    d = data("gd-master-push")
    d["attacks"][0]["attacker_kind"] = "alien"
    with pytest.raises(ScenarioError) as e:
        parse_combat(d, "p.toml")
    assert e.value.field == "attacks[0].effects"


def test_stage_one_keeps_fighting_under_the_mission_rule():
    t = resolve("gd-master-stage-one")
    w = t.result.targets[0]
    assert w.wounds == 8 and w.status() == "alive"
    rule = steps_citing(t, S.SPECIAL_MISSION_RULES)
    assert len(rule) == 1 and "keeps fighting" in rule[0].title
    assert t.result.attacks[1].roll is not None     # the Marine's attack still finds it


def test_without_the_mission_rule_stage_one_dies():
    t = resolve("gd-master-stage-one-no-rule")
    assert t.result.targets[0].status() == "dead"
    assert t.result.attacks[1].roll is None
    # the refusal cites the rule that decided it (dead), not Burrowing
    last = [s for s in t.steps if s.title == "No target can be attacked: no Hit roll"]
    assert last and last[0].rule == S.HEALTH_POINTS


@pytest.mark.parametrize("edit, field", [
    (lambda t: t.update(kind="alien"), "targets[0].stage"),
    (lambda t: t.update(stage=2), "targets[0].keeps_fighting"),
])
def test_combat_refuses_bad_stage_fields(edit, field):
    d = data("gd-master-stage-one")
    edit(d["targets"][0])
    with pytest.raises(ScenarioError) as e:
        parse_combat(d, "s.toml")
    assert e.value.field == field


@settings(max_examples=40, deadline=None)
@given(health=st.integers(1, 20), wounds=st.integers(0, 20), hits=st.integers(1, 12), push=st.integers(1, 5),
       keeps=st.booleans())
def test_property_master_alien_never_pushed_and_never_dead_when_kept_fighting(health, wounds, hits, push, keeps):
    wounds = min(wounds, health - 1)
    d = {"game": "galaxydefenders", "kind": "combat", "targets": [
        {"name": "Wormoon", "kind": "master_alien", "health": health, "wounds": wounds, "stage": 1,
         "keeps_fighting": keeps}],
        "attacks": [{"attacker": "Hulk", "weapon": "Charge", "fixed_hits": hits, "target": "Wormoon",
                     "effects": [{"kind": "push", "x": push}],
                     "rolled": {"defend": {"Wormoon": ["blank"] * min(hits, 5)}}}]}  # one per hit, High Impact
    t = resolve_combat(parse_combat(d, "x"))
    w = t.result.targets[0]
    assert w.pushed == 0
    assert w.wounds == wounds + hits
    assert (w.status() == "dead") == (not keeps and wounds + hits >= health)


# ------------------------------------------------------------------------------------------------ citations (issue 21)

def test_a_greater_critical_replacing_a_lesser_one_cites_8_2_3():
    from explorer.games.galaxydefenders.calibration import CriticalToken
    from explorer.games.galaxydefenders.combat import TargetState, apply_critical_token

    t = TargetState("Xeno", "alien", 6, criticals=(("def_dice_minus", 1),))
    tok = CriticalToken("c2-def", 2, "def_dice_minus", 2, "others")
    _, _, steps = apply_critical_token(t, tok)
    assert steps[-1].rule == S.CRITICAL_EFFECTS and "replaces the lesser one" in steps[-1].title


def test_no_wound_after_energy_shields_absorb_everything_cites_the_shields():
    d = {"game": "galaxydefenders", "kind": "combat",
         "targets": [{"name": "Xeno", "health": 4, "energy_shields": [2]}],
         "attacks": [{"attacker": "Marine", "weapon": "Rifle", "fixed_hits": 2, "target": "Xeno"}]}
    t = resolve_combat(parse_combat(d, "x"))
    s = next(s for s in t.steps if s.title == "Xeno suffers no wound")
    assert s.rule == S.MULTIPLE_ENERGY_SHIELDS


@pytest.mark.parametrize("name", ["gd-ai-npc-plus", "gd-ai-npc-immobilized", "gd-round-map"])
def test_npc_targeting_cites_10_2_1_npc_movement(name):
    """The NPC's target (the closest alien by a legal walking path) is decided by 10.2.1 NPC Movement, not by 10.1
    (the card's structure) nor by the alien rules 11.5/11.11."""
    t = resolve(name)
    targeting = [s for s in t.steps if s.section.endswith("Targeting") and s.title.startswith("Target: the closest alien")]
    assert targeting and all(s.rule == S.NPC_MOVEMENT for s in targeting)


def test_an_npc_with_no_rule_to_apply_stays_by_10_2_1():
    from explorer.games.galaxydefenders.activation import ActivationScenario, play_activation

    sc = ActivationScenario.model_validate({
        "title": "t", "areas": {"A": ["0,0", "1,0"], "B": ["2,0", "3,0"]}, "centres": {"A": "0,0", "B": "2,0"},
        "activating": {"name": "Clone", "kind": "npc", "at": "0,0"},
        "figures": [{"name": "Xeno", "side": "alien", "at": "3,0"}],
        "rules": [{"condition": "adjacent", "action": "attack"}]})
    _, trace = play_activation(sc)
    stay = [s for s in trace.steps if s.title.startswith("No behavior rule can be applied")]
    assert stay and stay[0].rule == S.NPC_MOVEMENT


@pytest.mark.parametrize("name", [n for n in G.builtin_names()])
def test_no_outcome_text_prints_none(name):
    t = resolve(name)
    assert "None" not in G.outcome_text(t)


def test_a_dead_npcs_poison_does_not_flip():
    from explorer.games.galaxydefenders.combat import TargetState
    from explorer.games.galaxydefenders.conditions import refresh

    npc = TargetState("Knight", "npc", 4, wounds=4, poison=2)
    after, steps = refresh(npc)
    assert after.poison == 0 and after.wounds == 4
    assert [s.rule for s in steps] == [S.NPC_HEALTH]
