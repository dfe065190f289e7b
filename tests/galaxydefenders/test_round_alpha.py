"""Alpha Agent succession inside a round (issue 21): the first agent of the file is the Alpha Agent; when it is
eliminated (bleeding) the role follows ruling ``alpha_agent_succession`` and 11.5 (Activate X aliens), 6.3 (the
Event card) and 10.1.2 (NPC assignment) read the Alpha Agent now. Worked example: ``gd-round-alpha-succession``."""

from __future__ import annotations

import tomllib

from test_hostile_files import to_toml

from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _doc() -> dict:
    return tomllib.loads(GAME.scenario_text("gd-round-alpha-succession"))


def _run(doc: dict, **rulings):
    _, sc = load_any("r.toml", text=to_toml(doc))
    return GAME.resolve(sc, rulings=rulings)


def _titles(trace) -> list[str]:
    return [s.title for s in trace.steps]


def _step(trace, words: str):
    return next(s for s in trace.steps if words in s.title)


def test_worked_example_next_clockwise_takes_the_role():
    t = resolve("gd-round-alpha-succession")
    out = t.result.to_json()
    assert out["agents"]["Marine"]["status"] == "bleeding"
    assert out["alpha_agent"] == "Biotech"
    s = _step(t, "is eliminated")
    assert s.title.startswith("Marine (Alpha Agent) is eliminated (bleeding): Biotech, next clockwise")
    assert s.rule == S.ALIEN_ACTIVATION and "alpha_agent_succession" in s.detail
    # card 22 selects along Biotech, Scout, Marine: the Biotech's green Digger before the Marine's red Xeno
    assert "Digger (Biotech) is selected" in _titles(t)
    assert _step(t, "Selection order").title == ("Selection order: Digger (Biotech, green), Crawler (Scout, blue), "
                                                 "Xeno (Marine, red)")
    assert "Biotech (Alpha Agent) draws the Event card" in _titles(t)
    assert t.rulings["alpha_agent_succession"] == "next_clockwise"


def test_keeps_role_reading_keeps_the_marine_first():
    t = resolve("gd-round-alpha-succession", alpha_agent_succession="keeps_role")
    assert t.result.to_json()["alpha_agent"] == "Marine"
    assert "Xeno (Marine) is selected" in _titles(t)
    assert "Marine (Alpha Agent) draws the Event card" in _titles(t)
    assert _step(t, "is eliminated").title.endswith("the role stays with Marine until the next promotion")


def test_an_eliminated_next_agent_is_passed_over():
    doc = _doc()
    doc["agents"][1]["health"] = doc["agents"][1]["wounds"] = 8      # the Biotech is bleeding already
    doc["turns"] = [doc["turns"][0], doc["turns"][2] | {"close_encounter": {"card": 22}}]
    t = _run(doc)
    assert t.result.to_json()["alpha_agent"] == "Scout"
    assert "Passed over (eliminated too): Biotech" in _step(t, "is eliminated").detail
    assert "Crawler (Scout) is selected" in _titles(t)
    assert "Scout (Alpha Agent) draws the Event card" in _titles(t)


def test_no_elimination_no_succession_and_the_ruling_is_not_consulted():
    doc = _doc()
    doc["agents"][0]["wounds"] = 0                  # the Xeno's 1 wound leaves the Marine standing
    t = _run(doc)
    assert "alpha_agent" not in t.result.to_json()
    assert not any("eliminated" in x for x in _titles(t))
    assert "Xeno (Marine) is selected" in _titles(t)
    assert "Marine (Alpha Agent) draws the Event card" in _titles(t)
    assert "alpha_agent_succession" not in t.rulings


def test_every_agent_eliminated_keeps_the_role_with_one_step():
    doc = _doc()
    for a in doc["agents"][1:]:
        a["health"], a["wounds"] = 8, 8
    doc["turns"] = [doc["turns"][0]]
    t = _run(doc)
    steps = [s for s in t.steps if "eliminated" in s.title]
    assert len(steps) == 1 and "no agent is left in play" in steps[0].title
    assert t.result.to_json()["alpha_agent"] == "Marine"


def test_a_new_npc_card_is_assigned_clockwise_from_the_new_alpha_agent():
    doc = _doc()
    doc["signals"] = [{"name": "S1", "at": "5,1", "kind": "npc"}]
    doc["npc_deck"] = [{"name": "Knight", "health": 6, "weapon": {"name": "Blade", "fixed_hits": 1},
                        "rules": [{"condition": "adjacent", "action": "attack"}]}]
    doc["turns"][2]["activities"] = [{"kind": "move", "to": "5,0", "reveal": ["S1"]}]
    t = _run(doc)
    assert "Biotech (Alpha Agent) draws Knight from the top of the NPC deck" in _titles(t)
    assert _step(t, "gets the NPC card").title.startswith("Biotech gets the NPC card")
    k = _run(doc, alpha_agent_succession="keeps_role")
    assert _step(k, "gets the NPC card").title.startswith("Marine gets the NPC card")
