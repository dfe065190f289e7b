"""Property test: every event, effect and declaration type of the Galaxy Defenders file formats goes through the
kernel, the typed outcome, the outcome text, ``trace.to_json()`` and the page builders without an exception.

Generated documents cover every scenario kind (``combat``, ``conditions``, ``activation``, ``menace``,
``close_encounter``, ``event``, ``gd_wings``, ``healing``) with every effect (Lethal, -X Def Dice, Critical, Mark,
Poison) and trigger, every damage kind, held Critical tokens, Power Suits, Burrowing targets and Close Encounter
cards, every condition event, every behavior-rule condition and action with Flying / Burrowing / Archenemy / Seize /
multi-hex / Prime Swarm movers on a small map with every Hex Side kind. For each: the typed result's ``to_json()`` is
the JSON outcome, every kernel frame's state is frozen, the outcome text names no missing key, and the pages (the
combat editor, the A.I. stepper's pictures and rule table, the map picture) build.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.kernel import Outcome, is_frozen_state

GAME = get_game("galaxydefenders")
SETTINGS = dict(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.filter_too_much])

KINDS = ("agent", "alien", "master_alien", "npc", "drone")
HELD = ("def_dice_minus", "atk_dice_minus", "movement_minus", "max_health_minus", "paralyzed", "shields_removed",
        "no_bolt")
RED_FACES = tuple(dict.fromkeys(f.label for f in default_calibration().die("red").faces))
EFFECT_X = {"lethal": (1, 1), "def_dice_minus": (1, 3), "critical": (1, 2), "mark": (1, 2), "poison": (1, 2)}


def _check(doc: dict, page=None) -> None:
    """Parse, resolve, and run the result through JSON, text and the picture; ``page(kind, sc, trace, doc)`` builds
    the kind's page."""
    try:
        scenario = GAME.parse(doc, "property")
    except ScenarioError:
        assume(False)
        return
    trace = GAME.resolve(scenario, seed=7)
    assert isinstance(trace.result, Outcome)
    assert trace.result.to_json() == trace.outcome
    json.loads(trace.to_json())
    text = GAME.outcome_text(trace)
    assert text.startswith("Outcome:") and len(text.splitlines()) >= 2
    GAME.picture(scenario, trace)
    if page is not None:
        page(*scenario, trace, doc)


# ------------------------------------------------------------------------------------------------ combat

def _held(effect: str, x: int, level: int) -> dict:
    """A held Critical token; an X = 0 one names its pile (both piles have one, 8.2)."""
    return {"effect": effect, "x": x} | ({"level": level} if x == 0 else {})


@st.composite
def targets(draw):
    n = draw(st.integers(1, 3))
    out = []
    for i in range(n):
        kind = draw(st.sampled_from(KINDS))
        t = {"name": f"T{i}", "kind": kind, "health": draw(st.integers(1, 10)), "wounds": draw(st.integers(0, 3)),
             "energy_shields": draw(st.lists(st.integers(0, 3), max_size=3)),
             "standard_shields": draw(st.integers(0, 2)), "cancel_hits": draw(st.integers(0, 2)),
             "mark": draw(st.integers(0, 2)), "poison": draw(st.integers(0, 2)),
             "criticals": [_held(e, draw(st.integers(0, 2)), draw(st.integers(1, 2)))
                           for e in draw(st.lists(st.sampled_from(HELD), max_size=2, unique=True))],
             "burrowing": draw(st.booleans()), "area": "target" if i == 0 else draw(
                 st.sampled_from(("same", "adjacent", "other"))), "walking_path": draw(st.booleans())}
        if kind == "agent" and draw(st.booleans()):
            t["power_suit_shields"] = draw(st.integers(0, 3))
        out.append(t)
    return out


@st.composite
def attacks(draw, names):
    out = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(KINDS))
        fixed = draw(st.booleans())
        a = {"attacker": "Hulk" if kind == "agent" else "Raider", "attacker_kind": kind, "weapon": "Gun",
             "target": draw(st.sampled_from(names)), "bonus_hits": draw(st.integers(0, 2)),
             "no_bolt": draw(st.booleans()), "damage": draw(st.sampled_from(("single", "area", "explosion")))}
        if fixed:
            a["fixed_hits"] = draw(st.integers(0, 6))
        else:
            colour = draw(st.sampled_from(("red", "yellow")))
            a["dice"] = {colour: draw(st.integers(1, 4))}
            a["atk_dice_minus"] = draw(st.integers(0, 1))
        if kind in ("drone", "npc") and draw(st.booleans()):
            a["controller"] = "Marine"
        triggers = ("always", "target_marked") if fixed else ("always", "bolt", "target_marked")
        a["effects"] = [{"kind": k, "x": draw(st.integers(*EFFECT_X[k])), "trigger": draw(st.sampled_from(triggers))}
                        for k in draw(st.lists(st.sampled_from(tuple(EFFECT_X)), max_size=4, unique=True))]
        out.append(a)
    return out


@st.composite
def combat_docs(draw):
    ts = draw(targets())
    doc = {"game": "galaxydefenders", "kind": "combat", "title": "Property combat", "seed": draw(st.integers(0, 99)),
           "high_impact": draw(st.booleans()), "targets": ts, "attacks": draw(attacks([t["name"] for t in ts]))}
    if draw(st.booleans()):
        doc["menace"] = {"holder": draw(st.sampled_from(("Hulk", "Marine"))), "level": draw(st.integers(1, 2))}
    if draw(st.booleans()):
        doc["close_encounter"] = {"card": draw(st.integers(1, 31)),
                                  "activates": draw(st.lists(st.sampled_from([t["name"] for t in ts]), unique=True))}
    if draw(st.booleans()):
        doc["rulings"] = {"critical_several_sources": "lowest_level", "poison_without_wound": "needs_wound",
                          "def_dice_minus_sources": "largest"}
    return doc


@pytest.fixture(scope="module")
def combat_page():
    from explorer.games.galaxydefenders.views import CombatExplorer

    return CombatExplorer()


@settings(**SETTINGS)
@given(doc=combat_docs())
def test_combat_documents_go_through_text_json_and_the_page(doc, combat_page):
    def page(kind, sc, trace, data):
        from explorer.games.galaxydefenders.combat import combat_frames
        from explorer.games.galaxydefenders.options import rulings
        from explorer.dice import Dice

        frames = combat_frames(sc, rulings(sc.rulings), Dice(seed=7))
        assert all(is_frozen_state(f.state) for f in frames)
        assert len(frames) == 1 + len(sc.attacks)
        combat_page.open_scenario(data, "property")
        assert combat_page.trace is not None or combat_page.message.value

    _check(doc, page)


# ------------------------------------------------------------------------------------------------ conditions

@settings(**SETTINGS)
@given(kind=st.sampled_from(("agent", "alien", "npc", "drone")), poison=st.integers(0, 2), mark=st.integers(0, 2),
       held=st.lists(st.sampled_from(HELD), max_size=3, unique=True), suit=st.booleans(),
       events=st.lists(st.tuples(st.sampled_from(("poison", "mark", "refresh", "recharge")), st.integers(1, 2)),
                       min_size=1, max_size=8))
def test_condition_events_go_through_text_and_json(kind, poison, mark, held, suit, events):
    doc = {"game": "galaxydefenders", "kind": "conditions",
           "target": {"name": "Marine", "kind": kind, "health": 6, "poison": poison, "mark": mark,
                      "criticals": [{"effect": e, "x": 1} for e in held]},
           "events": [{"kind": k, "x": x} for k, x in events]}
    if suit:
        doc["power_suit"] = {"batteries": 1, "equipped_by": "Marine"}
    _check(doc)


# ------------------------------------------------------------------------------------------------ phases

@settings(**SETTINGS)
@given(events=st.lists(st.tuples(st.sampled_from(("wound", "action")), st.sampled_from(("Hulk", "Marine", "Bio")),
                                 st.integers(0, 3), st.sampled_from(("attack", "power", "item", "drone", "npc")),
                                 st.sampled_from((None, 1, 2))), max_size=8))
def test_menace_events_go_through_text_and_json(events):
    doc = {"game": "galaxydefenders", "kind": "menace", "agents": ["Hulk", "Marine", "Bio"], "alpha_agent": "Hulk",
           "events": [{"kind": "enters"}] + [
               {"kind": k, "agent": a, **({"wounds": w, "via": via} if k == "wound" else {"to": to} if to else {})}
               for k, a, w, via, to in events]}
    _check(doc)


@settings(**SETTINGS)
@given(card=st.integers(21, 25), x=st.integers(1, 5), players=st.integers(1, 3),
       aliens=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(("purple", "red", "blue", "green")),
                                 st.booleans()), max_size=6),
       fill=st.sampled_from(("fill", "no_fill")))
def test_close_encounter_cards_go_through_text_and_json(card, x, players, aliens, fill):
    names = [f"P{i}" for i in range(players)]
    doc = {"game": "galaxydefenders", "kind": "close_encounter", "card": card, "players": names,
           "aliens": [{"name": f"A{i}", "controller": names[p % players], "rank": r, "paralyzed": para}
                      for i, (p, r, para) in enumerate(aliens)]}
    if card == 21:
        doc["x"] = x
    from explorer.games.galaxydefenders.options import ALL_OPTIONS

    if any(o.key == "paralyzed_fill" and fill in o.readings for o in ALL_OPTIONS):
        doc["rulings"] = {"paralyzed_fill": fill}
    _check(doc)


@settings(**SETTINGS)
@given(figs=st.lists(st.tuples(st.sampled_from(("agent", "drone", "npc", "alien")), st.booleans()), max_size=8),
       signals=st.integers(0, 5), balancer=st.sampled_from(("aliens", "aliens_and_signals")))
def test_event_phase_goes_through_text_and_json(figs, signals, balancer):
    doc = {"game": "galaxydefenders", "kind": "event", "signals": signals, "balancer": balancer,
           "figures": [{"name": f"F{i}", "side": side, **({"bleeding": flag} if side == "agent" else
                                                         {"prime_swarm": flag} if side == "alien" else {})}
                       for i, (side, flag) in enumerate(figs)]}
    _check(doc)


@settings(**SETTINGS)
@given(agents=st.lists(st.tuples(st.sampled_from(("gold", "earth", "moon", "galaxy")), st.booleans(),
                                 st.none() | st.lists(st.sampled_from(RED_FACES), min_size=3, max_size=3)),
                       min_size=1, max_size=4),
       campaign=st.booleans(), killed=st.booleans())
def test_gd_wings_rolls_go_through_text_and_json(agents, campaign, killed):
    doc = {"game": "galaxydefenders", "kind": "gd_wings", "campaign": campaign, "alien_killed_last_round": killed,
           "agents": [{"name": f"Agent {i}", "rank": rank, "ranked_up_this_mission": up,
                       **({"rolled": rolled} if rolled else {})}
                      for i, (rank, up, rolled) in enumerate(agents)]}
    _check(doc)


@settings(**SETTINGS)
@given(figs=st.lists(st.tuples(st.sampled_from(("agent", "drone", "npc", "alien", "master_alien")),
                               st.sampled_from(("A", "B")), st.integers(0, 4)), min_size=1, max_size=6),
       heal=st.integers(1, 3), allies=st.sampled_from(("agents_only", "agents_npcs_drones")))
def test_area_healing_goes_through_text_and_json(figs, heal, allies):
    doc = {"game": "galaxydefenders", "kind": "healing", "target": "F0", "heal": heal,
           "rulings": {"area_healing_allies": allies},
           "figures": [{"name": f"F{i}", "side": s, "area": a, "wounds": w} for i, (s, a, w) in enumerate(figs)]}
    _check(doc)


# ------------------------------------------------------------------------------------------------ activation

MAP_AREAS = {"A": ["0,0", "1,0", "0,1"], "B": ["2,0", "3,0", "2,1"], "C": ["1,1", "1,2", "0,2"],
             "D": ["3,1", "2,2", "3,2"]}
HEXES = [h for hs in MAP_AREAS.values() for h in hs]
EDGES = ["1,0|2,0", "0,1|1,1", "2,1|2,2", "1,1|2,1", "3,0|3,1"]


@st.composite
def activation_docs(draw):
    spots = draw(st.permutations(HEXES))
    n = draw(st.integers(0, 4))
    kind = draw(st.sampled_from(("alien", "npc")))
    activating = {"name": "Mover", "kind": kind, "at": spots[0], "flying": draw(st.booleans()),
                  "burrowing": draw(st.booleans()), "archenemy": draw(st.booleans())}
    figures = [{"name": f"F{i}", "side": draw(st.sampled_from(("agent", "drone", "npc", "alien"))),
                "at": spots[1 + i], "menace": draw(st.integers(0, 2))} for i in range(n)]
    extra = draw(st.sampled_from((None, "base", "swarm"))) if kind == "alien" else None
    if extra == "swarm":
        activating["swarm"] = spots[1 + n]
    elif extra == "base":
        from explorer.hexgrid import Hex, distance

        at = Hex.parse(spots[0])
        free = [h for h in spots[1 + n:] if distance(Hex.parse(h), at) == 1]
        if free:
            activating["base"] = free[0]
    if draw(st.booleans()):
        activating["came_from"] = draw(st.sampled_from(HEXES))
    agents = [f["name"] for f in figures if f["side"] == "agent"]
    if agents and draw(st.booleans()):
        activating["seize"] = agents[0]
    rules = [{"condition": c, "areas": draw(st.integers(1, 3)), "action": a, "move": draw(st.integers(0, 2))}
             for c, a in draw(st.lists(st.tuples(st.sampled_from(("adjacent", "within", "plus")),
                                                 st.sampled_from(("attack", "move_adjacent", "move_toward",
                                                                  "move_away", "stay"))), min_size=1, max_size=4))]
    edges = [{"edge": e, "kind": k, **({"open": draw(st.booleans())} if k == "door" else {})}
             for e, k in zip(EDGES, draw(st.lists(st.sampled_from(("barrier", "wall", "door")), min_size=len(EDGES),
                                                  max_size=len(EDGES))))
             if draw(st.booleans())]
    doc = {"game": "galaxydefenders", "kind": "activation", "areas": MAP_AREAS, "edges": edges,
           "activating": activating, "figures": figures, "rules": rules,
           "rulings": {"line_of_sight": draw(st.sampled_from(("centre", "strict")))}}
    blocking = [h for h in spots[2 + n:] if h not in (activating.get("base"), activating.get("swarm"))][:1]
    if blocking and draw(st.booleans()):
        doc["blocking"] = blocking
    return doc


@settings(**SETTINGS)
@given(doc=activation_docs())
def test_activations_go_through_text_json_and_the_ai_page_pictures(doc):
    from explorer.games.galaxydefenders.options import ALL_OPTIONS

    los = next(o for o in ALL_OPTIONS if o.key == "line_of_sight")
    if doc["rulings"]["line_of_sight"] not in los.readings:
        doc["rulings"]["line_of_sight"] = los.default

    def page(kind, sc, trace, data):
        from explorer.games.galaxydefenders.activation import play_activation
        from explorer.games.galaxydefenders.ai_views import pictures, rules_html

        frames, again = play_activation(sc)
        assert again.to_json() == trace.to_json()
        assert all(is_frozen_state(f.state) for f in frames)
        assert all(len(f.state.notes) == sum(len(g.steps) for g in frames[:i + 1]) for i, f in enumerate(frames))
        pics = pictures(frames, sc)
        assert len(pics) == len(trace.steps)
        rules_html(sc, pics[-1].verdicts if pics else {}, trace.result.rule, True)
        assert pics[-1].positions[sc.activating.name][0] == trace.result.end

    _check(doc, page)


# ------------------------------------------------------------------------------------------------ every built-in

@pytest.mark.parametrize("name", GAME.builtin_names())
def test_every_builtin_has_a_typed_outcome_whose_json_is_the_outcome(name):
    trace = GAME.resolve(GAME.load_builtin(name))
    assert isinstance(trace.result, Outcome) and trace.result.to_json() == trace.outcome
    assert GAME.outcome_text(trace).startswith("Outcome:")


def test_every_state_and_context_of_the_sequences_is_frozen():
    from dataclasses import fields, is_dataclass

    from explorer.games.galaxydefenders import activation, combat, conditions, phases
    from explorer.kernel import Context

    classes = [combat.CombatState, combat.Defence, conditions.ConditionsState, activation.Activation,
               phases.MenaceState, phases.CloseEncounterState, phases.EventState, phases.WingsState,
               phases.HealingState, combat.CombatContext, combat.DefenceContext, conditions.ConditionsContext,
               activation.ActivationContext, phases.MenaceContext, phases.CloseEncounterContext,
               phases.EventContext, phases.WingsContext, phases.HealingContext]
    for cls in classes:
        assert is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
        assert fields(cls)
    assert all(issubclass(c, Context) for c in classes if c.__name__.endswith("Context"))
