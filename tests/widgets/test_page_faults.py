"""Page faults of issue 23 item 4, each for its whole kind, without a browser (the browser checks are in
tests/browser/test_page_faults_browser.py): messages without a ``widget:`` prefix, Accordion arrows without an icon font,
labels that fit their buttons, no emoji on any page, "Roll again" explained when dice are kept."""

from __future__ import annotations

import re
from pathlib import Path

import ipywidgets as W
import pytest

from explorer.errors import PAGE_SOURCE, ScenarioError
from explorer.games import all_games
from explorer.widgets.icons import ICON_STYLE_CLASS
from explorer.widgets.labels import label_px

ROOT = Path(__file__).resolve().parents[2]


def _walk(w, seen=None):
    seen = set() if seen is None else seen
    if id(w) in seen:
        return
    seen.add(id(w))
    yield w
    for c in getattr(w, "children", ()) or ():
        yield from _walk(c, seen)


@pytest.fixture(scope="module")
def page_trees():
    """``{route: [every widget of the page's tree]}`` for every page of every game, opened on its defaults."""
    out = {}
    for g in all_games():
        for p in g.pages:
            widget, _redraw = g.open_page(p.slug, None)
            out[f"{g.id}-{p.slug}"] = list(_walk(widget))
    return out


def test_page_messages_have_no_source_prefix_but_files_keep_theirs():
    e = ScenarioError("a.mod", "'zz' is not a whole number", "-12 to 12", PAGE_SOURCE)
    assert str(e) == "field 'a.mod': 'zz' is not a whole number (allowed: -12 to 12)" and e.source == PAGE_SOURCE
    assert str(ScenarioError("a.mod", "bad", None, "x.toml")).startswith("x.toml: field 'a.mod'")


def test_no_page_module_writes_a_widget_prefix_by_hand():
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in (ROOT / "explorer").rglob("*.py")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if '"widget: ' in line
            or "'widget: " in line or '[f"widget: ' in line]
    assert hits == []


def test_every_accordion_of_every_page_draws_its_arrows_without_an_icon_font(page_trees):
    with_accordion = 0
    for route, tree in page_trees.items():
        if any(isinstance(w, W.Accordion) for w in tree):
            with_accordion += 1
            styles = [w for w in tree if isinstance(w, W.HTML) and ICON_STYLE_CLASS in w._dom_classes]
            assert styles and "font-family:inherit" in styles[0].value and "content:\"\"" in styles[0].value, route
    assert with_accordion >= 5   # ME map, activation and strategy, GD combat, D.A.G.G.E.R.


def test_every_toggle_button_label_fits_its_button(page_trees):
    checked = 0
    for route, tree in page_trees.items():
        for w in tree:
            if isinstance(w, W.ToggleButtons):
                width = int(str(w.style.button_width).removesuffix("px"))
                for label in w._options_labels:
                    checked += 1
                    assert label_px(label) <= width, (route, label, width)
    assert checked >= 30   # the d20 faces, the map modes, the Strategy faces, the LoF and Orders pickers


def test_the_d20_face_buttons_hold_two_digits():
    from explorer.widgets.dice_tray import DiceTray

    tray = DiceTray()
    assert "20" in tray.face_buttons._options_labels
    assert int(tray.face_buttons.style.button_width.removesuffix("px")) >= label_px("20") > 30


EMOJI = re.compile("[\U0001F000-\U0001FAFF\uFE0F]")   # emoji; ✓ ✗ ◀ ▶ are text glyphs of DejaVu Sans


def test_no_page_draws_an_emoji():
    """An emoji needs an emoji font (an empty box without one): the Strategy Pool's lock is drawn with paths."""
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()[:60]}" for p in (ROOT / "explorer").rglob("*.py")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if EMOJI.search(line) and not line.lstrip().startswith("#")]
    assert hits == []


def test_galaxydefenders_roll_again_with_every_die_set_by_hand_says_why_nothing_changed():
    from explorer.games.galaxydefenders.views import CombatExplorer

    w = CombatExplorer(seed=3)
    w.roll_button.click()
    assert w.tray_msg.value == ""                       # nothing kept: the new faces show for themselves
    hit = [c.children[1] for c in w.hit_tray.children if hasattr(c, "children")]
    hit[0].value = "hit"
    w.roll_button.click()
    assert "rolled again" in w.tray_msg.value and "the die set by hand keeps its face" in w.tray_msg.value
    for dd in [c.children[1] for c in w.hit_tray.children if hasattr(c, "children")]:
        dd.value = "hit"
    for dd in [c.children[1] for c in w.blue_tray.children if hasattr(c, "children")]:
        dd.value = "shield"
    before = w.trace.steps
    w.roll_button.click()
    assert w.trace.steps == before
    assert "every die is set by hand, so a new seed rolls nothing" in w.tray_msg.value
    assert "Clear hand-set faces" in w.tray_msg.value
    w.dice["red"].value = "2"                           # any other change clears the note
    assert w.tray_msg.value == ""


def test_strategy_pool_roll_again_with_every_face_typed_says_why_nothing_changed():
    from explorer.games.masseffect.strategy_views import StrategyPoolExplorer

    w = StrategyPoolExplorer()
    w.first.value, w.rerolls.value = "", ""
    w.roll_button.click()
    assert w.seed_msg.value == ""
    w.first.value = "std, m2, m3, enh, m2, std"
    w.rerolls.value = ""
    before = w.trace.result
    w.roll_button.click()
    assert w.trace.result == before
    assert "every die is typed by hand, so a new seed rolls nothing" in w.seed_msg.value


PICKER_PAGES = [("masseffect", "mission-map", "map"), ("masseffect", "enemy-activation", "scenario"),
                ("galaxydefenders", "ai", "scenario"), ("dagger", "nemesis-phase", "scenario"),
                ("masseffect", "round", "scenario"), ("dagger", "round", "scenario")]


@pytest.mark.parametrize("game_id,slug,key", PICKER_PAGES)
def test_a_picked_scenario_or_map_and_its_readings_are_in_the_link_and_reopen(game_id, slug, key):
    from explorer.games import get_game
    from explorer.serving.url_state import has_url_state
    from explorer.urlstate import decode_state, encode_state

    g = get_game(game_id)
    w, _ = g.open_page(slug, None)
    assert has_url_state(w)
    written = []
    w.on_state_change(lambda: written.append(encode_state(w.url_state())))
    picker = next(x for x in _walk(w) if isinstance(x, W.Dropdown) and x.description in ("Scenario", "Map"))
    other = next(v for v in picker._options_values if v != picker.value)
    picker.value = other
    assert written and decode_state(written[-1])[key] == other            # the pick reached the link
    state = w.url_state()
    rulings = state.get("rulings", {})
    if rulings:                                                           # a reading changed reaches it too
        k = next(iter(rulings))
        box = next(x for x in _walk(w) if isinstance(x, W.Dropdown) and x.description == k)
        reading = next(v for v in box._options_values if v != box.value)
        box.value = reading
        assert decode_state(written[-1])["rulings"][k] == reading
    fresh, _ = g.open_page(slug, None)                                    # a copied link reopens the same page
    fresh.load_url_state(decode_state(written[-1]))
    assert fresh.url_state() == w.url_state()
    with pytest.raises(ScenarioError) as e:
        fresh.load_url_state({key: "no-such-thing"})
    assert e.value.field == key and e.value.source == "link"
    with pytest.raises(ScenarioError) as e:
        fresh.load_url_state({key: other, "rulings": {"no_such_ruling": "x"}})
    assert e.value.field == "rulings.no_such_ruling"


def test_dagger_forecast_never_counts_a_step_the_scenario_does_not_model_as_a_loss():
    """dg-01 plays step 1 only and lists no event card: its page said 'No loss condition reached' beside 'Loss
    probability 100%' (the forecast played step 3 on the file's empty list). A scenario whose loss is the empty deck
    (dg-loss-no-event plays the whole phase) keeps its 100%."""
    from explorer.games import get_game

    g = get_game("dagger")
    w, _ = g.open_page("nemesis-phase", "dg-01")
    assert "100%" not in w.forecast.value and "not computed" in w.forecast.value
    assert "stops after step 1. Advance Threat" in w.forecast.value
    w.picker.value = "dg-loss-no-event"
    assert "100%" in w.forecast.value and "no event card to draw" in w.forecast.value


def test_face_to_face_lists_every_bad_field_not_only_the_latest():
    from explorer.games.tagraid.views import FaceToFaceExplorer

    w = FaceToFaceExplorer()
    w.form_a.dice.value = "zz"                 # a bad dice text, then a bad input elsewhere: both listed
    w.form_a.attribute.value = "x"
    w.seed.value = "-3"
    text = w.message.value
    assert "dice A" in text and "A.Attribute" in text and "seed" in text and "widget:" not in text
    w.form_a.attribute.value = "12"            # a fixed field leaves the list; the seed stays (the dice text is
    msg = w.message.value                      # rewritten with the faces in use, so its error goes with it)
    assert "Attribute" not in msg and "seed" in msg and "dice A" not in msg
    w.seed.value = "4"
    assert "xf-msg-error" not in w.message.value


def test_line_of_fire_settings_refusals_sit_under_their_fields_all_of_them():
    from explorer.games.tagraid.lof_views import LofExplorer

    w = LofExplorer()
    before = w.verdict_html.value
    w.mod_inputs["short"].value = "zz"
    w.cal_inputs["long"].value = "-1"
    assert "weapon.short" in w.settings_msgs["mods"].value and "zz" in w.settings_msgs["mods"].value
    assert "range_calibration.long" in w.settings_msgs["ruler"].value
    assert "2 settings not accepted" in w.message.value and "previous settings" in w.message.value
    assert w.verdict_html.value == before
    w.mod_inputs["short"].value = "+2"
    w.cal_inputs["long"].value = "7"
    assert w.settings_msgs["mods"].value == w.settings_msgs["ruler"].value == "" and w.message.value == ""


@pytest.mark.parametrize("game_id,slug", [("galaxydefenders", "combat"), ("masseffect", "strategy-pool")])
def test_a_form_pages_inputs_are_in_the_link_and_reopen(game_id, slug):
    """The two pages without a picker keep every input in the link (Galaxy Defenders' hand-set dice too)."""
    from explorer.games import get_game
    from explorer.serving.url_state import has_url_state
    from explorer.urlstate import decode_state, encode_state

    g = get_game(game_id)
    w, _ = g.open_page(slug, None)
    assert has_url_state(w)
    written = []
    w.on_state_change(lambda: written.append(encode_state(w.url_state())))
    w.seed.value = "41"
    if game_id == "galaxydefenders":
        w.dice["red"].value = "2"
        dd = next(c.children[1] for c in w.hit_tray.children if hasattr(c, "children"))
        dd.value = "hit"
    else:
        w.first.value = "std, m2, m3, enh, m2, std"
    state = decode_state(written[-1])
    assert state["fields"]["seed"] == "41"
    fresh, _ = g.open_page(slug, None)
    fresh.load_url_state(state)
    assert fresh.url_state() == w.url_state()
    assert fresh.trace.steps == w.trace.steps                     # the same resolution, step by step
    with pytest.raises(ScenarioError) as e:
        fresh.load_url_state({"fields": {"seed": 3}})
    assert e.value.field == "fields.seed" and e.value.source == "link"
    with pytest.raises(ScenarioError) as e:
        fresh.load_url_state({"fields": {"nope": "1"}})
    assert e.value.field == "fields.nope"
