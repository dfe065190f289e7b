"""Plain roll files are read with exact dice (issue #25 item 4, issue 22): the Roll page's Download writes exactly the
Saving Roll faces rolled, and a roll file with spare save_dice (written by an older Download) still opens, its trace
ending with a one-line warning naming the field."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.tagraid.model import parse_scenario
from explorer.games.tagraid.resolve import resolve

G = get_game("tagraid")


def _text(name: str) -> str:
    return (resources.files("explorer.games.tagraid") / "scenarios" / f"{name}.toml").read_text(encoding="utf-8")


def _spare(name: str = "tr-02") -> str:
    text = _text(name)
    line = next(ln for ln in text.splitlines() if ln.startswith("save_dice = ["))
    return text.replace(line, line[:-1] + ", 7]")


def test_old_file_with_spare_save_faces_opens_with_a_warning():
    sc = G.parse_data(tomllib.loads(_spare()), "old.toml")
    t = G.resolve(sc)
    last = t.steps[-1]
    assert last.title.startswith("Warning: field 'reactive[0].save_dice'") and "never rolled" in last.title
    assert "\n" not in last.title
    # the outcome is the one the file without its spare face gives
    assert t.outcome == G.resolve(G.parse_data(tomllib.loads(_text("tr-02")), "new.toml")).outcome
    assert not any(s.title.startswith("Warning") for s in G.resolve(G.load_builtin("tr-02")).steps)


def test_other_dice_faults_are_still_refused():
    """Too few Saving Roll faces, or spare attack dice, are refused as before (only spare save_dice are allowed)."""
    text = _text("tr-02")
    line = next(ln for ln in text.splitlines() if ln.startswith("save_dice = ["))
    short = text.replace(line, "save_dice = [" + line.split("[", 1)[1].split(",")[0] + "]")
    with pytest.raises(ScenarioError, match="save_dice"):
        G.resolve(G.parse_data(tomllib.loads(short), "short.toml"))


def _download(w) -> dict:
    return tomllib.loads(w.to_toml())


def test_roll_page_download_writes_exactly_the_saving_roll_faces_rolled():
    """The two-Miner form keeps a pool of Saving Roll dice to flip; the Download writes only those rolled, and the
    file it writes resolves under exact dice to the page's own outcome."""
    from explorer.games.tagraid.views import explorer_for_scenario

    w = explorer_for_scenario("tr-02")
    doc = _download(w)
    sc = parse_scenario({k: v for k, v in doc.items() if k not in ("game", "kind")}, "download.toml")
    t = resolve(sc, exact_dice=True)
    assert t.outcome == w.resolution.trace.outcome
    used = sum(len(sr.dice) for sr in w.resolution.saving_rolls)
    given = len(doc["active"].get("save_dice", [])) + sum(len(r.get("save_dice", [])) for r in doc.get("reactive", []))
    assert given == used and len(w._dice["SA"]) + len(w._dice["SB"]) > used  # the pool had spare faces


def test_exchange_download_drops_faces_no_longer_rolled():
    """On a whole exchange, a die set so that a Miner no longer makes its Saving Roll leaves no stale save_dice."""
    from explorer.games.tagraid.views import _with_dice
    from explorer.games.tagraid.resolve import resolve_detailed

    doc = tomllib.loads(_text("tr-02"))
    doc.pop("game", None)
    doc.pop("kind", None)
    doc["active"]["attacks"][0]["dice"] = [20, 20, 20]  # every attack die fails: B makes no Saving Roll
    res = resolve_detailed(parse_scenario(doc, "x.toml"), None, {})
    out = _with_dice(doc, res)
    assert "save_dice" not in out["reactive"][0]
    assert not any(x.id.startswith("B.s") for sr in res.saving_rolls for x in sr.dice)
