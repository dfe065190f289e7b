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
    (CE, 'defend = { Marne = ["blank"] }', "rolled.defend.Marne", "'Marine'"),
])
def test_a_fixed_die_naming_nothing_the_attack_rolls_is_refused(old, new, field, words):
    assert TEXT.count(old) == 1
    with pytest.raises(ScenarioError) as e:
        G.resolve(_parse(TEXT.replace(old, new)))
    assert field in str(e.value) and words in str(e.value)


def test_the_built_in_itself_still_plays():
    assert G.resolve(_parse(TEXT)).result is not None
