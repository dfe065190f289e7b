"""The handed cases (shared/cases/rulings-dagger.jsonl): each is a built-in scenario under its id, checked here with its
right value."""

from explorer.games import find_builtin, get_game, load_any
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


def test_dg_08_each_enemy_nearby_hits_the_same_and_adjacent_spaces():
    # Hero A on Cairo: E on Cairo, F on Mumbai (adjacent), G on London (two lines away): E and F are hit, not G
    # (DG-08's recommended reading, the default of ruling nearby_pieces); nearby_space_itself changes nothing here
    for reading in (None, {"nearby_space_itself": "same_and_adjacent"}, {"nearby_space_itself": "adjacent_only"},
                    {"nearby_pieces": "same_and_adjacent"}):
        t = resolve("dg-08", reading)
        (a,) = t.result.actions
        assert a.do == "ability" and a.hit == ("E", "F")
        damage = {e.id: e.damage for e in t.result.after_actions.enemies}
        assert damage == {"Nemesis": 0, "E": 1, "F": 1, "G": 0}
        assert t.steps[0].rule.section == "Additional Rules › Nearby and Overrun"
        assert t.outcome["actions"][0]["hit"] == ["E", "F"]
    # the case is ambiguous: the ruling option nearby_pieces is consulted, its default the recommended reading
    assert resolve("dg-08").rulings == {"nearby_pieces": "same_and_adjacent"}


def test_dg_08_literal_reading_excludes_the_heroes_own_space():
    # DG-08's reading 2 (a space is not nearby itself, read for the hero's own space): only F is hit
    t = resolve("dg-08", {"nearby_pieces": "adjacent_only"})
    (a,) = t.result.actions
    assert a.hit == ("F",)
    damage = {e.id: e.damage for e in t.result.after_actions.enemies}
    assert damage == {"Nemesis": 0, "E": 0, "F": 1, "G": 0}
    assert t.rulings == {"nearby_pieces": "adjacent_only"}
    assert "not on Cairo itself" in t.steps[0].detail and "nearby_pieces = adjacent_only" in t.steps[0].detail


def test_dg_08_nearby_is_the_map_not_the_list_order():
    from explorer.games.dagger.hero_phase import enemies_nearby
    from explorer.games.dagger.hero_scenario import play_hero
    from explorer.games.dagger.state import evolve

    g = get_game("dagger")
    sc = g.load_builtin("dg-08")[1]
    _steps, _records, start, _after, _end, _ctx = play_hero(sc)
    assert [e.id for e in enemies_nearby(start, sc.world, "Hero A")] == ["E", "F"]
    # Hero A steps to Mumbai: F (Mumbai) and E (Cairo) are nearby, and now the Nemesis (Siberia, adjacent) too;
    # G (London) is three lines away
    moved = start.with_hero(evolve(start.heroes[0], space="Mumbai"))
    assert [e.id for e in enemies_nearby(moved, sc.world, "Hero A")] == ["Nemesis", "E", "F"]


def test_handed_cases_are_builtins_of_dagger():
    for name in ("dg-01", "dg-03", "dg-05"):
        g, _ = find_builtin(name)
        assert g.id == "dagger"
        game, sc = load_any(name)
        assert game.id == "dagger" and sc[0] == "nemesis"
    g, _ = find_builtin("dg-08")
    assert g.id == "dagger" and load_any("dg-08")[1][0] == "hero"
