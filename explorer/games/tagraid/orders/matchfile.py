"""Match files: ``kind = "match"`` TAG Raid scenarios — a whole match as one replayable record, like a PGN.

Sections: Setting Up the Match (06 Initial Deployment); Game Sequence › Initial Deployment, Game Round; Victory
Conditions; and, for every Round and Order, those of :mod:`.round` and :mod:`.sequence`. The file holds the table,
the Miner cards, the Initial Deployment and every Round's declarations; the match is replayed from them
(:func:`.match.play_match`), so a record never stores a computed state.

Format (TOML): the table keys of a round file (:mod:`.roundfile`: ``board``, ``timeline``, ``[rulings]``,
``[[miners]]``, ``[[access_points]]`` (required), ``[megabeast]`` without ``hex``, ``[[events]]``, ``t_bezoar``,
``seed``...), except that a Miner's ``hex`` / ``x``, ``y`` is where it is *deployed* (optional for a TAG: it then
stands on its Access Point), then::

    kind = "match"
    [initial_deployment]                 # optional: the d20 faces each player rolls for their Access Point
    rolls = { blue = [3], red = [3, 1] } # (a taken Access Point is rolled again); faces not given: rolled from seed
    [[rounds]]                           # the Rounds, in play order
    deployment = { hex = "2,1", facing = 210.0 }   # optional: the MegaBeast's, on its Event symbol
    [[rounds.orders]]                    # as a round file's [[orders]]
    active = "A"; second = { skill = "idle" }

Errors: a one-line :class:`~explorer.errors.ScenarioError` naming the file and field (``rounds[1].orders[0].active``,
``initial_deployment.rolls.blue``, ``miners[2].hex``) and what is allowed; a declaration the rules refuse is a
:class:`~explorer.errors.RuleViolation` naming the field.
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

from ..model import MAX_TITLE, Name
from ..table_file import board_from_ref
from .deployment import DeploymentDeclarations, Placement
from .match import MatchContext, MatchDeclarations, MatchState, match_trace, play_match
from .orderfile import MAX_MINERS, behavior_card, errors_name, megabeast_state, order_declarations, table_state
from .round import EventCard, MegaBeastDeployment, RoundDeclarations
from .roundfile import (MAX_EVENTS, MAX_ROUND_ORDERS, DeploymentEntry, EventEntry, RoundMegaBeastEntry,
                        RoundOrderEntry, Units)
from .orderfile import TableFields

MAX_ROUNDS = 20
"""Rounds in one match record (a match usually lasts at most 10)."""
MAX_DEPLOYMENT_FACES = 40
"""d20 faces given for one player's Initial Deployment."""
MAX_MATCH_ORDERS = 160
"""Orders in all the Rounds of one match record (10 Rounds of a full table), so that a record replays in seconds."""
Face = Annotated[int, Field(ge=1, le=20)]


class InitialDeploymentEntry(Strict):
    rolls: dict[Name, Annotated[list[Face], Field(max_length=MAX_DEPLOYMENT_FACES)]] = Field(
        default_factory=dict, max_length=MAX_MINERS)


class RoundEntry(Strict):
    deployment: DeploymentEntry | None = None
    orders: list[RoundOrderEntry] = Field(default_factory=list, max_length=MAX_ROUND_ORDERS)


class MatchFile(TableFields):
    kind: Literal["match"]
    title: str = Field(default="Match", max_length=MAX_TITLE)
    t_bezoar: dict[Name, Units] = Field(default_factory=dict, max_length=MAX_MINERS)
    megabeast: RoundMegaBeastEntry | None = None
    events: list[EventEntry] = Field(default_factory=list, max_length=MAX_EVENTS)
    initial_deployment: InitialDeploymentEntry = Field(default_factory=InitialDeploymentEntry)
    rounds: list[RoundEntry] = Field(default_factory=list, max_length=MAX_ROUNDS)


@dataclass(frozen=True)
class MatchScenario:
    """A parsed match file: the table before Initial Deployment (every Miner off it), the match's context
    (declarations, Event deck, waiting MegaBeast, seed) and texts."""

    title: str
    description: str
    table: Any
    context: MatchContext
    source: str = ""
    kind: ClassVar[str] = "match"
    """The scenario kind (:data:`explorer.games.tagraid.game.KINDS`)."""


def parse_match(data: Mapping[str, Any], source: str) -> MatchScenario:
    """Validate a match file (a dict, e.g. parsed TOML).

    Raises:
        ScenarioError: naming the field and what is allowed: the table's errors (as in an order file), a placed
            MegaBeast (it deploys on its Event symbol), a side in ``initial_deployment.rolls`` or ``t_bezoar`` no
            Miner plays, a Round's MegaBeast deployment without a MegaBeast, or a malformed hexagon key in an Order.
            Declarations the rules refuse are reported when the match is played (:func:`resolve_match`).
    """
    doc = validate(MatchFile, data, source)
    board = board_from_ref(doc.board, source)
    waiting = None
    if doc.megabeast is not None:
        if doc.megabeast.hex is not None:
            raise ScenarioError("megabeast.hex", "in a match the MegaBeast is not on the table at the start",
                                "no hex: it is deployed the first time its symbol appears on an Event card", source)
        if doc.megabeast.id in {m.id for m in doc.miners}:
            raise ScenarioError("megabeast.id", f"the id {doc.megabeast.id!r} is a Miner's", "a name no Miner has",
                                source)
        waiting = megabeast_state(doc.megabeast, (0.0, 0.0))
    if not doc.access_points:
        raise ScenarioError("access_points", "a match needs the Access Points the players roll for at Initial "
                            "Deployment", "[[access_points]] entries (number, hex or x/y)", source)
    table = table_state(doc, board, None, source, deploying=True)
    sides = set(table.timeline)
    for k in doc.t_bezoar:
        if k not in sides:
            raise ScenarioError(f"t_bezoar.{toml_key(k)}", f"{k!r} is not a side of this table", sorted(sides), source)
    for k in doc.initial_deployment.rolls:
        if k not in sides:
            raise ScenarioError(f"initial_deployment.rolls.{toml_key(k)}", f"{k!r} is not a side of this table", sorted(sides),
                                source)
    placements, fields = [], []
    for i, (e, m) in enumerate(zip(doc.miners, sorted(table.miners, key=lambda m: [x.id for x in doc.miners]
                                                      .index(m.id)))):
        if e.hex is not None or e.x is not None:
            placements.append(Placement(m.id, m.x, m.y, m.facing))
            fields.append((m.id, f"miners[{i}]." + ("hex" if e.hex is not None else "x")))
        else:
            fields.append((m.id, f"miners[{i}]"))
    dep = DeploymentDeclarations(tuple(placements), tuple((k, tuple(v)) for k, v in
                                                          doc.initial_deployment.rolls.items()), tuple(fields))
    total = sum(len(r.orders) for r in doc.rounds)
    if total > MAX_MATCH_ORDERS:
        raise ScenarioError("rounds", f"{total} Orders in all", f"at most {MAX_MATCH_ORDERS} Orders in a match record",
                            source)
    rounds = []
    for k, r in enumerate(doc.rounds):
        mbdep = None
        if r.deployment is not None:
            if waiting is None:
                raise ScenarioError(f"rounds[{k}].deployment", "there is no MegaBeast to deploy",
                                    "a [megabeast] entry, or no deployment", source)
            x, y = board.layout.hex_to_pixel(parse_hex_key(r.deployment.hex, f"rounds[{k}].deployment.hex", source))
            mbdep = MegaBeastDeployment(x, y, r.deployment.facing)
        orders = []
        for i, o in enumerate(r.orders):
            seed = o.seed if o.seed is not None else (doc.seed + 100 * (k + 1) + i) % 2**63
            od, dice = order_declarations(board, o, o.dice, seed, f"rounds[{k}].orders[{i}]", source)
            orders.append((od, replace(dice, own_seed=o.seed is not None, derived=o.seed is None)))
        rounds.append(RoundDeclarations(tuple(orders), mbdep))
    deck = tuple(EventCard(e.name, e.effect, e.megabeast_symbol, e.megabeast_event,
                           behavior_card(e.behavior) if e.behavior is not None else None) for e in doc.events)
    ctx = MatchContext(declarations=MatchDeclarations(dep, tuple(rounds)), seed=doc.seed, deck=deck,
                       waiting_megabeast=waiting, t_bezoar=tuple(sorted(doc.t_bezoar.items())))
    return MatchScenario(doc.title, doc.description, table, ctx, source)


def with_rulings(scenario: MatchScenario, rulings: Mapping[str, str] | None, seed: int | None = None,
                 reroll: bool = False) -> MatchScenario:
    """The scenario with ``rulings`` over the file's; ``seed``: the deployment dice and every Order's dice not fixed
    by the file rolled from it; ``reroll``: every fixed die dropped."""
    table, ctx = scenario.table, scenario.context
    if rulings:
        table = replace(table, rulings=tuple(sorted({**dict(table.rulings), **dict(rulings)}.items())))
    decl = ctx.declarations
    if reroll:
        decl = replace(decl, deployment=replace(decl.deployment, rolls=()), rounds=tuple(
            replace(r, orders=tuple((od, replace(d, rolls=(), saves=(), respawn=(), own_seed=False, rerolled=True))
                                    for od, d in r.orders))
            for r in decl.rounds))
    if reroll:
        ctx = replace(ctx, rerolled=True)
    if seed is not None:
        decl = replace(decl, rounds=tuple(
            replace(r, orders=tuple((od, d if d.own_seed else replace(d, seed=(seed + 100 * (k + 1) + i) % 2**63,
                                                                      derived=True))
                                    for i, (od, d) in enumerate(r.orders))) for k, r in enumerate(decl.rounds)))
        ctx = replace(ctx, seed=seed)
    return replace(scenario, table=table, context=replace(ctx, declarations=decl))


def resolve_match(scenario: MatchScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
                  reroll: bool = False) -> Trace:
    """Play the whole match and return its cited Trace (sections ``06 Initial Deployment › side``, then
    ``Round N › ...``) with its :class:`~explorer.games.tagraid.outcomes.MatchOutcome`.

    Raises:
        RuleViolation: a declaration the rules refuse (names the file, the field, the reason and the section).
    """
    sc = with_rulings(scenario, rulings, seed, reroll)
    with errors_name(sc.source or sc.title):
        frames = play_match(sc.table, sc.context)
    t = match_trace(sc.title, frames, sc.context.declarations)
    last: MatchState = frames[-1].state
    t.rulings = {**dict(sc.table.rulings), **(dict(last.current.consulted) if last.current is not None else {})}
    return t
