"""What the players declare during one Order, as data, and the typed rejections of illegal declarations.

Sections: Activating a Miner › Orders and AROs (Move as the first Skill, then one of Close Combat Attack, Ranged
Attack, Evade, Idle or Move; AROs of Close Combat Attack, Ranged Attack, Evade, Idle; a single ARO per enemy per
Order); Activating a Miner › Order Expenditure Sequence (who declares what at which step); Common Skills.

An Order's declarations (:class:`OrderDeclarations`) are the log the sequence replays: stepping back is replaying
fewer steps from the initial state, and a file holding the initial table and these declarations is a shareable game
record. Dice are separate (:class:`OrderDice`): the same declarations with other dice give another outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.errors import Rejection, RuleViolation  # noqa: F401  (Rejection: re-exported for old imports)

Point = tuple[float, float]

SECOND_SKILLS = ("move", "ranged_attack", "close_combat_attack", "evade", "idle")
"""Skills an Order may declare after its first Skill, Move (Orders and AROs)."""
ARO_SKILLS = ("ranged_attack", "close_combat_attack", "evade", "idle", "none")
"""Skills a Reactive Miner may declare as ARO (``"none"``: it lets its right go)."""


@dataclass(frozen=True)
class Interaction:
    """A TAG's interaction with a Tool Container or Loot Token it reaches during a Move (Common Skills › Move,
    Effects; Tool Containers and Loot): ``target`` the token's id; ``equip``: equip a drawn Tool in a free Tool Slot;
    ``discard``: Tools it has equipped to discard, in order, to make room when no Tool Slot is free; ``slot``: the
    Tool Slot the drawn Tool goes to (free, or holding a card named in ``discard``; ``None``: the Slot of the card
    discarded for it, else the lowest free one)."""

    target: str
    equip: bool = True
    discard: tuple[str, ...] = ()
    slot: int | None = None


@dataclass(frozen=True)
class MoveDecl:
    """A Move: the route of the base centre after its start (points, board units) and the facing chosen at the end
    (degrees; ``None``: unchanged). A route of no point is a Move without moving (it cancels Slowed). ``interact``:
    the Tool Container or Loot Token the TAG interacts with (the route then ends where it reaches Silhouette Contact
    with it)."""

    route: tuple[Point, ...] = ()
    facing: float | None = None
    interact: Interaction | None = None
    on: tuple[str | None, ...] | None = None
    """The surface at each route point: a scenery piece's id or ``None`` (the ground); ``None`` for the whole tuple:
    the Miner's surface all along (Move › Effects: moving up or down an obstacle takes a whole Segment)."""


@dataclass(frozen=True)
class AttackShare:
    """The share of Burst aimed at one target (``burst`` ``None``: the whole Burst, single target only)."""

    target: str
    burst: int | None = None


@dataclass(frozen=True)
class SkillDecl:
    """The second Skill of the Order: ``skill`` (:data:`SECOND_SKILLS`), the Weapon used (attacks), the targets and
    Burst split (attacks), or the Move (``move``). ``fire_from`` (Ranged Attack only): the point of the first Move's
    route from which the Attack is executed, as a fraction of the route's length (0 = where the Move started, 1 = its
    end) or a point ``(x, y)`` on the route; ``None``: ruling ``route_fire_point`` decides (default ``move_start``:
    the beginning of the Move, as in the MinerBot example; ``move_end``: its end; see
    :func:`explorer.games.tagraid.orders.sequence.firing_point`)."""

    skill: str
    weapon: str | None = None
    targets: tuple[AttackShare, ...] = ()
    move: MoveDecl | None = None
    fire_from: float | Point | None = None

    def target_names(self) -> tuple[str, ...]:
        return tuple(t.target for t in self.targets) if self.skill in ("ranged_attack", "close_combat_attack") else ()


@dataclass(frozen=True)
class AroDecl:
    """A Reactive Miner's ARO: ``skill`` (:data:`ARO_SKILLS`), the Weapon (attacks) and the step it is declared at
    (2 or 4; ``None``: the step at which it gains the right). AROs always target the Active Miner. ``fire_at``
    (Ranged Attack only): the point of the Active Miner's first Move route the ARO is fired at, a fraction of the
    route's length or a point ``(x, y)`` on it, as ``SkillDecl.fire_from`` (the MinerBot example of Orders and AROs
    has the target fire at the end of the Movement while the Active Miner fires at its beginning); ``None``: the
    Active Miner's firing point (declared, or taken by ruling ``route_fire_point``), else the end of its Move."""

    miner: str
    skill: str
    weapon: str | None = None
    step: int | None = None
    fire_at: float | Point | None = None


@dataclass(frozen=True)
class OrderDeclarations:
    """The declarations of one Order in sequence order: the Active Miner (step 1), its Move (step 1.2), AROs (steps
    2 and 4), the second Skill (step 3), and the Evade movements chosen at step 5.1 (``((miner, point), ...)``;
    ``evade_on``: ``((miner, surface), ...)`` the surface each ends on when it climbs up or down a piece, a scenery
    piece's id or ``None`` for the ground; a Miner not listed stays on the surface it starts on)."""

    active: str
    move: MoveDecl = MoveDecl()
    second: SkillDecl = SkillDecl("idle")
    aros: tuple[AroDecl, ...] = ()
    evade_moves: tuple[tuple[str, Point], ...] = ()
    evade_on: tuple[tuple[str, str | None], ...] = ()

    def aros_at(self, step: int, rights) -> tuple[AroDecl, ...]:
        """The AROs declared at ``step``: explicitly (``step = 2`` or ``4``), or, with no step (\"at its right\"), at
        the step of the declaring Miner's right; a Miner with no right yet declares at step 4, where the right may
        still come (the Attack's target, a second Move), and is refused there if it has none (Activating a Miner ›
        Orders and AROs: AROs are declared at the ARO check that grants them)."""
        return tuple(d for _, d in self.indexed_aros_at(step, rights))

    def indexed_aros_at(self, step: int, rights) -> tuple[tuple[int, AroDecl], ...]:
        """``(i, declaration)`` of the AROs declared at ``step``: ``i`` is its place in :attr:`aros` (the file's
        ``aros[i]``, named by refusals: two equal declarations keep their own places)."""
        out = []
        for i, d in enumerate(self.aros):
            s = d.step
            if s is None:
                r = next((x for x in rights if x.miner == d.miner), None)
                s = r.step if r is not None else 4
            if s == step:
                out.append((i, d))
        return tuple(out)


@dataclass(frozen=True)
class OrderDice:
    """Dice for one Order: ``rolls`` ``((Miner or MegaBeast id, faces), ...)`` for attack / Evade rolls,
    ``saves`` ``((id, faces), ...)`` for Saving Rolls, ``respawn`` d20 faces for Respawn, in Timeline order of the
    dead; ``seed`` for every die not given.

    Issue #25 item 4 (validity never depends on a draw): ``own_seed``: the Order's file writes its own ``seed`` (a
    round or match file's ``orders[i].seed``): its dice not given are fixed by the file through that seed, and
    ``--seed`` leaves them. ``derived``: ``seed`` is the file's top-level seed (plus the Order's place) or
    ``--seed``'s, so a die rolled from it is a draw the file does not fix, and a later Order of the same Round is
    refused (:func:`.round.drawn_dice`). ``rerolled``: the fixed dice were dropped on purpose (``--reroll``): a later
    Order that the fresh dice make illegal is refused as such, never taken for a file that depends on a draw."""

    rolls: tuple[tuple[str, tuple[int, ...]], ...] = ()
    saves: tuple[tuple[str, tuple[int, ...]], ...] = ()
    respawn: tuple[int, ...] = ()
    seed: int = 0
    own_seed: bool = False
    derived: bool = False
    rerolled: bool = False

    def of(self, miner: str) -> list[int] | None:
        return next((list(v) for k, v in self.rolls if k == miner), None)

    def saves_of(self, miner: str) -> list[int] | None:
        return next((list(v) for k, v in self.saves if k == miner), None)


def refused(step: str, field: str, reason: str, rule) -> RuleViolation:
    """The refusal of a declaration (the one refusal type, :class:`~explorer.errors.RuleViolation`): at sequence step
    ``step`` (``"2.2 ARO declaration"``), of the declaration's ``field`` in its file (``"order.aros[0].skill"``),
    ``reason`` in one clause, and the section that forbids it (``rule``). Used by every Order and Round step."""
    return RuleViolation(reason, rule, field=field, step=step)


IllegalDeclaration = RuleViolation
"""The old name of the one refusal type, :class:`~explorer.errors.RuleViolation` (which carries the
:class:`~explorer.errors.Rejection`): ``except IllegalDeclaration`` keeps working."""
