"""Round files: ``kind = "round"`` TAG Raid scenarios — a shareable game record of one Game Round, like a PGN.

Sections: Game Sequence › Game Round (Events Phase, Players Phase in Timeline order, End of the Round); MegaBeast ›
Deployment and Movement Type; MegaBeast Events and MegaBeast's Behavior; Victory Conditions; and, for every Order,
those of :mod:`.sequence`. The file holds the initial table and the declarations; the Round is replayed from them
(:func:`.round.play_round`), so a record never stores a computed state.

Format (TOML): the table keys of an order file (:mod:`.orderfile`: ``board``, ``movement_segment``, ``timeline``,
``[rulings]``, ``[[miners]]``, ``[[access_points]]``, ``seed``), then::

    kind = "round"
    round = 1                            # optional: the Round's number
    t_bezoar = { blue = 1 }              # optional: T-Bezoar Units each player holds already (a tie-break)
    [megabeast]                          # optional: as in an order file; without `hex` it is not on the table yet
    id = "Stoorworm"; wounds = 10; behavior = { front = 8, adjacent = 5, opposite = 2 }   # and deploys on its symbol
    [[events]]                           # the Event deck, top card first (effects are text: not executed)
    name = "Electromagnetic storm"; effect = "..."; megabeast_symbol = true
    megabeast_event = "The Stoorworm emerges."; behavior = { front = 8, adjacent = 5, opposite = 2 }  # optional
    [deployment]                         # the MegaBeast's deployment, by the last player in the Timeline
    hex = "2,1"; facing = 210.0
    [[orders]]                           # the Orders of the Players Phase, in play order
    active = "A"; move = { route = ["1,0"] }; second = { skill = "idle" }; aros = [...]   # an order file's [order]
    dice = { rolls = { A = [4] }, saves = {}, respawn = [] }   # optional fixed dice (an order file's [dice])
    seed = 5                             # optional: dice not given are rolled from it (default: file seed + index);
                                         # an Order's own seed fixes its dice (``--seed`` leaves it)

Each ``[[orders]]`` entry is parsed by the order file's own reader (:func:`.orderfile.order_declarations`): one
parser for an Order, in either file. Errors: a one-line :class:`~explorer.errors.ScenarioError` naming the file and
field (``orders[2].move.route[0]``, ``events[1].behavior.front``, ``deployment.hex``) and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from explorer.board import parse_hex_key
from explorer.errors import ScenarioError
from explorer.scenario import toml_key, validate
from explorer.schema import Strict
from explorer.trace import Trace

from ..model import MAX_DESCRIPTION, MAX_TITLE, Name
from ..outcomes import RoundOutcome
from ..table_file import board_from_ref
from .orderfile import (MAX_MINERS, BehaviorEntry, DiceEntry, HexKey, MegaBeastEntry, OrderEntry, TableFields,
                        errors_name, behavior_card, megabeast_state, order_declarations, table_state)
from .round import (EventCard, MegaBeastDeployment, RoundDeclarations, RoundFrame, RoundState, play_round,
                    round_trace, start_round_state)

MAX_EVENTS = 40
"""Event cards in a round file's deck."""
MAX_ROUND_ORDERS = 32
"""Orders in one Round (a TAG has 2 Orders; a table has a handful of Miners)."""
MAX_EVENT_TEXT = MAX_DESCRIPTION
"""Characters of an Event's or MegaBeast Event's described effect."""
Units = Annotated[int, Field(ge=0, le=99)]


class RoundMegaBeastEntry(MegaBeastEntry):
    hex: HexKey | None = None


class EventEntry(Strict):
    name: Name
    effect: str = Field(default="", max_length=MAX_EVENT_TEXT)
    megabeast_symbol: bool = False
    megabeast_event: str = Field(default="", max_length=MAX_EVENT_TEXT)
    behavior: BehaviorEntry | None = None


class DeploymentEntry(Strict):
    hex: HexKey
    facing: float = Field(ge=-3600.0, le=3600.0, allow_inf_nan=False)


class RoundOrderEntry(OrderEntry):
    dice: DiceEntry = Field(default_factory=DiceEntry)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)


class RoundFile(TableFields):
    kind: Literal["round"]
    title: str = Field(default="Round", max_length=MAX_TITLE)
    round: int = Field(default=1, ge=1, le=99)
    t_bezoar: dict[Name, Units] = Field(default_factory=dict, max_length=MAX_MINERS)
    megabeast: RoundMegaBeastEntry | None = None
    events: list[EventEntry] = Field(default_factory=list, max_length=MAX_EVENTS)
    deployment: DeploymentEntry | None = None
    orders: list[RoundOrderEntry] = Field(default_factory=list, max_length=MAX_ROUND_ORDERS)


@dataclass(frozen=True)
class RoundScenario:
    """A parsed round file: the Round's initial :class:`.round.RoundState`, its declarations, texts and the file's
    Order entries as written (for the stepper's download)."""

    title: str
    description: str
    initial: RoundState
    declarations: RoundDeclarations
    source: str = ""
    kind: ClassVar[str] = "round"
    """The scenario kind (:data:`explorer.games.tagraid.game.KINDS`)."""


def parse_round(data: Mapping[str, Any], source: str) -> RoundScenario:
    """Validate a round file (a dict, e.g. parsed TOML).

    Raises:
        ScenarioError: naming the field and what is allowed: the table's errors (as in an order file), a
            ``t_bezoar`` or Timeline side no Miner plays, a deployment without a MegaBeast waiting for it, or a
            malformed hexagon key in an Order. Declarations the rules refuse are reported when the Round is played
            (:func:`resolve_round`).
    """
    doc = validate(RoundFile, data, source)
    board = board_from_ref(doc.board, source)
    mb, waiting = None, None
    if doc.megabeast is not None:
        e = doc.megabeast
        if e.hex is None:
            waiting = megabeast_state(e, (0.0, 0.0))
        else:
            mb = megabeast_state(e, board.layout.hex_to_pixel(parse_hex_key(e.hex, "megabeast.hex", source)))
    if waiting is not None and doc.megabeast.id in {m.id for m in doc.miners}:
        raise ScenarioError("megabeast.id", f"the id {doc.megabeast.id!r} is a Miner's", "a name no Miner has", source)
    table = table_state(doc, board, mb, source)
    sides = set(table.timeline)
    for k in doc.t_bezoar:
        if k not in sides:
            raise ScenarioError(f"t_bezoar.{toml_key(k)}", f"{k!r} is not a side of this table", sorted(sides), source)
    dep = None
    if doc.deployment is not None:
        if waiting is None:
            raise ScenarioError("deployment", "there is no MegaBeast waiting to be deployed",
                                "a [megabeast] without hex (it deploys on its Event symbol), or no [deployment]",
                                source)
        x, y = board.layout.hex_to_pixel(parse_hex_key(doc.deployment.hex, "deployment.hex", source))
        dep = MegaBeastDeployment(x, y, doc.deployment.facing)
    deck = tuple(EventCard(e.name, e.effect, e.megabeast_symbol, e.megabeast_event,
                           behavior_card(e.behavior) if e.behavior is not None else None) for e in doc.events)
    orders = []
    for i, o in enumerate(doc.orders):
        seed = o.seed if o.seed is not None else (doc.seed + i) % 2**63
        od, dice = order_declarations(board, o, o.dice, seed, f"orders[{i}]", source)
        orders.append((od, replace(dice, own_seed=o.seed is not None, derived=o.seed is None)))
    rs = replace(start_round_state(table, deck, waiting, tuple(sorted(doc.t_bezoar.items()))), round=doc.round)
    return RoundScenario(doc.title, doc.description, rs, RoundDeclarations(tuple(orders), dep), source)


def with_rulings(scenario: RoundScenario, rulings: Mapping[str, str] | None,
                 seed: int | None = None) -> RoundScenario:
    """The scenario with ``rulings`` over the file's and, when ``seed`` is given, every Order's dice not fixed by the
    file rolled from ``seed + index`` (an Order that writes its own ``seed`` keeps it: its dice are fixed by it)."""
    rs, decl = scenario.initial, scenario.declarations
    if rulings:
        t = rs.table
        rs = replace(rs, table=replace(t, rulings=tuple(sorted({**dict(t.rulings), **dict(rulings)}.items()))))
    if seed is not None:
        decl = replace(decl, orders=tuple((od, d if d.own_seed else replace(d, seed=(seed + i) % 2**63, derived=True))
                                          for i, (od, d) in enumerate(decl.orders)))
    return replace(scenario, initial=rs, declarations=decl)


def play_scenario(scenario: RoundScenario) -> tuple[RoundFrame, ...]:
    """Replay the whole Round; a refusal is raised naming the file (``scenario.source``).

    Raises:
        RuleViolation: a declaration the rules refuse (field as in the file, reason, section).
    """
    with errors_name(scenario.source or scenario.title):
        return play_round(scenario.initial, scenario.declarations)


def resolve_round(scenario: RoundScenario, rulings: Mapping[str, str] | None = None,
                  seed: int | None = None, reroll: bool = False) -> Trace:
    """Play the whole Round and return its cited Trace (:func:`.round.round_trace`; sections by Round step, then
    Player Turn, Order and sequence step). ``rulings`` override the file's; ``seed`` re-rolls the dice not given;
    ``reroll`` ignores every Order's fixed dice.

    Raises:
        RuleViolation: a declaration the rules refuse (names the file, the field, the reason and the section).
    """
    if reroll:
        d = scenario.declarations
        scenario = replace(scenario, declarations=replace(d, orders=tuple(
            (od, replace(dice, rolls=(), saves=(), respawn=(), own_seed=False, rerolled=True))
            for od, dice in d.orders)))
    sc = with_rulings(scenario, rulings, seed)
    frames = play_scenario(sc)
    t = round_trace(sc.title, frames)
    t.rulings = {**dict(sc.initial.table.rulings), **dict(frames[-1].state.consulted)}
    return t


def round_outcome_text(o: RoundOutcome) -> str:
    """The plain-text summary of a played Round (``trace.result`` of :func:`resolve_round`):
    :meth:`.outcomes.RoundOutcome.text`."""
    return o.text()
