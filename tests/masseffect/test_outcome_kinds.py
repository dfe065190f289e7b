"""Every event type of a ``damage`` file, and every scenario kind, goes through the outcome text, the JSON output and
the picture without an exception; the typed outcome (``Trace.result``) is what they read.

Found: a valid ``damage`` file with a ``biotic_effect`` event ended ``explorer resolve`` in ``KeyError: 'target'``
(the Biotic Effect step carries an ``attack_value`` fact and the outcome text took it for an Attack)."""

from __future__ import annotations

import json

from explorer.games import get_game, load_any

GAME = get_game("masseffect")

BIOTIC = """game = "masseffect"
kind = "damage"
title = "A Biotic Effect token"

[[squadmates]]
name = "Liara"
max_shield_points = 2
max_hit_points = 4

[[enemies]]
name = "Husk"
attack_value = 3

[[events]]
type = "biotic_effect"
target = "Husk"

[[events]]
type = "enemy_attack"
enemy = "Husk"
target = "Liara"
"""


def test_a_biotic_effect_event_is_told_not_taken_for_an_attack():
    game, sc = load_any("biotic.toml", text=BIOTIC)
    trace = game.resolve(sc)
    text = game.outcome_text(trace)
    head = text.splitlines()[0]
    assert head == ("Outcome: Husk gets a Biotic Effect token: Attack Value 3 counts as 1; "
                    "Husk Attacks Liara: 1 Damage to Shields"), head
    data = json.loads(trace.to_json())
    assert data["outcome"]["enemies"]["Husk"]["biotic_effect"] is True
    assert data["outcome"]["squadmates"]["Liara"]["shield_points"] == 1


# --- the whole kind of fault: every event type, every kind, through text, JSON, picture and the page builders ------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from explorer.games.masseffect import results as R  # noqa: E402
from explorer.games.masseffect.options import ALL_OPTIONS  # noqa: E402

SQUADMATES = ["Shepard", "Garrus", "Liara"]
ENEMIES = ["Husk", "Cannibal", "Ravager"]
UNITS = {
    "squadmates": [{"name": "Shepard", "max_shield_points": 2, "max_hit_points": 3},
                   {"name": "Garrus", "max_shield_points": 3, "max_hit_points": 5},
                   {"name": "Liara", "max_shield_points": 2, "max_hit_points": 4, "downed": False}],
    "enemies": [{"name": "Husk", "attack_value": 3, "tags": ["React"]},
                {"name": "Cannibal", "attack_value": 2, "shield_value": 2, "stunned": True},
                {"name": "Ravager", "kind": "elite", "attack_value": 4, "resilience": [4, 6, 5], "damage": 1}],
}
EVENT_TYPES = ("enemy_damage", "enemy_attack", "squadmate_damage", "grenade", "medi_gel", "stun", "biotic_effect",
               "end_phase", "activate")
MAP_ONLY = ("activate",)                       # event types that need the scenario's map
POSITIONS = {"Shepard": "0,0", "Garrus": "2,0", "Liara": "-2,1", "Husk": "1,0", "Cannibal": "0,-2", "Ravager": "3,-3"}


def _event(draw_type, data) -> dict:
    t = draw_type
    sq = data.draw(st.sampled_from(SQUADMATES))
    en = data.draw(st.sampled_from(ENEMIES))
    amount = data.draw(st.integers(0, 12))
    if t == "enemy_damage":
        return {"type": t, "target": en, "amount": amount, "by": sq,
                "source": data.draw(st.sampled_from(["action", "core_ability", "grenade"]))}
    if t == "enemy_attack":
        return {"type": t, "enemy": en, "target": sq}
    if t == "squadmate_damage":
        return {"type": t, "target": sq, "amount": amount, "by": data.draw(st.sampled_from(["", "a Turret"]))}
    if t == "grenade":
        return {"type": t, "by": sq, "token": data.draw(st.sampled_from(["grenade", "grenade_cache"])),
                "targets": data.draw(st.lists(st.sampled_from(ENEMIES), max_size=3, unique=True))}
    if t == "medi_gel":
        return {"type": t, "by": sq, "target": data.draw(st.sampled_from(SQUADMATES)),
                "distance": data.draw(st.none() | st.integers(0, 5))}
    if t in ("stun", "biotic_effect"):
        return {"type": t, "target": en}
    if t == "activate":
        return {"type": t, "enemy": en, "current": sq}
    return {"type": t}


def _rulings(data) -> dict[str, str]:
    opts = data.draw(st.lists(st.sampled_from(ALL_OPTIONS), max_size=4, unique_by=lambda o: o.key))
    return {o.key: data.draw(st.sampled_from(list(o.readings))) for o in opts}


def _through_everything(game, scenario, trace) -> str:
    """Outcome text, JSON and the picture of one resolved scenario; the JSON outcome is the typed one's."""
    text = game.outcome_text(trace)
    assert text.startswith("Outcome: ")
    data = json.loads(trace.to_json())
    assert data["outcome"] == json.loads(json.dumps(trace.result.to_json()))
    game.picture(scenario, trace)
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_damage_event_type_goes_through_text_json_and_picture(data):
    on_map = data.draw(st.booleans())
    allowed = EVENT_TYPES if on_map else tuple(t for t in EVENT_TYPES if t not in MAP_ONLY)
    types = data.draw(st.lists(st.sampled_from(allowed), min_size=1, max_size=6))
    units = {k: [dict(u, position=POSITIONS[u["name"]]) if on_map else u for u in v] for k, v in UNITS.items()}
    doc = {"game": "masseffect", "kind": "damage", "title": "property", **units,
           "rulings": _rulings(data), "events": [_event(t, data) for t in types]}
    if on_map:
        doc["map"] = {"name": "property", "shape": {"kind": "hexagon", "radius": 4}}
    scenario = GAME.parse_data(doc, "property.toml")
    trace = GAME.resolve(scenario)
    text = _through_everything(GAME, scenario, trace)
    assert isinstance(trace.result, R.DamageOutcome)
    head = text.splitlines()[0]
    for i, ev in enumerate(trace.result.events):
        assert isinstance(ev, R.Happening.__args__), ev
    for ev in trace.result.events:                 # every Biotic Effect is told as one, never as an Attack
        if isinstance(ev, R.BioticEffect):
            assert f"{ev.enemy} gets a Biotic Effect token" in head or f"{ev.enemy} already has" in head, head


def test_every_event_type_is_generated():
    from explorer.games.masseffect.damage import Event

    declared = {a.model_fields["type"].annotation.__args__[0] for a in Event.__origin__.__args__}
    assert declared == set(EVENT_TYPES)


NAMES = {kind: [s.name for s in GAME.scenarios() if s.kind == kind] for kind in ("map", "strategy", "activation")}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_kind_goes_through_text_json_picture_and_the_activation_frames(data):
    from explorer.games.masseffect.activation import play_activation
    from explorer.games.masseffect.activation_views import frames, scenario_data, scenario_map

    kind = data.draw(st.sampled_from(sorted(NAMES)))
    name = data.draw(st.sampled_from(NAMES[kind]))
    rulings = _rulings(data)
    scenario = GAME.load_builtin(name)
    trace = GAME.resolve(scenario, rulings=rulings, seed=data.draw(st.integers(0, 10**6)))
    _through_everything(GAME, scenario, trace)
    assert trace.result.kind == kind
    if kind == "activation":
        played, again = play_activation(scenario[1], rulings)
        assert again.to_json() == trace.to_json()
        assert len(played[-1].state.scenes) == len(trace.steps)       # one scene per step: the page draws it
        doc = scenario_data(name)
        assert len(frames(played, trace, scenario_map(doc))) == len(trace.steps)


_PAGES: dict = {}


def _strategy_page():
    if "strategy" not in _PAGES:
        from explorer.games.masseffect.strategy_views import StrategyPoolExplorer

        _PAGES["strategy"] = StrategyPoolExplorer()
    return _PAGES["strategy"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_strategy_scenario_goes_through_the_strategy_page(data):
    """The Strategy Pool page draws its dice rows, headline and odds from the typed outcome of any roll."""
    from explorer.scenario import read_toml

    name = data.draw(st.sampled_from(NAMES["strategy"]))
    doc = read_toml(name, text=GAME.scenario_text(name))
    scenario = GAME.load_builtin(name)
    trace = GAME.resolve(scenario, rulings=_rulings(data), seed=data.draw(st.integers(0, 10**6)))
    w = _strategy_page()
    w._draw(trace, doc)
    rows = w.dice.rows
    assert [r[0] for r in rows][-1] == "Pool" and len(rows) == len(trace.result.rolled) + 1
    assert trace.result.squadmate in w.headline.value
