"""`explorer rulings` lists every ruling option with its readings and default."""

import json

from explorer.cli import main
from explorer.games.tagraid.options import ALL_OPTIONS


def test_rulings_text_lists_every_option_and_marks_default(capsys):
    assert main(["rulings"]) == 0
    out = capsys.readouterr().out
    for o in ALL_OPTIONS:
        assert f"{o.key}: {o.title}" in out
        assert f"* {o.default}" in out
        for name in o.readings:
            assert name in out


def test_rulings_json_round_trips(capsys):
    assert main(["rulings", "--json"]) == 0
    data = [d for d in json.loads(capsys.readouterr().out) if d["game"] == "tagraid"]
    assert [d["key"] for d in data] == [o.key for o in ALL_OPTIONS]
    assert len({d["key"] for d in data}) == len(data)
    assert all(d["default"] in d["readings"] and len(d["readings"]) >= 2 for d in data)
