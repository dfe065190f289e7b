"""A round file the page refuses loses nothing (session 16; the standard: bad input gets one clear line and loses
nothing): on the three Round pages, a file opened with the Open control while a round is shown at step 5 that is not
TOML, breaks the round format, or parses and is refused by the game when played (Galaxy Defenders: a second Action in
one turn; Mass Effect: a Strategy Roll one face short) leaves the round shown, its step, map, step card, sheets,
Outcome block and link as they were, and says the refusal once, beside Open. The next file that opens clears it.
Before, a file refused while played replaced the round by "No step to show", emptied the map, and said the refusal
three times (under the step, in the Outcome block, in the step card's pointer to it) with "opened NAME" beside Open.
Widget-level (no browser); the browser checks are in tests/browser/test_round_pages.py."""

from __future__ import annotations

import html
import re
from datetime import datetime, timezone

import pytest

from explorer.games import get_game

GD_BAD = ('{ kind = "action", what = "Deploy an EMP-Nuke Bomb" }]',
          '{ kind = "action", what = "Deploy an EMP-Nuke Bomb" }, { kind = "action", what = "again" }]')
ME_BAD = ('rolls = [["move_2", "standard", "enhanced"]]', 'rolls = [["move_2", "standard"]]')

# page, game, the round shown, a good file's built-in, the refused-when-played edit (None: the game refuses no
# file while playing it: D.A.G.G.E.R. stops a play at its refusal and shows the steps up to it, as dg-slot-full)
PAGES = [
    ("explorer.games.galaxydefenders.round_views", "galaxydefenders", "gd-round-mission-3", "gd-round-map", GD_BAD),
    ("explorer.games.masseffect.round_views", "masseffect", "me-round-2", "me-round-1", ME_BAD),
    ("explorer.games.dagger.round_views", "dagger", "dg-two-rounds", "dg-five-rounds", None),
]


def _page(module: str, game_id: str, sid: str):
    import importlib

    return importlib.import_module(module).RoundStepper(sid, get_game(game_id))


def _upload(w, text: str, name: str) -> None:
    data = text.encode("utf-8")
    w.upload.value = ({"name": name, "type": "application/toml", "size": len(data), "content": memoryview(data),
                       "last_modified": datetime(2026, 12, 3, tzinfo=timezone.utc)},)


def _widgets(w) -> list:
    """The page's widgets (its children, theirs, ...) but the Open control and the message beside it."""
    seen, todo = {}, [w]
    while todo:
        x = todo.pop()
        if id(x) not in seen:
            seen[id(x)] = x
            todo.extend(getattr(x, "children", ()) or ())
    return [x for x in seen.values() if x is not w.file_message and x is not w.upload]


def _shown(w) -> dict:
    """Everything the page shows or holds of its round (every widget's value but the Open control's message)."""
    values = {}
    for i, x in enumerate(_widgets(w)):
        for t in ("value", "options", "max", "disabled"):
            if x.has_trait(t):
                values[(i, t)] = getattr(x, t)
    return {"position": w.position, "n": len(w.positions), "trace": w.trace, "scenario": w.scenario,
            "url": w.url_state(), "widgets": values, "map": w.map.value, "focus": w.focus.value,
            "note": w.note.value}


def _text(v: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", v))


def _refused_files(game_id: str, sid: str, bad) -> list[tuple[str, str, str]]:
    """(kind, file name, text): a syntax error, a schema error, and the game's own play refusal (when it has one)."""
    text = get_game(game_id).scenario_text(sid)
    files = [("syntax", "syntax.toml", text.replace("kind = \"round\"", "kind = \"round", 1)),
             ("schema", "schema.toml", text.replace("kind = \"round\"", "kind = \"round\"\nturn_limit = 3", 1))]
    if bad is not None:
        assert text.count(bad[0]) == 1
        files.append(("refused", "refused.toml", text.replace(*bad)))
    return files


@pytest.mark.parametrize("module,game_id,sid,good,bad", PAGES, ids=[p[1] for p in PAGES])
def test_a_refused_file_keeps_the_round_its_step_map_and_link_and_says_so_once_beside_open(module, game_id, sid,
                                                                                            good, bad):
    w = _page(module, game_id, sid)
    links = []
    w.on_state_change(lambda: links.append(w.url_state()))
    w.go(+4)
    assert w.position == 5 and w.map.value and not w.message.value
    for kind, name, text in _refused_files(game_id, sid, bad):
        before, n_links = _shown(w), len(links)
        _upload(w, text, name)
        said = _text(w.file_message.value)
        assert said.startswith(f"{name}: ") and "\n" not in said and "opened" not in said, (kind, said)
        assert _shown(w) == before, kind                  # the round, its step, map, sheets, Outcome, link
        assert len(links) == n_links, kind                # the link was not rewritten
        page_text = "".join(_text(x.value) for x in _widgets(w) if x.has_trait("value")
                            and isinstance(x.value, str))
        assert name not in page_text, kind                # said once: only beside Open
        w.go(+1)                                          # the round shown still steps
        assert w.position == 6 and links[-1]["step"] == 6
        w.go(-1)
    _upload(w, get_game(game_id).scenario_text(good), "good.toml")
    assert _text(w.file_message.value) == "opened good.toml" and w.position == 1
    assert w.url_state()["name"] == "good.toml" and w.positions


@pytest.mark.parametrize("module,game_id,sid,good,bad", [p for p in PAGES if p[4]], ids=[p[1] for p in PAGES if p[4]])
def test_a_link_to_a_refused_file_is_refused_and_keeps_the_page(module, game_id, sid, good, bad):
    from explorer.errors import ScenarioError

    w = _page(module, game_id, sid)
    w.go(+4)
    before = _shown(w)
    text = get_game(game_id).scenario_text(sid).replace(*bad)
    with pytest.raises(ScenarioError) as e:
        w.load_url_state({"file": text, "name": "linked.toml", "step": 3})
    assert "linked.toml" in str(e.value) and "\n" not in str(e.value)
    assert _shown(w) == before


def test_dagger_a_play_that_raises_keeps_the_page_too(monkeypatch):
    """D.A.G.G.E.R.'s engine stops a refused play and shows the steps up to it (no file of the format makes its play
    raise): a play that raises all the same (here made to) keeps the page, its gauges and its forecast as they were."""
    import explorer.games.dagger.round_views as V
    from explorer.errors import RuleViolation

    w = _page("explorer.games.dagger.round_views", "dagger", "dg-two-rounds")
    w.go(+4)
    before = _shown(w)

    def refuse(*a, **k):
        raise RuleViolation("Hero A's defy slot already holds a token", "Gameplay › Hero Phase", field="slot")

    monkeypatch.setattr(V, "play_rounds", refuse)
    _upload(w, get_game("dagger").scenario_text("dg-five-rounds"), "three.toml")
    said = _text(w.file_message.value)
    assert said.startswith("three.toml: ") and "defy slot" in said, said
    assert _shown(w) == before and w.gauges.value


def test_dagger_a_play_stopped_at_a_refusal_opens_with_its_steps():
    """What `explorer resolve` prints as an outcome (a play stopped at a "Not allowed" step) opens, as the built-in
    dg-slot-full shows: the steps up to the refusal, the refusal under the step."""
    w = _page("explorer.games.dagger.round_views", "dagger", "dg-two-rounds")
    w.go(+4)
    _upload(w, get_game("dagger").scenario_text("dg-slot-full"), "slot.toml")
    assert _text(w.file_message.value) == "opened slot.toml" and w.position == 1 and len(w.positions) > 1
    assert "Not allowed: slot.toml: round 2, turn 6" in _text(w.message.value)
