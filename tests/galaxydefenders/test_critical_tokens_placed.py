"""Where every Critical token is (issue 21): in its level's pile, its level's discard pile, on one figure, or out
of play (8.2). A dead target's tokens leave it: an alien's are discarded (11.9), an NPC's or a drone's per ruling
``critical_tokens_on_death``; a token belongs to the pile of the level on its back, so an X = 0 token held by a
figure (Paralyzed is in both piles) names its level and is taken out of that pile alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.dice import Dice
from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.combat import (AttackModel, CriticalPiles, TableDice, TargetState, held_tokens,
                                                   resolve_attack)
from explorer.games.galaxydefenders.combat_file import TargetModel
from explorer.games.galaxydefenders.options import ALL_OPTIONS
from explorer.games.galaxydefenders.options import rulings as make_rulings

G = get_game("galaxydefenders")
CAL = default_calibration()
COUNTS = {t.id: t.count for t in CAL.tokens}


def _titles(name, **rulings):
    return [s.title for s in G.resolve(G.load_builtin(name), rulings=rulings).steps]


def test_the_ruling_is_declared_with_both_readings_and_discard_by_default():
    o = next(o for o in ALL_OPTIONS if o.key == "critical_tokens_on_death")
    assert set(o.readings) == {"discard", "stay_out"} and o.default == "discard"
    assert "10.4" in o.section and "9.7.4.2" in o.section and "11.9" in o.why_default


def test_a_dead_npcs_token_returns_and_is_drawn_again_from_the_new_pile():
    titles = _titles("gd-critical-dead-target")
    assert "Sgt. Rock is dead: its Critical token c1-def-dice goes to the discard pile" in titles
    assert "The Critical 1 pile is empty: its 8 discarded tokens are reshuffled into a new pile" in titles
    assert titles[-2] == "Critical 1 token drawn: c1-def-dice"           # attack 4, seeded: the NPC's old token


def test_stay_out_keeps_it_out_of_the_new_pile_and_changes_the_draw():
    titles = _titles("gd-critical-dead-target", critical_tokens_on_death="stay_out")
    assert "Sgt. Rock is dead: its Critical token c1-def-dice leaves play with it" in titles
    assert "The Critical 1 pile is empty: its 7 discarded tokens are reshuffled into a new pile" in titles
    assert not any(t == "Critical 1 token drawn: c1-def-dice" for t in titles[titles.index(
        "The Critical 1 pile is empty: its 7 discarded tokens are reshuffled into a new pile"):])


def _attack(target, level=1, hits=3, damage="single"):
    return AttackModel(attacker="A", weapon="W", fixed_hits=hits, target=target, damage=damage,
                       effects=[{"kind": "critical", "x": level}])


def test_an_aliens_tokens_are_discarded_when_it_dies_without_the_ruling():
    r = make_rulings()
    piles = CriticalPiles(CAL, rulings=r)
    first = AttackModel(attacker="A", weapon="W", fixed_hits=1, target="X", effects=[{"kind": "critical", "x": 2}],
                        rolled={"defend": {"X": ["blank"]}, "critical": {"X": ["c2-atk-dice"]}})
    after, _, _, _ = resolve_attack({"X": TargetState("X", "alien", 3)}, first, TableDice(CAL, first.rolled, Dice(seed=1),
                                    piles=piles), False, r)
    assert piles.on == {"X": ["c2-atk-dice"]} and after["X"].criticals == (("atk_dice_minus", 2),)
    kill = _attack("X", hits=2)
    after, _, _, steps = resolve_attack(after, kill, TableDice(CAL, kill.rolled, Dice(seed=1), piles=piles), False, r)
    assert after["X"].down and not piles.on.get("X")
    assert "c2-atk-dice" in piles.discard[2] and piles.gone == [] and piles.census() == COUNTS
    step = next(s for s in steps if "is dead: its Critical" in s.title)
    assert step.rule.section == "11.9 Alien Body Conditions"
    assert "critical_tokens_on_death" not in r.consulted


def test_a_held_x0_token_names_its_pile_and_leaves_that_one_only():
    both = [TargetModel(name="N", kind="npc", health=5, criticals=[{"effect": "paralyzed", "x": 0}])]
    with pytest.raises(ScenarioError) as e:
        held_tokens(CAL, both)
    assert "targets[0].criticals[0].level" in str(e.value) and "one of 1, 2" in str(e.value)
    two = [TargetModel(name="N", kind="npc", health=5, criticals=[{"effect": "paralyzed", "x": 0, "level": 2}])]
    assert held_tokens(CAL, two) == {"N": ("c2-paralyzed",)}
    piles = CriticalPiles(CAL, held=held_tokens(CAL, two))
    assert "c2-paralyzed" not in piles.pile[2] and "c1-paralyzed" in piles.pile[1]
    assert piles.census() == COUNTS


def test_a_level_whose_pile_has_no_such_token_is_refused():
    bad = [TargetModel(name="N", kind="npc", health=5, criticals=[{"effect": "atk_dice_minus", "x": 1, "level": 2}])]
    with pytest.raises(ScenarioError) as e:
        held_tokens(CAL, bad)
    assert "targets[0].criticals[0].level" in str(e.value)


def test_a_combat_file_with_an_unlevelled_x0_token_is_refused_in_one_line():
    doc = {"game": "galaxydefenders", "kind": "combat", "targets": [
        {"name": "Xeno", "health": 5, "criticals": [{"effect": "no_bolt", "x": 0}]}],
        "attacks": [{"target": "Xeno", "fixed_hits": 1}]}
    with pytest.raises(ScenarioError) as e:
        G.resolve(G.parse(doc, "f.toml"))
    assert "f.toml" in str(e.value) and "criticals[0].level" in str(e.value) and "\n" not in str(e.value)


KINDS = ("alien", "npc", "drone", "agent", "master_alien")
HELD_X0 = [("paralyzed", 1), ("paralyzed", 2), ("shields_removed", 1), ("shields_removed", 2), ("no_bolt", 1),
           ("no_bolt", 2)]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10_000), kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=3),
       held=st.lists(st.sampled_from(HELD_X0), max_size=2, unique_by=lambda h: h[0]),
       plan=st.lists(st.tuples(st.integers(0, 2), st.integers(1, 2), st.integers(1, 4),
                               st.sampled_from(("single", "area"))), min_size=1, max_size=8),
       death=st.sampled_from(("discard", "stay_out")), reform=st.sampled_from(("when_empty", "next_draw")))
def test_every_token_is_in_exactly_one_place_after_every_attack(seed, kinds, held, plan, death, reform):
    """Seeded draws over attacks with Critical 1 / 2 on aliens, NPCs, drones, agents (some dying), the first target
    holding X = 0 tokens of a named level: piles + discard piles + figures + out of play = the calibration's
    counts, and each figure's tokens are exactly its Critical effects."""
    r = make_rulings({"critical_tokens_on_death": death, "critical_pile_reform": reform})
    models = [TargetModel(name=f"T{i}", kind=k, health=6,
                          criticals=[{"effect": e, "x": 0, "level": lv} for e, lv in held] if i == 0 else [])
              for i, k in enumerate(kinds)]
    piles = CriticalPiles(CAL, rulings=r, held=held_tokens(CAL, models))
    assert piles.census() == COUNTS
    targets = {m.name: TargetState.from_model(m) for m in models}
    table = TableDice(CAL, None, Dice(seed=seed), piles=piles)
    for who, level, hits, damage in plan:
        name = f"T{who % len(kinds)}"
        if targets[name].down and targets[name].kind != "agent":
            continue
        try:
            targets, _, _, _ = resolve_attack(targets, _attack(name, level, hits, damage), table, False, r)
        except ScenarioError:           # every token of a pile on figures or out of play: nothing left to draw
            pass
        assert piles.census() == COUNTS
        for n, t in targets.items():
            on = sorted(CAL.token(i).effect for i in piles.on.get(n, ()))
            if t.down and t.kind != "agent":
                assert on == []                 # its tokens left it when it died (11.9; critical_tokens_on_death)
            else:
                assert on == sorted(e for e, _ in t.criticals), (n, on, t.criticals)
        if death == "discard":
            assert piles.gone == []


def test_a_dead_drones_tokens_cite_its_devices_section_and_never_guess_vigil():
    """A round names its drones "Vigil (owner)" / "GD-5 (owner)"; a combat file may name one anything, and its step
    then cites 9.7.4 Devices rather than Vigil's section."""
    from explorer.games.galaxydefenders.combat import _drone_rule

    assert _drone_rule("Vigil (Marine)").section == "9.7.4.2 Vigil"
    assert _drone_rule("GD-5 (Biotech)").section == "9.7.4.3 GD-5"
    assert _drone_rule("Bot").section == "9.7.4 Devices"
