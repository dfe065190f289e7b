"""`explorer resolve me-…` prints the verdict first for every kind (map, strategy, damage, activation), then the key
numbers, read from the trace."""

import re

import pytest

from explorer.games import get_game
from explorer.games.masseffect.outcome import kind_of
from explorer.scenario import read_toml

GAME = get_game("masseffect")
NAMES = [s.name for s in GAME.scenarios()]


def run(name_or_doc, source="test.toml"):
    from explorer.games import load_any

    game, sc = load_any(name_or_doc) if isinstance(name_or_doc, str) else (GAME, GAME.parse_data(name_or_doc, source))
    t = game.resolve(sc)
    return t, game.outcome_text(t)


@pytest.mark.parametrize("name", NAMES)
def test_every_builtin_answers_first(name):
    t, text = run(name)
    first = text.splitlines()[0]
    assert first.startswith("Outcome: ") and not first.startswith("Outcome: {")
    o = t.outcome
    kind = kind_of(t.result)
    assert kind == next(s.kind for s in GAME.scenarios() if s.name == name)
    if kind == "map":
        assert first.count("; ") == len(o["answers"]) - 1
        for a in o["answers"]:
            assert f"Q{a['question']} " in first
    elif kind == "strategy":
        assert ("can fill" in first) == bool(o["can_fill_move_standard_enhanced"])
    else:
        for s in t.steps:
            if "attack_value" in s.facts and "target" in s.facts:   # an Attack (not a Biotic Effect token)
                assert f"{s.facts['enemy']} Attacks {s.facts['target']}: " in first
            if "spawned" in s.facts:
                assert f"{s.facts['spawned']} spawns at {s.facts['hex']}" in first
        for name_, v in o["squadmates"].items():
            assert f"{name_}" in text and f"Shields {v['shield_points']}, Hit Points {v['hit_points']}" in text


def test_attack_names_where_the_damage_went():
    _, text = run("me-06")
    assert text.splitlines()[0] == "Outcome: Guardian Attacks Garrus: 2 Damage to Shields"


def test_opportunity_attack_through_shields_into_hit_points():
    doc = read_toml("me-03", text=GAME.scenario_text("me-03"))
    doc["map"]["edges"] = []                                  # no wall: Garrus leaves the Husk's adjacency
    doc["squadmates"][0]["max_shield_points"] = 1
    t, text = run(doc)
    first = text.splitlines()[0]
    assert "Husk's Opportunity Attack on Garrus: 1 Damage to Shields, 1 to Hit Points" in first
    assert first.startswith("Outcome: Garrus moves 0,0 → -1,0; ")
    assert t.outcome["squadmates"]["Garrus"]["hit_points"] == 4


def test_strategy_odds_line_matches_the_exact_table():
    t, text = run("me-diagram-5")
    exact = t.outcome["odds"]["p_fill_move_standard_enhanced"]["exact"]
    assert re.search(r"P\(fill Move \+ Standard \+ Enhanced\) 0\.980 \(" + re.escape(exact) + r"\)", text)
    assert "Enhanced Locked" in text


def test_elite_resilience_and_map_answers():
    _, text = run("me-09")
    assert "level 1 exhausted, 3 excess disregarded" in text.splitlines()[0]
    assert "5 more Damage defeats it" in text
    _, text = run("me-04")
    assert text.splitlines()[0] == ("Outcome: Q1 4 hexes; Q2 no (distance 4); Q3 yes (distance 3); "
                                    "Q4 not in Line of Fire")


def test_an_elite_hit_below_its_level_is_told_not_as_exhausted():
    """Found by the hostile-file property test: Damage below a Resilience level's Shield Value has no excess; the
    summary raised KeyError('discarded') instead of saying where the Damage stands."""
    import re

    from explorer.games import get_game, load_any

    g = get_game("masseffect")
    text = re.sub(r"amount = 5\n", "amount = 1\n", g.scenario_text("me-09"), count=1)
    game, sc = load_any("me-09-low.toml", text=text)
    out = game.outcome_text(game.resolve(sc))
    assert "Ravager" in out and "3 of 4 Damage on Resilience level 1" in out
