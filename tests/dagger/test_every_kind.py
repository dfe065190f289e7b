"""Every kind of thing a D.A.G.G.E.R. file can declare, through the outcome text, the JSON and the page builders.

Hypothesis draws ``nemesis`` and ``hero`` documents mixing every effect kind (threat, team-up, damage to heroes with
each ``where`` form, progress, overrun, a note), every activation row entry, spawns, nemesis abilities (known and
unknown icons), every mission kind with its pass / fail / ongoing effects and an elite side mission, every ruling
option's readings, and every hero action (move, fight, defy, rest; with and without a roll; spending the empowered
token; moving a stunned nemesis). Each document is resolved through the registry; its outcome text, its
``trace.to_json()`` and its map picture must come out without an exception and agree with the typed result; a
``nemesis`` document is also loaded into the Nemesis Phase page (:class:`~explorer.games.dagger.views.NemesisStepper`)
and stepped through every position.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.options import ALL_OPTIONS
from explorer.games.dagger.results import HeroOutcome, NemesisOutcome
from explorer.games.dagger.worldmap import load_map
from explorer.scenario import read_toml

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = get_game("dagger")
WORLD = load_map()
SPACES = list(WORLD.names)
BASES = ["New York", "Atlantis", "Madripoor", "Wakanda", "Iliad"]
ROW = ["rank-1", "rank-2", "rank-3", "rank-4", "nemesis-specific", "elite", "nemesis"]
SPAWNABLE = ["rank-1", "rank-2", "rank-3", "nemesis-specific"]
MISSIONS = ["1st Strike", "Mission I", "Mission II", "Mission III", "Side: Sabotage", "Side: Elite Hunter",
            "Side: Rescue", "Hero A's Mission"]
NEMESIS = MISSIONS[:4]
EFFECT_KINDS = ("threat", "team_up", "damage_heroes", "progress", "overrun", "note")


def base_doc() -> dict:
    doc = read_toml("dg-three-rounds", text=GAME.scenario_text("dg-three-rounds"))
    doc.pop("game")
    doc["hero_missions"] = [{"name": "Hero A's Mission", "hero": "Hero A", "progress_value": 3, "threat_value": 1}]
    for h in doc["heroes"]:
        h.update(move=2, atk=3, dfi=3, tactic=2, rest_auto=1, next_health=12)
    return doc


@st.composite
def effects(draw, max_size=3, missions=tuple(MISSIONS)):
    out = []
    for kind in draw(st.lists(st.sampled_from(EFFECT_KINDS), max_size=max_size)):
        e = {"kind": kind, "text": draw(st.sampled_from(["", "as the card says"]))}
        if kind in ("threat", "team_up"):
            e["amount"] = draw(st.integers(-3, 5))
        elif kind == "damage_heroes":
            e["amount"] = draw(st.integers(0, 6))
            e["where"] = draw(st.sampled_from(["all", "nemesis_space", "nearby_nemesis"]) | st.builds(
                lambda k, s: f"{k}:{s}", st.sampled_from(["space", "nearby"]), st.sampled_from(SPACES)))
        elif kind == "progress":
            e["amount"] = draw(st.integers(0, 5))
            e["mission"] = draw(st.sampled_from(missions))
        elif kind == "overrun":
            e["base"] = draw(st.sampled_from(BASES))
        out.append(e)
    return out


@st.composite
def events(draw, missions):
    cards = []
    for i in range(draw(st.integers(0, 4))):
        cards.append({
            "name": f"Event {i}", "text": draw(st.sampled_from(["", "something happens"])),
            "effects": draw(effects(missions=missions)), "nemesis_icon": draw(st.sampled_from(["", "strike", "scheme", "unknown"])),
            "activate": draw(st.lists(st.sampled_from(ROW), unique=True, max_size=4)),
            "spawns": [{"enemy": k, "space": draw(st.sampled_from(SPACES)), "pips": draw(st.integers(1, 4))}
                       for k in draw(st.lists(st.sampled_from(SPAWNABLE), max_size=3))],
        })
    return cards


@st.composite
def nemesis_docs(draw):
    doc = base_doc()
    doc["threat"] = draw(st.integers(0, 19))
    doc["overrun"] = draw(st.lists(st.sampled_from(BASES), unique=True, max_size=4))
    for h in doc["heroes"]:
        h["space"] = draw(st.sampled_from(SPACES))
        h["damage"] = draw(st.integers(0, 9))
        h["shattered"] = draw(st.booleans())
        h["empowered"] = draw(st.booleans())
    for e in doc["enemies"]:
        e["space"] = draw(st.sampled_from(SPACES))
    doc["nemesis"]["space"] = draw(st.sampled_from(SPACES))
    doc["nemesis"]["stunned"] = draw(st.booleans())
    doc["nemesis_missions"] = doc["nemesis_missions"][draw(st.integers(0, 4)):]
    missions = tuple(m for m in MISSIONS if m not in NEMESIS or m in {x["name"] for x in doc["nemesis_missions"]})
    doc["nemesis"]["abilities"].append({"icon": "unknown-ish", "effects": draw(effects(missions=missions))})
    doc["nemesis"]["showdown_health"] = 20
    for m in doc["nemesis_missions"]:
        m["on_pass"] = draw(effects(2, missions))
        m["on_fail"] = draw(effects(2, missions))
        m["ongoing"] = draw(effects(1, missions))
        m["progress"] = draw(st.integers(0, 8))
    if doc["nemesis_missions"]:
        doc["nemesis_missions"][0].pop("kind", None)
        doc["nemesis_missions"][0]["kind"] = "first_strike" if len(doc["nemesis_missions"]) == 4 else "nemesis"
    doc["side_deck"] = draw(st.permutations(doc["side_deck"]))
    doc["events"] = draw(events(missions))
    doc["phases"] = draw(st.integers(1, 3))
    steps = ["step-1", "step-2", "step-3", "end-of-round"]
    a, b = sorted(draw(st.lists(st.integers(0, 3), min_size=2, max_size=2)))
    doc["start_at"], doc["stop_after"] = steps[a], steps[b]
    doc["showdown"] = draw(st.booleans())
    doc["elimination_deadline"] = draw(st.none() | st.integers(1, 3))
    doc["rulings"] = {o.key: draw(st.sampled_from(list(o.readings))) for o in ALL_OPTIONS if draw(st.booleans())}
    return doc


@st.composite
def hero_docs(draw):
    doc = draw(nemesis_docs())
    doc["kind"] = "hero"
    doc["then_phase"] = draw(st.booleans())
    rescue = next(m for m in doc["side_deck"] if m["name"] == "Side: Rescue")
    doc["side_deck"] = [m for m in doc["side_deck"] if m is not rescue]
    doc["side_missions"] = [rescue]                 # in play: a Defy completes it at once
    heroes = [h["name"] for h in doc["heroes"]]
    enemies = [e["id"] for e in doc["enemies"]] + [doc["nemesis"]["name"]]
    actions = []
    for do in draw(st.lists(st.sampled_from(["move", "fight", "defy", "rest"]), min_size=1, max_size=4)):
        a = {"do": do, "hero": draw(st.sampled_from(heroes))}
        if do == "move":
            a["path"] = draw(st.lists(st.sampled_from(SPACES), min_size=1, max_size=2))
        elif do == "fight":
            a["enemy"] = draw(st.sampled_from(enemies))
            if draw(st.booleans()):
                a["nemesis_to"] = draw(st.sampled_from(SPACES))
        elif do == "defy":
            a["mission"] = draw(st.sampled_from([m["name"] for m in doc["nemesis_missions"][:1]]
                                                + ["Side: Rescue", "Hero A's Mission"]))
        if do != "move" and draw(st.booleans()):
            a["successes"] = draw(st.integers(0, 6))
            a["spend_empowered"] = draw(st.sampled_from([True, False, None]))
        actions.append({k: v for k, v in a.items() if v is not None})
    doc["actions"] = actions
    return doc


def resolved(doc):
    try:
        sc = GAME.parse(doc, "hypothesis")
        return sc, GAME.resolve(sc)
    except ScenarioError:            # a draw outside the file format (an asterisk mission defied, a bad path...)
        return None, None


def check_text_and_json(sc, trace):
    text = GAME.outcome_text(trace)
    assert text.startswith("Outcome: ")
    data = json.loads(trace.to_json())
    assert data["outcome"] == trace.result.to_json()
    assert isinstance(trace.result, HeroOutcome if sc[0] == "hero" else NemesisOutcome)
    assert data["outcome"]["threat"] == trace.result.threat
    svg = GAME.picture(sc, trace)
    assert svg is not None and svg.startswith("<svg")
    return text


@pytest.fixture(scope="module")
def stepper():
    from explorer.games.dagger.views import NemesisStepper

    return NemesisStepper("dg-three-rounds")


def through_the_page(w, scenario):
    from explorer.games.dagger.views import MapGeometry

    w.scenario = scenario
    w.geo = MapGeometry(scenario.world)
    w.choices = {}
    w.run(keep_position=False)
    assert not w.message.value, w.message.value
    for i in range(len(w.positions) + 1):
        w.show(i)
    assert w.position == len(w.positions)
    for key, _label, options, _taken in w.open_choices():
        w.choose(key, options[-1])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(nemesis_docs())
def test_every_nemesis_kind_through_text_json_and_the_page(stepper, doc):
    sc, trace = resolved(doc)
    if trace is None:
        return
    check_text_and_json(sc, trace)
    through_the_page(stepper, sc[1])


@settings(max_examples=25, deadline=None)
@given(hero_docs())
def test_every_hero_action_through_text_and_json(doc):
    sc, trace = resolved(doc)
    if trace is None:
        return
    text = check_text_and_json(sc, trace)
    for a in trace.result.actions:
        assert a.hero in text


def test_one_file_with_every_kind(stepper):
    """One document that declares every effect kind, every activation row entry and every hero action at once."""
    doc = base_doc()
    every_effect = [{"kind": "threat", "amount": 1}, {"kind": "team_up", "amount": 1},
                    {"kind": "damage_heroes", "amount": 1, "where": "all"},
                    {"kind": "damage_heroes", "amount": 1, "where": "space:Wakanda"},
                    {"kind": "damage_heroes", "amount": 1, "where": "nearby:Cairo"},
                    {"kind": "damage_heroes", "amount": 1, "where": "nemesis_space"},
                    {"kind": "damage_heroes", "amount": 1, "where": "nearby_nemesis"},
                    {"kind": "progress", "amount": 1, "mission": "Mission I"},
                    {"kind": "overrun", "base": "Atlantis"}, {"kind": "note", "text": "a note"}]
    doc["events"] = [{"name": "Everything", "text": "all at once", "effects": every_effect, "nemesis_icon": "strike",
                      "activate": ROW, "spawns": [{"enemy": k, "space": "Cairo"} for k in SPAWNABLE]}]
    doc["nemesis_missions"][0]["on_fail"] = every_effect
    doc["hero_missions"][0]["ongoing"] = [{"kind": "note", "text": "ongoing"}]
    doc["enemies"].append({"id": "Hunter 1", "type": "elite", "space": "Oslo", "health": 3, "power": 1,
                           "mission": "Side: Rescue"})
    doc["side_missions"] = [doc["side_deck"].pop(2)]
    sc, trace = resolved(doc)
    assert trace is not None
    text = check_text_and_json(sc, trace)
    assert "Enemy activations" in text and "Spawned" in text
    through_the_page(stepper, sc[1])
    hero = dict(doc, kind="hero", then_phase=True, actions=[
        {"do": "move", "hero": "Hero B", "path": ["Cairo"]},
        {"do": "fight", "hero": "Hero B", "enemy": "Thug 1", "successes": 1, "spend_empowered": True},
        {"do": "defy", "hero": "Hero A", "mission": "Hero A's Mission", "successes": 3},
        {"do": "rest", "hero": "Hero C", "successes": 1},
        {"do": "fight", "hero": "Hero C", "enemy": "Nemesis"}])
    sc, trace = resolved(hero)
    assert trace is not None
    text = check_text_and_json(sc, trace)
    assert [a.do for a in trace.result.actions] == ["move", "fight", "defy", "rest", "fight"]
    assert "not allowed" in trace.result.actions[-1].result and "Not allowed" in trace.to_text()
