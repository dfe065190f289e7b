"""Issue 19, item (f) of the Round: several Rounds from one file (``rounds``, ``[[turns]] round = r``), the End
Phase's bookkeeping carried into the next Round (Shields, Damage tokens, Stunned Enemies, the On Point token, an
Elite's exhausted Resilience levels, every Action Space free again), the Hazard deck rebuilt from the discard pile
when it runs out (rulings ``hazard_reshuffle``; the new order from ``reshuffles`` or the seed), and the card of a
Squadmate Downed after the Preparation Phase (ruling ``downed_hazard_card``). Built-in me-round-rounds, golden trace
tests/masseffect/golden/me-round-rounds.txt."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import ROUNDS_SEQUENCE, parse_round, resolve_round, round_start
from explorer.kernel import play
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data(name="me-round-rounds"):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(d, rulings=None, seed=None):
    return resolve_round(parse_round(d, "x.toml"), rulings, seed)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-rounds", trace_text(resolve(data())))


def test_bookkeeping_carries_into_the_next_round():
    state, ctx = round_start(parse_round(data(), "x.toml"))
    frames = play(state, ROUNDS_SEQUENCE, ctx)
    names = [f.name for f in frames]
    assert names[:5] == ["Round 1 · Start of the Round", "Round 1 · Preparation Phase", "Round 1 · Turn 1",
                         "Round 1 · Turn 2", "Round 1 · End Phase"] and names[-1] == "Round 2 · End Phase"
    by = {f.name: f.state for f in frames}
    end1 = by["Round 1 · End Phase"]
    brute = end1.board.enemy("Brute")
    assert brute.damage == 0 and brute.exhausted == 1          # tokens removed, the exhausted level stays
    assert not end1.board.enemy("Husk").stunned and end1.on_point == "Liara"
    prep2 = by["Round 2 · Preparation Phase"]
    assert prep2.used == () and prep2.order == ("Liara", "Shepard")
    assert prep2.hands == (("Liara", "C"), ("Shepard", "B")) and prep2.deck == ("A",) and prep2.discard == ()
    t = resolve(data())
    assert t.result.returned_to_bag == () and "Brute" not in {e.name for e in t.result.enemies}
    # Shoot's two Action Spaces used in Round 1 are free again in Round 2
    assert [s.title for s in t.steps if s.title.startswith("Shepard allocates")].count(
        "Shepard allocates a die showing Standard to Shoot (Action Space 2)") == 2


def test_reshuffle_when_drawn_ruling():
    t = resolve(data(), {"hazard_reshuffle": "when_drawn"})
    prep = [s.title for s in t.steps if s.section == "Round 2 · Preparation Phase"]
    # the deck is rebuilt only when Shepard must draw: the same pile (A, B), in the file's order
    assert prep[0] == "Hazard card C drawn face-down for Liara" and prep[1].startswith("The Hazard deck ran out")
    assert t.rulings["hazard_reshuffle"] == "when_drawn"


def test_reshuffle_from_the_seed_is_replayable():
    d = data()
    d["reshuffles"] = []
    a, b = resolve(d, seed=11), resolve(d, seed=11)
    assert trace_text(a) == trace_text(b)
    step = next(s for s in a.steps if s.title.startswith("The Hazard deck ran out"))
    assert sorted(step.facts["deck"]) == ["A", "B"] and "shuffled with the seed" in step.detail


def test_file_errors():
    d = data()
    d["reshuffles"] = [["A", "Z"]]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "reshuffles[0]"
    d = data()
    d["reshuffles"] = [["A", "C"]]                       # C is in Liara's hand, not in the discard pile
    with pytest.raises(ScenarioError) as e:
        resolve(d)
    assert e.value.field == "reshuffles[0]"
    d = data()
    d["turns"][2]["round"] = 3
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[2].round"


def _downed_before_her_turn():
    d = data("me-round-turrets")
    d["squadmates"][2]["hit_points"] = 3             # Liara: Downed by Garrus' card, before her own turn
    return d


def test_card_of_a_squadmate_downed_after_preparation():
    t = resolve(_downed_before_her_turn())
    liara = [s for s in t.steps if s.section == "Turn 3: Liara"]
    assert "discarded unresolved" in liara[1].title and liara[1].rule == S.HAZARD_CARD
    assert t.result.discard == ("Turrets 2", "Turrets 1", "Ambush")
    assert not any(e.name == "Trooper" for e in t.result.enemies)
    t = resolve(_downed_before_her_turn(), {"downed_hazard_card": "resolved"})
    assert any(e.name == "Trooper" for e in t.result.enemies)   # the Ambush card Spawned it


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_replaying_the_rounds_with_the_same_seed_gives_the_same_frames(seed):
    """Time travel by replay: a fresh play with the same seed (the reshuffle drawn from it) gives the same frames,
    so any frame can be shown again; each frame's state is in the Round its name says."""
    d = data()
    d["reshuffles"] = []
    state, ctx = round_start(parse_round(d, "x.toml"), None, seed)
    full = play(state, ROUNDS_SEQUENCE, ctx)
    state, ctx = round_start(parse_round(d, "x.toml"), None, seed)
    assert play(state, ROUNDS_SEQUENCE, ctx) == full
    assert all(f.state.round == int(f.name.split()[1]) for f in full)
    for f in full:                                   # no Hazard card is ever lost or duplicated
        cards = f.state.deck + f.state.discard + tuple(c for _, c in f.state.hands)
        assert sorted(cards) == ["A", "B", "C"]
