"""Enemy activation: the Hazard card, Attacking, Advancing, Spawning Minions, Opportunity Attacks, Inferno and Coolant
Leak Damage — small step functions over immutable state, each named after its rulebook step.

Sections (see :mod:`.sections`): Playing a Mission › Step C: Hazard Card (activation order, Stunned Enemies, Invalid
Activations), Attacking (target selection, Squadmate Damage), Advancing (the Rush Tag), Spawning Minions; Damaging
Enemies › The Ranged Tag; Basic Actions › Move (the Pin Tag); Interacting with the Mission Map › Shrouded Areas;
Additional Enemy Rules › Opportunity Attacks, Stunning Enemies, Biotic Effects; Squadmate Commentary › Liara T'Soni
(Asari Controller); Map Features › Inferno Icons, Coolant Leaks, Fast Travel Icons, Elevation Change Icons.

The map is seen through :class:`Terrain` (adjacency, movement, distance, Line of Fire, map icons); the adapter for a
mission map is :class:`MapTerrain`. Every function returns a new :class:`Board` and the steps that explain it; the
Board also records, as typed values, what happened (``log``, read by the outcome text) and one :class:`Scene` per
step (``scenes``, drawn by the step-through page).

The kernel (:mod:`explorer.kernel`) plays a scenario as :data:`ACTIVATION_SEQUENCE` over a :class:`Board` with an
:class:`ActivationContext`: the start of the Round (:func:`start_of_the_round`), Step B: the Squadmate's Move
(:func:`squadmate_move`), Step C: the Hazard card (:data:`HAZARD_CARD_SEQUENCE`: one frame per instruction,
:func:`hazard_instruction`) and the end of the turn (:func:`end_of_the_turn`); :func:`play_activation` returns the
frames and the trace.

Player choices are explicit inputs (:class:`Choices`), never silent: wherever the rules let the player choose (ties in
activation order, tied targets, equally good end hexes, tied Spawn hexes), the step lists the options, the input used
and, when no input was given, the documented default:

* activation order ties: the order Enemies are listed in the scenario;
* tied Attack targets: the seating order of the Squadmates (the order they are listed);
* several kept end hexes of an Advance: fewest Movement Points spent, then nearest the current Squadmate, then the
  smallest ``(q, r)``;
* tied Spawn hexes and Opportunity Attacks with equal Attack Values: smallest ``(q, r)`` / listing order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol, Union

from pydantic import Field as _Field

from explorer.errors import RuleViolation
from explorer.errors import ScenarioError as _ScenarioError
from explorer.hexgrid import Hex
from explorer.kernel import Context, Each, Frame, play, run, trace_of
from explorer.options import Rulings
from explorer.scenario import validate as _validate
from explorer.schema import Strict as _Strict
from explorer.text import plural
from explorer.trace import RuleRef, Step
from explorer.trace import Trace as _Trace

from . import sections as S
from .options import rulings as _rulings_for
from .unit_specs import BagSpec as _BagSpec
from .unit_specs import EnemySpec as _EnemySpec
from .unit_specs import Header as _Header
from .unit_specs import Name as _Name
from .unit_specs import SquadmateSpec as _SquadmateSpec
from .unit_specs import check_bag as _check_bag
from .unit_specs import check_rulings as _check_rulings
from .unit_specs import check_units as _check_units
from .unit_specs import names_check as _names_check
from .unit_specs import parse_hex as _parse_hex
from .results import (ActivationOutcome, Attack, EnemyAdvanced, EnemyAt, Happening, InvalidActivation, NotActivated,
                      OpportunityAttack, Refused, Revealed, SquadmateAt, SquadmateMoved, Spawned, TargetTie)
from .units import (Enemy, Roster, Squadmate, damage_happenings, enemy_damage, enemy_damage_happenings,
                    squadmate_damage)

ADVANCE_MP = 2
"""Movement Points of an Advancing Enemy (Advancing)."""
RUSH_MP = 4
"""Movement Points of an Advancing Enemy with the Rush Tag (Advancing › The Rush Tag)."""
INFERNO_DAMAGE = 1
"""Damage for entering an Inferno hex, and at the start of the Round in one (Inferno Icons)."""
COOLANT_DAMAGE = 2
"""Damage to a Squadmate ending its turn in a Coolant Leak hex (Coolant Leaks)."""
MAX_MOVE_MP = 3
"""The most Movement Points one Move Action can have: a Move die shows 2 or 3 (Strategy Die Icons; Basic Actions ›
Move). A Move whose die is not declared is held to this bound."""


class Terrain(Protocol):
    """What the activation rules ask of a mission map. Hexes are axial :class:`Hex`; distances in hexes."""

    def adjacent(self, a: Hex, b: Hex) -> bool:
        """Adjacency (walls and locked doors break it)."""

    def step_hexes(self, h: Hex) -> Iterable[Hex]:
        """Hexes one Movement Point away (adjacent; across an Elevation Change only High -> Low; no Fast Travel)."""

    def distance(self, a: Hex, b: Hex) -> int | None:
        """Counting Distances through adjacent hexes (``None``: no route)."""

    def line_of_fire(self, a: Hex, b: Hex) -> bool:
        """Whether ``b`` is in the Line of Fire of a character in ``a``."""

    def is_inferno(self, h: Hex) -> bool: ...

    def is_coolant_leak(self, h: Hex) -> bool: ...

    def is_shrouded(self, h: Hex) -> bool: ...

    def spawn_hexes(self) -> tuple[Hex, ...]: ...

    def fast_travel_partner(self, h: Hex) -> Hex | None: ...

    def area_name(self, h: Hex) -> str | None:
        """The name of the area holding ``h`` (``None``: no named area)."""

    def doors_into(self, h: Hex) -> tuple[str, ...]:
        """The Shrouded areas (other than ``h``'s own) that ``h`` borders through an unlocked door (Shrouded Areas:
        standing here reveals them)."""


# --- state and inputs ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderFocus:
    """Step C: Hazard Card: the activation ``order`` and each Enemy's ``distances`` to the current Squadmate
    (``None``: no route); ``ties``: groups of equally close Enemies (the player orders them)."""

    order: tuple[str, ...]
    distances: tuple[int | None, ...]
    ties: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class TargetsFocus:
    """Attacking: ``enemy`` Activates; every Squadmate as a potential target or not (``verdicts``)."""

    enemy: str
    verdicts: tuple[TargetVerdict, ...]


@dataclass(frozen=True)
class TargetFocus:
    """Attacking: the potential targets compared on ``measure`` (``verdicts`` with their values; ``tied``: the lowest,
    the player's choice when several), and the ``target`` chosen."""

    enemy: str
    target: str
    measure: str
    verdicts: tuple[TargetVerdict, ...]
    tied: tuple[str, ...]


@dataclass(frozen=True)
class AdvanceFocus:
    """Advancing: every reachable end hex kept or dropped (``verdicts``) by ``instruction`` 1, 2 or 3; the
    ``nearest`` Squadmates at ``nearest_distance``."""

    enemy: str
    verdicts: tuple[HexVerdict, ...]
    instruction: int
    nearest: tuple[str, ...]
    nearest_distance: int | None

    @property
    def kept(self) -> tuple[Hex, ...]:
        return tuple(v.hex for v in self.verdicts if v.kept)


@dataclass(frozen=True)
class PathFocus:
    """A move: ``who`` goes along ``path`` (its start hex first); ``how``: how an Enemy's end hex was chosen."""

    who: str
    path: tuple[Hex, ...]
    how: str = ""


@dataclass(frozen=True)
class SpawnFocus:
    """Spawning Minions: ``spawned`` placed at ``hex``; the empty Spawn hexes' ``distances`` (``None``: no route),
    the ``occupied`` ones and the ``tied`` best ones (the player chooses)."""

    spawned: str
    hex: Hex
    distances: tuple[tuple[Hex, int | None], ...]
    occupied: tuple[tuple[Hex, str], ...]
    tied: tuple[Hex, ...]


Focus = Union[OrderFocus, TargetsFocus, TargetFocus, AdvanceFocus, PathFocus, SpawnFocus]
"""What one step looks at, for the step-through page (``None`` on a step that only changes or names characters)."""


@dataclass(frozen=True)
class Scene:
    """The board as one step leaves it: every character on the map as ``(name, hex, side)`` (side ``"squadmate"``
    or ``"enemy"``), and the step's :data:`Focus`."""

    positions: tuple[tuple[str, Hex, str], ...]
    focus: Focus | None = None


@dataclass(frozen=True)
class Board(Roster):
    """Characters on the map during a Squadmate's turn.

    Attributes:
        squadmates: in seating order (clockwise), with positions.
        enemies: Enemy tokens on the map, with positions.
        current: the current Squadmate (whose Hazard card is resolved).
        bag: the draws from the Enemy Bag the file declares, in order (the draw is random: a scenario fixes it),
            each a Minion token or the name of a Minion Defeated earlier and returned to the Bag (``returned``).
        in_bag: the Minions Defeated and returned to the Enemy Bag that are in it now (their Damage, Biotic Effect
            token and Stunned side gone), in the order returned.
        drawn: how many of the declared draws (:attr:`bag`) were made so far (the next one is ``bag[drawn]`` of
            the file).
        returned_to_bag: Minions Defeated during this resolution.
        spawned: the Minion spawned last by this Hazard card (for "Activate Spawned Enemy").
        asari_controller: Liara's Asari Controller is unlocked: Enemies with a Biotic Effect token count as having no
            Tags (Squadmate Commentary › Liara T'Soni).
        hazard: the Hazard card drawn this turn: its instructions, in order (Step C: Hazard Card).
        agenda: what the card still has to do, in order (:data:`Task`): its instructions, then, as an instruction
            unfolds, the activation order, each Enemy's Activation and the Invalid Activations' Spawns.
        rejected: the refused Move's message (Basic Actions › Move), or ``None``.
        log: what happened to each character so far, in order (:data:`.results.Happening`).
        scenes: one :class:`Scene` per step so far (the board as that step leaves it and what it looks at): what the
            step-through page draws.
        revealed: the Shrouded areas revealed so far (Shrouded Areas: a Squadmate stood by an unlocked door into
            them); an Enemy there is no longer in a Shrouded area.
        krogan: ``(Squadmate, Shield Points)``: Wrex's What Krogan Do Best is unlocked: an Enemy that ends its move
            closer to him than at its start (Counting Distances) gives him that many Shield Points back (the sheet's
            ``closer_shield``, a stand-in; Squadmate Commentary › Urdnot Wrex); ``None``: not in play.
        intuition: ``(Squadmate, Enemy, Damage)``: Liara's Shadow Broker Intuition is to be used the next time that
            Enemy targets any Squadmate: that Attack deals that much less Damage (the sheet's ``intuition``, a
            stand-in; Squadmate Commentary › Liara T'Soni); cleared once used. ``None``: not declared.
    """

    squadmates: tuple[Squadmate, ...]
    enemies: tuple[Enemy, ...]
    current: str
    bag: tuple[Enemy | str, ...] = ()
    returned_to_bag: tuple[str, ...] = ()
    in_bag: tuple[Enemy, ...] = ()
    drawn: int = 0
    spawned: str | None = None
    asari_controller: bool = False
    hazard: tuple[Instruction, ...] = ()
    agenda: tuple[Task, ...] = ()
    rejected: str | None = None
    log: tuple[Happening, ...] = ()
    scenes: tuple[Scene, ...] = ()
    revealed: tuple[str, ...] = ()
    krogan: tuple[str, int] | None = None
    intuition: tuple[str, str, int] | None = None

    def hurt(self, name: str, amount: int, by: str) -> tuple[Board, list[Step]]:
        """Squadmate Damage to ``name`` (:func:`~.units.squadmate_damage`), recorded in :attr:`log`."""
        before = self.squadmate(name)
        after, steps = squadmate_damage(before, amount, by=by)
        board = self.with_squadmate(after).logged(*damage_happenings(before, after, amount, by))
        return board.shown(len(steps)), steps

    def shown(self, n: int = 1, focus: Focus | None = None) -> Board:
        """This board with ``n`` more scenes, one per step just told (the first looking at ``focus``), each showing
        the characters where they stand now."""
        if n <= 0:
            return self
        at = tuple((c.name, c.position, side) for side, group in (("squadmate", self.squadmates),
                                                                  ("enemy", self.enemies))
                   for c in group if c.position is not None)
        new = (Scene(at, focus),) + (Scene(at),) * (n - 1)
        return replace(self, scenes=self.scenes + new)

    def occupant(self, h: Hex) -> str | None:
        for c in (*self.squadmates, *self.enemies):
            if c.position == h:
                return c.name
        return None

    def tags_ignored(self, e: Enemy) -> bool:
        return self.asari_controller and e.biotic_effect

    def returned(self, enemy: Enemy) -> Board:
        """Damaging Enemies: the Defeated Minion ``enemy`` is returned to the Enemy Bag: named in
        :attr:`returned_to_bag` and put in :attr:`in_bag` (its Damage, Biotic Effect token and Stunned side gone),
        so a later Spawn can draw it (Spawning Minions: a token drawn from the bag; the bag holds it again): a
        declared draw ``returned = "<name>"``, or the only token left in the Bag (:func:`spawn_minion`)."""
        token = replace(enemy, position=None, damage=0, biotic_effect=False, stunned=False, shrouded=False)
        return replace(self, returned_to_bag=self.returned_to_bag + (enemy.name,), in_bag=self.in_bag + (token,))



@dataclass(frozen=True)
class Choices:
    """The player's choices where the rules leave one (explicit inputs; module docstring lists the defaults).

    Attributes:
        activation_order: Enemy names in preferred order, for Enemies at equal distance (Step C: Hazard Card).
        attack_target: Squadmate names in preferred order, for potential targets tied on Hit Points (Attacking).
        advance_to: ``{Enemy name: end hex}`` for an Advance with several kept end hexes (Advancing).
        spawn_hex: Spawn hexes in preferred order, for tied closest/furthest Spawn hexes (Spawning Minions).
        opportunity_order: Enemy names in preferred order, for Opportunity Attacks with equal Attack Values.
    """

    activation_order: tuple[str, ...] = ()
    attack_target: tuple[str, ...] = ()
    advance_to: Mapping[str, Hex] = field(default_factory=dict)
    spawn_hex: tuple[Hex, ...] = ()
    opportunity_order: tuple[str, ...] = ()


def _pref(prefs: Sequence, fallback: Sequence):
    """Sort key: items of ``prefs`` first in that order, then the rest in ``fallback`` order."""
    pos = {p: i for i, p in enumerate(prefs)}
    fb = {p: i for i, p in enumerate(fallback)}
    return lambda x: (pos.get(x, len(pos)), fb.get(x, len(fb)))


def shrouded_now(terrain: Terrain, board: Board, h: Hex | None) -> bool:
    """Whether ``h`` lies in a Shrouded area that has not been revealed yet (Shrouded Areas)."""
    return h is not None and terrain.is_shrouded(h) and terrain.area_name(h) not in board.revealed


def reveal_shrouded(terrain: Terrain, board: Board, who: str, h: Hex) -> tuple[Board, list[Step]]:
    """Shrouded Areas: ``who`` stands in ``h``; each Shrouded area that ``h`` borders through an unlocked door and
    that is not revealed yet is revealed now: every Enemy token in it is flipped to its Active side (no longer
    Stunned, no longer Shrouded) and the area stops counting as Shrouded. Returns the board and one step per area."""
    steps: list[Step] = []
    for area in terrain.doors_into(h):
        if area in board.revealed:
            continue
        inside = [e for e in board.enemies if e.position is not None and terrain.area_name(e.position) == area]
        for e in inside:
            board = board.with_enemy(e.name, replace(e, shrouded=False, stunned=False))
        names = tuple(e.name for e in inside)
        board = replace(board, revealed=board.revealed + (area,)).logged(Revealed(area, who, str(h), names))
        flipped = (f"{', '.join(names)} flipped to the Active side" if names else "no Enemy token in it")
        steps.append(Step(f"{who} stands in {h} by an unlocked door into Shrouded area {area!r}: the area is "
                          f"revealed; {flipped}", S.SHROUDED_AREAS,
                          "It no longer counts as Shrouded: its Enemies Activate and can be targeted.",
                          facts={"area": area, "by": who, "hex": str(h), "flipped": list(names)},
                          marks=(who, *names)))
        board = board.shown()
    return board, steps


def _eligible(board: Board, rulings: Rulings) -> list[Squadmate]:
    """Squadmates an Enemy may target or move toward (ruling ``downed_squadmates``)."""
    if rulings.reading("downed_squadmates") == "not_targets":
        return [s for s in board.squadmates if not s.downed and s.position is not None]
    return [s for s in board.squadmates if s.position is not None]


# --- Hazard card as data --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Activate:
    """"Activate" the Enemies of the given types (``"Elites"`` stands for every Elite: "Activate Elites")."""

    types: tuple[str, ...]


@dataclass(frozen=True)
class ActivateSpawned:
    """"Activate Spawned Enemy": the Minion this card spawned last."""


@dataclass(frozen=True)
class SpawnMinion:
    """"Spawn Nearby" / "Spawn Far Away": a Minion at the empty Spawn hex closest to / furthest from the current
    Squadmate."""

    at: Literal["closest", "furthest"] = "closest"


@dataclass(frozen=True)
class ActivateFurthest:
    """"Activate Furthest Enemy" (Icon Reference › Cards): the one Enemy furthest from the current Squadmate,
    distances counted as in Counting Distances; which Enemies compete is the ruling ``furthest_enemy_pool``."""


@dataclass(frozen=True)
class SpecialInstruction:
    """A "Special instruction" card (Icon Reference › Cards): the rulebook prints no mechanics for it, only the icon;
    ``text`` is the card's instruction as the file gives it. The engine shows it and applies nothing."""

    text: str


Instruction = Activate | ActivateSpawned | SpawnMinion | ActivateFurthest | SpecialInstruction


# --- Spawning Minions -----------------------------------------------------------------------------------------------


def draw_from_bag(board: Board) -> tuple[Board, Enemy, str]:
    """Spawning Minions: the token drawn from the Enemy Bag, the board without it in the Bag, and a sentence saying
    how it was decided ("" for the file's next declared token).

    The Bag holds the file's declared tokens not drawn yet and the Minions Defeated and returned to it
    (:attr:`Board.in_bag`). A random draw among them is the file's to declare: the next declared draw
    (``bag[drawn]``) is made when there is one (a token, or ``returned = "<Minion>"``: that Minion, which must be
    in the Bag now); with none left and one token in the Bag the draw is forced; with two or more it could give
    any of them, so it is refused naming ``bag[k]``, never left to the seed (issue #25 item 4: the same file is
    accepted or refused alike with any seed or none). Call only with a token in the Bag.

    Raises:
        ScenarioError: ``bag[k].returned`` names a Minion not in the Bag at this draw (still on the map, drawn
            again already, or never Defeated); ``bag[k]``: no declared draw left and two or more Minions in the Bag.
    """
    k = board.drawn
    if board.bag:
        nxt, rest = board.bag[0], board.bag[1:]
        if isinstance(nxt, str):
            token = next((t for t in board.in_bag if t.name == nxt), None)
            if token is None:
                where = ("on the map" if board.enemy(nxt) is not None else "not Defeated yet"
                         if nxt not in board.returned_to_bag else "drawn again already")
                raise _ScenarioError(f"bag[{k}].returned", f"{nxt} is not in the Enemy Bag at draw {k + 1} ({where})",
                                     [t.name for t in board.in_bag] or "a Minion Defeated before this draw, or a "
                                     "new Minion token", None)
            in_bag = tuple(t for t in board.in_bag if t is not token)
            how = (f" {nxt} was Defeated and returned to the Enemy Bag earlier; the file declares it drawn here "
                   f"(bag[{k}].returned).")
            return replace(board, bag=rest, in_bag=in_bag, drawn=k + 1), token, how
        return replace(board, bag=rest, drawn=k + 1), nxt, ""
    if len(board.in_bag) == 1:
        token = board.in_bag[0]
        how = (f" {token.name} was Defeated and returned to the Enemy Bag earlier and is the only token in it, so it "
               "is the token drawn.")
        return replace(board, in_bag=()), token, how
    names = [t.name for t in board.in_bag]
    raise _ScenarioError(f"bag[{k}]", f"this Spawn draws from an Enemy Bag holding {', '.join(names)} (Defeated and "
                         "returned to it) and the file declares no draw for it: a random draw could give any of "
                         "them", f"a [[bag]] entry (bag[{k}]) with "
                         + " or ".join(f"returned = {n!r}" for n in names), None)


def spawn_minion(terrain: Terrain, board: Board, at: str, choices: Choices,
                 rule: RuleRef = S.SPAWNING_MINIONS) -> tuple[Board, list[Step]]:
    """Spawning Minions: draw the next token of the Enemy Bag and place it Active in the empty Spawn hex closest to
    (or furthest from) the current Squadmate, distances counted as in Counting Distances; Spawn hexes holding a
    character are ignored; if every Spawn hex is occupied (or the bag is empty) no Minion is Spawned.

    The draw is random, so the file declares it (:func:`draw_from_bag`): the next ``[[bag]]`` entry, a token or a
    returned Minion; with no declared draw left, the only token in the Bag (the Minions Defeated and returned to it)
    is drawn; two or more there and the file does not say which is refused.

    Raises:
        ScenarioError: field ``bag[k].returned`` (that Minion is not in the Bag at this draw) or ``bag[k]`` (no
            declared draw and two or more returned Minions in the Bag), whatever the seed.
    """
    cur = board.squadmate(board.current)
    spawns = terrain.spawn_hexes()
    empty = [h for h in spawns if board.occupant(h) is None]
    occupied = {str(h): board.occupant(h) for h in spawns if board.occupant(h) is not None}
    if not spawns:
        return board.shown(), [Step("No Minion Spawned: the map has no Spawn hex", rule)]
    if not empty:
        return board.shown(), [Step("No Minion Spawned: every Spawn hex holds a character", rule, facts={"occupied": occupied},
                            marks=tuple(map(str, spawns)))]
    if not board.bag and not board.in_bag:
        return board.shown(), [Step("No Minion Spawned: the Enemy Bag is empty", rule, marks=tuple(map(str, empty)))]
    dist = {h: terrain.distance(cur.position, h) for h in empty}
    reachable = {h: d for h, d in dist.items() if d is not None}
    pool = reachable or {h: 0 for h in empty}
    best = (min if at == "closest" else max)(pool.values())
    tied = sorted(h for h, d in pool.items() if d == best)
    key = _pref(choices.spawn_hex, tied)
    chosen = sorted(tied, key=key)[0]
    board, token, again = draw_from_bag(board)
    token = replace(token, position=chosen, stunned=False)
    board = replace(board, enemies=board.enemies + (token,), spawned=token.name).logged(
        Spawned(token.name, str(chosen)))
    how = "your choice" if chosen in choices.spawn_hex else "default: smallest (q, r)"
    tie = f"; tied: {', '.join(map(str, tied))} ({how})" if len(tied) > 1 else ""
    board = board.shown(1, SpawnFocus(token.name, chosen, tuple(dist.items()),
                                      tuple((h, board.occupant(h)) for h in spawns
                                            if board.occupant(h) is not None and h != chosen), tuple(tied)))
    return board, [Step(f"Spawn {token.name} at {chosen}, the empty Spawn hex {'closest to' if at == 'closest' else 'furthest from'} "
                         f"{cur.name} ({best} hexes){tie}", rule, "Drawn from the Enemy Bag and placed Active side up."
                        + again,
                        facts={"spawned": token.name, "hex": str(chosen),
                        "distances": {str(h): d for h, d in dist.items()}, "occupied": occupied,
                        "tied": [str(h) for h in tied]}, marks=tuple(map(str, [chosen, token.name])))]


# --- activation order -----------------------------------------------------------------------------------------------


def activation_order(terrain: Terrain, board: Board, names: Sequence[str],
                     choices: Choices) -> tuple[list[str], OrderFocus, list[Step]]:
    """Step C: Hazard Card: activated Enemies go one at a time, closest to the current Squadmate first, moving
    outwards (Counting Distances; no route = last); equally close Enemies in the order the player chooses
    (``choices.activation_order``; default: listing order). Returns every name, Stunned and Shrouded ones included
    (:func:`activate_enemy` skips them in its own step); the :class:`OrderFocus` the page shows."""
    cur = board.squadmate(board.current)
    listed = [e.name for e in board.enemies]
    dist = {n: terrain.distance(board.enemy(n).position, cur.position) for n in names}
    big = 10 ** 6
    key = _pref(choices.activation_order, listed)
    order = sorted(names, key=lambda n: (big if dist[n] is None else dist[n], key(n)))
    ties = {}
    for n in order:
        ties.setdefault(dist[n], []).append(n)
    tied = [v for v in ties.values() if len(v) > 1]
    detail = "Closest to the current Squadmate first." + (
        " Equally close: " + "; ".join(", ".join(v) for v in tied) + " (the player chooses: "
        + ("your order" if choices.activation_order else "default: listing order") + ")." if tied else "")
    focus = OrderFocus(tuple(order), tuple(dist[n] for n in order), tuple(tuple(v) for v in tied))
    return order, focus, [Step(f"Activation order: {', '.join(f'{n} ({dist[n]})' for n in order)}", S.HAZARD_CARD, detail,
                        facts={"order": order, "distances": dist, "ties": tied}, marks=tuple(order))]


# --- Attacking ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetVerdict:
    """A Squadmate considered as the target of an Attack: whether it is a potential target (and why), its Hit Points
    for the comparison, and whether it is kept."""

    name: str
    potential: bool
    reason: str
    value: int | None = None
    kept: bool = False

    def to_dict(self) -> dict:
        return {"squadmate": self.name, "potential": self.potential, "reason": self.reason, "value": self.value,
                "kept": self.kept}


def potential_targets(terrain: Terrain, board: Board, enemy: Enemy, rulings: Rulings) -> list[TargetVerdict]:
    """Attacking: each Squadmate adjacent to the Enemy is a potential target; with the Ranged Tag, so is each one in
    its Line of Fire (The Ranged Tag). Returns a verdict for every Squadmate on the map."""
    ranged = enemy.has_tag("Ranged", tags_ignored=board.tags_ignored(enemy))
    eligible = {s.name for s in _eligible(board, rulings)}
    out = []
    for s in board.squadmates:
        if s.position is None:
            continue
        if s.name not in eligible:
            out.append(TargetVerdict(s.name, False, "Downed (ruling downed_squadmates = not_targets)"))
        elif terrain.adjacent(enemy.position, s.position):
            out.append(TargetVerdict(s.name, True, "adjacent"))
        elif ranged and terrain.line_of_fire(enemy.position, s.position):
            out.append(TargetVerdict(s.name, True, "in Line of Fire (Ranged Tag)"))
        else:
            why = "not adjacent, not in Line of Fire" if ranged else "not adjacent (no Ranged Tag)"
            if enemy.has_tag("Ranged") and not ranged:
                why = "not adjacent (its Tags do not count: Biotic Effect token and Asari Controller)"
            out.append(TargetVerdict(s.name, False, why))
    return out


def select_target(board: Board, verdicts: list[TargetVerdict], choices: Choices,
                  rulings: Rulings) -> tuple[str, list[TargetVerdict], Step]:
    """Attacking: the Enemy Attacks the potential target with the fewest Hit Points remaining before they are Downed
    (ruling ``fewest_hit_points``: Hit Points, or Shield + Hit Points); ties: the current Squadmate's player chooses
    (``choices.attack_target``; default: seating order)."""
    reading = rulings.reading("fewest_hit_points")
    val = {}
    for v in verdicts:
        if v.potential:
            s = board.squadmate(v.name)
            val[v.name] = s.hit_points if reading == "hit_points" else s.shield_points + s.hit_points
    low = min(val.values())
    tied = [n for n in val if val[n] == low]
    seats = [s.name for s in board.squadmates]
    chosen = sorted(tied, key=_pref(choices.attack_target, seats))[0]
    measure = "Hit Points" if reading == "hit_points" else "Shield + Hit Points"
    out = [replace(v, value=val.get(v.name), kept=v.name in tied) for v in verdicts]
    how = ""
    if len(tied) > 1:
        how = (f" Tie between {', '.join(tied)} at {low}: {board.current}'s player chooses "
               + ("(your choice)." if chosen in choices.attack_target else "(default: seating order)."))
    step = Step(f"Target: {chosen} ({measure} {low})", S.ATTACKING,
                f"Fewest {measure} among the potential targets ({', '.join(f'{n} {val[n]}' for n in val)})."
                 f"{how} Ruling fewest_hit_points = {reading}.", facts={"target": chosen, "measure": measure,
                "candidates": [v.to_dict() for v in out], "tied": tied,
                **({"tie_value": low, "chooser": board.current, "by_choice": chosen in choices.attack_target}
                    if len(tied) > 1 else {})}, marks=(chosen,))
    return chosen, out, step


def shadow_broker_intuition(board: Board, enemy: str, target: str, damage: int, how: str
                            ) -> tuple[Board, int, list[Step]]:
    """Squadmate Commentary › Liara T'Soni › Shadow Broker Intuition: used "when an Enemy targets any Squadmate, not
    just Liara". When :attr:`Board.intuition` names ``enemy``, its Attack (``how``: "Attack" or "Opportunity
    Attack") on ``target`` deals the stand-in's Damage less (never below 0) and the declaration is spent; a Downed
    owner cannot use it. Returns the board, the Damage now dealt and the step (none when not used)."""
    if board.intuition is None or board.intuition[1] != enemy:
        return board, damage, []
    who, _, less = board.intuition
    board = replace(board, intuition=None)
    sq = board.squadmate(who)
    if sq is None or sq.downed:
        st = Step(f"{who} is Downed: Shadow Broker Intuition cannot be used on {enemy}'s {how}",
                  S.COMMENTARY_LIARA_SHADOW_BROKER, facts={"enemy": enemy, "used": False}, marks=(who,))
        return board.shown(), damage, [st]
    after = max(0, damage - less)
    whose = "her own" if target == who else f"{target}'s"
    st = Step(f"Shadow Broker Intuition: {enemy} targets {target}; {who} uses it on {whose} behalf: the {how} deals "
              f"{damage} -> {after} Damage", S.COMMENTARY_LIARA_SHADOW_BROKER,
              "Usable when an Enemy targets any Squadmate, not just Liara. What it does is printed on the sheet, not "
              "in the rulebook: the sheet file's intuition (a stand-in: less Damage, once per Round).",
              facts={"enemy": enemy, "target": target, "used": True, "damage": after}, marks=(who, enemy, target))
    return board.shown(), after, [st]


def _closer(terrain: Terrain, board: Board, enemy: str, start: Hex, end: Hex) -> tuple[Squadmate, int, int] | None:
    """``(the Squadmate of Board.krogan, distance at the start, at the end)`` when ``enemy`` ended its move closer to
    that Squadmate (on the map, not Downed) by Counting Distances; else ``None``."""
    if board.krogan is None or start == end or board.enemy(enemy) is None:
        return None
    sq = board.squadmate(board.krogan[0])
    if sq is None or sq.downed or sq.position is None:
        return None
    d0, d1 = terrain.distance(start, sq.position), terrain.distance(end, sq.position)
    if d0 is None or d1 is None or d1 >= d0:
        return None
    return sq, d0, d1


def what_krogan_do_best(terrain: Terrain, board: Board, enemy: str, start: Hex, end: Hex
                        ) -> tuple[Board, list[Step]]:
    """Squadmate Commentary › Urdnot Wrex › What Krogan Do Best: whether ``enemy``, having moved ``start`` -> ``end``,
    is closer to Wrex than at the start of its move, by Counting Distances (around walls and closed doors; no route:
    not closer). If so (and :attr:`Board.krogan` is in play, Wrex on the map and not Downed), he regains the stand-in's
    Shield Points, up to his maximum. Returns the board and the steps (none when no closer)."""
    close = _closer(terrain, board, enemy, start, end)
    if close is None:
        return board, []
    sq, d0, d1 = close
    who, regain = board.krogan
    new = min(sq.shield_points + regain, sq.shield_points_max)
    gain = (f"{who} regains {plural(new - sq.shield_points, 'Shield Point')} ({sq.shield_points} -> {new})"
            if new > sq.shield_points else f"{who} has full Shield Points ({sq.shield_points}): nothing to regain")
    st = Step(f"What Krogan Do Best: {enemy} ends its move {plural(d1, 'hex', 'hexes')} from {who}, closer than "
              f"{d0} at its start: {gain}", S.COMMENTARY_WREX_WHAT_KROGAN_DO_BEST,
              "Closer by Counting Distances (around walls and closed doors). What it gives is printed on the sheet, "
              "not in the rulebook: the sheet file's closer_shield (a stand-in).",
              facts={"enemy": enemy, "from": d0, "to": d1, "squadmate": who, "shield_points": new},
              marks=(who, enemy))
    return board.with_squadmate(replace(sq, shield_points=new)).shown(), [st]


def attack(board: Board, enemy: Enemy, target: str) -> tuple[Board, list[Step]]:
    """Attacking: the target suffers Damage equal to the Enemy's Attack Value (2 lower with a Biotic Effect token),
    Shields first (Squadmate Damage); Liara's Shadow Broker Intuition, when declared on this Enemy, first lowers it
    (:func:`shadow_broker_intuition`)."""
    av = enemy.effective_attack_value
    note = f" ({enemy.attack_value} - 2, Biotic Effect token)" if enemy.biotic_effect else ""
    if enemy.biotic_effect and enemy.attack_value < 2:      # Biotic Effects: 2 lower, to a minimum of 0
        note = f" ({enemy.attack_value} - 2, Biotic Effect token, to a minimum of 0)"
    board, less, pre = shadow_broker_intuition(board, enemy.name, target, av, "Attack")
    if less != av:
        note += f" ({av} - {av - less}, Shadow Broker Intuition)"
        av = less
    steps = pre + [Step(f"{enemy.name} Attacks {target} for {av} Damage{note}", S.ATTACKING, facts={"enemy": enemy.name,
                  "target": target, "attack_value": av}, marks=(enemy.name, target))]
    board, more = board.logged(Attack(enemy.name, target)).shown().hurt(target, av, enemy.name)
    return board, steps + more


# --- Advancing ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """A hex an Advancing Enemy can end in: Movement Points spent, Inferno hexes entered on the way (fewest possible),
    and one such path (start hex first)."""

    hex: Hex
    cost: int
    infernos: int
    path: tuple[Hex, ...]


def reachable_hexes(terrain: Terrain, board: Board, enemy: Enemy, mp: int) -> dict[Hex, Reach]:
    """Advancing: the hexes the Enemy can end in with up to ``mp`` Movement Points: one adjacent hex per point
    (Elevation Change: High -> Low only; no Fast Travel for Enemies), never into a hex with another character. For
    each hex, the path entering the fewest Inferno hexes, then the fewest points; the start hex (0 points) included."""
    occupied = {c.position for c in (*board.squadmates, *board.enemies) if c.position is not None}
    start = enemy.position
    best: dict[Hex, Reach] = {start: Reach(start, 0, 0, (start,))}
    layer = {start: best[start]}
    for k in range(1, mp + 1):
        nxt: dict[Hex, Reach] = {}
        for h, r in layer.items():
            for n in terrain.step_hexes(h):
                if n in occupied and n != start:
                    continue
                cand = Reach(n, k, r.infernos + (1 if terrain.is_inferno(n) else 0), r.path + (n,))
                if n not in nxt or cand.infernos < nxt[n].infernos:
                    nxt[n] = cand
        for n, r in nxt.items():
            if n not in best or (r.infernos, r.cost) < (best[n].infernos, best[n].cost):
                best[n] = r
        layer = nxt
    return best


@dataclass(frozen=True)
class HexVerdict:
    """An end hex of an Advance: kept or dropped, and the rule that decides it."""

    hex: Hex
    cost: int
    infernos: int
    kept: bool
    rule: str
    why: str

    def to_dict(self) -> dict:
        return {"hex": str(self.hex), "cost": self.cost, "infernos": self.infernos, "kept": self.kept,
                "rule": self.rule, "why": self.why}


@dataclass(frozen=True)
class AdvanceAim:
    """Which Advancing instruction an Enemy follows (``instruction`` 1, 2 or 3, :func:`advance_candidates`), the
    ``nearest`` Squadmates at ``nearest_distance`` from where it starts, and whether some end hex lets it Attack the
    current Squadmate."""

    instruction: int
    nearest: tuple[str, ...]
    nearest_distance: int | None
    current_can_be_attacked: bool

    def to_facts(self) -> dict:
        return {"instruction": self.instruction, "nearest": list(self.nearest),
                "nearest_distance": self.nearest_distance, "current_can_be_attacked": self.current_can_be_attacked}


def _can_attack_from(terrain: Terrain, h: Hex, target: Squadmate, ranged: bool) -> bool:
    return terrain.adjacent(h, target.position) or (ranged and terrain.line_of_fire(h, target.position))


def advance_candidates(terrain: Terrain, board: Board, enemy: Enemy, reach: Mapping[Hex, Reach],
                       rulings: Rulings) -> tuple[list[HexVerdict], AdvanceAim]:
    """Advancing: sort every reachable end hex into kept and dropped, by the first instruction that can be followed:

    1. end in a position to Attack the current Squadmate;
    2. otherwise end in a position to Attack the nearest Squadmate (nearest from where the Enemy starts; equally near
       ones are all "the nearest");
    3. otherwise move as far as possible towards the nearest Squadmate (smallest distance to it).

    A Minion moves into Inferno hexes only if there is no other way (Inferno Icons): among the hexes that follow the
    instruction, those reached through the fewest Inferno hexes are kept. Returns the verdicts (every reachable hex)
    and the :class:`AdvanceAim` (instruction used, nearest Squadmates and distances)."""
    ranged = enemy.has_tag("Ranged", tags_ignored=board.tags_ignored(enemy))
    eligible = _eligible(board, rulings)
    cur = next((s for s in eligible if s.name == board.current), None)
    dist_from_start = {s.name: terrain.distance(enemy.position, s.position) for s in eligible}
    finite = {n: d for n, d in dist_from_start.items() if d is not None}
    near_d = min(finite.values()) if finite else None
    nearest = [s for s in eligible if finite.get(s.name) == near_d] if finite else []

    def metric(h: Hex) -> int | None:
        ds = [terrain.distance(h, s.position) for s in nearest]
        ds = [d for d in ds if d is not None]
        return min(ds) if ds else None

    tier1 = {h for h in reach if cur is not None and _can_attack_from(terrain, h, cur, ranged)}
    tier2 = {h for h in reach if any(_can_attack_from(terrain, h, s, ranged) for s in nearest)}
    metrics = {h: metric(h) for h in reach}
    if tier1:
        tier, follows = 1, tier1
    elif tier2:
        tier, follows = 2, tier2
    else:
        tier = 3
        vals = [m for m in metrics.values() if m is not None]
        best = min(vals) if vals else None
        follows = {h for h in reach if best is not None and metrics[h] == best}
    minion = enemy.kind == "minion"
    least_inferno = min((reach[h].infernos for h in follows), default=0) if minion else None
    names_near = ", ".join(s.name for s in nearest) or "none"
    out = []
    for h in sorted(reach, key=lambda x: (reach[x].cost, x)):
        r = reach[h]
        if h in follows:
            if minion and r.infernos > least_inferno:
                out.append(HexVerdict(h, r.cost, r.infernos, False, S.INFERNO.section,
                                      f"enters {plural(r.infernos, 'Inferno hex', 'Inferno hexes')}; the instruction "
                                      f"can be followed through "
                                      f"{least_inferno}"))
                continue
            why = {1: f"in position to Attack {board.current} (the current Squadmate)",
                   2: f"in position to Attack the nearest Squadmate ({names_near})",
                   3: f"{metrics[h]} hexes from the nearest Squadmate ({names_near}), as close as it can get"}[tier]
            if minion and r.infernos:
                why += f"; enters {plural(r.infernos, 'Inferno hex', 'Inferno hexes')}: no other way"
            out.append(HexVerdict(h, r.cost, r.infernos, True, S.ADVANCING.section, why))
        else:
            if tier == 1:
                why = f"cannot Attack {board.current} (the current Squadmate) from here; other hexes can"
            elif tier == 2:
                why = (f"no hex lets it Attack {board.current}; from here it cannot Attack the nearest Squadmate "
                       f"({names_near}); other hexes can")
            else:
                why = (f"cannot Attack anyone after moving; {metrics[h]} hexes from the nearest Squadmate "
                       f"({names_near}), other hexes are closer")
            out.append(HexVerdict(h, r.cost, r.infernos, False, S.ADVANCING.section, why))
    return out, AdvanceAim(tier, tuple(s.name for s in nearest), near_d, bool(tier1))


def choose_end_hex(terrain: Terrain, board: Board, enemy: Enemy, verdicts: list[HexVerdict],
                   choices: Choices) -> tuple[HexVerdict | None, str]:
    """The player is free to choose among kept end hexes (Advancing): ``choices.advance_to[enemy]`` if it is kept,
    else the default: fewest Movement Points, then nearest the current Squadmate, then smallest ``(q, r)``.
    Returns the verdict chosen and how it was chosen."""
    kept = [v for v in verdicts if v.kept]
    if not kept:
        return None, "no end hex follows the instructions"
    wanted = choices.advance_to.get(enemy.name)
    if wanted is not None:
        hit = next((v for v in kept if v.hex == wanted), None)
        if hit is not None:
            return hit, "the player's choice"
        dropped = next((v for v in verdicts if v.hex == wanted), None)
        note = (f"the chosen hex {wanted} is dropped ({dropped.why})" if dropped
                else f"the chosen hex {wanted} is not reachable")
    else:
        note = ""
    cur = board.squadmate(board.current).position
    big = 10 ** 6

    def key(v: HexVerdict):
        d = terrain.distance(v.hex, cur) if cur is not None else None
        return (v.cost, big if d is None else d, v.hex)

    pick = min(kept, key=key)
    how = "default: fewest Movement Points, then nearest the current Squadmate, then smallest (q, r)"
    return pick, (f"{note}; {how}" if note else how) if len(kept) > 1 or note else "the only kept hex"


def advance(terrain: Terrain, board: Board, enemy: Enemy, choices: Choices,
            rulings: Rulings) -> tuple[Board, list[Step]]:
    """Advancing: 2 Movement Points (4 with the Rush Tag), ending where the instructions say (see
    :func:`advance_candidates`); the player chooses among kept hexes (:func:`choose_end_hex`). A Minion entering an
    Inferno hex suffers 1 Damage for each (Inferno Icons), which may Defeat it (back to the Enemy Bag)."""
    rush = enemy.has_tag("Rush", tags_ignored=board.tags_ignored(enemy))
    mp = RUSH_MP if rush else ADVANCE_MP
    reach = reachable_hexes(terrain, board, enemy, mp)
    verdicts, aim = advance_candidates(terrain, board, enemy, reach, rulings)
    pick, how = choose_end_hex(terrain, board, enemy, verdicts, choices)
    instr = {1: "end in a position to Attack the current Squadmate",
             2: "end in a position to Attack the nearest Squadmate",
             3: "move as far as possible towards the nearest Squadmate"}[aim.instruction]
    kept = [v for v in verdicts if v.kept]
    rule = S.RUSH_TAG if rush else S.ADVANCING
    steps = [Step(f"{enemy.name} Advances with {plural(mp, 'Movement Point')}: {len(reach)} reachable end hexes, "
                   f"{len(kept)} kept ({instr})", rule, ("Rush Tag: up to 4 Movement Points. " if rush else "")
                   + "An Enemy cannot move into a hex containing another character; unspent points are lost.",
                  facts={"enemy": enemy.name, "movement_points": mp, "candidates": [v.to_dict() for v in verdicts],
                  **aim.to_facts()}, marks=tuple(map(str, [v.hex for v in kept])))]
    board = board.shown(1, AdvanceFocus(enemy.name, tuple(verdicts), aim.instruction, aim.nearest,
                                        aim.nearest_distance))
    if pick is None or pick.hex == enemy.position:
        steps.append(Step(f"{enemy.name} stays at {enemy.position}", S.ADVANCING, f"No move gets it closer ({how}).",
                          facts={"enemy": enemy.name, "hex": str(enemy.position), "path": [str(enemy.position)],
                          "how": how}, marks=(enemy.name,)))
        board = board.logged(EnemyAdvanced(enemy.name, str(enemy.position), str(enemy.position)))
        return board.shown(1, PathFocus(enemy.name, (enemy.position,), how)), steps
    path = reach[pick.hex].path
    moved = replace(enemy, position=pick.hex)
    board = board.with_enemy(enemy.name, moved).logged(
        EnemyAdvanced(enemy.name, str(path[0]), str(pick.hex), pick.why.replace(" (the current Squadmate)", "")))
    steps.append(Step(f"{enemy.name} moves to {pick.hex} ({plural(pick.cost, 'Movement Point')}): {pick.why}", S.ADVANCING,
                      f"Chosen: {how}. Path {' -> '.join(map(str, path))}.", facts={"enemy": enemy.name,
                      "hex": str(pick.hex), "path": [str(h) for h in path], "how": how},
                      marks=tuple(map(str, [enemy.name, *path]))))
    board = board.shown(1, PathFocus(enemy.name, tuple(path), how))
    if enemy.kind == "minion" and pick.infernos:
        res = enemy_damage(moved, INFERNO_DAMAGE * pick.infernos)
        st = Step(f"{enemy.name} moved into {plural(pick.infernos, 'Inferno hex', 'Inferno hexes')}: "
                   f"{pick.infernos} Damage", S.INFERNO, facts={"enemy": enemy.name, "damage": pick.infernos},
                  marks=(enemy.name,))
        steps += [st, *res.steps]
        board = board.with_enemy(enemy.name, res.enemy).logged(
            *enemy_damage_happenings(moved, res, INFERNO_DAMAGE * pick.infernos)).shown(1 + len(res.steps))
        if res.defeated:
            board = board.returned(moved)
    return board, steps


# --- one Enemy's Activation -----------------------------------------------------------------------------------------


def activate_enemy(terrain: Terrain, board: Board, name: str, choices: Choices,
                   rulings: Rulings) -> tuple[Board, list[Step]]:
    """Step C: Hazard Card: an Activated Enemy Attacks if it has a potential target (adjacent, or in Line of Fire with
    the Ranged Tag), otherwise it Advances. Stunned Enemies and Enemies in Shrouded areas are not Activated."""
    enemy = board.enemy(name)
    if enemy is None:
        return board.shown(), [Step(f"{name} is no longer on the map", S.HAZARD_CARD, facts={"enemy": name},
                            marks=(name,))]
    if enemy.stunned:
        return board.logged(NotActivated(name, True)).shown(), [
            Step(f"{name} is Stunned: not Activated", S.STUNNING_ENEMIES, facts={"enemy": name, "activated": False},
                 marks=(name,))]
    if enemy.shrouded or shrouded_now(terrain, board, enemy.position):
        return board.logged(NotActivated(name, False)).shown(), [
            Step(f"{name} is in a Shrouded area: not Activated", S.SHROUDED_AREAS,
                 facts={"enemy": name, "activated": False}, marks=(name,))]
    verdicts = potential_targets(terrain, board, enemy, rulings)
    listing = "; ".join(f"{v.name}: {v.reason}" for v in verdicts)
    steps = [Step(f"{name} Activates at {enemy.position}", S.HAZARD_CARD, f"Potential targets — {listing}.",
                  facts={"enemy": name, "activated": True, "candidates": [v.to_dict() for v in verdicts]},
                  marks=(name,))]
    board = board.shown(1, TargetsFocus(name, tuple(verdicts)))
    if any(v.potential for v in verdicts):
        target, out, st = select_target(board, verdicts, choices, rulings)
        tied = tuple(v.name for v in out if v.kept)
        measure = "Hit Points" if rulings.reading("fewest_hit_points") == "hit_points" else "Shield + Hit Points"
        if len(tied) > 1:
            low = next(v.value for v in out if v.kept)
            board = board.logged(TargetTie(tied, low, measure, board.current, target, target in choices.attack_target))
        board = board.shown(1, TargetFocus(name, target, measure, tuple(out), tied))
        board, more = attack(board, enemy, target)
        return board, steps + [st] + more
    board, more = advance(terrain, board, enemy, choices, rulings)
    return board, steps + more


def furthest_enemy(terrain: Terrain, board: Board, choices: Choices,
                   rulings: Rulings) -> tuple[str | None, list[Step]]:
    """"Activate Furthest Enemy": pick the Enemy furthest from the current Squadmate (Counting Distances; an Enemy
    with no route counts as furthest of all). Which Enemies compete is the ruling ``furthest_enemy_pool`` (every Enemy
    on the board, or only those that would Activate: not Stunned, not in a Shrouded area). Equally far Enemies: the
    player chooses (Step C: "When there is a choice of Enemies to Activate, the player may choose";
    ``choices.activation_order`` as a preference, default: listing order). Returns the name (``None``: no Enemy to
    pick) and the cited step."""
    cur = board.squadmate(board.current)
    pool_rule = rulings.reading("furthest_enemy_pool")
    pool = [e for e in board.enemies if pool_rule == "all_enemies"
            or not (e.stunned or e.shrouded or shrouded_now(terrain, board, e.position))]
    if not pool:
        why = "no Enemy on the board" if not board.enemies else "no Enemy that would Activate"
        return None, [Step(f"Activate Furthest Enemy: {why}, nothing to Activate", S.COUNTING_DISTANCES,
                           "An Invalid Activation concerns an Enemy type the card names; this card names none, so "
                           "no Minion is Spawned.", facts={"furthest": None})]
    big = 10 ** 6
    dist = {e.name: terrain.distance(e.position, cur.position) for e in pool}
    far = max(big if d is None else d for d in dist.values())
    tied = [n for n, d in dist.items() if (big if d is None else d) == far]
    listed = [e.name for e in board.enemies]
    chosen = sorted(tied, key=_pref(choices.activation_order, listed))[0]
    how = "your choice" if chosen in choices.activation_order else "default: listing order"
    tie = f"; equally far: {', '.join(tied)} (the player chooses: {how})" if len(tied) > 1 else ""
    shown = "no route" if dist[chosen] is None else f"{dist[chosen]} hexes"
    return chosen, [Step(f"Activate Furthest Enemy: {chosen}, {shown} from {cur.name}{tie}", S.COUNTING_DISTANCES,
                         "The card (Icon Reference › Cards) names one Enemy: the furthest. "
                         "Distances counted as in Counting Distances (shortest route, not through walls or locked "
                         "doors). Candidates: " + ", ".join(f"{n} ({d})" for n, d in dist.items())
                         + f" — ruling furthest_enemy_pool = {pool_rule}.",
                         facts={"furthest": chosen, "distances": dist, "tied": tied}, marks=(chosen,))]


def invalid_activation(terrain: Terrain, board: Board, enemy_type: str, choices: Choices) -> tuple[Board, list[Step]]:
    """Invalid Activations: the card names an Enemy type with no Enemy on the board: Spawn a Minion at the closest
    empty Spawn hex to the current Squadmate (once for this type)."""
    steps = [Step(f"Invalid Activation: no {enemy_type} on the board", S.INVALID_ACTIVATIONS,
                  "Spawn a Minion at the closest empty Spawn hex to the current Squadmate, once for this type.",
                  facts={"enemy_type": enemy_type})]
    board, more = spawn_minion(terrain, board.logged(InvalidActivation(enemy_type)).shown(), "closest", choices,
                               S.INVALID_ACTIVATIONS)
    return board, steps + more


def _of_type(board: Board, t: str) -> list[str]:
    if t == "Elites":
        return [e.name for e in board.enemies if e.kind == "elite"]
    return [e.name for e in board.enemies if e.type == t]


# --- the Hazard card as the kernel plays it: one frame per task -------------------------------------------------


@dataclass(frozen=True)
class CardInstruction:
    """Task: carry out instruction ``number`` (from 1) of the Hazard card."""

    number: int


@dataclass(frozen=True)
class OrderEnemies:
    """Task: put the Enemies ``names`` activated by one "Activate" instruction in activation order; the types in
    ``then_invalid`` are Invalid Activations resolved after them."""

    names: tuple[str, ...]
    then_invalid: tuple[str, ...] = ()


@dataclass(frozen=True)
class ActivateEnemy:
    """Task: one Enemy's Activation (:func:`activate_enemy`)."""

    name: str


@dataclass(frozen=True)
class SpawnForInvalid:
    """Task: the Invalid Activation of ``enemy_type`` (:func:`invalid_activation`)."""

    enemy_type: str


@dataclass(frozen=True)
class KroganCloser:
    """Task: Wrex's What Krogan Do Best after ``enemy`` Advanced ``start`` -> ``end`` and ended closer to him
    (:func:`what_krogan_do_best`); its own frame, so the Advance is drawn before it."""

    enemy: str
    start: Hex
    end: Hex


def _krogan_task(terrain: Terrain, before: Board, after: Board, name: str, rulings: Rulings
                 ) -> tuple[KroganCloser, ...]:
    """The :class:`KroganCloser` task when ``name``'s Activation (its Advance) moved it closer to the Squadmate of
    :attr:`Board.krogan` (else none). An Advance counts under both readings of the ruling ``krogan_moves``, which is
    read here so that a trace lists it."""
    e0, e1 = before.enemy(name), after.enemy(name)
    if after.krogan is None or e0 is None or e1 is None or e0.position == e1.position:
        return ()
    rulings.reading("krogan_moves")
    if _closer(terrain, after, name, e0.position, e1.position) is None:
        return ()
    return (KroganCloser(name, e0.position, e1.position),)


Task = Union[CardInstruction, OrderEnemies, ActivateEnemy, SpawnForInvalid, KroganCloser]
"""One thing the Hazard card still has to do (:attr:`Board.agenda`)."""

MAX_HAZARD_TASKS = 1000
"""Safety bound of the tasks of one Hazard card (8 instructions, each at most 40 Activations and 6 Invalid ones)."""


def hazard_card(board: Board, ctx: ActivationContext) -> tuple[Board, tuple[Step, ...]]:
    """Step C: Hazard Card: the card drawn this turn (``board.hazard``) is resolved now, its instructions in order;
    no Minion is spawned by it yet ("Activate Spawned Enemy" refers to this card's Spawn)."""
    todo = () if board.failed else tuple(CardInstruction(i) for i in range(1, len(board.hazard) + 1))
    return replace(board, spawned=None, agenda=todo), ()


def hazard_tasks(board: Board) -> range:
    """The card's tasks, one frame each (the play stops when none is left)."""
    return range(1, MAX_HAZARD_TASKS + 1) if board.agenda else range(0)


def _activate_instruction(board: Board, ctx: ActivationContext, types: Sequence[str]) -> tuple[Task, ...]:
    """An "Activate" instruction unfolds: every Enemy of the named types, one at a time in :func:`activation_order`;
    each named type with no Enemy on the board (Stunned and Shrouded ones count as on the board) is an Invalid
    Activation, resolved before or after the Activations per the ruling ``invalid_activation_timing``."""
    names = tuple(dict.fromkeys(n for t in types for n in _of_type(board, t)))
    missing = tuple(t for t in types if not _of_type(board, t))
    timing = ctx.rulings.reading("invalid_activation_timing") if missing else None
    before = missing if timing == "before_activations" else ()
    after = missing if timing == "after_activations" else ()
    if names:
        return (*(SpawnForInvalid(t) for t in before), OrderEnemies(names, after))
    return tuple(SpawnForInvalid(t) for t in before + after)


def hazard_task(board: Board, ctx: ActivationContext, number: int) -> tuple[Board, tuple[Step, ...]]:
    """Step C: Hazard Card: the next task of the card (:data:`Task`): an instruction (Activate Enemies of the types
    named, Spawn a Minion, Activate the Spawned Enemy), the activation order of an Activate instruction, one Enemy's
    Activation or an Invalid Activation. Shepard Downed ends the Mission (Mission Commander): the card stops there."""
    task, rest = board.agenda[0], board.agenda[1:]
    board = replace(board, agenda=rest)
    terrain, choices, rulings = ctx.terrain, ctx.choices, ctx.rulings
    steps: list[Step] = []
    if isinstance(task, CardInstruction):
        ins = board.hazard[task.number - 1]
        if isinstance(ins, Activate):
            board = replace(board, agenda=_activate_instruction(board, ctx, ins.types) + rest)
        elif isinstance(ins, SpawnMinion):
            board, steps = spawn_minion(terrain, board, ins.at, choices)
        elif isinstance(ins, ActivateFurthest):
            name, steps = furthest_enemy(terrain, board, choices, rulings)
            board = board.shown(len(steps))
            if name is not None:
                board = replace(board, agenda=(ActivateEnemy(name),) + rest)
        elif isinstance(ins, SpecialInstruction):
            steps = [Step(f"Special instruction: {ins.text}", S.ICON_REFERENCE_CARDS,
                          "The rulebook prints no mechanics for Special instruction cards (only the icon); the card's "
                          "own text is shown here and NOT applied by the engine: resolve it by hand.",
                          facts={"special_instruction": ins.text, "applied": False})]
            board = board.shown()
        elif board.spawned is None:
            steps = [Step("Activate Spawned Enemy: this card spawned no Minion, nothing to Activate", S.HAZARD_CARD)]
            board = board.shown()
        else:
            before = board
            board, steps = activate_enemy(terrain, board, board.spawned, choices, rulings)
            board = replace(board, agenda=_krogan_task(terrain, before, board, before.spawned, rulings)
                            + board.agenda)
    elif isinstance(task, OrderEnemies):
        order, focus, steps = activation_order(terrain, board, task.names, choices)
        todo = (*(ActivateEnemy(n) for n in order), *(SpawnForInvalid(t) for t in task.then_invalid))
        board = replace(board.shown(len(steps), focus), agenda=todo + rest)
    elif isinstance(task, ActivateEnemy):
        before = board
        board, steps = activate_enemy(terrain, board, task.name, choices, rulings)
        board = replace(board, agenda=_krogan_task(terrain, before, board, task.name, rulings) + board.agenda)
    elif isinstance(task, KroganCloser):
        board, steps = what_krogan_do_best(terrain, board, task.enemy, task.start, task.end)
    else:
        board, steps = invalid_activation(terrain, board, task.enemy_type, choices)
    if board.failed:
        steps = [*steps, Step("Shepard is Downed: the Mission ends in failure", S.ENDING_A_MISSION,
                              facts={"mission_failed": True})]
        board = replace(board.shown(), agenda=())
    return board, tuple(s.in_section("Step C: Hazard Card") for s in steps)


def hazard_card_done(board: Board) -> bool:
    """Nothing left to do on the card, or Shepard is Downed (the Mission has ended)."""
    return board.failed or not board.agenda


HAZARD_CARD_SEQUENCE = (("Step C: Hazard Card", hazard_card),
                        Each("Hazard card task {item}", hazard_tasks, hazard_task, stop=hazard_card_done))
"""Step C as the kernel plays it: the card drawn, then one frame per task (an instruction, an activation order, one
Enemy's Activation, an Invalid Activation) until the card is done or Shepard is Downed."""


def resolve_hazard_card(terrain: Terrain, board: Board, card: Sequence[Instruction], choices: Choices,
                        rulings: Rulings) -> tuple[Board, list[Step]]:
    """Step C: Hazard Card: carry out ``card``'s instructions in order (:data:`HAZARD_CARD_SEQUENCE`). Stops when
    Shepard is Downed (the Mission ends: Mission Commander)."""
    final, steps = run(replace(board, hazard=tuple(card)), HAZARD_CARD_SEQUENCE,
                       ActivationContext(rulings, None, terrain, choices))
    return final, list(steps)


def activate(terrain: Terrain, board: Board, types: Sequence[str], choices: Choices,
             rulings: Rulings) -> tuple[Board, list[Step]]:
    """An "Activate" instruction on its own (a card of that one instruction, :func:`resolve_hazard_card`): every
    Enemy of the named types in activation order, with the Invalid Activations of the types not on the board."""
    return resolve_hazard_card(terrain, board, (Activate(tuple(types)),), choices, rulings)


# --- Opportunity Attacks (a Squadmate's Move) -----------------------------------------------------------------------


def opportunity_attacks(terrain: Terrain, board: Board, mover: str, path: Sequence[Hex], *, forced: bool = False,
                        choices: Choices = Choices(), movement_points: int | None = None,
                        rulings: Rulings | None = None, on_step=None, ability: str | None = None,
                        pin_ends: bool = True,
                        limit_words: tuple[str, str | None] = ("its Move die", "move.movement_points"),
                        path_field: str = "move.path") -> tuple[Board, list[Step]]:
    """A Squadmate moves along ``path`` (its start hex first; each next hex one Movement Point away, or the partner
    Fast Travel hex). Basic Actions › Move; Additional Enemy Rules › Opportunity Attacks; Map Features; Interacting
    with the Mission Map › Shrouded Areas.

    * A Move Action has the ``movement_points`` of its Move die (2 or 3; ``None``: not declared, held to
      :data:`MAX_MOVE_MP`); each hex entered spends one, a Fast Travel hop too; points not spent are lost. A
      ``forced`` move is not a Move Action: no Movement Points, no Opportunity Attacks. ``ability``: the name of the
      Ability whose Action moves the Squadmate (Squadmate Commentary: Adrenaline Rush, Turian Rebel), not a Move
      Action: its steps name it; ``pin_ends`` = False: the Pin Tag does not end it (ruling ``pin_ability_move``).
      ``limit_words`` = (what gives the Movement Points, the file field that sets them or ``None``) and
      ``path_field`` (the file's path field) word the refusal of a path too long in the caller's file's terms
      (default: an activation file's ``[move]``).
    * Leaving adjacency of an Active Enemy (not Stunned, not in a Shrouded area) provokes an Opportunity Attack
      (Damage = its Attack Value, Biotic Effect -2); several are resolved highest Attack Value first (ties:
      ``choices.opportunity_order``, default listing order). A forced move or a Fast Travel hop provokes none.
    * After an Opportunity Attack by an Enemy with the Pin Tag the Move ends where the Squadmate stands (the other
      Attacks provoked by the same step are still resolved: they were provoked together); the unspent points are
      lost. A Downed mover stops.
    * Entering an Inferno hex: 1 Damage.
    * Standing in a hex bordered by an unlocked door into a Shrouded area reveals it (:func:`reveal_shrouded`; ruling
      ``shrouded_reveal``: every hex entered, or only the hex where the Move ends).

    The log's :class:`~.results.SquadmateMoved` holds the hexes walked; when the Move ended early, also the route
    planned, why it ended and the Movement Points lost.

    ``on_step(label, board, n)`` (optional, an observer: it changes nothing) is called after each step that changes
    the board (an Opportunity Attack resolved, a Fast Travel hop, Inferno Damage, the Move stopped) and at the end of
    the walk, with the board then and the number of steps told so far: a step-through's frame boundaries, so that a
    step never tells of a change its board does not show yet.

    Raises:
        RuleViolation: a path longer than its Movement Points (field ``path[k]``, the first hex too far), a hex the
            Squadmate cannot enter (an Enemy's hex, not adjacent, Low -> High), a path ending in another Squadmate's
            hex, or a path not starting at the Squadmate's hex.
    """
    sq = board.squadmate(mover)
    if not path or path[0] != sq.position:
        raise RuleViolation(f"{mover}'s path must start at its hex {sq.position}", S.BASIC_ACTIONS.section,
                            field="path[0]", step="Step B: Move")
    spend = len(path) - 1
    limit = MAX_MOVE_MP if movement_points is None else movement_points
    if not forced and spend > limit:
        what, where = limit_words
        die = (f"{what} gives {plural(limit, 'Movement Point')}" + (f" ({where})" if where else "")
               if movement_points is not None else f"a Move die gives at most {MAX_MOVE_MP} Movement Points")
        raise RuleViolation(f"{mover}'s {ability or 'Move'} spends {plural(spend, 'Movement Point')} "
                            f"({plural(spend, 'hex', 'hexes')} entered) but {die}: "
                            f"{path_field}[{limit + 1}] is one hex too far", S.BASIC_ACTIONS.section,
                            field=f"path[{limit + 1}]", step="Step B: Move")
    log_at = len(board.log)
    board = board.logged(SquadmateMoved(mover, tuple(str(h) for h in path), forced))
    route = " -> ".join(map(str, path))
    act = ability or "Move Action"
    title = (f"{mover}'s {act} ({plural(limit, 'Movement Point')}), planned route {route}"
             if movement_points is not None and not forced else
             f"{mover} moves {route}" + (" (forced: no Opportunity Attacks)" if forced else ""))
    steps = [Step(title, S.BASIC_ACTIONS,
                  facts={"squadmate": mover, "path": [str(h) for h in path], "forced": forced},
                  marks=tuple(map(str, [mover, *path])))]
    board = board.shown(1, PathFocus(mover, tuple(path)))
    listed = [e.name for e in board.enemies]
    n_before = len(steps)
    walked = 0
    stopped_by = ""
    for i, (a, b) in enumerate(zip(path, path[1:])):
        hop = terrain.fast_travel_partner(a) == b and b not in terrain.step_hexes(a)
        if not hop and b not in terrain.step_hexes(a):
            why = getattr(terrain, "step_refusal", None)
            reason, rule = why(a, b) if why else ("not adjacent, or Low -> High ground", S.BASIC_ACTIONS)
            raise RuleViolation(f"{mover} cannot move from {a} to {b}: {reason}", rule.section,
                                field=f"path[{i + 1}]", step="Step B: Move")
        occ = board.occupant(b)
        if occ is not None and board.enemy(occ) is not None:
            raise RuleViolation(f"{mover} cannot move into {b}: {occ} is there", S.BASIC_ACTIONS.section,
                                field=f"path[{i + 1}]", step="Step B: Move")
        if i == len(path) - 2 and occ is not None and occ != mover:
            raise RuleViolation(f"{mover} cannot end its Move in {b} with {occ}", S.BASIC_ACTIONS.section,
                                field=f"path[{i + 1}]", step="Step B: Move")
        board = board.with_squadmate(replace(board.squadmate(mover), position=b))
        walked = i + 1
        if hop:
            spent = "" if forced else f" (1 Movement Point, {walked} of {limit} spent)"
            steps.append(Step(f"{mover} uses Fast Travel {a} -> {b}{spent}: no Opportunity Attacks", S.FAST_TRAVEL,
                              facts={"movement_points_spent": 0 if forced else walked},
                              marks=tuple(map(str, [a, b]))))
            board = board.shown()
            if on_step is not None:
                on_step("Fast Travel", board, len(steps))
        provoking = [] if forced or hop else [
            e for e in board.enemies
            if e.active and not shrouded_now(terrain, board, e.position)
            and terrain.adjacent(a, e.position) and not terrain.adjacent(b, e.position)]
        stunned_left = [e.name for e in board.enemies if e.stunned and terrain.adjacent(a, e.position)
                        and not terrain.adjacent(b, e.position)]
        if stunned_left and not forced and not hop:
            steps.append(Step(f"{', '.join(stunned_left)} Stunned: no Opportunity Attack", S.STUNNING_ENEMIES,
                              marks=tuple(stunned_left)))
            board = board.shown()
        key = _pref(choices.opportunity_order, listed)
        provoking.sort(key=lambda e: (-e.effective_attack_value, key(e.name)))
        pinned = ""
        for e in provoking:
            av = e.effective_attack_value
            if board.intuition is not None and rulings is not None and \
                    rulings.reading("intuition_attacks") == "opportunity_too":
                board, av, more = shadow_broker_intuition(board, e.name, mover, av, "Opportunity Attack")
                steps += more
            steps.append(Step(f"{mover} leaves {e.name}'s adjacency ({a} -> {b}): Opportunity Attack for {av}",
                              S.OPPORTUNITY_ATTACKS, " ".join(x for x in (
                                  "Highest Attack Value first." if len(provoking) > 1 else "",
                                  f"Attack Value {e.attack_value} - 2 for its Biotic Effect token, to a minimum of 0."
                                  if e.biotic_effect else "") if x),
                              facts={"enemy": e.name, "damage": av}, marks=(e.name, mover)))
            board, more = board.logged(OpportunityAttack(e.name, mover)).shown().hurt(mover, av, e.name)
            steps += more
            if on_step is not None:
                on_step(f"Opportunity Attack by {e.name}", board, len(steps))
            if e.has_tag("Pin", tags_ignored=board.tags_ignored(e)):
                if pin_ends:
                    pinned = pinned or e.name
                else:
                    steps.append(Step(f"{e.name} has the Pin Tag, but {mover}'s {act} is not a Move Action: it goes "
                                      "on (ruling pin_ability_move = move_action_only)", S.PIN_TAG, marks=(e.name,)))
        if terrain.is_inferno(b):
            board, more = board.shown().hurt(mover, INFERNO_DAMAGE, "an Inferno hex")
            steps += [Step(f"{mover} moves into Inferno hex {b}: 1 Damage", S.INFERNO, marks=(str(b),))] + more
            if on_step is not None:
                on_step("Inferno hex", board, len(steps))
        if board.failed or board.squadmate(mover).downed:
            steps.append(Step(f"{mover} is Downed: the Move ends at {b}", S.DOWNED_SQUADMATES,
                              marks=(mover,)))
            board = board.shown()
            stopped_by = "Downed" if i < len(path) - 2 else ""
            break
        if any(area not in board.revealed for area in terrain.doors_into(b)):
            final = i == len(path) - 2 or bool(pinned)
            if final or rulings is None or rulings.reading("shrouded_reveal") == "entered":
                board, more = reveal_shrouded(terrain, board, mover, b)
                steps += more
        if pinned and i < len(path) - 2:
            left = limit - walked
            lost = (f"{plural(left, 'unspent Movement Point')} lost" if movement_points is not None
                    else "any unspent Movement Points are lost")
            rest = " -> ".join(map(str, path[i + 2:]))
            steps.append(Step(f"Pin Tag: {mover}'s {act} ends at {b} after {pinned}'s Opportunity Attack; "
                              f"{mover} stops there, {lost}", S.PIN_TAG,
                              f"The rest of the planned route ({rest}) is not walked; {walked} of {limit} Movement "
                              f"Points spent." if movement_points is not None else
                              f"The rest of the planned route ({rest}) is not walked.",
                              facts={"stopped_at": str(b), "spent": walked,
                                     "lost": left if movement_points is not None else None},
                              marks=tuple(map(str, [mover, b]))))
            board = board.shown()
            stopped_by = f"{pinned}'s Pin Tag"
            if occ is not None and occ != mover:
                steps.append(Step(f"{mover} ends in {b} with {occ}: the Pin Tag ended the Move there", S.PIN_TAG,
                                  "Normally a Move cannot end in another Squadmate's hex; the rulebook "
                                   "does not say what happens when the Pin Tag ends it there. Both stay.",
                                  marks=(mover, occ)))
                board = board.shown()
            break
    if not forced and not any(s.rule == S.OPPORTUNITY_ATTACKS for s in steps[n_before:]):
        steps.append(Step(f"No Opportunity Attacks: {mover} never left the adjacency of an Active Enemy",
                          S.OPPORTUNITY_ATTACKS, marks=(mover,)))
        board = board.shown()
    lost_points = None if forced or movement_points is None else limit - walked
    if stopped_by or lost_points:
        moved = SquadmateMoved(mover, tuple(str(h) for h in path[:walked + 1]), forced,
                               planned=tuple(str(h) for h in path) if stopped_by else (), stopped_by=stopped_by,
                               lost=lost_points)
        board = replace(board, log=board.log[:log_at] + (moved,) + board.log[log_at + 1:])
    if lost_points is not None and not stopped_by:
        end = board.squadmate(mover).position
        tail = f"; {plural(lost_points, 'unspent point')} lost" if lost_points else ""
        steps.append(Step(f"{mover}'s {act} ends at {end}: {walked} of {plural(limit, 'Movement Point')} spent{tail}",
                          S.BASIC_ACTIONS, "Each hex entered (a Fast Travel hop included) spends a Movement Point; "
                          "points not spent by the end of the Action are lost.",
                          facts={"spent": walked, "lost": lost_points}, marks=(mover,)))
        board = board.shown()
    return board, steps


# --- Map Features: Inferno (start of Round), Coolant Leak (end of turn) ---------------------------------------------


def inferno_start_of_round(terrain: Terrain, board: Board, each=None) -> tuple[Board, list[Step]]:
    """Inferno Icons: at the start of the Round each Squadmate or Minion in an Inferno hex suffers 1 Damage; Elites
    are unaffected. ``each(board, n)`` (optional) is told the board after each character's steps (``n`` steps so
    far), so a step-through can end a frame there."""
    steps: list[Step] = []
    tell = each or (lambda b, n: None)
    for s in board.squadmates:
        if s.position is not None and terrain.is_inferno(s.position) and not s.downed:
            board, more = board.shown().hurt(s.name, INFERNO_DAMAGE, "an Inferno hex")
            steps += [Step(f"Start of the Round: {s.name} is in Inferno hex {s.position}", S.INFERNO,
                           marks=(s.name,))] + more
            tell(board, len(steps))
    for e in board.enemies:
        if e.position is not None and terrain.is_inferno(e.position):
            if e.kind == "elite":
                steps.append(Step(f"{e.name} is an Elite: unaffected by the Inferno hex", S.INFERNO,
                                  marks=(e.name,)))
                board = board.shown()
                tell(board, len(steps))
                continue
            res = enemy_damage(replace(e, shrouded=False), INFERNO_DAMAGE)
            steps += [Step(f"Start of the Round: {e.name} is in Inferno hex {e.position}", S.INFERNO,
                           marks=(e.name,)), *res.steps]
            board = board.with_enemy(e.name, None if res.enemy is None else replace(res.enemy, shrouded=e.shrouded))
            board = board.logged(*enemy_damage_happenings(e, res, INFERNO_DAMAGE)).shown(1 + len(res.steps))
            if res.defeated:
                board = board.returned(e)
            tell(board, len(steps))
    return board, steps


def coolant_leak_end_of_turn(terrain: Terrain, board: Board, squadmate: str) -> tuple[Board, list[Step]]:
    """Coolant Leaks: a Squadmate ending its turn in a Coolant Leak hex suffers 2 Damage (Enemies are unaffected)."""
    s = board.squadmate(squadmate)
    if s.position is None or not terrain.is_coolant_leak(s.position) or s.downed:
        return board, []
    board, more = board.shown().hurt(squadmate, COOLANT_DAMAGE, "a Coolant Leak")
    return board, [Step(f"{squadmate} ends the turn in Coolant Leak hex {s.position}", S.COOLANT_LEAKS,
                        marks=(squadmate,))] + more


# --- the mission map as Terrain -------------------------------------------------------------------------------------


class MapTerrain:
    """:class:`Terrain` over a :class:`~.map.MissionMap` with the geometry of :mod:`.geometry` (Adjacency, Counting
    Distances, Line of Fire, Elevation Change, Fast Travel, Shrouded Areas). ``rulings`` records the map readings
    consulted (they appear in the trace)."""

    def __init__(self, m, rulings: Rulings):
        from . import geometry as G

        self.map, self.rulings, self._g = m, rulings, G
        self._succ = {h: tuple(sorted(G.movement_graph(m).successors(h))) for h in m.hexes}

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return bool(self._g.adjacent(self.map, a, b))

    def step_refusal(self, a: Hex, b: Hex) -> tuple[str, RuleRef]:
        """Why one Movement Point cannot take a character from ``a`` to ``b`` (not adjacent and why, or Low Ground to
        High Ground across an Elevation Change icon) and the section that says so."""
        mv = self._g.can_step(self.map, a, b)
        return mv.reason, mv.rule

    def step_hexes(self, h: Hex) -> tuple[Hex, ...]:
        return self._succ.get(h, ())

    def distance(self, a: Hex, b: Hex) -> int | None:
        return self._g.distance_map(self.map, a, rulings=self.rulings).get(b)

    def line_of_fire(self, a: Hex, b: Hex) -> bool:
        return bool(self._g.line_of_fire(self.map, a, b, rulings=self.rulings))

    def is_inferno(self, h: Hex) -> bool:
        return self.map.has_icon(h, "inferno")

    def is_coolant_leak(self, h: Hex) -> bool:
        return self.map.has_icon(h, "coolant_leak")

    def is_shrouded(self, h: Hex) -> bool:
        return self.map.is_shrouded(h)

    def spawn_hexes(self) -> tuple[Hex, ...]:
        return self.map.hexes_with("spawn")

    def fast_travel_partner(self, h: Hex) -> Hex | None:
        return self.map.fast_travel_partner(h)

    def area_name(self, h: Hex) -> str | None:
        a = self.map.area_of(h)
        return None if a is None else a.name

    def doors_into(self, h: Hex) -> tuple[str, ...]:
        return tuple(sorted(self._g.areas_revealed(self.map, h)))


# --- scenario kind "activation" ---------------------------------------------------------------------------------------

class HazardInstruction(_Strict):
    """One instruction of the Hazard card: ``do`` = ``"activate"`` (``types``: Enemy types, ``"Elites"`` for every
    Elite), ``"activate_elites"``, ``"activate_spawned"``, ``"activate_furthest"`` (Activate Furthest Enemy),
    ``"spawn"`` (``at``: ``"closest"``/``"furthest"``) or ``"special"`` (``text``: the card's Special instruction,
    shown, not applied)."""

    do: Literal["activate", "activate_elites", "activate_spawned", "activate_furthest", "spawn", "special"]
    types: list[str] = _Field(default_factory=list, max_length=6)
    at: Literal["closest", "furthest"] = "closest"
    text: str | None = _Field(default=None, min_length=1, max_length=300)


class MoveSpec(_Strict):
    """A Squadmate's Move before the Hazard card (Basic Actions › Move): ``path`` of hexes, its own hex first;
    ``movement_points``: the Move die allocated (2 or 3; omitted: at most 3, the largest Move die); ``forced``: not a
    Move Action (no Movement Points, no Opportunity Attacks)."""

    squadmate: str = _Name
    path: list[str] = _Field(min_length=1, max_length=12)
    movement_points: Literal[2, 3] | None = None
    forced: bool = False


class ChoicesSpec(_Strict):
    """The player's choices (see :class:`Choices`); every list is a preference order."""

    activation_order: list[str] = _Field(default_factory=list, max_length=40)
    attack_target: list[str] = _Field(default_factory=list, max_length=5)
    advance_to: dict[str, str] = _Field(default_factory=dict, max_length=40)
    spawn_hex: list[str] = _Field(default_factory=list, max_length=20)
    opportunity_order: list[str] = _Field(default_factory=list, max_length=40)


class ActivationScenario(_Header):
    """A validated ``activation`` scenario. File shape: the shared header, then ``map`` (a built-in map name or an
    inline ``[map]`` table), ``current`` (the current Squadmate), ``asari_controller``, ``start_of_round`` (Inferno
    Damage first), ``end_of_turn`` (Coolant Leak check of the current Squadmate last), ``[[squadmates]]`` and
    ``[[enemies]]`` with positions, ``[[bag]]`` (the Enemy Bag's draws, in order: Minion tokens without a position, or
    ``returned = "<Minion>"``, a Minion Defeated earlier: :func:`draw_from_bag`),
    ``[move]`` (optional), ``[[hazard]]`` (the card's instructions in order) and ``[choices]``."""

    kind: Literal["activation"]
    map: str | dict
    current: str = _Name
    asari_controller: bool = False
    start_of_round: bool = False
    end_of_turn: bool = False
    squadmates: list[_SquadmateSpec] = _Field(min_length=1, max_length=5)
    enemies: list[_EnemySpec] = _Field(default_factory=list, max_length=40)
    bag: list[_BagSpec] = _Field(default_factory=list, max_length=30)
    move: MoveSpec | None = None
    hazard: list[HazardInstruction] = _Field(default_factory=list, max_length=8)
    choices: ChoicesSpec = _Field(default_factory=ChoicesSpec)


def _load_map(spec, source):
    from .map import load_map, map_from_dict

    if isinstance(spec, str):
        try:
            return load_map(spec)
        except _ScenarioError as e:
            raise _ScenarioError("map", e.problem, e.allowed, source) from None
    return map_from_dict(spec, source)


def parse_activation(data: Mapping, source: str) -> ActivationScenario:
    """Validate an ``activation`` scenario document (parsed TOML).

    Raises:
        ScenarioError: a field out of bounds or unknown, an unknown map, a character off the map or two in a hex,
            names that do not exist (current Squadmate, choices, move), a bag token with a position, bad hexes.
    """
    from .map import check_placements

    sc = _validate(ActivationScenario, data, source)
    _check_rulings(sc.rulings, source)
    m = _load_map(sc.map, source)
    sqs, ens = _check_units(sc.squadmates, sc.enemies, source, need_positions=True)
    check_placements(m, [(s.name, s.position) for s in sqs], "squadmates", source)
    check_placements(m, [(e.name, e.position) for e in ens], "enemies", source)
    draws = _check_bag(sc.bag, ens, [s.name for s in sqs], source)
    names = {s.name for s in sqs} | {e.name for e in ens} | {d.name for d in draws if not isinstance(d, str)}
    _names_check(sc.current, [s.name for s in sqs], "current", source)
    if sc.move:
        _names_check(sc.move.squadmate, [s.name for s in sqs], "move.squadmate", source)
        for i, h in enumerate(sc.move.path):
            _hex_field(h, f"move.path[{i}]", source)
    ch = sc.choices
    for i, n in enumerate(ch.activation_order + ch.opportunity_order):
        _names_check(n, sorted(names), "choices", source)
    for n in ch.attack_target:
        _names_check(n, [s.name for s in sqs], "choices.attack_target", source)
    for k, v in ch.advance_to.items():
        _names_check(k, sorted(names), "choices.advance_to", source)
        _hex_field(v, f"choices.advance_to.{k}", source)
    for i, h in enumerate(ch.spawn_hex):
        _hex_field(h, f"choices.spawn_hex[{i}]", source)
    for i, ins in enumerate(sc.hazard):
        if ins.do == "activate" and not ins.types:
            raise _ScenarioError(f"hazard[{i}].types", "an Activate instruction names Enemy types",
                                 "a list such as ['Husk'] ('Elites' for every Elite)", source)
        if (ins.do == "special") != (ins.text is not None):
            raise _ScenarioError(f"hazard[{i}].text", "only a Special instruction (do = 'special') has a text, and "
                                 "it must have one", "a text of 1-300 characters with do = 'special', else none",
                                 source)
    return sc


def _hex_field(text: str, field_: str, source) -> Hex:
    try:
        return _parse_hex(text)
    except ValueError as e:
        raise _ScenarioError(field_, str(e), "an axial hex 'q,r'", source) from None


def _card(sc: ActivationScenario) -> list[Instruction]:
    out: list[Instruction] = []
    for ins in sc.hazard:
        if ins.do == "activate":
            out.append(Activate(tuple(ins.types)))
        elif ins.do == "activate_elites":
            out.append(Activate(("Elites",)))
        elif ins.do == "activate_spawned":
            out.append(ActivateSpawned())
        elif ins.do == "activate_furthest":
            out.append(ActivateFurthest())
        elif ins.do == "special":
            out.append(SpecialInstruction(ins.text or ""))
        else:
            out.append(SpawnMinion(ins.at))
    return out


@dataclass(frozen=True)
class ActivationContext(Context):
    """What the steps of an ``activation`` scenario read and never change: the ruling readings (``rulings``), the map
    (``terrain``), the player's ``choices``, and the scenario's declarations: ``start_of_round`` (Inferno Damage
    first), the Squadmate's ``move`` (``(squadmate, path, forced)`` or ``None``),
    ``end_of_turn`` (the Coolant Leak check) and the Move die's ``movement_points`` (``None``: not declared); the
    Hazard card is the state's (:attr:`Board.hazard`). No dice: the
    Enemy Bag's draws are the state's ``bag``."""

    terrain: Terrain | None = None
    choices: Choices = Choices()
    start_of_round: bool = False
    move: tuple[str, tuple[Hex, ...], bool] | None = None
    end_of_turn: bool = False
    movement_points: int | None = None


def start_of_the_round(board: Board, ctx: ActivationContext) -> tuple[Board, tuple[Step, ...]]:
    """Inferno Icons, at the start of the Round (when the scenario asks for it)."""
    if not ctx.start_of_round:
        return board, ()
    board, steps = inferno_start_of_round(ctx.terrain, board)
    if not steps:
        steps = [Step("Start of the Round: nobody stands in an Inferno hex", S.INFERNO)]
        board = board.shown()
    return board, tuple(s.in_section("Start of the Round") for s in steps)


def squadmate_move(board: Board, ctx: ActivationContext) -> tuple[Board, tuple[Step, ...]]:
    """Step B: the Squadmate's Move Action (Basic Actions › Move) with its Opportunity Attacks; a refused path is a
    "Not allowed" step and changes nothing."""
    if ctx.move is None or board.failed:
        return board, ()
    mover, path, forced = ctx.move
    try:
        board, steps = opportunity_attacks(ctx.terrain, board, mover, path, forced=forced, choices=ctx.choices,
                                           movement_points=ctx.movement_points, rulings=ctx.rulings)
    except RuleViolation as v:                       # the refusal names the rule, the field (move.path[i]), the reason
        said = f"{v.reason} [{v.section}]"
        title = f"Not allowed: {said}"
        board = replace(board, rejected=said).logged(Refused(title)).shown()
        steps = [Step(title, S.BASIC_ACTIONS, facts={"rejected": True})]
    return board, tuple(s.in_section("Step B: Move") for s in steps)


def end_of_the_turn(board: Board, ctx: ActivationContext) -> tuple[Board, tuple[Step, ...]]:
    """Coolant Leaks, at the end of the current Squadmate's turn (when the scenario asks for it)."""
    if not ctx.end_of_turn or board.failed:
        return board, ()
    board, steps = coolant_leak_end_of_turn(ctx.terrain, board, board.current)
    if not steps:
        steps = [Step(f"{board.current} does not end the turn in a Coolant Leak hex", S.COOLANT_LEAKS)]
        board = board.shown()
    return board, tuple(s.in_section("End of the turn") for s in steps)


ACTIVATION_SEQUENCE = (("Start of the Round", start_of_the_round), ("Step B: Move", squadmate_move),
                       *HAZARD_CARD_SEQUENCE, ("End of the turn", end_of_the_turn))
"""The ``activation`` kind as the kernel plays it, in the order of a Round: Inferno Damage at the start of the Round,
the Squadmate's Move, the Hazard card, the Coolant Leak check at the end of the turn."""


def activation_start(scenario: ActivationScenario, rulings: Mapping[str, str] | None = None
                     ) -> tuple[Board, ActivationContext]:
    """The initial :class:`Board` and the :class:`ActivationContext` of an ``activation`` scenario (rulings: the
    file's, then ``rulings``)."""
    r = _rulings_for({**scenario.rulings, **(rulings or {})})
    m = _load_map(scenario.map, None)
    terrain = MapTerrain(m, r)
    sqs, ens = _check_units(scenario.squadmates, scenario.enemies, None, need_positions=True)
    bag = _check_bag(scenario.bag, ens, [s.name for s in sqs], None)
    board = Board(sqs, ens, scenario.current, bag, asari_controller=scenario.asari_controller,
                  hazard=tuple(_card(scenario)))
    ch = scenario.choices
    choices = Choices(tuple(ch.activation_order), tuple(ch.attack_target),
                      {k: _parse_hex(v) for k, v in ch.advance_to.items()}, tuple(_parse_hex(h) for h in ch.spawn_hex),
                      tuple(ch.opportunity_order))
    mv = scenario.move
    move = (mv.squadmate, tuple(_parse_hex(h) for h in mv.path), mv.forced) if mv else None
    return board, ActivationContext(r, None, terrain, choices, scenario.start_of_round, move, scenario.end_of_turn,
                                    mv.movement_points if mv else None)


def activation_outcome(board: Board) -> ActivationOutcome:
    """The typed outcome of a resolved ``activation`` scenario: every character where the activation leaves it."""
    return ActivationOutcome(
        tuple(SquadmateAt(s.name, s.shield_points, s.hit_points, s.downed, hex=str(s.position))
              for s in board.squadmates),
        tuple(EnemyAt(e.name, e.damage, e.stunned, hex=str(e.position)) for e in board.enemies),
        board.returned_to_bag, board.failed, board.rejected, board.log)


def resolve_activation(scenario: ActivationScenario, rulings: Mapping[str, str] | None = None,
                       seed: int | None = None) -> _Trace:
    """Resolve an ``activation`` scenario (:data:`ACTIVATION_SEQUENCE`): (start of Round Inferno Damage), (the
    Squadmate's Move with Opportunity Attacks), the Hazard card, (end of turn Coolant Leak). ``seed`` is unused: the
    Enemy Bag's draws are the scenario's ``bag``.

    Returns:
        a Trace whose typed ``result`` is an :class:`.results.ActivationOutcome`; its JSON ``outcome`` is
        ``{"squadmates": {name: {hex, shield_points, hit_points, downed}}, "enemies": {name: {hex, damage,
        stunned}}, "returned_to_bag": [...], "mission_failed": bool, "rejected": str | None}``.
    """
    return play_activation(scenario, rulings)[1]


def play_activation(scenario: ActivationScenario, rulings: Mapping[str, str] | None = None
                    ) -> tuple[tuple[Frame[Board], ...], _Trace]:
    """The kernel frames of an ``activation`` scenario (one per step of :data:`ACTIVATION_SEQUENCE`; the last
    frame's :attr:`Board.scenes` hold one :class:`Scene` per trace step, what the step-through page draws) and its
    trace, whose typed ``result`` is an :class:`.results.ActivationOutcome`."""
    board, ctx = activation_start(scenario, rulings)
    frames = play(board, ACTIVATION_SEQUENCE, ctx)
    trace = trace_of(scenario.title or "Enemy activation", frames, ctx.rulings.consulted)
    return frames, trace.with_result(activation_outcome(frames[-1].state))
