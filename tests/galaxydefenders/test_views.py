"""The Galaxy Defenders combat page without a browser: inputs reach the engine, hand-set dice replace seeded ones,
bad input stays in its field with a message beside it, the odds bars equal the odds engine, the banner says the dice
are a calibration."""

from __future__ import annotations

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.combat import AttackModel, TargetState
from explorer.games.galaxydefenders.odds import attack_odds
from explorer.games.galaxydefenders.views import CombatExplorer, combat_page, parse_int, parse_stacks
from explorer.text import plural


def _tray(w):
    """``[(label, dropdown)]`` of the hit dice, then of the Blue dice."""
    def dice(box):
        return [(c.children[0].value, c.children[1]) for c in box.children if hasattr(c, "children")]
    return dice(w.hit_tray), dice(w.blue_tray)


def test_page_is_registered_and_builds():
    GAME = get_game("galaxydefenders")
    assert [p.slug for p in GAME.pages] == ["combat", "ai", "round"]
    w, redraw = GAME.pages[0].build(GAME)
    assert isinstance(w, CombatExplorer) and w.trace is not None and w.odds is not None
    redraw()
    assert "calibration" in w.children[0].value and "prints no die faces" in w.children[0].value


def test_parsers_name_the_field_and_bounds():
    assert parse_stacks(" 2, 1 ") == [2, 1] and parse_stacks("") == []
    with pytest.raises(ScenarioError) as e:
        parse_stacks("1 x")
    assert e.value.field == "Energy Shields[2]"
    with pytest.raises(ScenarioError):
        parse_stacks("1 1 1 1")
    assert parse_int(" 4 ", "f", 0, 5) == 4
    with pytest.raises(ScenarioError) as e:
        parse_int("9", "Red dice", 0, 5)
    assert "0 to 5" in str(e.value) and e.value.field == "Red dice"


def test_fixed_hits_lethal_and_a_shield_stack_give_the_book_lethal_answer():
    w = CombatExplorer()
    w.dice["red"].value = "0"
    w.fixed_hits.value = "4"
    w.lethal.value = True
    w.critical.value = 0
    w.stacks.value = "1"
    w.standard.value = "1"
    r = w.trace.outcome["attacks"][0]["targets"][0]
    assert (r["absorbed"], r["blue_dice"], r["wounds"]) == (1, 0, 3)
    assert dict(w.odds.map(lambda o: o[1]).items()) == {3: 1.0}      # no dice at all: certain
    hit, blue = _tray(w)
    assert hit == [] and blue == []
    assert "absorbed" in w.headline.value


def test_hand_set_faces_replace_the_seeded_ones_and_survive_a_reroll():
    w = CombatExplorer(seed=3)
    (hit, _) = _tray(w)
    assert len(hit) == 5
    for _, dd in hit:
        dd.value = "hit"                         # every red die set by hand to a hit
    assert w.trace.outcome["attacks"][0]["hits"] == 5
    _, blue = _tray(w)
    assert len(blue) == 5                        # one Blue die per hit
    for _, dd in blue:
        dd.value = "shield"
    assert w.trace.outcome["attacks"][0]["targets"][0]["wounds"] == 0
    w.roll_button.click()
    assert w.seed.value == "4" and w.trace.outcome["attacks"][0]["targets"][0]["wounds"] == 0
    w.clear_button.click()
    assert w.hand == {}


def test_seeded_faces_are_reproducible_and_change_with_the_seed():
    a, b = CombatExplorer(seed=5), CombatExplorer(seed=5)
    assert [x.steps for x in (a.trace, b.trace)][0] == b.trace.steps
    faces = {tuple(dd.options[0][0] for _, dd in _tray(CombatExplorer(seed=s))[0]) for s in range(8)}
    assert len(faces) > 1


def test_high_impact_and_def_dice_minus_limit_the_blue_dice():
    w = CombatExplorer()
    w.dice["red"].value = "0"
    w.fixed_hits.value = "8"
    w.def_minus.value = "2"
    assert w.trace.outcome["attacks"][0]["targets"][0]["blue_dice"] == 5       # Storybook 5.5.1 example
    w.high_impact.value = False
    assert w.trace.outcome["attacks"][0]["targets"][0]["blue_dice"] == 6


def test_odds_bars_equal_the_odds_engine():
    w = CombatExplorer()
    w.dice["yellow"].value = "2"
    w.stacks.value = "2, 1"
    w.critical.value = 1
    w.health.value = "4"
    want = attack_odds(TargetState("Target", "agent", 4, stacks=(2, 1)),
                       AttackModel(target="Target", attacker_kind="alien", dice={"red": 5, "yellow": 2},
                                   effects=[{"kind": "critical", "x": 1}]), default_calibration())
    wounds: dict = {}
    for o, p in want.items():
        wounds[o[1]] = wounds.get(o[1], 0) + p
    dist = w.chart._dists[0]
    assert dist.probs == pytest.approx([wounds.get(k, 0) for k in range(len(dist.probs))])
    down = sum(p for o, p in want.items() if o[2] != "alive")
    assert w.chart._outcomes[0].p == pytest.approx(down) and 0 < down < 1
    before = list(dist.probs)
    w.dice["red"].value = "7"
    assert w.chart._dists[0].probs != before                 # more dice: the odds change


@pytest.mark.parametrize("field, text, msg", [
    ("health", "zero", "health"),
    ("health", "99", "health"),
    ("stacks", "1, two", "stacks"),
    ("def_minus", "-1", "def_minus"),
    ("seed", "x", "seed"),
])
def test_bad_input_is_shown_beside_its_field_and_kept(field, text, msg):
    w = CombatExplorer()
    good = w.trace
    getattr(w, field).value = text
    assert getattr(w, field).value == text                      # the typed text is kept
    assert w.msgs[msg].value and "gd-err" in w.msgs[msg].value
    assert w.trace is good                                      # the last good answer stays
    other = [k for k, m in w.msgs.items() if m.value and k != msg]
    assert other == []


def test_bad_dice_count_and_bad_calibration_go_beside_their_fields():
    w = CombatExplorer()
    w.dice["red"].value = "13"
    assert "0 to 12" in w.msgs["dice.red"].value
    w.dice["red"].value = "2"
    assert w.msgs["dice.red"].value == ""
    w.faces["red"].value = "hit, hit, laser, bolt, blank, blank"
    assert "laser" in w.msgs["calibration.red"].value and w.faces["red"].value.count("laser") == 1
    w.faces["red"].value = "hit, hit, hit, hit, hit, hit"       # an edited calibration drives the answer
    assert w.msgs["calibration.red"].value == ""
    assert w.trace.outcome["attacks"][0]["hits"] == 2


def test_rulings_dropdowns_reach_the_engine():
    w = CombatExplorer()
    w.dice["red"].value = "0"
    w.fixed_hits.value = "4"
    w.stacks.value = "2"
    w.def_minus.value = "2"
    n_remaining = w.trace.outcome["attacks"][0]["targets"][0]["blue_dice"]
    w.rulings_box["def_dice_minus_base"].value = "total_hits"
    n_total = w.trace.outcome["attacks"][0]["targets"][0]["blue_dice"]
    assert (n_remaining, n_total) == (0, 2)
    assert w.trace.rulings["def_dice_minus_base"] == "total_hits"


def test_every_step_cites_a_section():
    w, _ = combat_page()
    assert w.trace.steps and all(s.rule.section for s in w.trace.steps)
    assert "§" in w.stepper.body.value


def _resolved(name: str):
    g = get_game("galaxydefenders")
    return g.resolve(g.load_builtin(name))


@pytest.mark.parametrize("name", ["gd-01", "gd-book-mark", "gd-04", "gd-book-burrowing-1"])
def test_open_shows_the_scenario_as_explorer_resolve_does(name):
    import html

    from explorer.games.galaxydefenders.game import outcome_text

    w, redraw = get_game("galaxydefenders").open_page("combat", name)
    t = _resolved(name)
    assert w.opened == name and w.trace.outcome == t.outcome
    assert [(s.title, s.detail) for s in w.trace.steps] == [(s.title, s.detail) for s in t.steps]
    assert html.escape(outcome_text(t)) in w.outcome.value      # the same verdict lines as the CLI prints
    a = t.outcome["attacks"][0]
    assert f"<b>{plural(a['targets'][0]['wounds'], 'wound')}</b>" in w.headline.value
    redraw()


def test_open_fills_the_inputs_and_the_tray_from_the_scenario_and_edits_re_resolve():
    from explorer.games.galaxydefenders.views import combat_open

    w, _ = combat_open("gd-book-mark")
    assert (w.attacker_kind.value, w.dice["red"].value, w.target_kind.value, w.health.value) == \
        ("alien", "4", "agent", "7")
    assert (w.mark.value, w.mark_trigger.value, w.critical.value, w.critical_trigger.value) == \
        (2, "bolt", 1, "target_marked")
    hit, blue = _tray(w)
    assert [d.value for _, d in hit] == ["hit", "hit", "hit", "bolt"]       # the file's fixed faces, set by hand
    assert [d.value for _, d in blue] == ["shield", "blank", "hit"]
    wounds = w.trace.outcome["attacks"][0]["targets"][0]["wounds"]
    hit[0][1].value = "wings"                                             # one hit fewer
    assert w.trace.outcome["attacks"][0]["hits"] == _resolved("gd-book-mark").outcome["attacks"][0]["hits"] - 1
    assert w.trace.outcome["attacks"][0]["targets"][0]["wounds"] <= wounds
    w.health.value = "1"                                                  # the target's field reaches the engine
    assert w.trace.outcome["targets"]["Biotech"]["status"] != "alive"


def test_dice_added_to_an_opened_scenario_roll_from_the_seed_shown():
    """gd-book-mark has no seed and fixes its 4 red dice: 5 more red dice must roll from the page's seed (the same
    faces every time the page opens), not from an unseeded roller (the combat page opens on it by default)."""
    faces = set()
    for _ in range(4):
        w, _redraw = get_game("galaxydefenders").open_page("combat", "gd-book-mark")
        w.dice["red"].value = "9"
        step = next(s for s in w.trace.steps if "faces" in s.facts and "bolts" in s.facts)
        faces.add(tuple(map(tuple, step.facts["faces"])))
    assert len(faces) == 1 and len(next(iter(faces))) == 9
