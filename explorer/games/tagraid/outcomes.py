"""Typed outcomes of the TAG Raid scenario kinds ``order``, ``round``, ``match`` and ``table`` (the roll kind's is
:mod:`.resolve`'s), and their plain-text answers.

Sections: Activating a Miner › Order Expenditure Sequence (an Order's outcome: ARO rights, AROs, the roll
exchange's winners, Saving Rolls and Wounds, States entered at 5.3, Evade movements at 5.1, Death, Neomaterials,
Tool Containers and Loot, the MegaBeast at 5.2); Game Sequence › Game Round and Victory Conditions (a Round's);
Line of Fire and Distances, Range Ruler (a table's verdicts).

Each outcome is a frozen :class:`explorer.kernel.Outcome`: the resolvers (:func:`.orders.orderfile.resolve_order`,
:func:`.orders.roundfile.resolve_round`, :func:`.table_scenario.resolve_table`) return their trace with
``trace.with_result(outcome)``; outcome text, pages and pictures read its attributes, and :meth:`to_json` writes
the JSON object of ``explorer resolve --json`` and the golden files (the same keys, order and values as ever).

This module imports only the standard library and the kernel, so that :mod:`.game` can tell the kinds apart by type
without loading the Order, Round or table modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.kernel import Outcome
from explorer.text import plural

from .lof_report import band_words

if TYPE_CHECKING:
    from .resolve import RollOutcome

Point = tuple[float, float]


# ------------------------------------------------------------------------------------------------------- Order


@dataclass(frozen=True)
class AroRightLine:
    """A Reactive Miner's (or the MegaBeast's) right to an ARO: ``miner``, the ``step`` it is gained at (2 or 4),
    ``reason`` (``"lof"``, ``"without_lof_skill"``, ``"targeted"``, ``"same_hexagon"``) and ``evade_only``."""

    miner: str
    step: int
    reason: str
    evade_only: bool


@dataclass(frozen=True)
class PairLine:
    """One roll of the Order's exchange: the Active Miner, its ``opponent`` (a Reactive Miner, the MegaBeast, or
    ``None`` for an unopposed roll), the roll ``kind`` (``"face_to_face"``, ``"normal_roll"``...) and the ``winner``
    (``None``: nobody)."""

    active: str
    opponent: str | None
    kind: str
    winner: str | None


@dataclass(frozen=True)
class MinerAfter:
    """A Miner after the Order (or the Round): Wounds, States, Orders left, on the table, position (board units,
    rounded to 6 places), Scoring Zone and the scenery piece it stands on (``None``: the ground; in JSON only when
    it stands on one)."""

    id: str
    wounds: int
    states: tuple[str, ...]
    orders: int
    on_table: bool
    position: Point
    scoring_zone: int = 0
    on: str | None = None


@dataclass(frozen=True)
class MegaBeastAfter:
    """The MegaBeast after an Order: Wounds left, facing now / at the start / before a Conclusion redirection
    (``None``: not redirected), whether it was killed, and its Behavior move in ARO (``(from, to)`` rounded, or
    ``None``)."""

    wounds: int
    facing: float
    facing_at_start: float
    facing_before: float | None
    killed: bool
    moved: tuple[Point, Point] | None


@dataclass(frozen=True)
class LootZoneLine:
    """A TAG's Loot Zone: its ``owner``, the Neomaterial ``units`` and Tool ``cards`` (names) it holds."""

    owner: str
    units: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class LootTokenLine:
    """A Loot Token on the table: its ``id``, ``owner`` and ``position`` (rounded to 6 places)."""

    id: str
    owner: str
    position: Point


def _pt(p: Point) -> list[float]:
    return [p[0], p[1]]


@dataclass(frozen=True)
class OrderOutcome(Outcome):
    """What one Order did (``kind = "order"``; :func:`.orders.orderfile.order_result`).

    Attributes:
        active: the Active Miner. aro_rights: every ARO right granted, in the order granted.
        aros: ``((miner, Skill), ...)`` the AROs declared (the MegaBeast's Behavior ARO as ``"behavior"``).
        roll: the roll exchange's typed outcome (:class:`~explorer.games.tagraid.resolve.RollOutcome`; ``None``: the
            Order did not reach step 5), written as its ``to_json()``.
        pairs: the exchange's rolls (:class:`PairLine`). saving_rolls, failed_saves: ``((name, count), ...)`` of the
            exchange. wounds_lost: ``((name, Wounds), ...)`` of those that lost any.
        miners: every Miner after the Order (:class:`MinerAfter`). states_entered: ``((miner, State), ...)`` at 5.3.
        evade_moved: ``((miner, (x, y)), ...)`` made at 5.1 (rounded); evade_dropped: ``((miner, why), ...)``;
            evade_allowed: Miners whose Evade Roll allows the movement (sorted).
        counted_as_idle: ``((miner, Skill declared), ...)`` that failed their Requirements at Resolution.
        dead: Miners that died. teseum, t_bezoar: ``((side, Units), ...)`` gained (non-zero only).
        interactions: ``((miner, what), ...)`` with Tool Containers and Loot Tokens, or ``None`` when none happened.
        tools: ``((miner, (Tool names)), ...)`` equipped, or ``None`` when no Miner had or has one.
        loot_tokens: Loot Tokens on the table after the Order, or ``None`` when the table had none and has none.
        loot_zones: non-empty Loot Zones, or ``None`` when none was or is.
        megabeast: the MegaBeast after the Order, or ``None`` without one.
    """

    active: str | None
    aro_rights: tuple[AroRightLine, ...]
    aros: tuple[tuple[str, str], ...]
    roll: "RollOutcome | None"
    pairs: tuple[PairLine, ...]
    saving_rolls: tuple[tuple[str, int], ...]
    failed_saves: tuple[tuple[str, int], ...]
    wounds_lost: tuple[tuple[str, int], ...]
    miners: tuple[MinerAfter, ...]
    states_entered: tuple[tuple[str, str], ...]
    evade_moved: tuple[tuple[str, Point], ...]
    evade_dropped: tuple[tuple[str, str], ...]
    evade_allowed: tuple[str, ...]
    counted_as_idle: tuple[tuple[str, str], ...]
    dead: tuple[str, ...]
    teseum: tuple[tuple[str, int], ...]
    t_bezoar: tuple[tuple[str, int], ...]
    interactions: tuple[tuple[str, str], ...] | None = None
    tools: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    loot_tokens: tuple[LootTokenLine, ...] | None = None
    loot_zones: tuple[LootZoneLine, ...] | None = None
    megabeast: MegaBeastAfter | None = None

    def to_json(self) -> dict[str, Any]:
        roll = self.roll.to_json() if self.roll is not None else None
        out: dict[str, Any] = {
            "active": self.active,
            "aro_rights": {r.miner: {"step": r.step, "reason": r.reason, "evade_only": r.evade_only}
                           for r in self.aro_rights},
            "aros": dict(self.aros),
            "roll": roll,
            "pairs": [p.to_json() for p in self.roll.pairs] if self.roll is not None else [],
            "saving_rolls": dict(self.roll.saving_rolls) if self.roll is not None else {},
            "failed_saves": dict(self.roll.failed_saves) if self.roll is not None else {},
            "wounds_lost": dict(self.wounds_lost),
            "miners": {m.id: {"wounds": m.wounds, "states": list(m.states), "orders": m.orders,
                              "on_table": m.on_table, "position": _pt(m.position), "scoring_zone": m.scoring_zone,
                              **({"on": m.on} if m.on is not None else {})}
                       for m in self.miners},
            "states_entered": [[m, st] for m, st in self.states_entered],
            "evade_moved": {m: _pt(p) for m, p in self.evade_moved},
            "evade_dropped": dict(self.evade_dropped),
            "evade_allowed": list(self.evade_allowed),
            "counted_as_idle": dict(self.counted_as_idle),
            "dead": list(self.dead),
            "teseum": dict(self.teseum), "t_bezoar": dict(self.t_bezoar),
        }
        if self.interactions is not None:
            out["interactions"] = [[m, what] for m, what in self.interactions]
        if self.tools is not None:
            out["tools"] = {m: list(names) for m, names in self.tools}
        if self.loot_tokens is not None:
            out["loot_tokens"] = {t.id: {"owner": t.owner, "position": _pt(t.position)} for t in self.loot_tokens}
        if self.loot_zones is not None:
            out["loot_zones"] = {z.owner: {"units": z.units, "cards": list(z.cards)} for z in self.loot_zones}
        if self.megabeast is not None:
            mb = self.megabeast
            out["megabeast"] = {"wounds": mb.wounds, "facing": mb.facing, "facing_at_start": mb.facing_at_start,
                                "facing_before": mb.facing_before, "killed": mb.killed,
                                "moved": [_pt(mb.moved[0]), _pt(mb.moved[1])] if mb.moved else None}
        return out

    def text(self) -> str:
        """The plain-text summary of the Order, built only from the numbers the trace reports: ARO rights and AROs,
        the winner of every Face to Face / Normal Roll, Saving Rolls, Wounds lost, States entered, Evade movements
        (made, not taken, dropped), deaths, Teseum / T-Bezoar, Tools and Loot, and the MegaBeast's move and facing."""
        lines = ["Outcome:"]
        rights = {r.miner: r for r in self.aro_rights}
        lines.append("  ARO rights: " + (", ".join(f"{m} (step {r.step}, {r.reason.replace('_', ' ')}"
                                                  + (", Evade only" if r.evade_only else "") + ")"
                                                  for m, r in rights.items()) or "none"))
        aros = dict(self.aros)
        if aros:
            lines.append("  AROs declared: " + ", ".join(f"{m} {s.replace('_', ' ')}" for m, s in aros.items()))
        for m, declared in dict(self.counted_as_idle).items():
            lines.append(f"  {m}'s {declared.replace('_', ' ')} fails its Requirements at Resolution: counted as "
                         "Idle")
        for p in self.pairs:
            who = f"{p.active} vs {p.opponent}" if p.opponent else p.active
            lines.append(f"  - {who}: {p.kind.replace('_', ' ')}, winner {p.winner or 'none'}")
        if not self.pairs and self.roll is not None:
            lines.append("  No roll: no Skill of this Order or its AROs needed one")
        saves = {k: v for k, v in self.saving_rolls if v}
        if saves:
            fails = dict(self.failed_saves)
            lines.append("  Saving Rolls: " + ", ".join(f"{k} {v} ({fails.get(k, 0)} failed)"
                                                         for k, v in saves.items()))
        lost = dict(self.wounds_lost)
        lines.append("  Wounds lost: " + (", ".join(f"{k} {v}" for k, v in lost.items()) or "none"))
        if self.states_entered:
            lines.append("  States entered at the End of the Order: "
                         + ", ".join(f"{m} {st}" for m, st in self.states_entered))
        moved = dict(self.evade_moved)
        for m in self.evade_allowed:
            lines.append(f"  Evade movement: {m} " + ("moves one Segment" if m in moved else
                                                      "may move one Segment and stays"))
        for m, why in dict(self.evade_dropped).items():
            lines.append(f"  Evade movement: {m}'s declared move is dropped: {why}")
        if self.dead:
            lines.append("  Dead: " + ", ".join(self.dead))
        gains = [f"{k} +{v} Teseum" for k, v in self.teseum if v]
        gains += [f"{k} +{v} T-Bezoar" for k, v in self.t_bezoar if v]
        lines.append("  Neomaterials: " + (", ".join(gains) or "none gained"))
        for m, what in self.interactions or ():
            lines.append(f"  Tool Containers and Loot: {m}, {what}")
        if self.tools is not None:
            lines.append("  Tools equipped: " + (", ".join(f"{m} {', '.join(t)}" for m, t in self.tools) or "none"))
        if self.loot_tokens is not None:
            lines.append("  Loot Tokens on the table: " + (", ".join(t.id for t in self.loot_tokens) or "none"))
        for z in self.loot_zones or ():
            lines.append(f"  {z.owner}'s Loot Zone: {plural(z.units, 'Unit')}"
                         + (f", {', '.join(z.cards)}" if z.cards else ""))
        mb = self.megabeast
        if mb is not None:
            parts = [f"{plural(mb.wounds, 'Wound')} left" + (" (killed)" if mb.killed else "")]
            if mb.moved:
                parts.append(f"moved from ({mb.moved[0][0]:.2f}, {mb.moved[0][1]:.2f}) to "
                             f"({mb.moved[1][0]:.2f}, {mb.moved[1][1]:.2f})")
            if mb.facing_at_start != mb.facing:
                why = "redirected at Conclusion" if mb.facing_before is not None else "turned by its move"
                parts.append(f"facing {mb.facing_at_start:g}° -> {mb.facing:g}° ({why})")
            else:
                parts.append(f"facing {mb.facing:g}° (unchanged)")
            lines.append("  MegaBeast: " + ", ".join(parts))
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------------------- Round


@dataclass(frozen=True)
class MegaBeastAtEnd:
    """The MegaBeast at the end of a Round: Wounds left, facing, position (rounded to 6 places)."""

    wounds: int
    facing: float
    position: Point


@dataclass(frozen=True)
class RoundOutcome(Outcome):
    """What one Game Round did (``kind = "round"``; :func:`.orders.round.round_result`).

    Attributes:
        round: the Round played; next_round: the one that begins after it (``None`` when the match is over).
        over: the match has ended; winner: its winner (``None``: a draw or not over); result: why (``None``: not
            over).
        units, t_bezoar: ``((side, Units), ...)`` in Timeline order. miners: every Miner (:class:`MinerAfter`).
        megabeast: the MegaBeast on the table (``None``: none). megabeast_killed: it died this match.
        events_left: Event cards still to draw; event_deck: the game has an Event Deck; events_drawn: card names.
        orders_played: Orders played in the Players Phase.
        tools: ``((miner, (Tool names)), ...)`` equipped. loot_tokens: Loot Tokens on the table. loot_zones:
            non-empty Loot Zones. drawn_this_round: ``((miner, container), ...)`` Tool Cards drawn this Round.
    """

    round: int
    next_round: int | None
    over: bool
    winner: str | None
    result: str | None
    units: tuple[tuple[str, int], ...]
    t_bezoar: tuple[tuple[str, int], ...]
    miners: tuple[MinerAfter, ...]
    megabeast: MegaBeastAtEnd | None
    megabeast_killed: bool
    events_left: int
    event_deck: bool
    events_drawn: tuple[str, ...]
    orders_played: int
    tools: tuple[tuple[str, tuple[str, ...]], ...] = ()
    loot_tokens: tuple[LootTokenLine, ...] = ()
    loot_zones: tuple[LootZoneLine, ...] = ()
    drawn_this_round: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        mb = self.megabeast
        return {
            "round": self.round, "next_round": self.next_round, "over": self.over, "winner": self.winner,
            "result": self.result, "units": dict(self.units), "t_bezoar": dict(self.t_bezoar),
            "miners": {m.id: {"wounds": m.wounds, "orders": m.orders, "on_table": m.on_table,
                              "position": _pt(m.position), "states": list(m.states),
                              **({"on": m.on} if m.on is not None else {})} for m in self.miners},
            "megabeast": None if mb is None else {"wounds": mb.wounds, "facing": mb.facing,
                                                  "position": _pt(mb.position)},
            "megabeast_killed": self.megabeast_killed, "events_left": self.events_left,
            "event_deck": self.event_deck, "events_drawn": list(self.events_drawn),
            "orders_played": self.orders_played,
            "tools": {m: list(names) for m, names in self.tools},
            "loot_tokens": {t.id: {"owner": t.owner, "position": _pt(t.position)} for t in self.loot_tokens},
            "loot_zones": {z.owner: {"units": z.units, "cards": list(z.cards)} for z in self.loot_zones},
            "drawn_this_round": [list(d) for d in self.drawn_this_round],
        }

    def text(self) -> str:
        """The plain-text summary of the Round: Events drawn, Orders played, Neomaterial Units and T-Bezoar by side,
        Tools and Loot, the Miners off the table, the MegaBeast, and the End of Match result."""
        lines = [f"Outcome of Round {self.round}:"]
        if self.events_drawn:
            lines.append("  Events drawn: " + ", ".join(self.events_drawn))
        lines.append(f"  Orders played: {self.orders_played}")
        lines.append("  Neomaterial Units: " + ", ".join(f"{s} {v}" for s, v in self.units))
        lines.append("  T-Bezoar: " + ", ".join(f"{s} {v}" for s, v in self.t_bezoar))
        if self.tools or self.loot_tokens or self.loot_zones:
            lines.append("  Tools equipped: " + (", ".join(f"{m} {', '.join(t)}" for m, t in self.tools) or "none"))
            lines.append("  Loot Tokens on the table: " + (", ".join(t.id for t in self.loot_tokens) or "none"))
            for z in self.loot_zones:
                lines.append(f"  {z.owner}'s Loot Zone: {plural(z.units, 'Unit')}"
                             + (f", {', '.join(z.cards)}" if z.cards else ""))
        dead = [m.id for m in self.miners if not m.on_table]
        if dead:
            lines.append("  Off the table: " + ", ".join(dead))
        if self.megabeast_killed:
            lines.append("  MegaBeast: killed")
        elif self.megabeast is not None:
            lines.append(f"  MegaBeast: {plural(self.megabeast.wounds, 'Wound')} left, facing {self.megabeast.facing:g}°")
        if self.over:
            lines.append("  The match ends: " + (f"{self.winner} wins" if self.winner else "a draw")
                         + f" ({self.result})")
        else:
            deck = (f"{plural(self.events_left, 'Event card')} left" if self.event_deck else "no Event Deck")
            lines.append(f"  The match goes on: Round {self.next_round} begins ({deck})")
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------------------- match


@dataclass(frozen=True)
class MatchOutcome(Outcome):
    """What a match record did (``kind = "match"``).

    Attributes:
        access_points: ``((side, Access Point), ...)`` rolled at Initial Deployment, in Timeline order.
        rounds_played: Rounds played. over: an End of Match condition was met; winner (``None``: a draw or not
            over) and result (why; ``None``: not over).
        units, t_bezoar: ``((side, Units), ...)`` in Timeline order. miners: every Miner at the end.
        events_drawn: Event card names. orders_played: Orders in all Rounds.
    """

    access_points: tuple[tuple[str, int], ...]
    rounds_played: int
    over: bool
    winner: str | None
    result: str | None
    units: tuple[tuple[str, int], ...]
    t_bezoar: tuple[tuple[str, int], ...]
    miners: tuple[MinerAfter, ...]
    events_drawn: tuple[str, ...]
    orders_played: int

    def to_json(self):
        return {"access_points": dict(self.access_points), "rounds_played": self.rounds_played, "over": self.over,
                "winner": self.winner, "result": self.result, "units": dict(self.units),
                "t_bezoar": dict(self.t_bezoar),
                "miners": {m.id: {"wounds": m.wounds, "on_table": m.on_table, "position": _pt(m.position)}
                           for m in self.miners},
                "events_drawn": list(self.events_drawn), "orders_played": self.orders_played}

    def text(self) -> str:
        """The plain-text summary: Access Points, Rounds and Orders played, Neomaterial Units, the result."""
        lines = ["Outcome of the match:",
                 "  Initial Deployment: " + (", ".join(f"{s} at Access Point {n}" for s, n in self.access_points)
                                             or "none")]
        lines.append(f"  Rounds played: {self.rounds_played} ({plural(self.orders_played, 'Order')})")
        if self.events_drawn:
            lines.append("  Events drawn: " + ", ".join(self.events_drawn))
        lines.append("  Neomaterial Units: " + ", ".join(f"{s} {v}" for s, v in self.units))
        lines.append("  T-Bezoar: " + ", ".join(f"{s} {v}" for s, v in self.t_bezoar))
        if self.over:
            lines.append("  The match ends: " + (f"{self.winner} wins" if self.winner else "a draw")
                         + f" ({self.result})")
        else:
            lines.append("  The match is not over: the record stops before an End of Match condition is met")
        return "\n".join(lines)



# ------------------------------------------------------------------------------------------------------- table


@dataclass(frozen=True)
class TableOutcome(Outcome):
    """One shooter's Line of Fire verdicts on a table (``kind = "table"`` without targets;
    :func:`.table_scenario.resolve_table`).

    Attributes:
        table: the table's packaged or file name. shooter: the Model drawing Line of Fire.
        verdicts: one :class:`.lof_analysis.TargetVerdict` per other Model, in table order.
        readings: ``((option key, reading), ...)`` consulted (sorted).
    """

    table: str
    shooter: str
    verdicts: tuple[Any, ...]
    readings: tuple[tuple[str, str], ...]

    @property
    def has_lof(self) -> tuple[str, ...]:
        """The targets the shooter has Line of Fire to."""
        return tuple(v.target for v in self.verdicts if v.lof.has_lof)

    def to_json(self) -> dict[str, Any]:
        from .lof_report import verdict_to_dict

        return {"table": self.table, "shooter": self.shooter, "has_lof": list(self.has_lof),
                "verdicts": [verdict_to_dict(v) for v in self.verdicts], "readings": dict(self.readings)}

    def text(self) -> str:
        """``"Outcome: A has Line of Fire to 1 of 1 Models"`` then one line per target (band and distance)."""
        lines = [f"Outcome: {self.shooter} has Line of Fire to {len(self.has_lof)} of {len(self.verdicts)} Models"]
        for v in self.verdicts:
            rng = ""
            if v.range is not None and v.range.distance is not None:
                rng = f", {band_words(v.band)} ({v.range.shown(3):.3f} hex units)"
            lines.append(f"  - {v.target}: {'LoF' if v.lof.has_lof else 'no LoF'} "
                         f"({str(v.lof.reason).replace('_', ' ')}){rng}")
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ Ranged Attack


@dataclass(frozen=True)
class RangedGeometry(Outcome):
    """The geometric questions of one Ranged Attack (:func:`.ranges.ranged_attack_geometry`): Line of Fire, the
    Range band, the weapon's MOD and whether it can fire there (only when a weapon is given: ``with_weapon``),
    Partial Cover and the scenery pieces that give it."""

    has_lof: bool
    band: str | None = None
    partial_cover: bool = False
    cover_pieces: tuple[str, ...] = ()
    with_weapon: bool = False
    range_mod: int | None = None
    can_fire: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"has_lof": self.has_lof, "band": self.band, "partial_cover": self.partial_cover,
                               "cover_pieces": list(self.cover_pieces)}
        if self.with_weapon:
            out |= {"range_mod": self.range_mod, "can_fire": self.can_fire}
        return out
