"""A whole Game Round (explorer.games.tagraid.orders.round): Events Phase with the MegaBeast's deployment, Players
Phase in Timeline order (whole Orders), End of the Round checks, winner and tie-breaks; a golden trace."""

from dataclasses import replace
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.games import get_game
from explorer.games.tagraid.orders.declarations import (AttackShare, IllegalDeclaration, MoveDecl, OrderDeclarations,
                                                        OrderDice, SkillDecl)
from explorer.games.tagraid.orders.round import (EventCard, MegaBeastDeployment, RoundDeclarations, end_of_round,
                                                 play_round, round_trace, start_round_state)
from explorer.hexgrid import Hex

G = get_game("tagraid")
GOLDEN = Path(__file__).parent / "golden"


def _setup(deck_size=1):
    sc = G.load_builtin("book-oes-order")
    mb = sc.initial.megabeast
    table = replace(sc.initial, megabeast=None)
    deck = (EventCard("Electromagnetic storm", "Described effect: no LoF beyond 8 hexagons this Round (not executed).",
                      True, "The Stoorworm emerges.", mb.behavior),)
    deck += tuple(EventCard(f"Quiet shift {i}") for i in range(deck_size - 1))
    rs = start_round_state(table, deck, waiting_megabeast=mb)
    dep = MegaBeastDeployment(*table.geometry.layout.hex_to_pixel(Hex(2, 1)), 210.0)
    orders = (
        (sc.declarations, sc.dice),
        (OrderDeclarations("Active TAG", MoveDecl(()), SkillDecl("idle")), OrderDice(seed=2)),
        (OrderDeclarations("Reactive TAG", MoveDecl(()),
                           SkillDecl("ranged_attack", "Rifle", (AttackShare("Active TAG"),))), OrderDice(seed=3)),
    )
    return sc, rs, RoundDeclarations(orders, dep)


def test_golden_full_round():
    _, rs, decl = _setup()
    t = round_trace("One Game Round: the MegaBeast deployed, three Orders, the last Event", play_round(rs, decl))
    check_golden(GOLDEN, "round-book-oes", trace_text(t))
    o = t.outcome
    # the last Event was drawn: the match ends; blue and red tie on Neomaterial Units, blue has more T-Bezoar
    assert o["over"] and o["units"] == {"blue": 1, "red": 1, "green": 0} and o["t_bezoar"]["blue"] == 1
    assert o["winner"] == "blue" and "T-Bezoar" in o["result"]
    assert all(s.rule.game == "TAG Raid" and s.rule.section for s in t.steps)


def test_round_continues_and_orders_are_flipped():
    _, rs, decl = _setup(deck_size=2)
    last = play_round(rs, decl)[-1].state
    assert not last.over and last.round == 2
    assert {m.id: m.orders for m in last.table.miners} == {"Active TAG": 2, "Reactive TAG": 2, "Green TAG": 2}
    # replaying the same declarations gives the identical state
    assert play_round(rs, decl)[-1].state == last


def test_megabeast_deployed_on_first_symbol_only_in_interior_facing_a_tag():
    _, rs, decl = _setup()
    frames = play_round(rs, decl, upto=1)
    mb = frames[-1].state.table.megabeast
    assert mb is not None and frames[-1].state.waiting_megabeast is None
    assert any("deploys" in s.title and s.facts["sees"] for s in frames[-1].steps)
    bad_hex = replace(decl, deployment=MegaBeastDeployment(*rs.table.geometry.layout.hex_to_pixel(Hex(0, 0)), 210.0))
    with pytest.raises(IllegalDeclaration, match="Interior Deployment") as e:
        play_round(rs, bad_hex, upto=1)
    assert e.value.rejection.rule.section == "MegaBeast › Deployment and Movement Type"
    # a 60° Angle of Vision facing 30° from hexagon 2,1 looks away from every TAG
    narrow = replace(rs, waiting_megabeast=replace(rs.waiting_megabeast, behavior=replace(
        rs.waiting_megabeast.behavior, angle_of_vision=60.0)))
    away = replace(decl, deployment=replace(decl.deployment, facing=30.0))
    with pytest.raises(IllegalDeclaration, match="towards no TAG"):
        play_round(narrow, away, upto=1)
    with pytest.raises(IllegalDeclaration, match="must deploy"):
        play_round(rs, replace(decl, deployment=None), upto=1)


def test_orders_out_of_timeline_turn_are_refused():
    _, rs, decl = _setup()
    swapped = replace(decl, orders=(decl.orders[2], decl.orders[0]))
    with pytest.raises(IllegalDeclaration, match="Timeline") as e:
        play_round(rs, swapped)
    assert e.value.rejection.field == "orders[1].active"


@pytest.mark.parametrize("zones,tb,killed,deck,winner,ends", [
    ({"blue": 15}, {}, False, 3, "blue", True),               # 15+ Units end the match
    ({"blue": 14, "red": 2}, {}, False, 3, None, False),      # 14 does not
    ({"blue": 4, "red": 6}, {}, True, 3, "red", True),        # the MegaBeast killed
    ({"blue": 5, "red": 5}, {"red": 2, "blue": 1}, False, 0, "red", True),  # tie: most T-Bezoar
    ({"blue": 5, "red": 5}, {"red": 1, "blue": 1}, False, 0, None, True),   # tie on both: a draw
])
def test_end_of_round_conditions_and_tie_breaks(zones, tb, killed, deck, winner, ends):
    _, rs, decl = _setup(deck_size=1)
    table = rs.table
    table = replace(table, miners=tuple(replace(m, scoring_zone=zones.get(m.side, 0)) for m in table.miners))
    rs = replace(rs, table=table, t_bezoar=tuple(tb.items()), megabeast_killed=killed,
                 deck=tuple(EventCard(f"e{i}") for i in range(deck)),
                 drawn=(EventCard("drawn this Round"),))  # deck 0: the last card was drawn (an Event Deck exists)
    out, steps = end_of_round(rs, decl)
    assert out.over == ends
    if ends:
        assert out.result[0] == winner and steps[-1].rule.section == "Victory Conditions"
        if winner is None:
            assert "draw" in out.result[1]
