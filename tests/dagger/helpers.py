"""Shared helpers for the D.A.G.G.E.R. tests: load a built-in or TOML text, resolve it."""

from explorer.games import get_game
from explorer.games.dagger.nemesis_scenario import parse_nemesis, playthrough
from explorer.scenario import read_toml


def builtin(name):
    g = get_game("dagger")
    data = read_toml(name, text=g.scenario_text(name))
    return parse_nemesis(data, name)


def resolve(name, rulings=None):
    """A built-in of any kind (nemesis, hero) resolved through the registry."""
    g = get_game("dagger")
    return g.resolve(g.load_builtin(name), rulings)


def frames(name, rulings=None):
    return playthrough(builtin(name), rulings)[0]


def from_text(text, source="test.toml"):
    return parse_nemesis(read_toml(source, text=text), source)


def edited(name, **changes):
    """A built-in scenario's TOML document with top-level keys replaced, parsed."""
    g = get_game("dagger")
    data = read_toml(name, text=g.scenario_text(name))
    data.update(changes)
    return parse_nemesis(data, name)
