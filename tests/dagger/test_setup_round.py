"""A ``round`` file with ``[setup]``: Setup (the event deck from the file's own events, the side mission deck, the 1st
strike's spawns, the aspect tokens for 1-2 players) played first, then the rounds, in one trace (issue 20, item b).
Rulebook: Setup; Gameplay › Hero Phase; Nemesis Phase."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.forecast import planned_forecast
from explorer.games.dagger.round_scenario import SETUP_BOARD, parse_round, play_rounds, resolve_round
from explorer.scenario import read_toml

NAME = "dg-setup-round"
NEMESIS = ("Nemesis event: Scheme", "Nemesis event: Strike", "Nemesis event: Gambit")


def doc():
    g = get_game("dagger")
    return read_toml(NAME, text=g.scenario_text(NAME))


def parsed(d=None):
    return parse_round(d if d is not None else doc(), "t.toml")


def board_after_setup(frames):
    return next(f.state.game for f in frames if f.name == SETUP_BOARD[0][0])


def test_setup_then_the_round_in_one_trace():
    t = resolve_round(parsed())
    sections = [s.section for s in t.steps]
    assert sections[0] == "Setup" and sections.index("Round 1 · Hero Phase") > sections.index("Setup")
    assert t.result.rounds == 1 and t.result.refused == ""
    # 2 players: 1 boosted + 3 standard tokens each (Setup: 1 more standard token with 2 players) -> 8 turns taken
    assert len(t.result.turns) == 8
    assert t.result.setup_seed == 11 and len(t.result.event_deck) == 12
    # the round's first Nemesis Phase draws the top card of the deck Setup built
    drawn = next(s.title for s in t.steps if s.title.startswith("Event ") and "is drawn" in s.title)
    assert drawn.startswith(f"Event {t.result.event_deck[0]} is drawn")
    assert t.outcome["setup"] == {"seed": 11, "event_deck": list(t.result.event_deck)}


def test_the_board_gets_what_setup_placed():
    sc = parsed()
    frames, refusal, start, _ = play_rounds(sc)
    assert refusal is None
    setup = next(f.state.setup for f in frames if f.name == SETUP_BOARD[0][0])
    g = board_after_setup(frames)
    # the 1st strike's spawns with pips <= 2 heroes: Thug on Cairo (1 pip) and Mumbai (2 pips), no Soldier (3 pips)
    assert [(e.id, e.space) for e in g.enemies if e.kind not in ("nemesis", "elite")] == [("Thug 1", "Cairo"),
                                                                                          ("Thug 2", "Mumbai")]
    assert setup.enemies == (("Thug 1", "Cairo"), ("Thug 2", "Mumbai"))
    assert [c.name for c in g.event_deck] == list(setup.event_deck)
    assert [m.name for m in g.side_slots if m is not None] == list(setup.side_slots)
    assert [c.mission.name for c in g.side_deck] == list(setup.side_deck)
    # the frames before the board step carry Setup's state; the game there is still the file's board
    assert all(f.state.game == start.game for f in frames[:7])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31))
def test_each_third_of_the_deck_holds_one_nemesis_event_and_the_seed_replays(seed):
    sc = parsed()
    frames, _, _, _ = play_rounds(sc, seed=seed)
    deck = [c.name for c in board_after_setup(frames).event_deck]
    assert len(deck) == 12 and len(set(deck)) == 12
    assert [sum(n in NEMESIS for n in deck[i:i + 4]) for i in (0, 4, 8)] == [1, 1, 1]
    assert sum(1 for n in deck if n not in NEMESIS) == 9                           # 9 of the 10 standard
    again, _, _, _ = play_rounds(sc, seed=seed)
    assert [f.state for f in again] == [f.state for f in frames]                   # time travel = replay


def test_an_elite_side_mission_drawn_by_setup_places_its_elite():
    d = doc()
    d["side_deck"] = [m for m in d["side_deck"] if "elite" in m]
    g = board_after_setup(play_rounds(parsed(d))[0])
    assert [m.name for m in g.side_slots if m is not None] == ["Side: Elite Hunter"]
    hunter = next(e for e in g.enemies if e.id == "Hunter")
    assert hunter.kind == "elite" and hunter.space == "Oslo"
    assert g.side_slots[0].elite == "Hunter"


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(enemies=[{"id": "Thug 1", "type": "rank-1", "space": "Cairo"}]), "enemies"),
    (lambda d: d.update(side_missions=[{"name": "Side: X", "progress_value": 2}]), "side_missions"),
    (lambda d: d.update(shuffle_events=True), "shuffle_events"),
    (lambda d: d["setup"].update(nemesis_events=["Nope", "Nemesis event: Strike", "Nemesis event: Gambit"]),
     "setup.nemesis_events[0]"),
    (lambda d: d["setup"].update(nemesis_events=["Nemesis event: Strike"] * 3), "setup.nemesis_events[1]"),
    (lambda d: d.update(events=d["events"][:4] + d["events"][-3:]), "events"),
    (lambda d: d["setup"].update(spawns=[{"enemy": "rank-4", "space": "Cairo"}]), "setup.spawns[0].enemy"),
    (lambda d: d["setup"].update(spawns=[{"enemy": "rank-1", "space": "Atlantiss"}]), "setup.spawns[0].space"),
    (lambda d: d.update(players=3), "players"),
    (lambda d: d["setup"].update(bogus=1), "setup.bogus"),
    # Setup: each hero's standee on one of the 5 bases, one without a hero
    (lambda d: d["heroes"][1].update(space="Cairo"), "heroes[1].space"),
    (lambda d: d["heroes"][1].update(space=d["heroes"][0]["space"]), "heroes[1].space"),
])
def test_a_setup_the_board_cannot_take_names_its_field(change, field):
    d = copy.deepcopy(doc())
    change(d)
    with pytest.raises(ScenarioError) as e:
        parsed(d)
    assert f"'{field}'" in str(e.value) and "\n" not in str(e.value)


def test_the_planned_forecast_of_a_file_that_starts_from_setup_is_over_setups_deals():
    f = planned_forecast(parsed(), 1)        # was refused; now exact over the deals (tests/dagger/test_setup_forecast)
    assert f.exact and f.dealt and sum(f.threat.values()) == 1


def test_a_file_without_setup_plays_as_before():
    d = doc()
    del d["setup"]
    d["enemies"] = [{"id": "Thug 1", "type": "rank-1", "space": "Cairo"}]
    t = resolve_round(parsed(d))
    assert t.steps[0].section == "Round 1 · Hero Phase" and "setup" not in t.outcome


def test_a_hero_off_the_bases_is_refused_naming_the_free_bases():
    # Setup: 'each player places their hero's standee on any of the 5 bases (that does not have a hero)'
    d = copy.deepcopy(doc())
    d["heroes"][1]["space"] = d["heroes"][0]["space"]
    with pytest.raises(ScenarioError) as e:
        parsed(d)
    assert str(e.value) == ("t.toml: field 'heroes[1].space': New York already has a hero (Hero A): Setup places "
                            "each hero on a base without a hero (allowed: Atlantis, Madripoor, Wakanda, Iliad (Lagos))")
