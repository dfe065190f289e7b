"""A round's fixed dice name only what the attack rolls: a misspelt figure or a colour the weapon does not roll was
dropped in silence and the dice rolled from the seed (newcomer, session 9); now one line names the field."""

from __future__ import annotations

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game

G = get_game("galaxydefenders")
TEXT = G.scenario_text("gd-round-range")
DEFEND = 'defend = { Xeno = ["blank", "shield"] }'
HIT = 'hit = { red = ["hit", "hit"] }'
CE = 'defend = { Marine = ["blank"] }'


def _parse(text):
    from explorer.scenario import read_toml

    return G.parse_data(read_toml("x.toml", text=text), "x.toml")


@pytest.mark.parametrize("old, new, field, words", [
    (DEFEND, 'defend = { Xen = ["blank", "shield"] }', "rolled.defend.Xen", "'Stalker', 'Xeno'"),
    (HIT, 'hit = { blue = ["hit", "hit"] }', "rolled.hit.blue", "'red'"),
    (CE, 'defend = { Marne = ["blank"] }', "close_encounter.rolled.Stalker.defend.Marne", "'Marine'"),
])
def test_a_fixed_die_naming_nothing_the_attack_rolls_is_refused(old, new, field, words):
    assert TEXT.count(old) == 1
    with pytest.raises(ScenarioError) as e:
        G.resolve(_parse(TEXT.replace(old, new)))
    assert field in str(e.value) and words in str(e.value)


def test_the_built_in_itself_still_plays():
    assert G.resolve(_parse(TEXT)).result is not None


def test_a_counter_of_destroyed_things_never_falls():
    """Mission 4: a destroyed Shield Generator cannot come back; a round lowering the count is refused, naming the
    round's counter (newcomer, session 9: it went 2 -> 1 and the mission was still Accomplished)."""
    from explorer.errors import RuleViolation

    text = G.scenario_text("gd-mission-4")
    rounds = text.split("[[rounds]]")
    k = next(i for i, r in enumerate(rounds) if "shield_generators_destroyed = 2" in r)
    later = k + 1
    assert later < len(rounds)
    head, _, tail = rounds[later].partition("counters = {")
    rounds[later] = head + "counters = { shield_generators_destroyed = 1, " + tail if tail else \
        rounds[later] + "counters = { shield_generators_destroyed = 1 }\n"
    with pytest.raises(RuleViolation) as e:
        G.resolve(_parse("[[rounds]]".join(rounds)))
    assert "shield_generators_destroyed" in str(e.value) and f"rounds[{later - 1}].counters" in str(e.value)


def test_the_combat_kind_refuses_the_same_keys_with_the_same_words():
    """One check (combat.check_rolled_keys) for the combat kind and the round: the field names the key and the
    figure, and the line says what the attack can hit or roll (the combat kind said 'no target named' and named only
    `rolled.defend`)."""
    from explorer.games.galaxydefenders.combat import check_rolled_keys  # noqa: F401  (the one function)

    sc = G.load_builtin("gd-book-lethal")[1]
    a = sc.attacks[0]
    target = a.target
    for key, bad, field, words in (
            ("defend", {"Nobody": ["blank"]}, "attacks[0].rolled.defend.Nobody", "'Nobody' is not a figure"),
            ("critical", {"Nobody": []}, "attacks[0].rolled.critical.Nobody", "'Nobody' is not a figure"),
            ("hit", {"purple": ["hit"]}, "attacks[0].rolled.hit.purple", "rolls no purple dice")):
        data = sc.model_dump(exclude_unset=True)
        data["game"], data["kind"] = "galaxydefenders", "combat"
        att = data["attacks"][0]
        att["rolled"] = {key: bad}
        with pytest.raises(ScenarioError) as e:
            G.parse_data(data, "x.toml")
        assert e.value.field == field and words in e.value.problem, str(e.value)
        assert target in str(e.value.allowed) or key == "hit"


@pytest.mark.parametrize("old, new, field, words", [
    # a Close Encounter card's fixed dice sit under turns[i].close_encounter.rolled.<alien> (no second "rolled"):
    # the field was named 'turns[0].close_encounter.rolled.Stalker.rolled.defend.Marne' (breaker, session 16)
    (CE, 'defend = { Marne = ["blank"] }', "turns[0].close_encounter.rolled.Stalker.defend.Marne", "'Marine'"),
    (CE, 'defend = { Marine = ["blank", "blank", "blank"] }', "turns[0].close_encounter.rolled.Stalker.defend.Marine",
     "3 faces given"),
    # a face no die shows was named '<activity>.dice', a field no file has
    (CE, 'defend = { Marine = ["kaboom"] }', "turns[0].close_encounter.rolled.Stalker.defend.Marine[0]", "'kaboom'"),
    (DEFEND, 'defend = { Xeno = ["kaboom", "shield"] }', "rolled.defend.Xeno[0]", "'kaboom'"),
])
def test_a_refused_fixed_die_names_the_field_as_the_file_spells_it(old, new, field, words):
    assert TEXT.count(old) == 1
    with pytest.raises(ScenarioError) as e:
        G.resolve(_parse(TEXT.replace(old, new)))
    assert e.value.field.endswith(field) and ".rolled.rolled." not in e.value.field and \
        ".rolled." in e.value.field and words in str(e.value), str(e.value)
