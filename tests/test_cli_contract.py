"""The command line on click (explorer/cli.py): every verb is where it was, usage errors are one line naming the
command's --help, a group without a command prints its help, Ctrl-C is 130, the hidden alias works, and no command's
--help imports pydantic or another game's command line."""

from __future__ import annotations

import pytest

from explorer import cli
from explorer.cli import main
from explorer.games import game_ids, get_game
from cli_helpers import modules_after


def _one_line(capsys, argv) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 2, (code, out)
    assert out.err.endswith("\n") and out.err.count("\n") == 1 and "Traceback" not in out.err, out.err
    return out.err.strip()


@pytest.mark.parametrize("argv, words, command", [
    (["tagraid", "odds", "--bogus"], "No such option '--bogus'", "explorer tagraid odds"),
    (["odds", "--burst-a"], "'--burst-a' requires an argument", None),
    (["resolve"], "Missing argument 'SCENARIO'", "explorer resolve"),
    (["resolve", "tr-02", "--seed", "-1"], "Invalid value for '--seed'", "explorer resolve"),
    (["serve", "--port", "abc"], "Invalid value for '--port'", "explorer serve"),
    (["nope"], "No such command 'nope'", "explorer"),
    (["tagraid", "nope"], "No such command 'nope'", "explorer tagraid"),
    (["dagger", "forecast", "dg-01", "--phases", "x"], "Invalid value for '--phases'", "explorer dagger forecast"),
    (["rules", "--game"], "'--game' requires an argument", None),
    (["rules", "--bogus"], "No such option '--bogus'", "explorer rules"),
])
def test_a_usage_error_is_one_line_naming_the_commands_help(capsys, argv, words, command):
    line = _one_line(capsys, argv)
    assert line.startswith("error: ") and words in line, line
    if command:
        assert line.endswith(f"(see '{command} --help')"), line


@pytest.mark.parametrize("argv, usage", [([], "Usage: explorer [OPTIONS] COMMAND"),
                                         (["tagraid"], "Usage: explorer tagraid [OPTIONS] COMMAND")])
def test_a_group_without_a_command_prints_its_help_on_stderr(capsys, argv, usage):
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith(usage) and "Commands:" in out.err


def test_every_verb_is_listed_and_the_alias_is_hidden_but_works(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == [*cli.TOP_LEVEL, *game_ids()]
    assert "odds" not in listed
    assert main(["odds", "--help"]) == 0
    help_ = capsys.readouterr().out
    assert help_.startswith("Usage: explorer odds [OPTIONS]") and "Same as `explorer tagraid odds`." in help_
    assert "--burst-a" in help_ and "[default: N]" in help_
    args = ["--burst-a", "2", "--sv-a", "13", "--burst-b", "1", "--sv-b", "12", "--json"]
    assert main(["odds", *args]) == 0
    alias = capsys.readouterr().out
    assert main(["tagraid", "odds", *args]) == 0
    assert capsys.readouterr().out == alias


def test_the_listing_of_explorer_help_is_each_commands_own_short_help_at_every_width():
    """``explorer --help`` lists the commands from ``cli.SUMMARIES`` without building them: each summary gives the
    short help click makes from the built command's own help, at every width a terminal can give."""
    import click

    group = cli.build()
    ctx = click.Context(group)
    names = [n for n in group.list_commands(ctx) if n not in cli.ALIASES]
    assert sorted(names) == sorted(cli.SUMMARIES)
    for name in names:
        built = group.get_command(ctx, name)
        assert not built.hidden and not built.deprecated and built.short_help is None, name
        for limit in range(0, 260):
            assert (click.Command(name, help=cli.SUMMARIES[name]).get_short_help_str(limit)
                    == built.get_short_help_str(limit)), (name, limit)


@pytest.mark.parametrize("width", [40, 60, 79, 80, 120])
def test_explorer_help_lists_as_click_does(monkeypatch, width):
    """The same ``explorer --help`` as click's own listing (which builds every command), at several widths."""
    import click

    def text(group):
        with click.Context(group, info_name=cli.PROG_NAME, terminal_width=width) as ctx:
            return group.get_help(ctx)

    mine = text(cli.build())
    monkeypatch.setattr(cli.ExplorerCLI, "format_commands", click.Group.format_commands)
    assert mine == text(cli.build()) and "dagger " in mine


def test_explorer_help_builds_no_command():
    rc, mods = modules_after(["--help"])
    assert rc == 0
    assert sorted(m for m in mods if m.startswith("explorer.")) == [
        "explorer.cli", "explorer.errors", "explorer.games", "explorer.options"]


def test_each_games_cli_is_a_click_group_named_after_the_game():
    import click

    for gid in game_ids():
        g = get_game(gid)
        if g.cli is not None:
            group = g.cli()
            assert isinstance(group, click.Group) and group.help and group.list_commands(None), gid


def test_ctrl_c_exits_130(capsys, monkeypatch):
    import explorer.games

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(explorer.games, "load_any", interrupted)
    assert main(["resolve", "tr-02"]) == 130


def test_an_explorer_error_from_a_callback_is_one_line_naming_the_option(capsys):
    line = _one_line(capsys, ["masseffect", "strategy-odds", "--pool", "99"])
    assert line.startswith("error: field '--pool': 99 is out of range (allowed: a whole number from 1 to 12)"), line
    line = _one_line(capsys, ["dagger", "forecast", "dg-01", "--phases", "9"])
    assert line == "error: field '--phases': 9 is out of range (allowed: 1..5 Nemesis Phases)", line
    line = _one_line(capsys, ["rules", "--game", "chess"])
    assert line == ("error: field '--game': unknown game 'chess' (allowed: one of "
                    + ", ".join(repr(g) for g in game_ids()) + ")"), line


HEAVY = ("pydantic", "explorer.scenario", "shapely", "networkx", "numpy", "ipywidgets", "panel", "bokeh", "typer",
         "rich")


HELPS = [["--help"], ["resolve", "--help"], ["scenarios", "--help"], ["rulings", "--help"], ["serve", "--help"],
         ["render", "--help"], ["rules", "--help"], ["odds", "--help"], ["tagraid", "odds", "--help"],
         ["tagraid", "lof", "--help"],
         ["masseffect", "strategy-odds", "--help"], ["galaxydefenders", "odds", "--help"],
         ["dagger", "forecast", "--help"]]


@pytest.mark.parametrize("argv", HELPS, ids=" ".join)
def test_help_imports_nothing_heavy(argv):
    rc, mods = modules_after(argv)
    assert rc == 0
    assert sorted(m for m in mods if any(m == h or m.startswith(h + ".") for h in HEAVY)) == []
    # the odds engines run only in a command's callback
    assert "explorer.games.tagraid.odds" not in mods and "explorer.games.galaxydefenders.odds" not in mods


def test_resolve_imports_no_games_command_line():
    rc, mods = modules_after(["resolve", "tr-02"])
    assert rc == 0
    clis = sorted(m for m in mods if m.startswith("explorer.games.") and m.rsplit(".", 1)[-1].startswith("cli"))
    assert clis == [] and "explorer.cli_serve" not in mods and "explorer.cli_render" not in mods
    rc, mods = modules_after(["tagraid", "odds", "--burst-a", "3", "--sv-a", "13", "--burst-b", "1", "--sv-b", "12"])
    assert rc == 0 and not any(m.startswith("explorer.games.masseffect") or m.startswith("explorer.games.dagger")
                               for m in mods)
