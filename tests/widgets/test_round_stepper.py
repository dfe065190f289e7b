"""The shared Round page body (explorer/widgets/round_stepper.py) on both Round pages (Mass Effect, D.A.G.G.E.R.):
the one rule for which state a step shows (explorer.kernel.steps_shown), the step in the link, Download / Open of the
round file, and bad uploads and links refused in one line with the page kept."""

import base64
import html
import re
from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.kernel import Frame, steps_shown
from explorer.trace import RuleRef, Step
from explorer.scenario import read_toml
from explorer.urlstate import decode_state, encode_state

PAGES = [("masseffect", "me-round-2", "me"), ("dagger", "dg-team-up", "dg")]


def _step(title):
    return Step(title, RuleRef("Demo", "Counting"))


@given(st.lists(st.integers(0, 4), min_size=1, max_size=8))
def test_a_step_shows_the_state_after_it_at_its_frames_last_step_else_the_state_the_frame_found(sizes):
    frames = [Frame(f"f{i}", i, tuple(_step(f"{i}.{j}") for j in range(n))) for i, n in enumerate(sizes)]
    shown = steps_shown(frames)
    assert [s.step for s in shown] == [s for f in frames for s in f.steps]
    number = 0
    for i, f in enumerate(frames):
        for j, _s in enumerate(f.steps):
            at = shown[number]
            number += 1
            last = j == len(f.steps) - 1
            assert at.frame == i and at.settled == last and at.shown == (i if last else i - 1)
            assert shown[at.last - 1].frame == i and shown[at.last - 1].settled   # "its changes show at step n"
            assert (at.note(f.name) == "") == last
            if not last:
                assert at.note(f.name) == f"the state as {f.name} found it: its changes show at step {at.last}"


def _open(game_id, name):
    return get_game(game_id).open_page("round", name)[0]


@pytest.mark.parametrize("game_id,name,css", PAGES)
def test_both_round_pages_say_which_state_a_step_shows(game_id, name, css):
    w = _open(game_id, name)
    for number, pos in enumerate(w.positions, 1):
        w.slider.value = number
        if pos.settled:
            assert "Shown:" not in w.focus.value
        else:
            assert f"Shown: {html.escape(pos.note)}." in w.focus.value and "found it" in pos.note


@pytest.mark.parametrize("game_id,name,css", PAGES)
def test_the_step_and_the_scenario_are_in_the_link_and_reopen(game_id, name, css):
    w = _open(game_id, name)
    written = []
    w.on_state_change(lambda: written.append(encode_state(w.url_state())))
    w.go(+5)
    assert decode_state(written[-1])["step"] == 6 and decode_state(written[-1])["scenario"] == name
    fresh = _open(game_id, None)
    fresh.load_url_state(decode_state(written[-1]))
    assert fresh.position == 6 and fresh.focus.value == w.focus.value and fresh.url_state() == w.url_state()
    fresh.load_url_state({"scenario": name, "step": 10_000})                  # clamped to the last step
    assert fresh.position == len(fresh.positions)


@pytest.mark.parametrize("game_id,name,css", PAGES)
@pytest.mark.parametrize("bad,field", [({"step": 0}, "step"), ({"step": "3"}, "step"), ({"step": True}, "step"),
                                       ({"scenario": "nope"}, "scenario"), ({"where": 1}, "where"),
                                       ({"file": 3}, "file"), ({"file": "kind = 'round'\nx = ["}, ""),
                                       ({"rulings": {"nope": "x"}}, "rulings.nope")])
def test_a_bad_link_is_named_in_one_line_and_the_page_keeps_what_it_shows(game_id, name, css, bad, field):
    w = _open(game_id, name)
    w.go(+3)
    before = (w.url_state(), w.focus.value)
    with pytest.raises(ScenarioError) as e:
        w.load_url_state(bad)
    assert "\n" not in str(e.value) and (not field or e.value.field == field)
    assert (w.url_state(), w.focus.value) == before


@pytest.mark.parametrize("game_id,name,css", PAGES)
def test_download_gives_the_round_file_and_opening_it_plays_the_same(game_id, name, css):
    g = get_game(game_id)
    w = _open(game_id, name)
    link = w.download.value
    assert f"download='{name}.toml'" in link and f"{css}-round-download-link" in link
    text = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1)).decode()
    assert text == g.scenario_text(name)
    other = _open(game_id, None)
    other.open_text(text, "mine.toml")
    assert other.scenario_id is None and other.picker.value is None
    assert other.note.scenario_id == "mine.toml" and "File <b><code>mine.toml</code></b>" in other.note.value
    assert html.escape(g.builtin_verdict(name)[1]) in other.note.value   # the file's Outcome block, its verdict
    assert [p.step for p in other.positions] == [p.step for p in w.positions]
    assert "download='mine.toml'" in other.download.value
    state = other.url_state()                                           # the opened file travels in the link
    assert state["file"] == text and state["name"] == "mine.toml" and "scenario" not in state
    again = _open(game_id, None)
    again.load_url_state(decode_state(encode_state({**state, "step": 4})))
    assert again.position == 4 and again.file_text == text
    other.picker.value = name                                           # back to a built-in from the picker
    assert other.scenario_id == name and "scenario" in other.url_state()


@pytest.mark.parametrize("game_id,name,css", PAGES)
@pytest.mark.parametrize("text,words", [("kind = 'round'\ntitle = [", "mine.toml"),
                                        ("kind = 'nemesis'\n", "mine.toml"),
                                        ("kind = 'round'\ntitle = 'x'\n", "mine.toml"),
                                        ("", "mine.toml: field &#x27;game&#x27;: the file is empty"),   # s. 14
                                        ("# only a comment\n", "the file is empty"),
                                        ("\ufeffkind = 'round'\ntitle = 'x'\n", "mine.toml: field ")])  # BOM
def test_a_bad_upload_gives_the_one_line_error_beside_the_field_and_keeps_the_page(game_id, name, css, text, words):
    w = _open(game_id, name)
    w.go(+2)
    before = (w.url_state(), w.focus.value, w.download.value)
    w.upload.value = ({"name": "mine.toml", "type": "", "size": len(text), "content": text.encode(),
                       "last_modified": datetime.now(timezone.utc)},)
    msg = w.file_message.value
    assert words in msg and "#922b21" in msg and "<br" not in msg
    assert (w.url_state(), w.focus.value, w.download.value) == before
    good = get_game(game_id).scenario_text(name)
    w.upload.value = ({"name": "good.toml", "type": "", "size": len(good), "content": good.encode(),
                       "last_modified": datetime.now(timezone.utc)},)
    assert "opened good.toml" in w.file_message.value and w.scenario_id is None and w.position == 1


@pytest.mark.parametrize("game_id,name,css", PAGES + [("galaxydefenders", "gd-round-map", "gd")])
def test_an_opened_file_shows_its_outcome_block_as_explorer_resolve_prints_it(game_id, name, css):
    g = get_game(game_id)
    w = _open(game_id, name)
    text = re.sub(r"(?m)^title = .*$", 'title = "My own round"', g.scenario_text(name), count=1)
    w.go(+2)
    w.open_text(text, "mine.toml")
    parsed = g.parse_data(read_toml("mine.toml", text=text), "mine.toml")
    want = g.verdict(parsed)
    assert want and want == g.builtin_verdict(name)[1]                   # only the title differs from the built-in
    assert w.note.scenario_id == "mine.toml" and not w.note.changed
    assert "File <b><code>mine.toml</code></b>: My own round" in w.note.value
    assert f">{html.escape(want)}</pre>" in w.note.value
    first = next(k for k, d in w.rulings_box.items() if len(d.options) > 1)    # a reading changed: the note says so
    old = w.rulings_box[first].value
    w.rulings_box[first].value = next(o for o in w.rulings_box[first].options if o != old)
    assert w.note.changed and "scenario-note-changed" in w.note.value
    w.rulings_box[first].value = old
    assert not w.note.changed
    again = _open(game_id, name)                                         # the link of the opened file: the same block
    again.load_url_state(decode_state(encode_state(w.url_state())))
    assert again.note.value == w.note.value
    w.open_text(text.replace("My own round", "Another"), "mine.toml")    # the same name again: opened afresh
    assert "Another" in w.note.value and not w.note.changed


def test_a_file_the_rules_refuse_shows_the_refusal_in_its_outcome_block():
    w = _open("dagger", "dg-team-up")

    class Refusing:
        outcome_text = None

        def verdict(self, _parsed):
            raise ScenarioError("turns", "is refused", ["x"], "mine.toml")

    w.game, game = Refusing(), w.game
    try:
        assert w.file_verdict(("round", None)).startswith("Refused: ") and "mine.toml" in w.file_verdict(None)
    finally:
        w.game = game


def test_a_refusal_while_playing_an_opened_file_names_the_file_on_the_page_as_the_cli_does(tmp_path, capsys):
    """Issue #25 item 5 on the Round pages: a round file that loads but is refused while it is played (fixed Strategy
    Roll dice for more rounds than the roll lasts; found by a fuzz of uploads) named no file on the page, while
    ``explorer resolve`` names it: the page's play and verdict go through the same gate (naming_source)."""
    from explorer.cli import main

    g = get_game("masseffect")
    text = g.scenario_text("me-round-2")
    bad = text.replace('["standard", "core"], ["move_2"]]', '["standard", "core"], ["move_2"], ["core"], ["core"]]', 1)
    assert bad != text
    w = _open("masseffect", "me-round-2")
    words = "field 'turns[0].roll.rolls': 5 rounds of fixed dice given"
    with pytest.raises(ScenarioError) as e:     # the Open control says it, beside itself (session 16)
        w.open_text(bad, "mine.toml")
    assert str(e.value).startswith(f"mine.toml: {words}")
    assert w.file_name == "me-round-2.toml" and not w.message.value   # the page keeps the round it showed
    path = tmp_path / "mine.toml"
    path.write_text(bad, encoding="utf-8")
    assert main(["resolve", str(path)]) == 2
    assert f"{path}: {words}" in capsys.readouterr().err


def test_the_phone_order_rules_are_the_phone_width_and_name_classes_the_page_carries():
    """On a phone the step card comes right under the step bar and the Outcome after the page body
    (:data:`ROUND_PHONE_CSS`; the browser test measures it): the rule's width is the phone rules' and every class it
    names is on the page."""
    from explorer.games import get_game
    from explorer.games.dagger.round_views import RoundStepper
    from explorer.serving.phone import PHONE_MAX_WIDTH
    from explorer.widgets.round_stepper import PHONE_ORDER_MAX_WIDTH, ROUND_PHONE_CSS

    assert PHONE_ORDER_MAX_WIDTH == PHONE_MAX_WIDTH
    import ipywidgets as W

    game = get_game("dagger")
    w = RoundStepper([s.name for s in game.scenarios() if s.kind == "round"][0], game)
    assert "xr-round-page" in w._dom_classes
    assert any(isinstance(c, W.HTML) and c.value == ROUND_PHONE_CSS for c in w.children)
    top, files, note, main = w.children[:4]
    assert "xr-round-files" in files._dom_classes and "xr-round-main" in main._dom_classes
    assert "xr-round-focus" in w.focus._dom_classes
    assert {"xr-round-side", "xr-round-left"} <= {k for c in main.children for k in c._dom_classes}
    for cls in ("xr-round-page", "xr-round-main", "xr-round-files", "xr-round-side", "xr-round-focus",
                "xr-round-left", "xr-round-about", "scenario-note"):
        assert "." + cls in ROUND_PHONE_CSS


def test_a_file_refused_while_it_is_played_keeps_the_scenario_before_it():
    """Session 15 (issue 19, the Round page driven with me-round-bag-returned's [[bag]] removed): the file loads,
    then its play raises (two Minions in the Enemy Bag, no draw declared). The page kept showing the previous
    scenario's step under the new file's name; session 15 showed "No step to show" instead, losing the round shown.
    Session 16: the file is refused (the Open control says why, naming it) and the page keeps the round it showed,
    its step, map, step list and link; the next scenario opened plays as before."""
    g = get_game("masseffect")
    text = g.scenario_text("me-round-bag-returned")
    bad = re.sub(r'(?m)^\[\[bag\]\]\nreturned = "Husk B".*\n', "", text)
    assert bad != text
    w = _open("masseffect", "me-round-bag-returned")
    w.go(+5)
    assert w.position == 6 and w.positions
    shown = (w.focus.value, w.map.value, w.trace_list.value, w.counter.value, w.url_state(), len(w.positions))
    with pytest.raises(ScenarioError, match=r"^nobag.toml: field 'bag\[0\]'"):
        w.open_text(bad, "nobag.toml")
    assert (w.focus.value, w.map.value, w.trace_list.value, w.counter.value, w.url_state(), len(w.positions)) == shown
    assert w.position == 6 and not w.message.value and not w.next_button.disabled
    w.load("me-round-bag-returned")
    assert w.positions and w.position == 1 and "STEP 1 OF" in w.focus.value.upper() and w.message.value == ""
