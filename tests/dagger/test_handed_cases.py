"""The handed cases (shared/cases/rulings-dagger.jsonl): each is a built-in scenario under its id, checked here with its
right value."""

from explorer.games import find_builtin, load_any
from explorer.games.dagger.nemesis_scenario import threat_after

from .helpers import resolve


def test_dg_01_advance_threat_counts_every_source():
    t = resolve("dg-01")
    # 3 + 2 (nemesis) + 4 (non-nemesis enemies) + 2 (overrun bases) + 1 + 2 (missions with threat values)
    assert threat_after(t, "1. Advance Threat") == 14
    step = t.steps[0]
    assert step.facts["before"] == 3 and step.facts["after"] == 14
    assert dict(step.facts["parts"])["non-nemesis enemies"] == 4
    assert dict(step.facts["parts"])["overrun bases"] == 2
    assert step.rule.section == "Nemesis Phase › 1. Advance Threat"
    assert t.outcome["lost"] == []


def test_dg_03_progress_is_checked_before_threat():
    t = resolve("dg-03")
    assert t.outcome["completed_nemesis"] == [["Mission I", "passed"]]
    assert t.outcome["threat"] == 0
    assert t.outcome["side_missions"][0] == "Side mission drawn"     # a nemesis mission: a side mission spawns
    assert t.outcome["team_up"] == 2                                  # its green-check effect resolved
    assert t.outcome["overrun"] == []                                 # not the red-X effect
    # the same mission one progress short fails on threat (14 >= 12)
    f = resolve("dg-03-fail")
    assert f.outcome["completed_nemesis"] == [["Mission I", "failed"]]
    assert f.outcome["overrun"] == ["Wakanda"] and f.outcome["threat"] == 0


def test_dg_05_full_slots_and_spawns_without_standees():
    t = resolve("dg-05")
    # 10 + (1 + 3) + 3 (rank-3 spawn) + 2 (nemesis threat value for the nemesis-specific spawn) = 19
    assert threat_after(t, "3. Resolve Event Cards") == 19
    assert t.outcome["lost"] == []
    assert "threat 19/20" in t.outcome["gauges"]


def test_handed_cases_are_builtins_of_dagger():
    for name in ("dg-01", "dg-03", "dg-05"):
        g, _ = find_builtin(name)
        assert g.id == "dagger"
        game, sc = load_any(name)
        assert game.id == "dagger" and sc[0] == "nemesis"
