"""The ``round`` kind, first increment (issue 21, item 1): the Refresh phase, agent turns with the Action once,
Free Actions any number of times and NPC activation before or after the agent's activities, the Event phase; a
cited one-line refusal for each illegal choice."""

from __future__ import annotations

import copy
import tomllib

import pytest
from test_hostile_files import to_toml

from explorer.errors import RuleViolation
from explorer.games import get_game, load_any

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _doc() -> dict:
    return tomllib.loads(GAME.scenario_text("gd-round-agents"))


def _run(doc: dict):
    game, sc = load_any("r.toml", text=to_toml(doc))
    return game.resolve(sc)


def test_the_built_in_round():
    o = resolve("gd-round-agents").result
    marine, biotech = o.agents
    assert (marine.wounds, marine.poison) == (3, 0)                    # Poison 1 wounds once in Refresh, then goes
    assert biotech.mark == 1
    assert [t.agent for t in o.turns] == ["Marine", "Biotech"]
    assert o.turns[0].activities.count("free_action: Tactic: +2 hits") == 1 and o.turns[0].npcs == ("Sgt. Rock",)
    assert o.teleported == 1                                           # 2 agents - 1 alien; NPCs do not count


def test_free_actions_repeat_but_the_action_does_not():
    doc = _doc()
    doc["turns"][0]["activities"].append({"kind": "action", "what": "second attack"})
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert e.value.section == "6.2.1.1 Free Action Activity" and "already used its Action" in e.value.reason
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("r.toml: field 'turns[0].activities[5]'"), msg
    doc = _doc()
    doc["turns"][0]["activities"] += [{"kind": "free_action"}] * 5
    assert len(_run(doc).result.turns[0].activities) == 10


def test_an_npc_is_not_activated_between_two_activities():
    doc = _doc()
    acts = doc["turns"][0]["activities"]
    acts.insert(2, acts.pop(0))                                        # move, free action, NPC, ...
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert e.value.section == "10.2 NPC Activation" and e.value.rejection.field == "turns[0].activities[2]"


def test_every_assigned_npc_is_activated_each_turn_and_only_by_its_controller():
    doc = _doc()
    doc["turns"][1]["activities"].pop()                                # the Biotech forgets the Knight
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "did not activate Knight" in e.value.reason and e.value.section == "10.2 NPC Activation"
    doc = _doc()
    doc["turns"][1]["activities"][-1]["npc"] = "Sgt. Rock"
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "not assigned to Biotech (its controller is Marine)" in e.value.reason


def test_one_turn_per_agent_per_round():
    doc = _doc()
    doc["turns"].append(copy.deepcopy(doc["turns"][0]))
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert e.value.section == "6.2.1 Agent Turn" and e.value.rejection.field == "turns[2].agent"


def test_a_dead_npc_needs_no_activation_and_its_poison_does_not_flip():
    doc = _doc()
    doc["npcs"][1].update(wounds=6, poison=2)
    doc["turns"][1]["activities"].pop()
    o = _run(doc).result
    knight = o.npcs[1]
    assert (knight.wounds, knight.poison, knight.status()) == (6, 0, "dead")
    assert o.teleported == 1


def test_time_travel_by_replay():
    from explorer.games.galaxydefenders.round import ROUND_SEQUENCE, RoundContext, round_initial
    from explorer.games.galaxydefenders.options import rulings
    from explorer.kernel import play

    _, sc = GAME.load_builtin("gd-round-agents")
    ctx = RoundContext(rulings=rulings(), scenario=sc)
    full = play(round_initial(sc), ROUND_SEQUENCE, ctx)
    part = play(round_initial(sc), ROUND_SEQUENCE, ctx, upto=2)
    assert [f.state for f in part] == [f.state for f in full[:len(part)]]
    assert len(part[-1].state.turns) == 2 and part[-1].state.teleported is None
