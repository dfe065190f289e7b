"""Table scenarios (``kind = "table"``): one shooter's Line of Fire verdicts on a table file, as a cited trace.

This is how ``explorer resolve`` (and ``explorer render``, the docs) answer a table question such as the handed case
TR-22: the same verdicts as the Line of Fire explorer and ``explorer tagraid lof``, one trace step per target.

Sections (each step cites the ones its verdict used): Line of Fire and Distances › Line of Fire, Range in Hexagons;
Distances and Measurements › Range Ruler; Damage › Partial Cover; MegaBeast › MegaBeast Line of Fire, Threat Level.

A table scenario is either

* a table file itself (``board`` and ``models``, no ``kind``: see :mod:`.table_file`), or
* a small file naming a packaged table::

      game = "tagraid"
      kind = "table"
      table = "tr-22"          # a packaged table (explorer/games/tagraid/tables/)
      shooter = "A"            # optional: overrides the table's shooter
      targets = ["B"]          # optional: resolve the shooter's Face to Face Roll against these (see below)
      [rulings]                # optional: overrides the table's readings
      lof_grazing = "grazing_clear"

With ``targets`` (in the file, or ``explorer resolve TABLE --shooter A --target B``) the answer is not the Line of
Fire verdicts but the roll exchange the board decides (:mod:`.board_roll`): the shooter attacks its targets (its Burst
split over them), every enemy Miner with LoF to it reacts, the board facts are the first cited steps, and the one roll
resolver does the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from explorer.errors import ScenarioError, short_repr
from explorer.scenario import validate
from explorer.schema import ScenarioHeader
from explorer.trace import Trace

from .lof_report import band_words  # noqa: F401  (re-exported: it lived here)
from .outcomes import TableOutcome

if TYPE_CHECKING:  # the table modules pull in shapely and networkx: imported when a table is actually read
    from .table_file import LoadedTable


class _TableRef(ScenarioHeader):
    """A ``kind = "table"`` document naming a packaged table (the header's ``title`` and ``description``)."""

    game: Literal["tagraid"] = "tagraid"
    kind: Literal["table"] = "table"
    table: str = Field(..., max_length=80)
    shooter: str | None = Field(None, max_length=80)
    targets: list[Annotated[str, Field(max_length=80)]] = Field(default_factory=list, max_length=8)
    rulings: dict[str, str] = Field(default_factory=dict, max_length=64)


@dataclass(frozen=True)
class TableScenario:
    """A loaded table and the shooter whose verdicts are asked.

    Attributes:
        loaded: the table file, loaded (:class:`.table_file.LoadedTable`).
        shooter: the Model drawing Line of Fire (the table's ``shooter``, else its first Model).
        name: the table's packaged name or file name (for titles and messages).
        title, description: texts shown above the trace.
        rulings: readings the scenario sets over the table file's own ``[rulings]``.
    """

    loaded: "LoadedTable"
    shooter: str
    name: str
    title: str = ""
    description: str = ""
    rulings: tuple[tuple[str, str], ...] = ()
    targets: tuple[str, ...] = ()
    """Targets of the shooter's attack: when given, :func:`resolve_table` resolves the roll exchange the board
    decides (:func:`.board_roll.board_roll`) instead of listing the Line of Fire verdicts."""
    kind: ClassVar[str] = "table"
    """The scenario kind (:data:`explorer.games.tagraid.game.KINDS`)."""

    def with_question(self, shooter: str | None = None, targets: tuple[str, ...] | list[str] = ()) -> "TableScenario":
        """This scenario asking about ``shooter`` (default: its own) attacking ``targets`` (default: its own).

        Raises:
            ScenarioError: an unknown shooter (lists the Models)."""
        from dataclasses import replace

        sid = shooter or self.shooter
        if sid not in self.loaded.table.models:
            raise ScenarioError("--shooter", f"no Model {short_repr(sid)}", list(self.loaded.table.models), self.name)
        for t in targets:
            if t not in self.loaded.table.models or t == sid:
                raise ScenarioError("--target", f"no target {short_repr(t)}",
                                    [m for m in self.loaded.table.models if m != sid], self.name)
        return replace(self, shooter=sid, targets=tuple(targets) or self.targets)


def is_table_document(data: Mapping[str, Any]) -> bool:
    """Whether a TAG Raid TOML document without ``kind`` is a table file (it has ``models`` and no roll-scenario
    ``active`` Miner)."""
    return "models" in data and "active" not in data


def parse_table(data: Mapping[str, Any], source: str) -> TableScenario:
    """A :class:`TableScenario` from a ``kind = "table"`` document (naming a packaged table) or a table file's data.

    Raises:
        ScenarioError: an unknown packaged table (lists them), an invalid table, an unknown shooter (lists the
            Models), or an unknown field.
    """
    from .table_file import available_tables, load_packaged_table, table_from_dict

    targets: tuple[str, ...] = ()
    if "table" in data:
        ref = validate(_TableRef, data, source)
        if ref.table not in available_tables():
            raise ScenarioError("table", f"no packaged table {short_repr(ref.table)}", available_tables(), source)
        loaded = load_packaged_table(ref.table)
        name, title, desc, shooter = ref.table, ref.title, ref.description, ref.shooter
        targets = tuple(ref.targets)
        over = tuple(sorted(ref.rulings.items()))
        probe = loaded.rulings.copy()
        for k, r in over:
            try:
                probe.set(k, r)
            except ScenarioError as e:
                raise ScenarioError(e.field, e.problem, e.allowed, source) from None
    else:
        loaded = table_from_dict({k: v for k, v in data.items() if k not in ("game", "kind")}, source)
        name, title, desc, shooter, over = source, loaded.title, loaded.description, None, ()
    models = list(loaded.table.models)
    sid = shooter or loaded.shooter or (models[0] if models else None)
    if sid is None:
        from .lof_scenario import NO_MODELS

        raise ScenarioError("models", NO_MODELS, "at least one [[models]] entry", source)
    if sid not in loaded.table.models:
        raise ScenarioError("shooter", f"no Model {short_repr(sid)}", models, source)
    if loaded.table.board is None:
        raise ScenarioError("board", "the table has no board", "a table file with a board", source)
    for t in targets:
        if t not in loaded.table.models or t == sid:
            raise ScenarioError("targets", f"no target {short_repr(t)}", [m for m in models if m != sid], source)
    return TableScenario(loaded, sid, name, title or loaded.title, desc or loaded.description, over, targets)


def resolve_table(scenario: TableScenario, rulings: Mapping[str, str] | None = None,
                  seed: int | None = None, reroll: bool = False) -> Trace:
    """Every Line of Fire verdict of the scenario's shooter, one step per target, each citing the sections it used.

    Readings: the table file's ``[rulings]``, then the scenario's, then ``rulings`` (each overriding the one
    before). ``seed`` is the seed of the roll exchange asked with ``targets`` (unused otherwise: no dice are rolled);
    ``reroll`` is accepted for the uniform surface (a table scenario fixes no dice).

    Returns:
        a :class:`~explorer.trace.Trace` whose ``result`` is a :class:`.outcomes.TableOutcome` (its JSON
        ``outcome``: ``{"table", "shooter", "has_lof": [ids], "verdicts": [verdict_to_dict...], "readings"}``,
        distances in hex units); with ``targets``, the roll exchange's trace.

    Raises:
        ScenarioError: an unknown ruling option or reading.
    """
    from .lof_analysis import analyse
    from .lof_report import verdict_line

    lt = scenario.loaded
    rul = lt.rulings.copy()
    for k, r in list(scenario.rulings) + list((rulings or {}).items()):
        try:
            rul.set(k, r)
        except ScenarioError as e:
            raise ScenarioError(e.field, e.problem, e.allowed, scenario.name) from None
    # a table without [weapon] / [threat] is read with the same stand-ins as the Line of Fire explorer and
    # `explorer tagraid lof` (board_roll's defaults), so every reader of one file gives one verdict
    weapon, threat = _weapon_and_threat(lt)
    if scenario.targets:
        from .board_roll import board_roll, resolve_board_roll

        br = board_roll(lt.table, scenario.shooter, scenario.targets, rulings=rul, weapon=weapon, threat=threat,
                        calibration=lt.range_calibration, seed=1 if seed is None else seed)
        # the same readings reach the roll exchange (sv_above_20, split_burst_without_lof...), not only the geometry
        return resolve_board_roll(br, rul.as_dict()).trace
    verdicts = analyse(lt.table, scenario.shooter, rul, lt.range_calibration, weapon, threat)
    trace = Trace(scenario.title or f"Line of Fire from {scenario.shooter} on {scenario.name}")
    for v in verdicts:
        words = verdict_line(v, scenario.shooter)
        trace.add(f"{scenario.shooter} → {words}", v.lof.rule, "; ".join(v.rules[1:]),
                  section="Line of Fire", marks=(scenario.shooter, v.target), target=v.target,
                  has_lof=v.lof.has_lof, reason=v.lof.reason)
        if v.range is not None and v.range.distance is not None:
            trace.add(f"Range Ruler to {v.target}: {v.range.shown(3):.3f} hex units, {band_words(v.band)}",
                      v.range.rule, v.range.how(), section="Range", marks=(v.target,), target=v.target,
                      distance=v.range.shown(4), band=v.band)
    trace.rulings = dict(sorted(rul.consulted.items()))
    return trace.with_result(TableOutcome(scenario.name, scenario.shooter, tuple(verdicts),
                                          tuple(trace.rulings.items())))


def _weapon_and_threat(lt):
    """The table's ``[weapon]`` Range MODs and ``[threat]`` Threat Levels, or the documented stand-ins the Line of
    Fire explorer uses when the file gives none (``ranges.DEFAULT_WEAPON_RANGES``, ``megabeast.DEFAULT_THREAT_LEVELS``)."""
    from .megabeast import DEFAULT_THREAT_LEVELS
    from .ranges import DEFAULT_WEAPON_RANGES

    return lt.weapon or DEFAULT_WEAPON_RANGES, lt.threat or DEFAULT_THREAT_LEVELS


def outcome_text(trace: Trace) -> str:
    """``"Outcome: A has LoF to 1 of 1 Models"`` then one line per target (band and distance):
    :meth:`.outcomes.TableOutcome.text` of ``trace.result``."""
    return trace.result.text()
