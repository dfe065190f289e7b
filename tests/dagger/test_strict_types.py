"""Marvel D.A.G.G.E.R. files are strictly typed (issue 25, issue 18 item 7): a wrongly typed value in any field of
any built-in scenario (every kind), of the packaged world map or of the example event cards is refused in one line
naming the file, the field and the type it takes. Each case was accepted before the shared strict base (``"3"``,
``true`` or ``3.0`` read as 3, ``1`` or ``"true"`` as a yes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from strict_helpers import builtins_by_kind, check_every_field

from explorer.games import get_game
from explorer.games.dagger.nemesis_file import EventModel
from explorer.games.dagger.worldmap import map_from_dict
from explorer.scenario import read_toml, validate

GAME = get_game("dagger")
PACKAGE = Path(__file__).parents[2] / "explorer" / "games" / "dagger"


KINDS = builtins_by_kind(GAME)

UNIONS = {"iliad": (int,)}
"""The Iliad token's space: its name or its number."""


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_wrongly_typed_value_in_any_field_of_a_builtin_is_refused_naming_it(kind):
    assert check_every_field(lambda d: GAME.parse_data(d, "x.toml"), KINDS[kind],
                             skip=frozenset({"game", "kind"}), unions=UNIONS) > 0


def test_a_wrongly_typed_value_in_any_field_of_the_packaged_map_is_refused_naming_it():
    doc = read_toml(PACKAGE / "maps" / "default.toml")
    assert check_every_field(lambda d: map_from_dict(d["map"], "m.toml"), {"default": doc}) > 0


def test_a_wrongly_typed_value_in_any_field_of_an_example_event_card_is_refused_naming_it():
    doc = read_toml(PACKAGE / "cards" / "examples.toml")

    def load(d):
        for i, raw in enumerate(d["events"]):
            try:
                validate(EventModel, raw, "e.toml")
            except Exception as e:
                from explorer.errors import ScenarioError

                raise ScenarioError(f"events[{i}].{e.field}", e.problem, e.allowed, "e.toml") from None

    assert check_every_field(load, {"examples": doc}) > 0
