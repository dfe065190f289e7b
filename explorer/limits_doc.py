"""The field bounds of every file format, read from the pydantic schemas themselves, as the tables of
``docs/limits.md`` ("Every bounded field, by format").

Every number and list of every file format is bounded in its pydantic field (``Field(ge=..., le=..., max_length=...)``,
``Annotated[..., Field(...)]`` on list items and table values). :func:`bounded_fields` walks one format's root model
and lists each bounded field with its bound as the code has it; :func:`render` writes the tables; :data:`FORMATS`
names the root model of every format (a test checks that every model the explorer passes to
:func:`explorer.scenario.validate` is one of them, or a part of one). ``tests/test_limits_doc.py`` checks that the
generated block of ``docs/limits.md`` is exactly :func:`render`'s output, so the page cannot drift from the code
again; after changing a bound, regenerate it:

    python -m explorer.limits_doc --write docs/limits.md

Bounds checked in code rather than in a field (a ``within`` rule's distance, a board's hex count, sums of MODs) are
in the hand-written tables above the generated block. This module imports every game's format modules: it is a
documentation tool, never imported by the command line or the app.
"""

from __future__ import annotations

import argparse
import sys
import types
import typing
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

import annotated_types as at
from pydantic import BaseModel

BEGIN = "<!-- BEGIN generated field bounds (python -m explorer.limits_doc --write docs/limits.md) -->"
END = "<!-- END generated field bounds -->"


@dataclass(frozen=True)
class Format:
    """One file format: its heading in the page, the module and the name of its root pydantic model."""

    heading: str
    module: str
    model: str

    def root(self) -> type[BaseModel]:
        return getattr(import_module(self.module), self.model)


FORMATS: tuple[Format, ...] = (
    Format("TAG Raid roll scenario (no `kind`)", "explorer.games.tagraid.model", "Scenario"),
    Format("TAG Raid table scenario (`kind = \"table\"`)", "explorer.games.tagraid.table_scenario", "_TableRef"),
    Format("TAG Raid table file", "explorer.games.tagraid.table_file", "TableFile"),
    Format("Board file / `[board]` table", "explorer.board", "BoardModel"),
    Format("TAG Raid order file (`kind = \"order\"`)", "explorer.games.tagraid.orders.orderfile", "OrderFile"),
    Format("TAG Raid round file (`kind = \"round\"`)", "explorer.games.tagraid.orders.roundfile", "RoundFile"),
    Format("TAG Raid match file (`kind = \"match\"`)", "explorer.games.tagraid.orders.matchfile", "MatchFile"),
    Format("Mass Effect map file", "explorer.games.masseffect.map_file", "MapModel"),
    Format("Mass Effect map query (`kind = \"query\"`)", "explorer.games.masseffect.query_file", "MapQueryFile"),
    Format("Mass Effect activation (`kind = \"activation\"`)", "explorer.games.masseffect.activation",
           "ActivationScenario"),
    Format("Mass Effect damage (`kind = \"damage\"`)", "explorer.games.masseffect.damage", "DamageScenario"),
    Format("Mass Effect Strategy Pool (`kind = \"strategy\"`)", "explorer.games.masseffect.strategy_scenario",
           "StrategyScenario"),
    Format("Mass Effect round (`kind = \"round\"`)", "explorer.games.masseffect.round", "RoundScenario"),
    Format("Mass Effect unit sheets", "explorer.games.masseffect.sheets", "SheetFile"),
    Format("Galaxy Defenders combat (`kind = \"combat\"`)", "explorer.games.galaxydefenders.combat_file",
           "CombatScenario"),
    Format("Galaxy Defenders calibration", "explorer.games.galaxydefenders.calibration_file", "_CalibrationModel"),
    Format("Galaxy Defenders conditions (`kind = \"conditions\"`)", "explorer.games.galaxydefenders.conditions",
           "ConditionsScenario"),
    Format("Galaxy Defenders activation (`kind = \"activation\"`)", "explorer.games.galaxydefenders.activation",
           "ActivationScenario"),
    Format("Galaxy Defenders menace (`kind = \"menace\"`)", "explorer.games.galaxydefenders.phases",
           "MenaceScenario"),
    Format("Galaxy Defenders close encounter (`kind = \"close_encounter\"`)", "explorer.games.galaxydefenders.phases",
           "CloseEncounterScenario"),
    Format("Galaxy Defenders event (`kind = \"event\"`)", "explorer.games.galaxydefenders.phases", "EventScenario"),
    Format("Galaxy Defenders G.D. Wings (`kind = \"gd_wings\"`)", "explorer.games.galaxydefenders.phases",
           "WingsScenario"),
    Format("Galaxy Defenders healing (`kind = \"healing\"`)", "explorer.games.galaxydefenders.phases",
           "HealingScenario"),
    Format("Galaxy Defenders NPC assignment (`kind = \"npc_assignment\"`)", "explorer.games.galaxydefenders.phases",
           "NpcAssignmentScenario"),
    Format("Galaxy Defenders round (`kind = \"round\"`)", "explorer.games.galaxydefenders.round", "RoundScenario"),
    Format("Galaxy Defenders mission (`kind = \"mission\"`)", "explorer.games.galaxydefenders.missions",
           "MissionScenario"),
    Format("Galaxy Defenders packaged mission data", "explorer.games.galaxydefenders.missions", "MissionsFile"),
    Format("Galaxy Defenders card list (packaged)", "explorer.games.galaxydefenders.cards", "CardList"),
    Format("Galaxy Defenders Fighting Pose tokens (packaged)", "explorer.games.galaxydefenders.poses", "PoseTokens"),
    Format("D.A.G.G.E.R. world map", "explorer.games.dagger.map_file", "MapModel"),
    Format("D.A.G.G.E.R. setup (`kind = \"setup\"`)", "explorer.games.dagger.setup_scenario", "SetupModel"),
    Format("D.A.G.G.E.R. hero phase (`kind = \"hero\"`)", "explorer.games.dagger.hero_scenario", "HeroPartModel"),
    Format("D.A.G.G.E.R. round (`kind = \"round\"`)", "explorer.games.dagger.round_scenario", "RoundPartModel"),
    Format("D.A.G.G.E.R. Nemesis phase (`kind = \"nemesis\"`)", "explorer.games.dagger.nemesis_file",
           "NemesisScenarioModel"),
    Format("D.A.G.G.E.R. Nemesis event (`events[i]` of a Nemesis file)", "explorer.games.dagger.nemesis_file",
           "EventModel"),
)
"""Every file format's root model, in the page's order."""


def _num(x: Any) -> str:
    if isinstance(x, float):
        if x == int(x) and abs(x) < 1e15:
            x = int(x)
        else:
            return repr(x)
    return f"{x:,}" if isinstance(x, int) and abs(x) >= 10_000 else str(x)


def _bound_text(meta: list[Any], is_text: bool, is_container: bool) -> str | None:
    """The bound of one value as ``"0..30"``, ``"> 0 .. 360"``, ``"at most 16 entries"``, ``"1..80 characters"``;
    ``None`` when ``meta`` holds no bound."""
    lo = hi = None
    lo_open = hi_open = False
    min_len = max_len = None
    for m in meta:
        for c in (getattr(m, "metadata", None) or [m]):
            if isinstance(c, at.Ge):
                lo = c.ge
            elif isinstance(c, at.Gt):
                lo, lo_open = c.gt, True
            elif isinstance(c, at.Le):
                hi = c.le
            elif isinstance(c, at.Lt):
                hi, hi_open = c.lt, True
            elif isinstance(c, at.MinLen):
                min_len = c.min_length
            elif isinstance(c, at.MaxLen):
                max_len = c.max_length
            elif isinstance(c, at.Interval):
                lo, hi = c.ge if c.ge is not None else lo, c.le if c.le is not None else hi
    parts = []
    if lo is not None or hi is not None:
        a = "" if lo is None else ("> " if lo_open else "") + _num(lo)
        b = "" if hi is None else ("< " if hi_open else "") + _num(hi)
        if lo is None:
            parts.append(f"at most {b}" if not hi_open else b)
        elif hi is None:
            parts.append(f"at least {a}" if not lo_open else a)
        else:
            parts.append(f"{a} .. {b}" if (lo_open or hi_open) else f"{a}..{b}")
    if min_len is not None or max_len is not None:
        unit = "characters" if is_text else "entries"
        if max_len == 1 and not min_len:
            unit = "character" if is_text else "entry"
        if min_len and max_len is not None:
            parts.append(f"{_num(min_len)}..{_num(max_len)} {unit}")
        elif max_len is not None:
            parts.append(f"at most {_num(max_len)} {unit}")
        elif min_len:
            parts.append(f"at least {_num(min_len)} {unit}")
    return "; ".join(parts) or None


def _unwrap(tp: Any) -> tuple[Any, list[Any]]:
    """``(the type without Annotated, the Annotated metadata)``."""
    meta: list[Any] = []
    while typing.get_origin(tp) is typing.Annotated:
        args = typing.get_args(tp)
        tp, meta = args[0], meta + list(args[1:])
    return tp, meta


def _is_text(tp: Any) -> bool:
    tp, _ = _unwrap(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return any(_is_text(a) for a in typing.get_args(tp) if a is not type(None))
    return tp is str


def _is_container(tp: Any) -> bool:
    tp, _ = _unwrap(tp)
    o = typing.get_origin(tp)
    if o in (typing.Union, types.UnionType):
        return any(_is_container(a) for a in typing.get_args(tp) if a is not type(None))
    return o in (list, tuple, dict, set, frozenset) or tp in (list, dict, tuple)


def _walk_type(tp: Any, path: str, meta: list[Any], out: dict[str, str], seen: tuple,
               listed: dict | None = None) -> None:
    tp, more = _unwrap(tp)
    meta = meta + more
    b = _bound_text(meta, _is_text(tp), _is_container(tp))
    if b is not None:
        prev = out.get(path)
        out[path] = b if prev is None or prev == b else f"{prev}; {b}"
    o = typing.get_origin(tp)
    if o in (typing.Union, types.UnionType):
        for a in typing.get_args(tp):
            if a is not type(None):
                _walk_type(a, path, [], out, seen, listed)
    elif o in (list, set, frozenset) or (o is tuple and len(typing.get_args(tp)) == 2
                                         and typing.get_args(tp)[1] is Ellipsis):
        _walk_type(typing.get_args(tp)[0], f"{path}[i]", [], out, seen, listed)
    elif o is tuple:
        for i, a in enumerate(typing.get_args(tp)):
            _walk_type(a, f"{path}[{i}]", [], out, seen, listed)
    elif o is dict:
        k, v = typing.get_args(tp)
        _walk_type(k, f"{path} (keys)", [], out, seen, listed)
        _walk_type(v, f"{path}.<key>", [], out, seen, listed)
    elif isinstance(tp, type) and issubclass(tp, BaseModel) and tp not in seen:
        if listed is not None and tp in listed:
            if bounded_fields(tp):
                out[f"{path}.*"] = f"as {listed[tp]}"
            return
        if listed is not None:
            listed[tp] = f"`{path}` ({listed['']})"
        _walk_model(tp, path, out, seen + (tp,), listed)


def _walk_model(model: type[BaseModel], prefix: str, out: dict[str, str], seen: tuple,
                listed: dict | None = None) -> None:
    for name, info in model.model_fields.items():
        key = info.alias or name
        path = f"{prefix}.{key}" if prefix else key
        _walk_type(info.annotation, path, list(info.metadata), out, seen, listed)


def bounded_fields(model: type[BaseModel]) -> dict[str, str]:
    """``{dotted field: bound}`` for every field of ``model`` (and of the tables, lists and table values inside it)
    that carries a bound in its schema, in field order. A list's entries are written ``field[i]``, a table's values
    ``field.<key>`` and its keys ``field (keys)``; a bound is ``"lo..hi"`` (``> lo`` / ``< hi`` for strict bounds)
    or a length (``"at most N entries"``, ``"1..80 characters"``)."""
    out: dict[str, str] = {}
    _walk_model(model, "", out, (model,))
    return out


def render() -> str:
    """The generated block of ``docs/limits.md`` (between :data:`BEGIN` and :data:`END`, both included)."""
    lines = [BEGIN, "",
             "Generated from the pydantic schemas by `explorer/limits_doc.py`; `tests/test_limits_doc.py` fails when "
             "this block and the code differ. A list's entries are written `field[i]`, a table's values "
             "`field.<key>`; lengths count characters of a text and entries of a list or table. Checks made in code "
             "rather than in a field (sums, a board's hex count, a rule's needs) are in the tables above. A table "
             "listed once is not repeated: `field.*` \"as `other` (format)\" means the fields under `field` have "
             "the bounds listed under `other` there.", ""]
    listed: dict = {}
    for f in FORMATS:
        listed[""] = f.heading.split(" (")[0]
        fields: dict[str, str] = {}
        _walk_model(f.root(), "", fields, (f.root(),), listed)
        lines += [f"### {f.heading}", "", f"`{f.module}.{f.model}`", "", "| Field | Bound |", "|---|---|"]
        lines += [f"| `{p}` | {b} |" for p, b in fields.items()]
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def splice(page: str, block: str) -> str:
    """``page`` with its generated block replaced by ``block`` (appended when the page has none)."""
    if BEGIN in page and END in page:
        head, rest = page.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        return head + block + tail
    return page.rstrip("\n") + "\n\n" + block + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Print (or write into docs/limits.md) the bounds of every file format.")
    ap.add_argument("--write", metavar="PAGE", help="replace the generated block of PAGE (docs/limits.md)")
    a = ap.parse_args(argv)
    block = render()
    if a.write:
        p = Path(a.write)
        p.write_text(splice(p.read_text(encoding="utf-8"), block), encoding="utf-8")
    else:
        sys.stdout.write(block + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
