"""A tie for an Enemy's target is decided by a player (Step C: Hazard Card › Attacking: equally low Hit Points, the
current Squadmate's player may choose). The outcome line says so and names every tied candidate, instead of
presenting the chosen one as the result (newcomer finding: ME-07-c read "Guardian Attacks Tali")."""

from __future__ import annotations

from explorer.games import get_game
from explorer.games.masseffect.outcome import outcome_text

GAME = get_game("masseffect")


def _traces():
    for name in GAME.builtin_names():
        yield name, GAME.resolve(GAME.load_builtin(name))


def test_every_tied_target_is_reported_as_a_players_choice_with_every_candidate():
    seen = 0
    for name, trace in _traces():
        head = outcome_text(trace).splitlines()[0]
        ties = [s.facts for s in trace.steps if len(s.facts.get("tied", ())) > 1 and "target" in s.facts]
        for f in ties:
            seen += 1
            assert "tie for the target" in head and "player chooses" in head, (name, head)
            assert all(n in head for n in f["tied"]), (name, head)
        if not ties:
            assert "tie for the target" not in head, (name, head)
    assert seen, "no built-in scenario has a tied target"


def test_the_default_choice_is_named_as_a_default():
    kind, sc = GAME.load_builtin("me-07-c")
    sc = sc.model_copy(update={"choices": type(sc.choices)()})   # no choice given: seating order
    head = outcome_text(GAME.resolve((kind, sc))).splitlines()[0]
    assert "default: seating order" in head and "follows Wrex" in head and "Tali is as valid" in head
