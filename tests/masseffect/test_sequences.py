"""Every Mass Effect scenario kind is played by the sequence kernel (explorer.kernel): the sequence the game declares
(Game.sequences), from the kind's initial state and context, gives the resolver's steps in order, and every frame's
state is a frozen value."""

from __future__ import annotations

import pytest

from explorer.games import get_game
from explorer.kernel import is_frozen_state, play, steps_of

GAME = get_game("masseffect")


def _start(kind, sc):
    if kind == "map":
        from explorer.games.masseffect.queries import map_query_start

        return map_query_start(sc)
    if kind == "strategy":
        from explorer.games.masseffect.strategy import strategy_start

        return strategy_start(sc)
    if kind == "damage":
        from explorer.games.masseffect.damage import damage_start

        return damage_start(sc)
    if kind == "round":
        from explorer.games.masseffect.round import round_start

        return round_start(sc)
    from explorer.games.masseffect.activation import activation_start

    return activation_start(sc)


@pytest.mark.parametrize("name", GAME.builtin_names())
def test_each_builtin_is_its_kinds_declared_sequence_over_frozen_states(name):
    kind, sc = GAME.load_builtin(name)
    sequence = GAME.sequences()[kind]
    if kind == "round":                      # a file with rounds > 1 plays the several-Rounds sequence
        from explorer.games.masseffect.round import sequence_of

        sequence = sequence_of(sc)
        assert any(sequence is s for s in GAME.sequences().values())
    state, ctx = _start(kind, sc)
    frames = play(state, sequence, ctx)
    assert frames and all(is_frozen_state(f.state) for f in frames)
    assert list(steps_of(frames)) == list(GAME.resolve((kind, sc)).steps)
