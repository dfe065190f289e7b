"""``explorer tagraid lof TABLE``: every Line of Fire verdict of one shooter on a table file, from the command line.

The table file (:mod:`.table_file`) is read through the loading gate; its ``[rulings]``, ``[range]`` calibration,
``[weapon]`` MODs and ``[threat]`` Threat Levels are the ones used, exactly as the Line of Fire explorer opens the same
file. Bad input is one line naming the file and field (exit code 2), never a traceback.

Sections: Line of Fire and Distances › Line of Fire, Range in Hexagons; MegaBeast › MegaBeast Line of Fire, Threat
Level; Distances and Measurements › Range Ruler; Damage › Partial Cover (each verdict lists the ones it cites).

Examples::

    explorer tagraid lof lof-quarry                    # a packaged table, its own shooter
    explorer tagraid lof my-table.toml --shooter Peeker --json
"""

from __future__ import annotations

from pathlib import Path

import click

from explorer.errors import ScenarioError


def load_any_table(name_or_path: str):
    """A table file by path, or a packaged table by name (``lof-quarry``, ``lof-demo``, ``tr-22``).

    Raises:
        ScenarioError: no such file nor packaged table (lists the packaged names), or an invalid file.
    """
    from .table_file import available_tables, load_packaged_table, load_table

    if not Path(name_or_path).exists() and name_or_path in available_tables():
        return load_packaged_table(name_or_path)
    try:
        return load_table(name_or_path)
    except ScenarioError as e:
        if e.problem.startswith("file not found"):
            from explorer.games import all_games

            owner = next((g for g in all_games() if name_or_path in g.builtin_names()), None)
            if owner is not None:
                raise ScenarioError("", f"is a built-in scenario of {owner.title}, not a table; open it with "
                                    f"'explorer resolve {name_or_path[:80]}'",
                                    "a packaged table (" + ", ".join(available_tables()) + ") or the path of a table "
                                    "file", name_or_path) from None
            raise ScenarioError("", "file not found, and no packaged table is named " + repr(name_or_path)[:80],
                                "a packaged table (" + ", ".join(available_tables()) + ") or the path of a table file",
                                name_or_path) from None
        raise


def lof_report(name_or_path: str, shooter: str | None = None) -> dict:
    """Every verdict of ``shooter`` (default: the file's ``shooter``, else its first Model) as JSON-serialisable data:
    ``{"table", "title", "shooter", "readings", "verdicts": [verdict_to_dict...]}``; ``readings`` are the table's
    readings of every LoF ruling option that applies to the table (its ``[rulings]`` over the defaults;
    ``elevation_own_piece`` only when a Model stands on scenery: :func:`.lof_scenario.lof_ruling_keys`).

    Raises:
        ScenarioError: see :func:`load_any_table`; an unknown ``shooter`` (one line naming the file, the option
            ``--shooter`` and the Models).
    """
    from explorer.errors import naming_source, short_repr

    from .lof_report import verdict_to_dict
    from .lof_analysis import analyse
    from .lof_scenario import lof_ruling_keys, scenario_from_table

    loaded = load_any_table(name_or_path)
    if shooter is not None and shooter not in loaded.table.models:
        raise ScenarioError("--shooter", f"no Model {short_repr(shooter)}", list(loaded.table.models),
                            str(name_or_path))
    with naming_source(str(name_or_path)):   # a refusal while measuring names the file, as one while loading does
        sc = scenario_from_table(loaded, shooter)
        verdicts = analyse(sc.table(), sc.shooter, loaded.rulings, sc.calibration, sc.weapon, sc.threat)
    return {"table": str(name_or_path), "title": loaded.title, "shooter": sc.shooter,
            "readings": {k: loaded.rulings.as_dict().get(k) or loaded.rulings.options[k].default
                         for k in lof_ruling_keys(loaded.table.models.values())},
            "verdicts": [verdict_to_dict(v) for v in verdicts], "_verdicts": verdicts}


@click.command("lof", epilog="\b\nTABLE is a table file (TOML) or a packaged table's name (lof-quarry,\nlof-demo, "
                              "tr-22: `explorer scenarios` lists them).")
@click.argument("table")
@click.option("--shooter", default=None, help="the Model drawing LoF (default: the file's)")
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of text")
def lof(table: str, shooter: str | None, as_json: bool) -> None:
    """Line of Fire, Range, Partial Cover and Threat Level from one shooter to every other Model of a table file."""
    from .lof_report import readings_text, verdict_line

    rep = lof_report(table, shooter)  # a ScenarioError is one line and exit code 2 (explorer.cli.main)
    verdicts = rep.pop("_verdicts")
    if as_json:
        import json   # only for --json: a text answer needs no JSON encoder

        click.echo(json.dumps(rep, indent=2, ensure_ascii=False))
        return
    n = sum(1 for v in verdicts if v.lof.has_lof)
    click.echo(f"{rep['title'] or rep['table']}: {rep['shooter']} has LoF to {n} of {len(verdicts)} Models")
    click.echo(f"Readings: {readings_text(rep['readings'])}")
    for v, d in zip(verdicts, rep["verdicts"]):
        click.echo("  - " + verdict_line(v, rep["shooter"]))
        click.echo("      sections: " + "; ".join(s.split(': ', 1)[-1] for s in d["sections"]))
        click.echo("      readings used: " + readings_text(d["readings"]))
