"""Powers, Items and Devices in a round (issue 21, item b): 9.7 categories and their activities, 9.7.2 Psionic
Powers (face down, rotated, face up in the Refresh phase), 9.7.3 Tactics (Free Actions from the Earth rank, face
down for the mission), 9.7.4 Devices (Hologram, Vigil, GD-5), ruling combat_activity; the stand-in card list."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders.cards import stand_in_cards

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _run(agents, turns, rulings=None, cards=None, round_no=2):
    doc = {"game": "galaxydefenders", "kind": "round", "round": round_no, "agents": agents, "turns": turns}
    if rulings:
        doc["rulings"] = rulings
    if cards:
        doc["cards"] = cards
    game, sc = load_any("r.toml", text=to_toml(doc))
    return game.resolve(sc)


def _refused(agents, turns, **kw) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        _run(agents, turns, **kw)
    return e.value


def test_the_built_in_round_with_cards():
    t = resolve("gd-round-powers")
    o = t.result
    marine, biotech, spec = o.cards
    assert marine.face_down == ("basic-tactic", "improved-tactic", "psionic-blast")
    assert marine.rotated == ("psionic-blast",)
    assert biotech.face_down == () and biotech.deployed == (("gd-5", 4),)        # flipped up in Refresh; deployed
    assert spec.deployed == (("vigil", 3),)
    assert t.outcome["cards"]["Biotech"]["deployed"] == ["gd-5"]
    sections = [s.rule.section for s in t.steps]
    for sec in ("9.7.2 Psionic Powers", "9.7.3 Tactics", "9.7.4 Devices", "9.7.4.3 GD-5", "9.7.4.2 Vigil"):
        assert sec in sections
    assert t.rulings == {"combat_activity": "separate"}


MARINE = {"name": "Marine", "cards": ["basic-tactic", "improved-tactic", "sprint", "psionic-blast", "no-pain",
                                      "psionic-insight", "shield-glove", "hologram", "vigil", "gd-5"]}


@pytest.mark.parametrize("agent, acts, section, field, words", [
    ({}, [{"kind": "free_action", "use": "basic-tactic"}], "9.7.3 Tactics", "activities[0].kind", "Earth"),
    ({"rank": "earth"}, [{"kind": "move", "use": "basic-tactic"}], "9.7 Powers & Items", "activities[0].kind",
     "Standard card"),
    ({}, [{"kind": "action", "use": "sprint"}], "9.7 Powers & Items", "activities[0].kind", "Movement activity"),
    ({}, [{"kind": "action", "use": "no-pain"}], "9.7 Powers & Items", "activities[0].use", "always active"),
    ({}, [{"kind": "action", "use": "shield-glove"}], "9.7 Powers & Items", "activities[0].use", "outside"),
    ({"face_down": ["improved-tactic"]}, [{"kind": "action", "use": "improved-tactic"}], "9.7.3 Tactics",
     "activities[0].use", "end of the mission"),
    ({"rotated": ["psionic-blast"]}, [{"kind": "combat", "use": "psionic-blast"}], "9.7.2 Psionic Powers",
     "activities[0].use", "once per mission"),
    ({}, [{"kind": "move", "use": "sprint"}, {"kind": "move", "use": "sprint"}], "9.7 Powers & Items",
     "activities[1].use", "already used this turn"),
    ({}, [{"kind": "action", "use": "psionic-blast"}], "9.7 Powers & Items", "activities[0].kind",
     "Combat activity"),
    ({}, [{"kind": "combat"}, {"kind": "combat"}], "9.7 Powers & Items", "activities[1]", "Combat activity"),
    ({}, [{"kind": "action", "use": "gd-5"}], "9.7.4.3 GD-5", "activities[0].use", "Biotech"),
    ({}, [{"kind": "action", "drone": "vigil"}], "9.7.4.2 Vigil", "activities[0].drone", "no Vigil"),
    ({"deployed": ["hologram"]}, [{"kind": "action", "drone": "hologram"}], "9.7.4.1 Hologram",
     "activities[0].drone", "cannot move"),
    ({"deployed": ["vigil"]}, [{"kind": "action", "use": "vigil"}], "9.7.4.2 Vigil", "activities[0].use",
     "deployed"),
])
def test_card_refusals_cite_the_section(agent, acts, section, field, words):
    e = _refused([{**MARINE, **agent}], [{"agent": "Marine", "activities": acts}])
    assert e.section == section and e.rejection.field == f"turns[0].{field}" and words in e.reason
    assert "\n" not in str(e)


def test_a_card_the_agent_does_not_hold():
    e = _refused([{"name": "Marine", "cards": ["sprint"]}, {"name": "Sniper"}],
                 [{"agent": "Sniper", "activities": [{"kind": "move", "use": "sprint"}]}])
    assert e.section == "9.7 Powers & Items" and "holds no" in e.reason


def test_a_drone_deployed_this_round_waits_for_the_next_turn():
    """Within one round the Action limit refuses first (deploying spends the Action); the rule itself is checked
    on the step function: a Vigil deployed in round 3 is activated in round 4, not in round 3."""
    from explorer.games.galaxydefenders.cards import AgentCards, CardRefusal, activate_drone

    c = AgentCards("Support", ("vigil",), deployed=(("vigil", 3),))
    with pytest.raises(CardRefusal) as e:
        activate_drone(c, "vigil", 3, "turn")
    assert "next turn" in e.value.reason and e.value.rule.section == "9.7.4.2 Vigil"
    assert activate_drone(c, "vigil", 4, "turn")[1][0].title.startswith("Support's Action activates Vigil")
    e2 = _refused([{"name": "Support", "cards": ["vigil"]}], [{"agent": "Support", "activities": [
        {"kind": "action", "use": "vigil"}, {"kind": "action", "drone": "vigil"}]}])
    assert e2.section == "6.2.1.1 Free Action Activity"


def test_combat_activity_readings():
    agent = [{**MARINE, "rank": "earth"}]
    both = [{"agent": "Marine", "activities": [{"kind": "action"}, {"kind": "combat", "use": "psionic-blast"}]}]
    t = _run(agent, both)                                    # separate (default): the Combat activity is its own
    assert t.result.cards[0].rotated == ("psionic-blast",)
    e = _refused(agent, both, rulings={"combat_activity": "is_the_action"})
    assert e.section == "6.2.1.1 Free Action Activity" and "combat_activity" in e.reason
    one = [{"agent": "Marine", "activities": [{"kind": "action", "use": "psionic-blast"}]}]
    t = _run(agent, one, rulings={"combat_activity": "is_the_action"})
    assert t.result.cards[0].rotated == ("psionic-blast",)
    assert any("ruling combat_activity" in s.title for s in t.steps)


def test_refresh_flips_psionics_up_but_not_rotated_ones_or_tactics():
    t = _run([{**MARINE, "face_down": ["psionic-insight", "basic-tactic"], "rotated": ["psionic-blast"]}],
             [{"agent": "Marine", "activities": []}])
    c = t.result.cards[0]
    assert set(c.face_down) == {"basic-tactic", "psionic-blast"} and c.rotated == ("psionic-blast",)
    flip = [s for s in t.steps if s.rule.section == "9.7.2 Psionic Powers"]
    assert len(flip) == 1 and "Psionic Insight" in flip[0].title


def test_a_scenario_card_replaces_a_stand_in_and_loses_the_stand_in_note():
    own = [{"id": "sprint", "name": "Dash", "kind": "skill", "category": "movement", "effect": "Move 2 Hexes."}]
    t = _run([{"name": "Marine", "cards": ["sprint"]}], [{"agent": "Marine", "activities": [
        {"kind": "move", "use": "sprint"}]}], cards=own)
    step = next(s for s in t.steps if "Dash" in s.title)
    assert "STAND-IN" not in step.detail
    t = _run([{"name": "Marine", "cards": ["sprint"]}], [{"agent": "Marine", "activities": [
        {"kind": "move", "use": "sprint"}]}])
    assert "STAND-IN" in next(s for s in t.steps if "Sprint" in s.title).detail


@pytest.mark.parametrize("agents, turns, cards, field", [
    ([{"name": "M", "cards": ["nope"]}], [], None, "agents[0].cards[0]"),
    ([{"name": "M", "cards": ["sprint"], "face_down": ["basic-tactic"]}], [], None, "agents[0].face_down[0]"),
    ([{"name": "M", "cards": ["psionic-insight"], "rotated": ["psionic-insight"]}], [], None, "agents[0].rotated[0]"),
    ([{"name": "M"}], [{"agent": "M", "activities": [{"kind": "move", "drone": "vigil"}]}], None,
     "turns[0].activities[0].drone"),
    ([{"name": "M"}], [{"agent": "M", "activities": [{"kind": "move", "use": "zzz"}]}], None,
     "turns[0].activities[0].use"),
    ([{"name": "M"}], [], [{"id": "x", "name": "X", "kind": "skill", "keep": True}], "cards[0].kind"),
    ([{"name": "M"}], [], [{"id": "x", "name": "X", "kind": "tactic", "once_per_mission": True}],
     "cards[0].once_per_mission"),
])
def test_file_refusals_name_the_field(agents, turns, cards, field):
    with pytest.raises(ScenarioError) as e:
        _run(agents, turns, cards=cards)
    assert e.value.field == field and e.value.source == "r.toml"


def test_the_stand_in_list_is_marked_and_loads():
    cards = stand_in_cards()
    assert {c.deploys for c in cards} >= {"hologram", "vigil", "gd-5"}
    assert all("STAND-IN" in c.effect for c in cards if c.id in ("improved-tactic", "psionic-insight", "sprint"))


# ------------------------------------------------------------------------------------------------ property

USES = st.lists(st.tuples(st.sampled_from(["move", "action", "free_action", "combat"]),
                          st.sampled_from([None, "basic-tactic", "improved-tactic", "sprint", "psionic-blast",
                                           "psionic-insight", "hologram"])), max_size=6)


@settings(max_examples=60, deadline=None)
@given(USES, st.sampled_from(["gold", "earth"]), st.sampled_from(["separate", "is_the_action"]))
def test_accepted_turns_obey_the_card_rules(uses, rank, reading):
    """An oracle written apart from the engine: a turn is accepted exactly when each card is used once, with an
    activity of its category (a Tactic as a Free Action from Earth), and the Action (and under 'separate' the
    Combat activity) at most once."""
    cat = {c.id: c for c in stand_in_cards()}
    acts = [{"kind": k} | ({"use": u} if u else {}) for k, u in uses]
    ok, seen = True, set()
    actions = sum(k == "action" or (k == "combat" and reading == "is_the_action") for k, _ in uses)
    combats = sum(k == "combat" for k, _ in uses) if reading == "separate" else 0
    for k, u in uses:
        if u is None:
            continue
        c = cat[u]
        fits = {"standard": {"action"} | ({"free_action"} if c.kind == "tactic" and rank == "earth" else set()),
                "movement": {"move"}, "combat": {"combat"} | ({"action"} if reading == "is_the_action" else set())
                }[c.category]
        if u in seen or k not in fits:
            ok = False
        seen.add(u)
    ok = ok and actions <= 1 and combats <= 1
    agents = [{"name": "M", "rank": rank, "cards": sorted(cat)}]
    try:
        t = _run(agents, [{"agent": "M", "activities": acts}], rulings={"combat_activity": reading})
    except RuleViolation:
        assert not ok
        return
    assert ok
    c = t.result.cards[0]
    for u in seen:
        if cat[u].kind in ("tactic", "psionic"):
            assert u in c.face_down
