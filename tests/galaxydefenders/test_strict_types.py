"""Galaxy Defenders files are strictly typed (issue 25, issue 18 item 7): a wrongly typed value in any field of any
built-in scenario (every kind), of the packaged calibration, card list or Storybook missions file is refused in one
line naming the file, the field and the type it takes. Each case was accepted before the shared strict base
(``"3"``, ``true`` or ``3.0`` read as 3, ``1`` or ``"true"`` as a yes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from strict_helpers import builtins_by_kind, check_every_field

from explorer.games import get_game
from explorer.games.galaxydefenders.calibration import calibration_from_data
from explorer.games.galaxydefenders.cards import CardList, check_cards
from explorer.games.galaxydefenders.missions import MissionsFile
from explorer.scenario import read_toml, validate

GAME = get_game("galaxydefenders")
PACKAGE = Path(__file__).parents[2] / "explorer" / "games" / "galaxydefenders"


KINDS = builtins_by_kind(GAME)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_wrongly_typed_value_in_any_field_of_a_builtin_is_refused_naming_it(kind):
    assert check_every_field(lambda d: GAME.parse_data(d, "x.toml"), KINDS[kind],
                             skip=frozenset({"game", "kind"})) > 0


def _cards(d):
    check_cards(validate(CardList, d, "c.toml").cards, "c.toml")


@pytest.mark.parametrize("path,load", [
    ("data/calibration.toml", lambda d: calibration_from_data(d, "c.toml")),
    ("card_data/stand-in.toml", _cards),
    ("card_data/missions.toml", lambda d: validate(MissionsFile, d, "m.toml")),
], ids=["calibration", "cards", "missions"])
def test_a_wrongly_typed_value_in_any_field_of_a_packaged_data_file_is_refused_naming_it(path, load):
    # a Storybook counter's start and most: a number, or "agents" (the number of Agents)
    assert check_every_field(load, {path: read_toml(PACKAGE / path)}, unions={"most": (int,), "start": (int,)}) > 0
