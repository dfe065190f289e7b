"""Combat resolution: a Hit roll turned into wounds, one cited step at a time.

Sections: 9.2 Combat and 11.12 Combat (Hit roll with coloured dice or a fixed number of hits, powers adding hits,
Bolt effects applied once), 7.2.1 Targeting and Damaging Burrowing Aliens (the Vulnerability check for every target
at once, before the Hit roll), 8.3 Mark Locking System (a Mark counts from the moment it is placed), 11.7 Multiple
Energy Shielded Armor (the stack with most shields left blocks, Left on a tie, only that stack absorbs), 9.5.2.3
Energy Shields (a Power Suit's shields override every other shield, power and item), 8.1 Lethal (no Defend roll),
Storybook 5.5.1 High Impact (one Blue die per hit, "-X Def Dice" applied to the hits, at most 5 dice; the Defend roll
itself is the Core Set's, kept by 9.2 for an agent's attack, 11.12 for an alien's, 10.2.2 for an NPC's), 9.3.1 Health
Points and 10.4 NPC Health Status (wounds, death, bleeding), 9.3.2 Poisoned, 8.2 Critical (one token per attack that
dealt a wound; 8.2.1 compatibility redraw; 8.2.2 duration; 8.2.3 the same effect never twice, a greater one
replaces a lesser one), 11.3 Master Aliens (immune to Paralyze), 8.4 Explosion and 11.6 Prime Swarm Units (who an
Area or Explosion attack hits), 11.3.1 Menacing Agent System (the Menace token after each attack).

Three sequences on the kernel (:mod:`explorer.kernel`), each a tuple of plain step functions
``step(state, ctx) -> (state, steps)`` over a frozen state: :data:`COMBAT_SEQUENCE` (the High Impact setting, then
every attack) over :class:`CombatState` with a :class:`CombatContext`; :data:`ATTACK_SEQUENCE` (target selection,
the Hit roll, each target's defence, the Menace token); :data:`DEFENCE_SEQUENCE` (Mark, Energy Shields, items, the
Defend dice, the Defend roll, wounds, Poison, the Critical token) over :class:`Defence` with a
:class:`DefenceContext`. The dice are one :class:`~explorer.dice.Dice` (the seed, or an explicit roller) and, per
attack, a :class:`TableDice` over it (the scenario's fixed faces and Critical draws where given, calibrated faces and
the Critical piles otherwise, :class:`CriticalPiles`: a drawn token stays out until its pile is empty, 8.2).
:func:`resolve_combat` returns the trace with a typed :class:`CombatOutcome`;
:mod:`.odds` runs the same defence steps (:data:`PREPARE_STEPS`, :data:`FINISH_STEPS`) over exact distributions.

Scenario kind ``combat`` (TOML)::

    game = "galaxydefenders"
    kind = "combat"
    title = "..."
    high_impact = true                  # Storybook 5.5.1 (default On)
    seed = 1                            # dice not fixed below are rolled from it
    [rulings]                           # {option key = reading}, see options.py
    [calibration]                       # optional: dice faces / Critical piles (calibration.py format)
    [menace]                            # optional (11.3.1): the Menace token; each attack that wounds a Master
    holder = "Hulk"                     #   Alien moves it (the attacker, or a drone's / NPC's ``controller``)
    level = 1
    [close_encounter]                   # optional: the top card of the Close Encounter discard pile
    card = 12
    activates = ["Wormoon"]             # the aliens that card activates
    [[targets]]
    name = "Hulk"
    kind = "agent"                      # agent | alien | master_alien | npc | drone
    health = 8                          # Health points as printed
    wounds = 0
    energy_shields = [1]                # one entry per shield icon (stack), Left first: shields remaining
    power_suit_shields = 2              # optional (agents in a Power Suit)
    standard_shields = 1                # shield results given by powers such as "No Pain" (useless vs Lethal)
    cancel_hits = 0                     # hits cancelled by items and powers (work against Lethal too)
    mark = 0                            # Mark token on it (0, 1, 2)
    poison = 0                          # Poison token on it (0, 1, 2)
    criticals = [{effect = "def_dice_minus", x = 1}]   # Critical tokens already on it; level = 1 / 2 (its
                                        #   pile, 8.2) is needed for an X = 0 effect, in both piles
    burrowing = false
    area = "target"                     # target | same | adjacent | other (relative to the attack's target)
    walking_path = true                 # for "adjacent": joined to the target's Area by a legal walking path
    at = "2,0"                          # with [map] instead of area / walking_path: the target's hex
    base = "3,0"                        #   and a two-hex base's other hex (11.8)
    [[attacks]]
    attacker = "Crimson Nightmare"
    attacker_kind = "alien"
    weapon = "Bite"
    dice = { red = 4, yellow = 1 }      # or fixed_hits = 3 (no dice)
    bonus_hits = 0                      # hits added by powers and items (+2 hits Tactic)
    bonus_dice = { red = 1 }            # Hit dice added by powers and items (9.2: of the weapon's colours; an
                                        #   agent with a multi-colour weapon chooses which)
    effect_symbols = ["bolt"]           # the symbols that trigger the "bolt" effects (9.2: some weapons use
                                        #   another symbol exactly like the Bolt, applied once)
    power_suit_weapon = false           # 9.5.2.2: Red and Blue dice, its jam and ammo results are ignored
    atk_dice_minus = 0                  # the attacker's own "-X ATK Dice" Critical (no effect on fixed hits)
    drop = []                           # which colours those X dice are taken from, for a multi-colour pool
    no_bolt = false                     # the attacker's "cannot use Bolt effects" Critical
    damage = "single"                   # single | area | explosion
    target = "Hulk"
    effects = [{kind = "lethal", trigger = "always"}, {kind = "critical", x = 1, trigger = "target_marked"}]
    [attacks.rolled]                    # optional fixed dice
    hit = { red = ["hit", "hit", "hit", "hit"], yellow = ["bolt"] }
    defend = { Hulk = ["shield", "blank"] }
    critical = { Hulk = ["c1-damage"] }  # token ids in the order drawn (incompatible ones are redrawn); each
                                         #   must be left in its pile (8.2)
    # critical_discard = ["c1-damage"]  # top level, optional: tokens in the discard piles at the start (8.2)

With a ``[map]`` (the ``activation`` map format: ``[map.areas]``, ``[map.centres]``, ``map.blocking``,
``[[map.edges]]``) every target gives ``at`` (and ``base``), and the Area relation of each Area / Explosion attack
is computed from the hexes (:func:`areas_from_map`: 8.4, 11.8, 5.1).

Effects: ``lethal``, ``def_dice_minus`` (x), ``critical`` (x = pile level), ``mark`` (x = 1/2), ``poison`` (x = 1/2);
triggers ``always``, ``bolt`` (at least one Bolt rolled) or ``target_marked`` (the target carries a Mark).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal, Protocol

from explorer.dice import Dice, Roller
from explorer.errors import DiceScriptExhausted, ScenarioError
from explorer.kernel import Context, Each, Outcome, play, run, trace_of
from explorer.options import Rulings
from explorer.text import agree, join_words, plural
from explorer.trace import Step, Trace

from . import sections as S
from .menace import Menace, master_alien_wounded
from .calibration import Calibration, CriticalToken, Face, calibration_from_data, default_calibration
from .options import rulings as make_rulings

if TYPE_CHECKING:   # annotations only: the file models import pydantic (see _FILE_MODELS)
    from .combat_file import AttackModel, CloseEncounterModel, CombatScenario, RolledModel, TargetModel

HIGH_IMPACT_CAP = 5
"""Storybook 5.5.1: at most five Blue dice in a Defend roll when High Impact is on."""

CLEARLY_MATCHING = frozenset({1, 3, 4, 16, 13, 15, 26, 12, 31, 29, 30})
"""Close Encounter cards 7.2.1 lists as clearly matching."""
NOT_CLEARLY_MATCHING = frozenset({14, 21, 22, 23, 24})
"""Close Encounter cards 7.2.1 lists as not clearly matching."""

Kind = Literal["agent", "alien", "master_alien", "npc", "drone"]
Trigger = Literal["always", "bolt", "target_marked"]
EffectKind = Literal["lethal", "def_dice_minus", "critical", "mark", "poison", "push"]
EffectSymbol = Literal["bolt", "wings", "shield", "jam", "ammo"]
"""Die symbols a weapon may use to trigger its effects (9.2: some weapons and armors use another symbol exactly like
the Bolt; 9.5.2.2 the Power Suit's weapon)."""
SYMBOL_FIELD = {"bolt": "bolts", "wings": "wings", "shield": "shields", "jam": "jams", "ammo": "ammo"}
"""Each effect symbol's count on a :class:`~.calibration.Face`."""
MAX_DICE = 12
"""Hit dice of one colour in one attack (and of the whole pool after "-X ATK Dice")."""
MAX_SHIELDS = 10
"""Shields left in one Energy Shield stack (the largest printed stack is far below this)."""
MAX_DEFEND_FACES = 64
"""Fixed Blue dice listed for one target in one attack (at most one per hit: 4 colours x 12 dice x 4 symbols + 10)."""
MAX_DRAWS = 60
"""Fixed Critical token draws listed for one target (the calibration holds at most 60 token kinds)."""
MAX_NAME = 40
"""Characters in a figure, weapon or die-colour name."""

MAX_POOL = 24
"""Hit dice in one attack, all colours together."""
EFFECT_X: dict[str, tuple[int, int]] = {"lethal": (0, 5), "def_dice_minus": (1, 5), "critical": (1, 2),
                                        "mark": (1, 2), "poison": (1, 2), "push": (1, 5)}
"""Allowed ``x`` of each attack effect: Critical piles 1-2 (8.2), Mark 1-2 (8.3), Poison 1-2 (9.3.2), -X Def Dice
1-5 (Storybook 5.5.1), push back 1-5 hexes (an agent's power or item such as Hulk's Charge or the Shockwave grenade,
11.3); ``x`` is unused for Lethal (8.1)."""

_FILE_MODELS = frozenset({"Name", "FaceLabel", "EffectModel", "HeldCritical", "TargetModel", "CombatMapModel",
                          "RolledModel", "AttackModel", "MenaceModel", "CloseEncounterModel", "CombatScenario"})
"""The file format's pydantic models, in :mod:`.combat_file` (imported when a file is validated, never by playing a
validated scenario, so this module imports no pydantic: issue 18); ``from .combat import AttackModel`` still works
(:func:`__getattr__`)."""


def __getattr__(name: str):
    """The file models (:data:`_FILE_MODELS`) by their old address, imported on first use."""
    if name in _FILE_MODELS:
        from . import combat_file

        return getattr(combat_file, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def scenario_calibration(sc: CombatScenario) -> Calibration:
    """A combat scenario's calibration: its ``[calibration]`` table over the packaged default, or the default."""
    if sc.calibration is None:
        return default_calibration()
    return calibration_from_data(sc.calibration, sc._source, prefix="calibration.")


class FixedFacesShort(DiceScriptExhausted):
    """A scenario's fixed faces ran out (``rolled.defend.<target>``, ``rolled.critical.<target>``): ``field`` is the
    path (a target name may hold spaces or dots, so the field is carried apart, never parsed from the message) and
    ``problem`` what is short."""

    def __init__(self, field: str, problem: str, allowed: str | None = None):
        super().__init__(f"{field} {problem}")
        self.field, self.problem, self.allowed = field, problem, allowed


def _in_file(field: str, prefix: str, rolled_at: str | None) -> str:
    """``field`` as the file names it: ``prefix`` before it, or a ``rolled.<rest>`` field under ``rolled_at``."""
    if rolled_at and field.startswith("rolled."):
        return rolled_at + field[len("rolled"):]
    return prefix + field


@contextmanager
def with_source(source: str, prefix: str = "", rolled_at: str | None = None):
    """Inside this block, a :class:`ScenarioError` raised without a file (by a helper that does not know it: a die,
    a Critical pile, the ruling options) or a :class:`DiceScriptExhausted` is raised again as a one-line
    ScenarioError naming ``source`` and the field (``prefix`` put before it, e.g. ``"attacks[1]."``). ``rolled_at``:
    where the attack's fixed dice sit in the file when that is not ``<prefix>rolled`` (a Close Encounter card's
    ``turns[i].close_encounter.rolled.<alien>``): a field ``rolled.<rest>`` is then named ``<rolled_at>.<rest>``."""
    try:
        yield
    except ScenarioError as e:
        if e.source is not None and not prefix:
            raise
        raise ScenarioError(_in_file(e.field, prefix, rolled_at), e.problem, e.allowed, e.source or source) from None
    except DiceScriptExhausted as e:
        allowed = "as many fixed faces as the roll needs, or none (rolled from the seed)"
        if isinstance(e, FixedFacesShort):
            field, problem, allowed = _in_file(e.field, prefix, rolled_at), e.problem, e.allowed or allowed
        else:                                   # a roller's own script: no field of the file ran out
            field, problem = prefix.rstrip("."), str(e)
        raise ScenarioError(field, problem, allowed, source) from None


def parse_combat(data: dict, source: str) -> CombatScenario:
    """Validate a ``combat`` scenario document (``game`` and ``kind`` included).

    Raises:
        ScenarioError: a field out of bounds or unknown; an attack naming an unknown target; a die colour the
            calibration does not know; fixed faces that do not exist on that die or do not match the dice rolled;
            both ``dice`` and ``fixed_hits``; a Bolt-triggered effect on a fixed-hits weapon (no dice, no Bolt);
            ``atk_dice_minus`` on a multi-colour pool without ``drop``; duplicate target names.
    """
    from explorer.scenario import validate

    from .combat_file import CombatScenario

    sc = validate(CombatScenario, data, source)
    sc._source = source
    with with_source(source):
        _check_combat(sc, source)
    return sc


def combat_map(sc: CombatScenario, source: str = "scenario"):
    """The scenario's map of Areas (:class:`.activation.AreaMap`) and each target's hexes (``{name: (at,)}`` or
    ``(at, base)`` for a two-hex base, 11.8); ``(None, {})`` without a ``[map]``."""
    if sc.map is None:
        return None, {}
    from explorer.board import parse_hex_key

    from .activation import parse_map

    with with_source(source, "map."):
        amap = parse_map(sc.map, None)
    # parse_hex_key, not Hex.parse: a target's hex is checked here first (``_check_map`` calls this), so a word
    # where a hex belongs is a one-line error naming the field, not a ValueError
    spots = {t.name: tuple(parse_hex_key(h, f"targets[{i}].{key}", source)
                           for key, h in (("at", t.at), ("base", t.base)) if h is not None)
             for i, t in enumerate(sc.targets)}
    return amap, spots


def _check_map(sc: CombatScenario, source: str) -> None:
    """With a ``[map]``: every target stands on open map hexes (``at``, and ``base`` adjacent to it), no two
    targets share a hex, and ``area`` / ``walking_path`` are left to the map. Without one: no ``at`` / ``base``."""
    from explorer.board import parse_hex_key
    from explorer.hexgrid import distance

    if sc.map is None:
        for i, t in enumerate(sc.targets):
            for key in ("at", "base"):
                if getattr(t, key) is not None:
                    raise ScenarioError(f"targets[{i}].{key}", "a hex needs a [map] of Areas",
                                        "omit it, or add [map] with areas", source)
        return
    amap, _ = combat_map(sc, source)
    seen: dict = {}
    for i, t in enumerate(sc.targets):
        if t.at is None:
            raise ScenarioError(f"targets[{i}].at", f"{t.name} has no hex on the map", "a \"q,r\" hex of an Area",
                                source)
        if "area" in t.model_fields_set or "walking_path" in t.model_fields_set:
            raise ScenarioError(f"targets[{i}].area", "with a [map] the Area relation is computed from the hexes",
                                "omit area and walking_path", source)
        if t.base is not None:
            d = distance(parse_hex_key(t.at, f"targets[{i}].at", source),
                         parse_hex_key(t.base, f"targets[{i}].base", source))
            if d != 1:
                raise ScenarioError(f"targets[{i}].base", f"hex {t.base} is {t.name}'s face hex ('at') itself"
                                    if d == 0 else f"hex {t.base} is not adjacent to {t.at}",
                                    "a hex adjacent to 'at', not 'at' itself (a two-hex base, 11.8)", source)
        for key in ("at", "base"):
            v = getattr(t, key)
            if v is None:
                continue
            h = parse_hex_key(v, f"targets[{i}].{key}", source)
            if h not in amap.area_of or h in amap.blocking:
                raise ScenarioError(f"targets[{i}].{key}", f"hex {h} is not an open map hex",
                                    "a hex of an Area, not Blocking", source)
            if h in seen:
                raise ScenarioError(f"targets[{i}].{key}", f"{t.name} and {seen[h]} share hex {h}",
                                    "one figure per hex", source)
            seen[h] = t.name


def _check_combat(sc: CombatScenario, source: str) -> None:
    names = [t.name for t in sc.targets]
    for i, t in enumerate(sc.targets):
        if names.count(t.name) > 1:
            raise ScenarioError(f"targets[{i}].name", f"{t.name!r} is used twice", "unique target names", source)
        if (t.stage is not None or t.keeps_fighting) and t.kind != "master_alien":
            raise ScenarioError(f"targets[{i}].{'stage' if t.stage is not None else 'keeps_fighting'}",
                                "only a Master Alien card has stages (11.3)", "kind = 'master_alien', or omit it",
                                source)
        if t.keeps_fighting and t.stage != 1:
            raise ScenarioError(f"targets[{i}].keeps_fighting", "the Mission 6 special rule keeps a Stage I Master "
                                "Alien fighting at 0 Health points", "stage = 1 with it, or omit it", source)
        if t.kind != "agent" and t.power_suit_shields is not None:
            raise ScenarioError(f"targets[{i}].power_suit_shields", "only agents equip a Power Suit (9.5)",
                                "omit it for aliens, NPCs and drones", source)
    _check_map(sc, source)
    cal = scenario_calibration(sc)
    make_rulings(sc.rulings)   # unknown keys/readings fail here
    for i, a in enumerate(sc.attacks):
        p = f"attacks[{i}]"
        if a.controller is not None and a.attacker_kind not in ("drone", "npc"):
            raise ScenarioError(f"{p}.controller", "only a drone or an NPC has a controlling agent",
                                "omit it, or attacker_kind = 'drone' / 'npc'", source)
        if a.target not in names:
            raise ScenarioError(f"{p}.target", f"no target named {a.target!r}", names, source)
        if a.fixed_hits is not None and a.dice:
            raise ScenarioError(f"{p}.fixed_hits", "a weapon gives either dice or a fixed number of hits",
                                "dice or fixed_hits, not both", source)
        _check_agent_weapon(a, p, source)
        if a.fixed_hits is None and not any(a.dice.values()):
            raise ScenarioError(f"{p}.dice", "the weapon rolls no dice and gives no fixed hits",
                                "dice = {colour = count} or fixed_hits = N", source)
        for colour, n in a.dice.items():
            cal.die(colour, f"{p}.dice.{colour}")
        rolled_n = sum(a.dice.values()) + sum(a.bonus_dice.values())
        if rolled_n > MAX_POOL:
            raise ScenarioError(f"{p}.dice", f"{plural(rolled_n, 'die')} in one Hit roll", f"at most {MAX_POOL}",
                                source)
        for j, e in enumerate(a.effects):
            lo, hi = EFFECT_X[e.kind]
            if not lo <= e.x <= hi:
                raise ScenarioError(f"{p}.effects[{j}].x", f"{e.kind} {e.x}", f"{e.kind} x from {lo} to {hi}",
                                    source)
            if e.kind == "critical" and not cal.pile(e.x):
                raise ScenarioError(f"{p}.effects[{j}].x", f"the calibration has no Critical {e.x} pile",
                                    sorted({t.level for t in cal.tokens}), source)
        if any(e.kind == "push" for e in a.effects) and a.attacker_kind != "agent":
            raise ScenarioError(f"{p}.effects", "a push back comes from an agent's power or item (11.3)",
                                "attacker_kind = 'agent' for a push effect", source)
        if a.fixed_hits is not None and any(e.trigger == "bolt" for e in a.effects):
            raise ScenarioError(f"{p}.effects", "a fixed-hits weapon rolls no dice, so no Bolt can trigger an "
                                "effect (9.2, 11.12)", "trigger = 'always' or 'target_marked'", source)
        if a.drop and not (a.atk_dice_minus and a.fixed_hits is None):  # else silently ignored
            raise ScenarioError(f"{p}.drop", "names the dice a -X ATK Dice Critical leaves out, but this attack "
                                + ("rolls no dice (fixed_hits)" if a.fixed_hits is not None else
                                   "has no atk_dice_minus"), "omit drop, or give atk_dice_minus (8.2.3)", source)
        if a.atk_dice_minus and a.fixed_hits is None:
            merged = weapon_and_bonus_dice(a)
            colours = [c for c, n in merged.items() if n]
            if len(colours) > 1 and len(a.drop) != min(a.atk_dice_minus, sum(merged.values())):
                raise ScenarioError(f"{p}.drop", f"the attacker must say which {a.atk_dice_minus} of its "
                                    f"{'/'.join(colours)} dice it leaves out (8.2.3 -X ATK Dice)",
                                    f"a list of {plural(a.atk_dice_minus, 'colour')} from {join_words(colours)}", source)
            for c in a.drop:
                if c not in colours:
                    raise ScenarioError(f"{p}.drop", f"{c!r} is not a colour of this pool", colours, source)
        if a.rolled:
            check_rolled_keys(a, names, p, source)
            pool = dice_pool(a)
            for colour, faces in a.rolled.hit.items():
                if len(faces) != pool[colour]:
                    raise ScenarioError(f"{p}.rolled.hit.{colour}", f"lists {len(faces)} faces but "
                                        f"{plural(pool[colour], colour + ' die', colour + ' dice')} are rolled", f"{pool[colour]} faces", source)
                for j, f in enumerate(faces):
                    cal.die(colour).face(f, f"{p}.rolled.hit.{colour}[{j}]")
            for tname, faces in a.rolled.defend.items():
                for j, f in enumerate(faces):
                    cal.defend.face(f, f"{p}.rolled.defend.{tname}[{j}]")
            for tname, ids in a.rolled.critical.items():
                for j, tid in enumerate(ids):
                    cal.token(tid, f"{p}.rolled.critical.{tname}[{j}]")


def check_rolled_keys(a: AttackModel, names, field: str, source: str, rolled_at: str | None = None) -> None:
    """Every key of an attack's fixed dice (``a.rolled``, not ``None``) names something this attack rolls (9.2 and
    11.12 the Hit roll; the Defend roll and the Critical token of each figure it may hit): ``rolled.hit.<colour>`` a
    colour of its pool (:func:`dice_pool`: the weapon's and the powers' dice after "-X ATK Dice"; none for fixed
    hits), ``rolled.defend.<name>`` and ``rolled.critical.<name>`` a figure in ``names`` (the ``combat`` kind's
    targets; on a round's map, the attacker's opponents). One check for the ``combat`` kind and the ``round`` on a
    map (``field``: the attack's field, e.g. ``attacks[0]`` or ``turns[0].activities[1]``); before, a round dropped
    such faces in silence and rolled from the seed.

    Raises:
        ScenarioError: ``<field>.rolled.hit.<colour>`` for a colour the attack does not roll (allowed: its colours),
            ``<field>.rolled.defend.<name>`` / ``<field>.rolled.critical.<name>`` for a name it cannot hit (allowed:
            the figures it can). ``rolled_at`` (default ``<field>.rolled``) is where the fixed dice sit in the file
            (a Close Encounter card's ``turns[i].close_encounter.rolled.<alien>``).
    """
    rolled_at = rolled_at or f"{field}.rolled"
    pool = dice_pool(a)
    for colour in a.rolled.hit:
        if colour not in pool:
            raise ScenarioError(f"{rolled_at}.hit.{colour}", f"{a.weapon or 'the attack'} rolls no {colour} dice",
                                sorted(pool) or "no hit list (the weapon gives fixed hits)", source)
    for key in ("defend", "critical"):
        for tname in getattr(a.rolled, key):
            if tname not in names:
                raise ScenarioError(f"{rolled_at}.{key}.{tname}", f"{tname!r} is not a figure {a.attacker} can "
                                    "hit here", sorted(names), source)


def _check_agent_weapon(a: AttackModel, p: str, source: str) -> None:
    """The fields of an agent's attack that powers, items and the Power Suit add (9.2, 9.5.2.2).

    Raises:
        ScenarioError: ``bonus_dice`` on a fixed-hits weapon or of a colour the weapon does not roll; a Power Suit
            weapon on an attacker that is not an agent, without both Red and Blue dice, or using its ignored jam /
            ammo results for effects; ``effect_symbols`` listing a symbol twice.
    """
    if a.bonus_dice and a.fixed_hits is not None:
        raise ScenarioError(f"{p}.bonus_dice", "a fixed-hits weapon rolls no dice (9.2: powers and items modify its "
                            "number of hits)", "bonus hits instead of bonus dice", source)
    colours = [c for c, n in a.dice.items() if n]
    for c, n in a.bonus_dice.items():
        if n and c not in colours:
            raise ScenarioError(f"{p}.bonus_dice.{c}", f"the weapon's Hit dice include no {c} one; a power adds dice of "
                                "the weapon's colours (9.2: with a multi-colour weapon the agent chooses which)",
                                colours, source)
    if len(set(a.effect_symbols)) != len(a.effect_symbols):
        raise ScenarioError(f"{p}.effect_symbols", "a symbol is listed twice", "each symbol once", source)
    if a.power_suit_weapon:
        if a.attacker_kind != "agent":
            raise ScenarioError(f"{p}.power_suit_weapon", "only an agent equipping a Power Suit fires its weapon "
                                "(9.5.2.2)", "attacker_kind = 'agent', or omit power_suit_weapon", source)
        if a.fixed_hits is not None or not (a.dice.get("red") and a.dice.get("blue")):
            raise ScenarioError(f"{p}.dice", "a Power Suit weapon uses both Blue and Red dice for the Hit roll "
                                "(9.5.2.2)", "dice = { red = N, blue = M }", source)
        bad = [x for x in a.effect_symbols if x in ("jam", "ammo")]
        if bad:
            raise ScenarioError(f"{p}.effect_symbols", f"a Power Suit weapon ignores its {join_words(bad)} results "
                                "(9.5.2.2: it cannot jam and uses no ammo)", ["bolt", "wings", "shield"], source)


def weapon_and_bonus_dice(a: AttackModel) -> dict[str, int]:
    """``{colour: dice}``: the weapon's dice plus those powers and items add (9.2), before "-X ATK Dice"."""
    pool = {c: n for c, n in a.dice.items() if n}
    for c, n in a.bonus_dice.items():
        if n:
            pool[c] = pool.get(c, 0) + n
    return pool


def effect_results(face: Face, symbols: Sequence[str]) -> tuple[int, int]:
    """``(Bolts, other effect results)`` on one Hit die face: the Bolt symbols when ``"bolt"`` is among the weapon's
    effect symbols, and its other effect symbols (9.2, 9.5.2.2)."""
    bolts = face.bolts if "bolt" in symbols else 0
    return bolts, sum(getattr(face, SYMBOL_FIELD[x]) for x in symbols if x != "bolt")


def dice_pool(a: AttackModel) -> dict[str, int]:
    """``{colour: dice rolled}``: the weapon's dice and those powers and items add (9.2), after the attacker's "-X
    ATK Dice" (8.2.3); empty for fixed hits."""
    if a.fixed_hits is not None:
        return {}
    pool = weapon_and_bonus_dice(a)
    left = a.atk_dice_minus
    order = list(a.drop) if len(pool) > 1 else [next(iter(pool))] * left
    for c in order:
        if left and pool.get(c, 0) > 0:
            pool[c] -= 1
            left -= 1
    return {c: n for c, n in pool.items() if n}


# ------------------------------------------------------------------------------------------------ runtime state

@dataclass(frozen=True)
class TargetState:
    """A target between steps (immutable). Shapes: ``stacks`` is the shields left per Energy Shield icon, Left
    first; ``criticals`` is ``((effect, x), ...)`` of the Critical tokens on it."""

    name: str
    kind: str
    health: int
    wounds: int = 0
    stacks: tuple[int, ...] = ()
    suit_shields: int | None = None
    standard_shields: int = 0
    cancel_hits: int = 0
    mark: int = 0
    poison: int = 0
    criticals: tuple[tuple[str, int], ...] = ()
    burrowing: bool = False
    area: str = "target"
    walking_path: bool = True
    stage: int | None = None
    keeps_fighting: bool = False
    pushed: int = 0
    pose: str = ""
    """An agent's Fighting Pose for the attack under way (9.2.2; set by the round, ``""``: none)."""
    pose_dice: int = 0
    """Def dice its Fighting Pose adds (+, against a ranged attack) or takes away (-, against a melee attack) for
    the attack under way (9.2.2; the round sets it per attack from the pose token)."""

    @classmethod
    def from_model(cls, t: TargetModel) -> "TargetState":
        return cls(t.name, t.kind, t.health, t.wounds, tuple(t.energy_shields), t.power_suit_shields,
                   t.standard_shields, t.cancel_hits, t.mark, t.poison, tuple((c.effect, c.x) for c in t.criticals),
                   t.burrowing, t.area, t.walking_path, t.stage, t.keeps_fighting)

    def critical_x(self, effect: str) -> int | None:
        """X of the Critical token with this effect on the target, or ``None``."""
        return next((x for e, x in self.criticals if e == effect), None)

    @property
    def max_health(self) -> int:
        """Health points less any "-X max Health" Critical (8.2.3)."""
        return self.health - (self.critical_x("max_health_minus") or 0)

    @property
    def at_zero(self) -> bool:
        """Wounds reached the maximum Health points (dead or bleeding, unless a mission rule keeps it fighting)."""
        return self.wounds >= self.max_health

    @property
    def down(self) -> bool:
        """Dead (aliens, NPCs, drones) or bleeding (agents): wounds reached the maximum Health points; never a Stage
        I Master Alien that a Mission Special Rule keeps fighting (``keeps_fighting``, Mission 6)."""
        return self.at_zero and not (self.keeps_fighting and self.stage == 1)

    def status(self) -> str:
        if not self.down:
            return "alive"
        return "bleeding" if self.kind == "agent" else "dead"


@dataclass(frozen=True)
class HitRoll:
    """A Hit roll: ``hits`` (dice hits + fixed + bonus), ``bolts`` rolled, ``others``: results of the weapon's
    other effect symbols (9.2, 9.5.2.2), ``faces`` ``((colour, label), ...)``."""

    hits: int
    bolts: int = 0
    faces: tuple[tuple[str, str], ...] = ()
    fixed: bool = False
    others: int = 0


@dataclass(frozen=True)
class TargetResult:
    """What one attack did to one target (``faces``: the labels of the Blue dice of its Defend roll)."""

    name: str
    hits: int
    absorbed: int = 0
    cancelled_by_items: int = 0
    blue_dice: int = 0
    shields_rolled: int = 0
    cancelled_by_dice: int = 0
    hit_wounds: int = 0
    extra_wounds: int = 0
    critical: str | None = None
    status: str = "alive"
    faces: tuple[str, ...] = ()

    @property
    def wounds(self) -> int:
        """Every wound the attack dealt this target (hits not cancelled, a second poison, a Critical's damage)."""
        return self.hit_wounds + self.extra_wounds

    def to_json(self) -> dict:
        """The target's line of an attack in the JSON outcome."""
        return {"name": self.name, "absorbed": self.absorbed, "cancelled_by_items": self.cancelled_by_items,
                "blue_dice": self.blue_dice, "shields_rolled": self.shields_rolled,
                "cancelled_by_dice": self.cancelled_by_dice, "hit_wounds": self.hit_wounds, "wounds": self.wounds,
                "critical": self.critical, "status": self.status}


class DiceSource(Protocol):
    """Where faces come from: ``hit(colour, n, label) -> tuple[Face]``, ``defend(target, n) -> tuple[Face]``,
    ``critical(target, level, kind) -> (token ids discarded as incompatible, token applied)``."""

    def hit(self, colour: str, n: int) -> tuple[Face, ...]: ...

    def defend(self, target: str, n: int) -> tuple[Face, ...]: ...

    def critical(self, target: str, level: int, kind: str) -> tuple[tuple[str, ...], CriticalToken]: ...


class CriticalPiles:
    """The Critical piles of one resolution (8.2): the tokens left in each level's pile and its discard pile.

    A drawn token leaves the pile: a compatible one goes onto the target (an instant one to the discard pile at
    once, 8.2.2), an incompatible one to the discard pile (8.2.1). The pile is recreated from the discard pile once
    it is empty (8.2; when exactly: ruling ``critical_pile_reform``). Like :class:`~explorer.dice.Dice` it is the
    one random device a resolution shares (every attack's :class:`TableDice` reads it) and is made anew for each
    resolution, so a replay draws the same tokens.

    Every token is in exactly one place (:meth:`census`): its level's pile, its level's discard pile, on a figure
    (``on``: figure name -> token ids, :meth:`place`) or out of play (``gone``: ruling
    ``critical_tokens_on_death = stay_out``). A token's pile is its level, the number on its back (8.2), whatever
    its X: an X = 0 effect (Paralyzed, shields removed) has a token in each pile, and each goes back to its own.

    Args:
        cal: the calibration (the token kinds and their counts).
        out: token ids not in the piles when the resolution starts (on a figure not named), each once.
        held: ``{figure name: token ids}`` on figures when the resolution starts (taken out of the piles; they go
            back to their own discard pile when they leave the figure).
        discard: token ids in the discard piles when it starts, each once.
        reform: ``"when_empty"`` or ``"next_draw"`` (ruling ``critical_pile_reform``); ``None``: ask ``rulings``.
        rulings: the resolution's :class:`~explorer.options.Rulings` (the reform reading is consulted only when a
            pile empties).

    Raises:
        ScenarioError: an id in ``out`` / ``discard`` with no token of it left in its pile (field ``critical_discard``).
    """

    def __init__(self, cal: Calibration, out: Sequence[str] = (), discard: Sequence[str] = (),
                 reform: str | None = None, rulings: Rulings | None = None,
                 held: Mapping[str, Sequence[str]] | None = None):
        self.cal, self._reform, self.rulings = cal, reform, rulings
        self.pile: dict[int, list[str]] = {}
        self.discard: dict[int, list[str]] = {}
        self.on: dict[str, list[str]] = {}
        """Token ids on each figure (placed by this resolution, or ``held`` at its start), in the order placed."""
        self.gone: list[str] = []
        """Token ids out of play (on a dead NPC's or drone's card under ``critical_tokens_on_death = stay_out``)."""
        self.unplaced: list[str] = []
        """Ids of ``out``: on some figure the resolution does not name (never returned)."""
        self.reformed: list[tuple[int, int]] = []
        """``(level, tokens in the new pile, after a draw emptied it)`` of every pile recreated so far (read by the
        steps)."""
        for t in cal.tokens:
            self.pile.setdefault(t.level, []).extend([t.id] * t.count)
            self.discard.setdefault(t.level, [])
        for who, ids in (held or {}).items():
            for tid in ids:
                tok = cal.token(tid, "criticals")
                if tid in self.pile[tok.level]:      # more held than the calibration counts: none left to take out
                    self.pile[tok.level].remove(tid)
                    self.on.setdefault(who, []).append(tid)
        for field, ids in (("critical_out", out), ("critical_discard", discard)):
            for tid in ids:
                tok = cal.token(tid, field)
                if tid not in self.pile[tok.level] and field == "critical_out":
                    continue                # more held than the calibration counts: none left to take out
                if tid not in self.pile[tok.level]:
                    raise ScenarioError(field, f"no {tid!r} token is left in the Critical {tok.level} pile "
                                        "(the calibration's count is used up)", "each token at most its count")
                self.pile[tok.level].remove(tid)
                if field == "critical_discard":
                    self.discard[tok.level].append(tid)
                else:
                    self.unplaced.append(tid)

    def reading(self) -> str:
        if self._reform is not None:
            return self._reform
        return self.rulings.reading("critical_pile_reform") if self.rulings is not None else "when_empty"

    def _recreate(self, level: int, after: bool) -> None:
        order = [t.id for t in self.cal.pile(level)]
        self.pile[level] = sorted(self.discard[level], key=order.index)
        self.discard[level] = []
        self.reformed.append((level, len(self.pile[level]), after))

    def _ready(self, level: int) -> None:
        """Before a draw: an empty pile is recreated now (``next_draw``; or ``when_empty`` with nothing discarded
        when it emptied)."""
        if not self.pile.get(level):
            self._recreate(level, False)

    def _left(self, level: int) -> None:
        """After a token left the pile: ``when_empty`` recreates an empty pile at once."""
        if not self.pile[level] and self.discard[level] and self.reading() == "when_empty":
            self._recreate(level, True)

    def take(self, level: int, tid: str, field: str) -> None:
        """A fixed draw (``rolled.critical``): token ``tid`` leaves the pile.

        Raises:
            ScenarioError: ``field``: no such token left in the pile (drawn earlier and not yet reshuffled)."""
        self._ready(level)
        if tid not in self.pile[level]:
            raise ScenarioError(field, f"no {tid!r} token is left in the Critical {level} pile: a drawn token stays "
                                "out until the pile is recreated (8.2)", sorted(set(self.pile[level])))
        self.pile[level].remove(tid)
        self._left(level)

    def draw(self, level: int, dice: Dice) -> str | None:
        """A seeded draw from the Critical ``level`` pile (``None``: pile and discard pile both empty)."""
        self._ready(level)
        bag = self.pile[level]
        if not bag:
            return None
        tid = bag.pop(dice.roll(len(bag), "Critical token") - 1)
        self._left(level)
        return tid

    def discard_effect(self, new: CriticalToken, x: int, holder: str | None = None) -> None:
        """The lesser token a greater one of the same effect replaced (8.2.3) goes to its discard pile: the token
        on ``holder`` with that effect (:meth:`place`); a figure's token this resolution does not know (a file's
        ``critical_out``): the token kind with that effect and ``x``, from ``new``'s pile if it has one."""
        mine = [t for t in self.on.get(holder or "", ()) if self.cal.token(t).effect == new.effect]
        if mine:
            self.release(holder, mine[0])
            return
        kinds = sorted((t for t in self.cal.tokens if t.effect == new.effect and t.x == x),
                       key=lambda t: t.level != new.level)
        if kinds and kinds[0].id in self.unplaced:
            self.unplaced.remove(kinds[0].id)
            self.to_discard(kinds[0].id)

    def place(self, holder: str, tid: str) -> None:
        """Token ``tid``, just drawn, stays on figure ``holder`` (8.2)."""
        self.on.setdefault(holder, []).append(tid)

    def release(self, holder: str, tid: str, out_of_play: bool = False) -> None:
        """Token ``tid`` leaves figure ``holder``: to its own level's discard pile (8.2.2, 8.2.3, 11.9), or out of
        play (``out_of_play``: ruling ``critical_tokens_on_death = stay_out``)."""
        self.on[holder].remove(tid)
        if out_of_play:
            self.gone.append(tid)
        else:
            self.to_discard(tid)

    def census(self) -> dict[str, int]:
        """``{token id: copies}`` over every place a token can be (piles, discard piles, figures, out of play, a
        file's unnamed ``critical_out``): equal to the calibration's counts at all times."""
        n: dict[str, int] = {}
        for ids in (*self.pile.values(), *self.discard.values(), *self.on.values(), self.gone, self.unplaced):
            for t in ids:
                n[t] = n.get(t, 0) + 1
        return n

    def to_discard(self, tid: str) -> None:
        """Token ``tid`` goes to its discard pile (incompatible, 8.2.1; instant, 8.2.2)."""
        tok = self.cal.token(tid)
        self.discard[tok.level].append(tid)


class TableDice:
    """The dice of one attack, on the sequence's one :class:`~explorer.dice.Dice`: the faces the attack's ``rolled``
    table fixes where given (calibrated faces named by their symbols, Critical tokens by id), else faces rolled on
    the calibrated dice and tokens drawn from the resolution's :class:`CriticalPiles` by ``dice`` (its seed, or its
    explicit roller; ``piles`` omitted: full piles of its own).

    Args:
        cal: the calibration (dice faces, Critical piles).
        rolled: the attack's fixed faces, or ``None``.
        dice: a :class:`~explorer.dice.Dice`, or any roller (then wrapped in one).
        tray: the Combat page's dice tray: its Blue faces (one per die the tray can show) are taken from the first.

    Raises (when asked):
        DiceScriptExhausted: more Blue dice or Critical draws than the fixed lists hold; a fixed Defend list
            (``rolled.defend.<target>``) that does not give exactly the Blue dice rolled (one per hit), while every
            die so far was given (issue #25; after a seeded draw a longer list is cut to the roll and a shorter one
            completed from the seed, as a Hit list).
        ScenarioError: a fixed Hit list (``rolled.hit.<colour>``) that does not give exactly the dice of that colour,
            while every die so far was given (issue #25 item 4). Once a die
            was drawn, a count may depend on that draw: a Hit list is then cut to the roll or completed from the
            seed, so that the same file is accepted for every draw.
    """

    def __init__(self, cal: Calibration, rolled: RolledModel | None, dice: Dice | Roller, tray: bool = False,
                 piles: CriticalPiles | None = None):
        self.cal, self.rolled, self.tray = cal, rolled, tray
        self.dice = dice if isinstance(dice, Dice) else Dice(roller=dice)
        self.piles = piles if piles is not None else CriticalPiles(cal)

    def hit(self, colour: str, n: int) -> tuple[Face, ...]:
        die = self.cal.die(colour)
        if self.rolled and colour in self.rolled.hit:
            given = self.rolled.hit[colour]
            if len(given) != n and not self.dice.drawn:  # issue #25 item 4: never a die lost or made up in silence
                raise ScenarioError(f"rolled.hit.{colour}", f"{plural(len(given), 'face')} given but the Hit roll "
                                    f"rolls {plural(n, colour + ' die', colour + ' dice')}", f"exactly {plural(n, 'face')}")
            return tuple(die.face(f, f"rolled.hit.{colour}[{j}]") for j, f in enumerate(given[:n])) + tuple(
                die.faces[self.dice.roll(die.sides, f"{colour} die") - 1] for _ in range(n - len(given)))
        return tuple(die.faces[self.dice.roll(die.sides, f"{colour} die") - 1] for _ in range(n))

    def defend(self, target: str, n: int) -> tuple[Face, ...]:
        die = self.cal.defend
        if self.rolled and target in self.rolled.defend:
            given = self.rolled.defend[target]
            if len(given) != n and not self.dice.drawn and not (self.tray and len(given) > n):  # issue #25
                raise FixedFacesShort(f"rolled.defend.{target}", f"{plural(len(given), 'face')} given but {target}'s "
                                      f"Defend roll rolls {plural(n, 'Blue die', 'Blue dice')} (one per hit)",
                                      f"exactly {plural(n, 'face')}")
            if len(given) < n and (self.tray or not self.dice.drawn):
                raise FixedFacesShort(f"rolled.defend.{target}", f"lists {plural(len(given), 'Blue die', 'Blue dice')}; "
                                      f"the Defend roll needs {n}")
            # a die was drawn, so the number of hits (n) may depend on it: the faces the list lacks are rolled from
            # the seed, as a Hit list's are, and the same file is accepted for every draw (issue #25 item 4)
            return tuple(die.face(f, f"rolled.defend.{target}[{j}]") for j, f in enumerate(given[:n])) + tuple(
                die.faces[self.dice.roll(die.sides, f"Blue die for {target}") - 1] for _ in range(n - len(given)))
        return tuple(die.faces[self.dice.roll(die.sides, f"Blue die for {target}") - 1] for _ in range(n))

    def critical(self, target: str, level: int, kind: str) -> tuple[tuple[str, ...], CriticalToken]:
        discarded: list[str] = []
        piles = self.piles
        if self.rolled and target in self.rolled.critical:
            for j, tid in enumerate(self.rolled.critical[target]):
                tok = self.cal.token(tid)
                if tok.level != level:
                    raise ScenarioError(f"rolled.critical.{target}", f"{tid!r} is a Critical {tok.level} token; "
                                        f"this draw is from the Critical {level} pile",
                                        [t.id for t in self.cal.pile(level)])
                piles.take(level, tid, f"rolled.critical.{target}[{j}]")
                if tok.compatible(kind):
                    return tuple(discarded), tok
                discarded.append(tid)
                piles.to_discard(tid)
            raise FixedFacesShort(f"rolled.critical.{target}", f"ran out before a token compatible with a {kind} "
                                  "was drawn")
        seen = 0
        while seen <= 2 * sum(t.count for t in self.cal.pile(level)):
            tid = piles.draw(level, self.dice)
            if tid is None:
                break
            seen += 1
            tok = self.cal.token(tid)
            if tok.compatible(kind):
                return tuple(discarded), tok
            discarded.append(tok.id)
            piles.to_discard(tid)
        raise ScenarioError("calibration.critical_tokens", f"the Critical {level} pile has no token for a {kind}"
                            + (" left (the others are on figures)" if seen else ""))


# ------------------------------------------------------------------------------------------------ step functions

def clearly_matching(card: int, rulings: Rulings) -> bool:
    """Whether a Close Encounter card is clearly matching (7.2.1); unlisted cards follow
    ``unlisted_close_encounter``."""
    if card in CLEARLY_MATCHING:
        return True
    if card in NOT_CLEARLY_MATCHING:
        return False
    return rulings.reading("unlisted_close_encounter") == "matching_if_it_activates"


def select_targets(attack: AttackModel, targets: Mapping[str, TargetState], ce: CloseEncounterModel | None,
                   rulings: Rulings) -> tuple[tuple[str, ...], list[Step]]:
    """Who the attack hits, checked for every target at once before the Hit roll.

    An Area attack hits the target and every target in its Area; an Explosion also every target one Area away
    joined by a legal walking path (8.4; Prime Swarm figures each count, 11.6). A Burrowing alien can be attacked
    only in the Vulnerability state: the top Close Encounter discard clearly matches an activation of it (7.2.1).
    A dead alien, NPC or drone is no longer a target.

    Returns:
        ``(target names hit, steps)``.
    """
    sec = "Target selection"
    primary = targets[attack.target]
    if attack.damage == "single":
        reach = [primary]
        steps = [Step(f"{attack.weapon} targets {primary.name}", combat_rule(attack.attacker_kind),
                      "A single-target attack hits one figure (one figure of a Prime Swarm).",
                      section=sec, marks=(primary.name,), facts={"damage": "single"})]
    else:
        rel = {"area": ("target", "same"), "explosion": ("target", "same", "adjacent")}[attack.damage]
        reach = [primary] + [t for t in targets.values() if t.name != primary.name and t.area in rel
                             and (t.area != "adjacent" or t.walking_path)]
        cut = [t.name for t in targets.values() if t.area == "adjacent" and not t.walking_path and
               attack.damage == "explosion"]
        steps = [Step(f"{attack.damage.title()} damage reaches {', '.join(t.name for t in reach)}",
                      S.AREA_DAMAGE,
                      ("Explosion works like Area Damage extended to the adjacent Areas joined by a legal walking "
                       "path, with the same hits and effects." if attack.damage == "explosion" else
                       "Area Damage hits every target in the targeted Area.")
                      + (f" Not reached (no legal walking path): {', '.join(cut)}." if cut else ""),
                      section=sec, marks=tuple(t.name for t in reach),
                      facts={"damage": attack.damage, "reached": [t.name for t in reach]})]
    kept = []
    for t in reach:
        if t.kind != "agent" and t.down:
            steps.append(Step(f"{t.name} is already dead: not a target", S.NPC_HEALTH if t.kind == "npc"
                              else S.HEALTH_POINTS, "", section=sec, marks=(t.name,)))
            continue
        if t.burrowing:
            card = ce.card if ce else None
            clear = card is not None and clearly_matching(card, rulings)
            activated = ce is not None and t.name in ce.activates
            ok = clear and activated
            why = ("no Close Encounter card is on the discard pile" if ce is None else
                   f"card #{card} is {'clearly matching' if clear else 'not clearly matching'} and "
                   f"{'activates' if activated else 'does not activate'} {t.name}")
            steps.append(Step(f"{t.name} (Burrowing) is {'in' if ok else 'not in'} the Vulnerability state: "
                              f"{'may' if ok else 'cannot'} be attacked", S.BURROWING_TARGETING,
                              f"Checked before the Hit roll for every target at once: {why}.", section=sec,
                              marks=(t.name,),
                              facts={"vulnerable": ok, "card": card}))
            if not ok:
                continue
        kept.append(t.name)
    return tuple(kept), steps


def effect_active(e: EffectModel, hr: HitRoll, attack: AttackModel, target: TargetState,
                  rulings: Rulings | None = None) -> bool:
    """Whether an effect applies to this target: ``always``; ``bolt`` with at least one Bolt, or a result of the
    weapon's other effect symbols (9.2: applied once however many), and no "cannot use Bolt" Critical on the
    attacker (8.2.3; whether it stops the other symbols too follows ``no_bolt_other_symbols``, consulted only when
    it decides); ``target_marked`` when the target carries a Mark."""
    if e.trigger == "always":
        return True
    if e.trigger == "bolt":
        if not attack.no_bolt:
            return hr.bolts > 0 or hr.others > 0
        if hr.others > 0 and rulings is not None:
            return rulings.reading("no_bolt_other_symbols") == "bolt_only"
        return False
    return target.mark > 0


def place_mark(target: TargetState, attack: AttackModel, hr: HitRoll, rulings: Rulings
               ) -> tuple[TargetState, list[Step]]:
    """Mark 1/2 effects (8.3): the token counts from the moment it is placed, so the same attack's effects that
    need a marked target apply (the book's Mark example). Mark 2 flips a Mark 1 up; a Mark 1 on a Mark 2 follows
    ``mark_lesser_on_greater``."""
    steps: list[Step] = []
    for e in attack.effects:
        if e.kind != "mark" or e.trigger == "target_marked" or not effect_active(e, hr, attack, target, rulings):
            continue
        old, new = target.mark, min(2, max(1, e.x))
        if new >= old:
            level = new
        else:
            level = new if rulings.reading("mark_lesser_on_greater") == "replace" else old
        target = replace(target, mark=level)
        steps.append(Step(f"{target.name} is marked: Mark {level}" + (f" (was Mark {old})" if old else ""), S.MARK,
                          "The target counts as Marked for every attacker from now on.", section="Attack effects",
                          marks=(target.name,), facts={"mark": level}))
    return target, steps


def wound_tally(wounds: int, health: int, unit: str = "") -> str:
    """The wounds of a figure as shown in text (9.3.1 Health Points): ``"wounds/health"``, never past the Health
    points; an overkill is said in words: ``wound_tally(7, 6) == "6/6 (1 more wound than it had left)"``. ``unit``
    (e.g. ``"wounds"``) goes right after the count, before the words: ``wound_tally(7, 6, "wounds") ==
    "6/6 wounds (1 more wound than it had left)"``.

    Every ``wounds`` field of the JSON and of the typed state is the true count of wounds suffered (it may pass the
    Health points); only the text caps it."""
    tail = f" {unit}" if unit else ""
    if wounds <= health:
        return f"{wounds}/{health}{tail}"
    return f"{health}/{health}{tail} ({plural(wounds - health, 'more wound')} than it had left)"


def suffer_wounds(target: TargetState, n: int, why: str, rule=S.HEALTH_POINTS, section: str = ""
                  ) -> tuple[TargetState, list[Step]]:
    """Add ``n`` wounds; an alien, NPC or drone whose wounds reach its Health points dies, an agent bleeds
    (9.3.1, 10.4, 8.2.3). The title shows :func:`wound_tally`; the facts keep true counts: ``wounds`` suffered in
    this step, ``total`` suffered so far (may pass ``health``), ``health`` the maximum Health points."""
    if n <= 0:
        return target, []
    before = target.status()
    t = replace(target, wounds=target.wounds + n)
    steps = [Step(f"{t.name} suffers {plural(n, 'wound')} ({why}): {wound_tally(t.wounds, t.max_health)}", rule, "",
                  section=section or
                  f"Wounds: {t.name}", marks=(t.name,), facts={"wounds": n, "total": t.wounds, "health": t.max_health})]
    if t.at_zero and not target.at_zero and not t.down:
        steps.append(Step(f"{t.name} (Stage I) reaches 0 Health points but is not dead: it keeps fighting until the "
                          "end of the round", S.SPECIAL_MISSION_RULES, "The mission's special rule overrides the "
                          "standard rules (11.3 Note): it fights on with each matching activation, and its card "
                          "changes stage as the mission says.", section=section or f"Wounds: {t.name}",
                          marks=(t.name,), facts={"status": t.status(), "stage": t.stage}))
    if t.status() != before:
        rule2 = S.NPC_HEALTH if t.kind == "npc" else S.HEALTH_POINTS
        steps.append(Step(f"{t.name} {'begins bleeding' if t.kind == 'agent' else 'dies'}", rule2,
                          "Its wounds reached its Health points.", section=section or f"Wounds: {t.name}",
                          marks=(t.name,),
                          facts={"status": t.status()}))
    return t, steps


def apply_poison(target: TargetState, level: int, wounded: bool, rulings: Rulings, section: str = ""
                 ) -> tuple[TargetState, list[Step]]:
    """A Poison 1/2 effect (9.3.2): agents, NPCs and drones take the token; a second poison keeps the greater
    token and the target immediately suffers 1 wound. Whether an attack that dealt no wound poisons follows
    ``poison_without_wound``."""
    sec = section or f"Attack effects: {target.name}"
    if target.kind in ("alien", "master_alien"):
        return target, [Step(f"Poison {level} has no effect on {target.name}", S.POISONED,
                             "Poison affects agents, NPCs and drones.", section=sec, marks=(target.name,))]
    if not wounded and rulings.reading("poison_without_wound") == "needs_wound":
        return target, [Step(f"Poison {level} is not applied: no wound was dealt", S.POISONED, "", section=sec,
                             marks=(target.name,))]
    if target.poison == 0:
        return replace(target, poison=level), [Step(f"{target.name} is poisoned: Poison {level}", S.POISONED,
                                                    "Each following Refresh phase it suffers 1 wound and the token "
                                                    "goes down one step.", section=sec, marks=(target.name,),
                                                    facts={"poison": level})]
    if level == target.poison and rulings.reading("identical_poison") == "nothing":
        return target, [Step(f"A second Poison {level}: nothing happens", S.POISONED,
                             "Neither effect is the lesser one: read as the same effect again, it adds nothing "
                             "(ruling identical_poison).", section=sec, marks=(target.name,),
                             facts={"poison": level})]
    keep = max(level, target.poison)
    t = replace(target, poison=keep)
    steps = [Step(f"Second poison: Poison {min(level, target.poison)} discarded, Poison {keep} kept", S.POISONED,
                  "Two poison effects cannot stay on one target: the lesser is discarded and the target suffers 1 "
                  "wound at once." if level != target.poison else
                  "Two poison effects cannot stay on one target: neither is lesser, one copy is discarded and the "
                  "target suffers 1 wound at once (ruling identical_poison).", section=sec, marks=(target.name,), facts={"poison": keep})]
    t, more = suffer_wounds(t, 1, "second poison", S.POISONED, sec)
    return t, steps + more


def critical_level(levels: Sequence[int], rulings: Rulings) -> int:
    """The pile an attack with Critical sources of these levels draws from (``critical_several_sources``)."""
    if len(set(levels)) == 1:
        return levels[0]
    return max(levels) if rulings.reading("critical_several_sources") == "highest_level" else min(levels)


def apply_critical_token(target: TargetState, tok: CriticalToken, section: str = ""
                         ) -> tuple[TargetState, int, list[Step]]:
    """Apply a compatible Critical token (8.2.2 duration, 8.2.3 effects): an instant "X additional damage" wounds
    at once; a Master Alien ignores Paralyze (11.3); the same effect twice is discarded unless the new one is
    greater, which replaces it. Returns ``(target, extra wounds, steps)``."""
    sec = section or f"Critical: {target.name}"
    if tok.effect == "extra_damage":
        t, steps = suffer_wounds(target, tok.x, f"Critical {tok.id}: {tok.x} additional damage", S.CRITICAL_EFFECTS,
                                 sec)
        return t, tok.x, [Step(f"Instant Critical: {tok.x} additional damage", S.CRITICAL_DURATION,
                               "A green token is applied and discarded at once.", section=sec,
                               marks=(target.name,))] + steps
    if tok.effect == "paralyzed" and target.kind == "master_alien":
        return target, 0, [Step(f"{target.name} ignores Paralyze", S.MASTER_ALIENS,
                                "Master Aliens are immune to any Paralyze effect.", section=sec, marks=(target.name,))]
    old = target.critical_x(tok.effect)
    if old is not None and tok.x <= old:
        return target, 0, [Step(f"{target.name} already has {tok.effect}; the new token is discarded",
                                S.CRITICAL_EFFECTS, "The same Critical effect cannot be on a target twice.",
                                section=sec,
                                marks=(target.name,))]
    crits = tuple((e, x) for e, x in target.criticals if e != tok.effect) + ((tok.effect, tok.x),)
    t = replace(target, criticals=crits)
    extra: list[Step] = []
    if tok.effect == "shields_removed":
        t = replace(t, stacks=tuple(0 for _ in t.stacks), suit_shields=0 if t.suit_shields is not None else None)
    if tok.effect == "max_health_minus" and t.status() != target.status():
        extra.append(Step(f"{t.name} {'begins bleeding' if t.kind == 'agent' else 'dies'}", S.CRITICAL_EFFECTS,
                          "Its wounds reach its lowered maximum Health points.", section=sec, marks=(t.name,),
                          facts={"status": t.status()}))
    word = "replaces the lesser one" if old is not None else "is placed"
    return t, 0, [Step(f"{tok.effect} {tok.x or ''} ({tok.duration}) {word}".replace("  ", " "),
                       S.CRITICAL_EFFECTS if old is not None else S.CRITICAL_DURATION,
                       (f"A greater effect of the same type replaces a lesser one: the {tok.effect} {old} token is "
                        "discarded. " if old is not None else "") +
                       {"temporary": "It lasts until the next Refresh phase.",
                        "permanent": "It lasts until the end of the mission, healed or death (a Body Condition)."}
                       [tok.duration], section=sec, marks=(t.name,),
                       facts={"effect": tok.effect, "x": tok.x, "duration": tok.duration})] + extra


# ------------------------------------------------------------------------------------------------ one target

@dataclass(frozen=True)
class Defence:
    """One target's defence against one attack, between steps (immutable).

    Attributes:
        target: the target as the steps so far leave it.
        hits: the attack's hits (its Hit roll).
        remaining: hits left after Energy Shields and items (the Defend roll's hits).
        absorbed: hits absorbed by Energy Shields; ``by_items``: hits cancelled by items and powers.
        suit_used: a Power Suit's shields were used (its agent's other shields, items and powers are bypassed).
        lethal: a Lethal effect applies (no Defend roll).
        blue_dice: Blue dice of the Defend roll.
        effects: the attack's effects active against this target (Mark aside).
        faces: the Blue faces rolled; ``shields``: shield results on them; ``cancelled``: hits they (and shield
            results from powers) cancelled.
        hit_wounds: wounds from hits not cancelled.
        critical: the Critical token applied (id), or ``None``.
        wounds_before: the target's wounds before the attack.
    """

    target: TargetState
    hits: int
    remaining: int = 0
    absorbed: int = 0
    by_items: int = 0
    suit_used: bool = False
    lethal: bool = False
    blue_dice: int = 0
    effects: tuple[EffectModel, ...] = ()
    faces: tuple[Face, ...] = ()
    shields: int = 0
    cancelled: int = 0
    hit_wounds: int = 0
    critical: str | None = None
    wounds_before: int = 0

    def result(self) -> TargetResult:
        """What the attack did to the target (:class:`TargetResult`)."""
        t = self.target
        return TargetResult(t.name, self.remaining + self.absorbed + self.by_items, self.absorbed, self.by_items,
                            self.blue_dice, self.shields, self.cancelled, self.hit_wounds,
                            t.wounds - self.wounds_before - self.hit_wounds, self.critical, t.status(),
                            tuple(f.label for f in self.faces))


Prepared = Defence
"""A :class:`Defence` after :data:`PREPARE_STEPS` (the deterministic part, before any Defend die)."""


@dataclass(frozen=True)
class DefenceContext(Context):
    """What the defence steps read: the ``attack`` and its Hit ``roll``, ``high_impact``, the attack's dice
    (``table``: a :class:`DiceSource`), and for the odds engine the Blue ``faces`` and the Critical ``token``
    (with the ids ``discarded`` before it) given instead of rolled / drawn."""

    attack: AttackModel | None = None
    roll: HitRoll | None = None
    high_impact: bool = True
    table: DiceSource | None = None
    faces: tuple[Face, ...] | None = None
    token: CriticalToken | None = None
    discarded: tuple[str, ...] = ()


def mark_target(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """8.3 Mark Locking System: Mark effects first (:func:`place_mark`), so the effects that need a marked target
    apply; then which of the attack's effects are active against this target."""
    target, steps = place_mark(d.target, ctx.attack, ctx.roll, ctx.rulings)
    active = tuple(e for e in ctx.attack.effects if e.kind != "mark" and effect_active(e, ctx.roll, ctx.attack,
                                                                                      target, ctx.rulings))
    return replace(d, target=target, effects=active, lethal=any(e.kind == "lethal" for e in active)), tuple(steps)


def absorb_with_energy_shields(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """11.7 Multiple Energy Shielded Armor, 9.5.2.3 Energy Shields: Energy Shields absorb hits first.

    A Power Suit with a shield left absorbs alone and makes every other shield, power and item be bypassed. Else
    the stack with the most shields left blocks (Left on a tie) and only that stack absorbs. A target whose
    shields a Critical removed absorbs nothing.
    """
    target, hits = d.target, d.hits
    sec = f"Defence: {target.name}"
    if hits <= 0:
        return replace(d, remaining=0, absorbed=hits), ()
    if target.critical_x("shields_removed") is not None:
        return replace(d, remaining=hits), (Step(
            f"{target.name}'s Energy Shields are down (Critical)", S.CRITICAL_EFFECTS,
            "Its Energy Shields were removed and cannot recharge until the token goes.", section=sec,
            marks=(target.name,)),)
    if target.suit_shields:
        used = min(hits, target.suit_shields)
        t = replace(target, suit_shields=target.suit_shields - used)
        return replace(d, target=t, remaining=hits - used, absorbed=used, suit_used=True), (Step(
            f"Power Suit shields absorb {plural(used, 'hit')} ({t.suit_shields} left)", S.POWER_SUIT_SHIELDS,
            "The Power Suit's shields must be used and override the agent's own shields, powers and items "
            "(bypassed, not spent).", section=sec, marks=(target.name,),
            facts={"absorbed": used, "suit_left": t.suit_shields}),)
    if not target.stacks or max(target.stacks) == 0:
        if target.stacks:
            return replace(d, remaining=hits), (Step(
                f"{target.name} has no Energy Shield left", S.MULTIPLE_ENERGY_SHIELDS,
                "Every stack is empty until the next Refresh phase.", section=sec, marks=(target.name,),
                facts={"stacks": list(target.stacks)}),)
        return replace(d, remaining=hits), ()
    best = max(target.stacks)
    i = target.stacks.index(best)   # first = Left on a tie
    used = min(hits, best)
    stacks = target.stacks[:i] + (best - used,) + target.stacks[i + 1:]
    side = (["Left", "Right"][i] if len(stacks) == 2 else f"Stack {i + 1}") if len(stacks) > 1 else "The"
    why = ("Each shield icon is a separate stack; the one with most shields left blocks (Left on a tie) and only it "
           "absorbs." if len(stacks) > 1 else "The Energy Shield absorbs one hit per shield.")
    return replace(d, target=replace(target, stacks=stacks), remaining=hits - used, absorbed=used), (Step(
        f"{side} Energy Shield stack absorbs {plural(used, 'hit')}; "
        + (f"stacks now {join_words(stacks)} shields" if len(stacks) > 1 else f"{plural(stacks[0], 'shield')} left"),
        S.MULTIPLE_ENERGY_SHIELDS, why, section=sec, marks=(target.name,),
        facts={"stack": i, "absorbed": used, "stacks": list(stacks)}),)


def cancel_with_items(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """8.1 Lethal: items and powers that cancel or reduce hits (they work against Lethal too); bypassed while a
    Power Suit's shields were used (9.5.2.3)."""
    target, hits = d.target, d.remaining
    if not target.cancel_hits or hits <= 0:
        return d, ()
    if d.suit_used:
        return d, (Step(f"{target.name}'s hit-cancelling items are bypassed", S.POWER_SUIT_SHIELDS,
                        "The Power Suit's shields were used this attack.", section=f"Defence: {target.name}",
                        marks=(target.name,)),)
    n = min(hits, target.cancel_hits)
    return replace(d, remaining=hits - n, by_items=n), (Step(
        f"Items and powers cancel {plural(n, 'hit')}", S.LETHAL, "Items and powers that modify the number of hits "
        "work against every attack, Lethal included.", section=f"Defence: {target.name}", marks=(target.name,),
        facts={"cancelled": n}),)


def combat_rule(attacker_kind: str):
    """The section that decides an attack's target, its Hit roll and its Defend roll (each shield result cancels
    one hit): the Core Set combat rule, which this book keeps for the attack's side: 9.2 Combat for an agent's or a
    drone's attack ("The Defend roll works as normal"; a drone counts as an agent, 9.7.4.2, 9.7.4.3), 11.12 Combat
    for an alien's ("The Defend roll works as usual"), 10.2.2 NPC Combat for an NPC's (the standard combat rules).
    Storybook 5.5.1 High Impact decides only how many Blue dice are rolled while it is on (:func:`count_defend_dice`).
    Returns a :class:`~explorer.trace.RuleRef`."""
    if attacker_kind in ("alien", "master_alien"):
        return S.ALIEN_COMBAT
    return S.NPC_COMBAT if attacker_kind == "npc" else S.AGENT_COMBAT


def count_defend_dice(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """8.1 Lethal: no Defend roll, and shield results from dice or equivalent powers cannot cancel Lethal hits.
    Else Storybook 5.5.1 High Impact: one Blue die per hit left, less every "-X Def Dice" (the weapon's and the
    target's own Critical, combined by ``def_dice_minus_sources``; subtracted from the count chosen by
    ``def_dice_minus_base``), at most 5 with High Impact, never below 0."""
    target, remaining = d.target, d.remaining
    sec = f"Defence: {target.name}"
    if remaining <= 0:
        return d, ()
    if d.lethal:
        extra = f"; its {plural(target.standard_shields, 'shield result')} from powers " \
            f"{agree(target.standard_shields, 'is', 'are')} useless" if target.standard_shields else ""
        return d, (Step(f"Lethal: {target.name} rolls no Blue dice", S.LETHAL,
                        f"Only Energy Shields and items or powers changing the number of hits stop Lethal hits{extra}.",
                        section=sec, marks=(target.name,), facts={"lethal": True}),)
    weapon_minus = sum(e.x for e in d.effects if e.kind == "def_dice_minus")
    crit_minus = target.critical_x("def_dice_minus") or 0
    minus = 0
    if weapon_minus or crit_minus:
        how = ctx.rulings.reading("def_dice_minus_sources")
        minus = weapon_minus + crit_minus if how == "add" else max(weapon_minus, crit_minus)
    base = remaining
    if minus:
        if ctx.rulings.reading("def_dice_minus_base") == "total_hits":
            base = d.hits
    n = max(0, base - minus)
    pose = target.pose_dice
    if pose:                                # 9.2.2: the pose's Def dice join each Defend roll, then the cap
        n = max(0, min(n, remaining) + pose)
    capped = ctx.high_impact and n > HIGH_IMPACT_CAP
    if ctx.high_impact:
        n = min(n, HIGH_IMPACT_CAP)
    if not pose:
        n = min(n, remaining)
    parts = [plural(base, "hit")]
    if minus:
        src = [s for s, v in (("weapon", weapon_minus), ("Critical", crit_minus)) if v]
        parts.append(f"-{minus} Def Dice ({' + '.join(src)})")
    if pose:
        parts.append(f"{pose:+d} Def Dice ({target.pose.title()}, against a "
                     f"{'ranged' if pose > 0 else 'melee'} attack)")
    total = max(0, min(max(0, base - minus), remaining) + pose) if pose else max(0, base - minus)
    text = " ".join(parts) + (f" = {total}, capped at {HIGH_IMPACT_CAP}" if capped else "")
    return replace(d, blue_dice=n), (Step(
        f"{target.name} rolls {plural(n, 'Blue die', 'Blue dice')}",
        S.FIGHTING_POSES if pose else
        S.HIGH_IMPACT if ctx.high_impact or minus else combat_rule(ctx.attack.attacker_kind),
        f"One Blue die per hit: {text}." + ("" if ctx.high_impact else " High Impact is off.") + (
            " The Fighting Pose token's number (a STAND-IN unless the file gives it)." if pose else ""),
        section=sec, marks=(target.name,), facts={"blue_dice": n, "minus": minus, "high_impact": ctx.high_impact}
        | ({"pose_dice": pose} if pose else {})),)


def defend_roll(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """The Defend roll (:func:`combat_rule`: 9.2, 11.12 or 10.2.2 by the attacker's side; with High Impact the
    dice were counted by Storybook 5.5.1): the Blue dice rolled (or given); each shield result (the Blue dice plus
    shield results from powers such as "No Pain", bypassed under a used Power Suit) cancels one hit. No Defend roll against
    Lethal hits. When "-X Def Dice" leaves no Blue die, whether the powers' shield results still cancel follows
    ``no_pain_without_dice`` (consulted only then)."""
    target = d.target
    if d.lethal or not d.remaining or not (d.blue_dice or (target.standard_shields and not d.suit_used)):
        return d, ()
    if not d.blue_dice and ctx.rulings.reading("no_pain_without_dice") == "needs_dice":
        return d, (Step(f"No Blue die is rolled: {target.name}'s "
                        f"{plural(target.standard_shields, 'shield result')} from powers cancel nothing",
                        S.HIGH_IMPACT, "With no Defend die there is no Defend roll for a power's standard shield "
                        "result to join (ruling no_pain_without_dice).", section=f"Defence: {target.name}",
                        marks=(target.name,), facts={"shields": 0, "extra": 0, "cancelled": 0}),)
    faces: tuple[Face, ...] = ()
    if d.blue_dice:
        faces = tuple(ctx.faces if ctx.faces is not None else ctx.table.defend(target.name, d.blue_dice))
    rolled = sum(f.shields for f in faces)
    extra = 0 if d.suit_used else target.standard_shields
    cancelled = min(d.remaining, rolled + extra)
    detail = "Faces: " + (", ".join(f.label for f in faces) or "none")
    if extra:
        detail += f"; +{plural(extra, 'shield result')} from powers"
    verb = "cancels" if rolled + extra == 1 else "cancel"
    return replace(d, faces=faces, shields=rolled, cancelled=cancelled), (Step(
        f"{plural(rolled + extra, 'shield result')} {verb} {plural(cancelled, 'hit')}",
        combat_rule(ctx.attack.attacker_kind),
        detail + ".", section=f"Defence: {target.name}",
        marks=(target.name,) + tuple(f"blue:{f.label}" for f in faces),
        facts={"faces": [f.label for f in faces], "shields": rolled, "extra": extra, "cancelled": cancelled}),)


def no_wound_rule(d: Defence, attacker_kind: str = "agent"):
    """The section that decides "suffers no wound". When Energy Shields absorbed hits, the shield section: the
    Power Suit's (9.5.2.3) or the alien's stacks (11.7); each sets the whole defence in order (shields first, then
    every hit left defended as usual: items, powers, Blue dice), as 11.7's example 2 shows (a hit absorbed, the
    last parried by the Blue die). Else the Defend roll (:func:`combat_rule` of the attacker's side) when its
    shield results cancelled some; else the hit-cancelling items and powers (8.1 Lethal); else (no hit to defend)
    the attack's combat rule, or 8.1 for a Lethal one."""
    if d.absorbed:
        return S.POWER_SUIT_SHIELDS if d.suit_used else S.MULTIPLE_ENERGY_SHIELDS
    if d.cancelled:
        return combat_rule(attacker_kind)
    if d.by_items:
        return S.LETHAL
    return combat_rule(attacker_kind) if not d.lethal else S.LETHAL


def suffer_hit_wounds(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """Storybook 5.5.1 High Impact (:func:`hit_wound_rule`): every hit not cancelled is a wound; 9.3.1 Health Points,
    10.4 NPC Health Status: death and bleeding (:func:`suffer_wounds`)."""
    hit_wounds = d.remaining - d.cancelled
    steps: list[Step] = []
    if hit_wounds == 0:
        steps.append(Step(f"{d.target.name} suffers no wound", no_wound_rule(d, ctx.attack.attacker_kind),
                          "Every hit was absorbed or cancelled.", section=f"Wounds: {d.target.name}",
                          marks=(d.target.name,)))
    target, st = suffer_wounds(d.target, hit_wounds, "hits not cancelled", hit_wound_rule(ctx))
    if st and not ctx.high_impact:
        st[0] = replace(st[0], detail="Each hit not cancelled deals one wound: the Core Set's rule, "
                        "which this rulebook restates only in Storybook 5.5.1 High Impact (off here).")
    return replace(d, target=target, hit_wounds=hit_wounds), tuple(steps + st)


def hit_wound_rule(ctx: DefenceContext):
    """The section that decides "each hit not cancelled deals one wound": Storybook 5.5.1 High Impact ("each
    remaining hit deals one wound") while it is on (its default); with it off, the Core Set's rule kept by the attack
    side's combat section (:func:`combat_rule`). 9.3.1 Health Points only introduces the wound token.
    Returns a :class:`~explorer.trace.RuleRef`."""
    return S.HIGH_IMPACT if ctx.high_impact else combat_rule(ctx.attack.attacker_kind)


def poison_effects(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """9.3.2 Poisoned: the attack's active Poison effects (:func:`apply_poison`)."""
    target, steps = d.target, []
    for e in d.effects:
        if e.kind == "poison":
            target, st = apply_poison(target, e.x, d.hit_wounds > 0, ctx.rulings)
            steps += st
    return replace(d, target=target), tuple(steps)


def draw_critical(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """8.2 Critical: one token per attack that dealt a wound, after every other effect, from the pile of its level
    (several sources: ``critical_several_sources``); 8.2.1 incompatible tokens are redrawn; 8.2.2 / 8.2.3 its
    effect (:func:`apply_critical_token`)."""
    levels = [e.x for e in d.effects if e.kind == "critical" and e.x > 0]
    if not levels:
        return d, ()
    target = d.target
    sec = f"Critical: {target.name}"
    if d.hit_wounds == 0:
        return d, (Step("No Critical token: the attack dealt no wound", S.CRITICAL,
                        "A Critical effect needs at least one wound from the attack.", section=sec,
                        marks=(target.name,)),)
    level = critical_level(levels, ctx.rulings)
    token, discarded = ctx.token, ctx.discarded
    piles = getattr(ctx.table, "piles", None) if token is None else None
    before = len(piles.reformed) if piles is not None else 0
    if token is None:
        discarded, token = ctx.table.critical(target.name, level, target.kind)
    steps: list[Step] = []
    reforms = []
    for lv, n, after in (piles.reformed[before:] if piles is not None else ()):
        reforms.append((after, Step(
            f"The Critical {lv} pile is empty: its {plural(n, 'discarded token')} are reshuffled into a new pile",
            S.CRITICAL, "A drawn token stays out of the pile (on a figure, or discarded) until the pile is empty; "
            "then the discarded tokens make the new pile (when exactly: ruling critical_pile_reform).", section=sec,
            marks=(target.name,), facts={"level": lv, "new_pile": n})))
    steps += [x for a, x in reforms if not a]
    if discarded:
        steps.append(Step(f"Not compatible, discarded and redrawn: {', '.join(discarded)}",
                          S.CRITICAL_COMPATIBILITY, "A token must fit the target (" + (
                              "agent" if target.kind == "agent" else "alien, drone or NPC") + ").",
                          section=sec, marks=(target.name,), facts={"discarded": list(discarded)}))
    steps.append(Step(f"Critical {level} token drawn: {token.id}", S.CRITICAL,
                      "One Critical per attack that dealt at least one wound, after every other effect."
                      + (f" Sources at levels {levels}: one draw." if len(levels) > 1 else ""), section=sec,
                      marks=(target.name,), facts={"level": level, "token": token.id}))
    steps += [x for a, x in reforms if a]
    old = target.critical_x(token.effect)
    target, _, st = apply_critical_token(target, token)
    if piles is not None:
        placed = token.duration != "instant" and (old is None or token.x > old) and not (
            token.effect == "paralyzed" and target.kind == "master_alien")
        if not placed:                      # 8.2.2 instant; 8.2.3 the same effect, or a Master Alien's Paralyze
            piles.to_discard(token.id)
        else:
            if old is not None:             # 8.2.3: the lesser token replaced goes to its discard pile
                piles.discard_effect(token, old, target.name)
            piles.place(target.name, token.id)
    return replace(d, target=target, critical=token.id), tuple(steps + st)


PREPARE_STEPS = (
    ("Mark", mark_target),
    ("Energy Shields", absorb_with_energy_shields),
    ("Items and powers", cancel_with_items),
    ("Defend dice", count_defend_dice),
)
"""The deterministic part of a target's defence (no die): what the odds engine runs once per Hit roll."""

def _drone_rule(name: str):
    """The section of a drone named ``name``: its Device's (9.7.4.2 Vigil, 9.7.4.3 GD-5) when the name is the one a
    round gives it (``"Vigil (Marine)"``, ``"GD-5 (Biotech)"``), else 9.7.4 Devices (a combat file may name a drone
    anything)."""
    for prefix, rule in (("Vigil", S.VIGIL), ("GD-5", S.GD5)):
        if name.startswith(prefix):
            return rule
    return S.DEVICES


def tokens_of_the_dead(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """A target that died in this attack (not an agent: an agent bleeds) loses its Critical tokens: an alien's are
    discarded (11.9), each to its own level's discard pile (8.2.2); an NPC's or a drone's go there too or out of
    play (ruling ``critical_tokens_on_death``: 10.4 and 9.7.4.2 / 9.7.4.3 are silent). Only with the resolution's
    Critical piles (:class:`CriticalPiles`); no step when it held no token. The target's state keeps the effects
    it died with (a "-X max Health" token still counts: taking it away would raise its Health back)."""
    t = d.target
    piles = getattr(ctx.table, "piles", None)
    if piles is None or t.kind == "agent" or not t.down or not piles.on.get(t.name):
        return d, ()
    ids = list(piles.on[t.name])
    if t.kind in ("alien", "master_alien"):
        out, rule, why = False, S.ALIEN_BODY_CONDITIONS, "Any token on an alien is discarded when it dies."
    else:
        out = ctx.rulings.reading("critical_tokens_on_death") == "stay_out"
        rule = S.NPC_HEALTH if t.kind == "npc" else _drone_rule(t.name)
        why = ("The book says where the card goes, not its tokens; ruling critical_tokens_on_death = "
               + ("stay_out: they leave play with it." if out else "discard: each to its own level's discard "
                  "pile, as an alien's (11.9)."))
    for tid in ids:
        piles.release(t.name, tid, out)
    many = len(ids) > 1
    where = ("leave" if many else "leaves") + " play with it" if out else ("go" if many else "goes") + \
        " to the discard pile" + ("s" if len({piles.cal.token(i).level for i in ids}) > 1 else "")
    return d, (Step(
        f"{t.name} is {t.status()}: its Critical token{'s' if many else ''} {', '.join(ids)} {where}",
        rule, why, section=f"Critical: {t.name}", marks=(t.name,),
        facts={"tokens": ids, "to": "out_of_play" if out else "discard"}),)


def push_back(d: Defence, ctx: DefenceContext) -> tuple[Defence, tuple[Step, ...]]:
    """An agent's power or item that pushes the target back (Hulk's Charge, the Shockwave grenade): a Master Alien
    cannot be moved or pushed back (11.3); a dead target is off the map; any other target is pushed back ``x``
    hexes, where the power's card and the attacking player put it (9.7). No step without a push effect."""
    pushes = [e.x for e in d.effects if e.kind == "push"]
    if not pushes:
        return d, ()
    t, n, sec = d.target, max(pushes), f"Push back: {d.target.name}"
    if t.kind == "master_alien":
        return d, (Step(f"{t.name} cannot be pushed back", S.MASTER_ALIENS, "Due to their mass, Master Aliens "
                        "cannot be moved or pushed back by an agent's power or item.", section=sec, marks=(t.name,),
                        facts={"pushed": 0}),)
    if t.down and t.kind != "agent":
        return d, (Step(f"{t.name} is dead: nothing to push back", S.ALIEN_BODY_CONDITIONS if t.kind == "alien"
                        else S.NPC_HEALTH, "Its figure left the map.", section=sec, marks=(t.name,),
                        facts={"pushed": 0}),)
    t = replace(t, pushed=t.pushed + n)
    return replace(d, target=t), (Step(f"{t.name} is pushed back {plural(n, 'hex', 'hexes')}", S.POWERS_ITEMS,
                                       "The power or item moves it; the attacking player places it as the card "
                                       "says.", section=sec, marks=(t.name,), facts={"pushed": n}),)


FINISH_STEPS = (
    ("Defend roll", defend_roll),
    ("Wounds", suffer_hit_wounds),
    ("Poison", poison_effects),
    ("Critical", draw_critical),
    ("Push back", push_back),
    ("Tokens of the dead", tokens_of_the_dead),
)
"""The rest of a target's defence: the Defend roll, wounds, Poison, the Critical token, a push back."""

DEFENCE_SEQUENCE = PREPARE_STEPS + FINISH_STEPS
"""One target's defence and damage against one attack, in rulebook order."""


def prepare_target(target: TargetState, attack: AttackModel, hr: HitRoll, high_impact: bool, rulings: Rulings
                   ) -> tuple[Defence, list[Step]]:
    """Mark, Energy Shields, hit-cancelling items and the Defend roll's dice count for one target
    (:data:`PREPARE_STEPS`)."""
    ctx = DefenceContext(rulings=rulings, attack=attack, roll=hr, high_impact=high_impact)
    d, steps = run(Defence(target, hr.hits, wounds_before=target.wounds), PREPARE_STEPS, ctx)
    return d, list(steps)


def finish_target(p: Defence, attack: AttackModel, faces: Sequence[Face], dice: DiceSource | None,
                  rulings: Rulings, token: CriticalToken | None = None, discarded: tuple[str, ...] = ()
                  ) -> tuple[TargetState, TargetResult, list[Step]]:
    """Defend dice (``faces``), wounds, Poison, then the Critical token (drawn from ``dice``, or ``token`` given)
    (:data:`FINISH_STEPS`)."""
    ctx = DefenceContext(rulings=rulings, attack=attack, table=dice, faces=tuple(faces), token=token,
                         discarded=tuple(discarded))
    d, steps = run(p, FINISH_STEPS, ctx)
    return d.target, d.result(), list(steps)


# ------------------------------------------------------------------------------------------------ the sequence

@dataclass(frozen=True)
class AttackOutcome:
    """One attack's result: who attacked with what, its Hit roll (``None`` when no target could be attacked), what
    it did to each target it reached, and the Menace token after it (``None`` without a Menace token)."""

    attacker: str
    weapon: str
    roll: HitRoll | None
    results: tuple[TargetResult, ...] = ()
    menace: Menace | None = None

    def to_json(self) -> dict:
        out = {"attacker": self.attacker, "weapon": self.weapon,
               "hits": self.roll.hits if self.roll else None, "bolts": self.roll.bolts if self.roll else None,
               "targets": [x.to_json() for x in self.results]}
        if self.menace is not None:
            out["menace"] = {"holder": self.menace.holder, "level": self.menace.level}
        return out


@dataclass(frozen=True)
class CombatOutcome(Outcome):
    """The typed outcome of a ``combat`` scenario: High Impact on or off, every attack in order, every target as
    the last attack leaves it (scenario order)."""

    high_impact: bool
    attacks: tuple[AttackOutcome, ...]
    targets: tuple[TargetState, ...]

    def target(self, name: str) -> TargetState:
        """The target called ``name`` after the last attack."""
        return next(t for t in self.targets if t.name == name)

    def to_json(self) -> dict:
        return {"high_impact": self.high_impact, "attacks": [a.to_json() for a in self.attacks],
                "targets": {t.name: {"wounds": t.wounds, "status": t.status(), "stacks": list(t.stacks),
                                     "mark": t.mark, "poison": t.poison, "criticals": [list(c) for c in t.criticals]}
                            | ({"stage": t.stage} if t.stage is not None else {})
                            | ({"pushed": t.pushed} if t.pushed else {})
                            for t in self.targets}}


@dataclass(frozen=True)
class CombatState:
    """The combat between steps (immutable).

    Attributes:
        targets: every target, scenario order, as the attacks so far left it.
        menace: the Menace token (11.3.1), or ``None`` when the scenario has none.
        done: the attacks resolved so far (:class:`AttackOutcome`).
        attack: index of the attack under way.
        hit: the targets the attack under way reaches (after target selection).
        roll: its Hit roll (``None`` before it, or when no target can be attacked).
        results: what it did so far to each target it reached.
        numbers: the scenario's attack numbers (1 to n), resolved in this order.
    """

    targets: tuple[TargetState, ...]
    menace: Menace | None = None
    done: tuple[AttackOutcome, ...] = ()
    attack: int = 0
    hit: tuple[str, ...] = ()
    roll: HitRoll | None = None
    results: tuple[TargetResult, ...] = ()
    numbers: tuple[int, ...] = ()

    def target(self, name: str) -> TargetState:
        return next(t for t in self.targets if t.name == name)

    def by_name(self) -> dict[str, TargetState]:
        """``{name: target}`` in scenario order."""
        return {t.name: t for t in self.targets}

    def with_target(self, new: TargetState) -> "CombatState":
        return replace(self, targets=tuple(new if t.name == new.name else t for t in self.targets))


@dataclass(frozen=True)
class CombatContext(Context):
    """What the combat steps read: ``rulings``, ``dice`` (the one :class:`~explorer.dice.Dice`), the ``attacks``
    in order with their dice (``tables``: one :class:`TableDice` per attack, on ``dice``), ``high_impact``
    (Storybook 5.5.1), the top Close Encounter discard (``close_encounter``, 7.2.1), the scenario ``source`` named
    in errors, and ``sections``: whether each attack's steps are filed under "Attack n: ..." (several attacks)."""

    attacks: tuple[AttackModel, ...] = ()
    tables: tuple[TableDice, ...] = ()
    high_impact: bool = True
    close_encounter: CloseEncounterModel | None = None
    source: str = "scenario"
    sections: bool = False
    amap: object | None = None
    spots: Mapping[str, tuple] = field(default_factory=dict)


def high_impact_rule(state: CombatState, ctx: CombatContext) -> tuple[CombatState, tuple[Step, ...]]:
    """Storybook 5.5.1 High Impact: whether the optional rule is on (it is by default)."""
    return state, (Step(f"High Impact is {'on' if ctx.high_impact else 'off'}", S.HIGH_IMPACT,
                        "An optional rule, On by default in the Storybook's Level of Difficulty table.",
                        facts={"high_impact": ctx.high_impact}, section="Setup"),)


def areas_from_map(attack: AttackModel, targets: Mapping[str, TargetState], amap, spots: Mapping[str, tuple]
                   ) -> tuple[dict[str, TargetState], list[Step]]:
    """Each target's Area relation to an Area or Explosion attack, computed from the map (8.4, 11.8): the targeted
    Area is the Area of the target's hex (``at``); a figure with any base hex in it is in the same Area, once
    however many of its hexes are there (11.8); an Explosion also reaches the Areas next to it that a legal walking
    path joins (a Blocking Hex Side, a locked door or a Barrier Hex Side parts two Areas for walking, 5.1); an Area
    whose hexes only touch across such a side is adjacent but not reached. Returns ``({name: target with area and
    walking_path set}, steps)``."""
    from explorer.hexgrid import neighbors

    primary = targets[attack.target]
    home = amap.area_of[spots[primary.name][0]]
    walk = amap.area_graph(False)
    touch = {(amap.area_of[h], amap.area_of[n]) for h in amap.area_of for n in neighbors(h) if n in amap.area_of}
    out: dict[str, TargetState] = {}
    rows = []
    for name, t in targets.items():
        areas = sorted({amap.area_of[h] for h in spots.get(name, ())})
        where = "/".join(areas)
        if name == primary.name:
            out[name] = replace(t, area="target", walking_path=True)
            rows.append(f"{name} (the target) in Area {home}")
        elif home in areas:
            out[name] = replace(t, area="same", walking_path=True)
            rows.append(f"{name} in the targeted Area {home}" + (f" (base in {where}: affected once)"
                                                                  if len(areas) > 1 else ""))
        elif any(walk.has_edge(home, a) for a in areas):
            out[name] = replace(t, area="adjacent", walking_path=True)
            rows.append(f"{name} in adjacent Area {where}, joined by a legal walking path" +
                        (" (affected once)" if len(areas) > 1 else ""))
        elif any((home, a) in touch for a in areas):
            out[name] = replace(t, area="adjacent", walking_path=False)
            rows.append(f"{name} in adjacent Area {where}, with no legal walking path to {home}")
        else:
            out[name] = replace(t, area="other", walking_path=True)
            rows.append(f"{name} in Area {where}, farther away")
    rule = S.AREA_DAMAGE
    steps = [Step(f"Areas from the map: the attack targets Area {home}", rule, "; ".join(rows) + ".",
                  section="Target selection", marks=(home,),
                  facts={"targeted_area": home, "relations": {n: [t.area, t.walking_path] for n, t in out.items()}})]
    for name in targets:
        hexes = spots.get(name, ())
        if len(hexes) > 1 and out[name].area in ("target", "same", "adjacent"):
            areas = sorted({amap.area_of[h] for h in hexes})
            steps.append(Step(f"{name} is a multi-hex figure ({' and '.join(map(str, hexes))}): the damage applies once",
                              S.MULTI_HEX, f"Its base is in Area{'s' if len(areas) > 1 else ''} {'/'.join(areas)}; "
                              "Area damage reaches it when one base hex is in a reached Area, once however many are.",
                              section="Target selection", marks=(name,)))
    return out, steps


def select_attack_targets(state: CombatState, ctx: CombatContext) -> tuple[CombatState, tuple[Step, ...]]:
    """Target selection (8.4 Explosion, 11.6 Prime Swarm Units, 7.2.1 Burrowing): who the attack reaches, checked
    for every target at once before the Hit roll (:func:`select_targets`)."""
    attack, targets, steps = ctx.attacks[state.attack], state.by_name(), []
    if ctx.amap is not None and attack.damage != "single":
        targets, steps = areas_from_map(attack, targets, ctx.amap, ctx.spots)
    hit, more = select_targets(attack, targets, ctx.close_encounter, ctx.rulings)
    steps = steps + more
    if not hit:
        why = next((x.rule for x in more if x.rule == S.BURROWING_TARGETING), more[-1].rule if more else
                   S.BURROWING_TARGETING)
        steps.append(Step("No target can be attacked: no Hit roll", why, "",
                          section="Target selection"))
    return replace(state, hit=hit), tuple(steps)


def roll_to_hit(state: CombatState, ctx: CombatContext) -> tuple[CombatState, tuple[Step, ...]]:
    """The Hit roll (9.2 Combat, 11.12 Combat): coloured dice (after the attacker's "-X ATK Dice", 8.2.3) or a
    fixed number of hits, plus hits from powers and items; none when no target can be attacked. Bolts count once
    for effects, however many are rolled."""
    if not state.hit:
        return state, ()
    attack, dice = ctx.attacks[state.attack], ctx.tables[state.attack]
    sec = "Hit roll"
    rule = combat_rule(attack.attacker_kind)
    steps: list[Step] = []
    if attack.fixed_hits is not None:
        hr = HitRoll(attack.fixed_hits + attack.bonus_hits, 0, (), True)
        steps.append(Step(f"{attack.weapon} gives {plural(attack.fixed_hits, 'hit')} without dice", rule,
                          "A weapon printing a number of hits is its Hit roll; the Defend roll works as usual."
                          + (" A -X ATK Dice Critical has no effect on it." if attack.atk_dice_minus else ""),
                          section=sec, facts={"hits": attack.fixed_hits}))
    else:
        pool = dice_pool(attack)
        if any(attack.bonus_dice.values()):
            added = {c: n for c, n in attack.bonus_dice.items() if n}
            steps.append(Step(f"+{' '.join(plural(n, c + ' die', c + ' dice') for c, n in added.items())} from "
                              "powers and items", rule, "Powers and items may add Hit dice to this attack only; with a "
                              "multi-colour weapon the agent chooses the colour.", section=sec,
                              facts={"bonus_dice": added}))
        if attack.atk_dice_minus:
            steps.append(Step(f"{attack.attacker} rolls {plural(attack.atk_dice_minus, 'die')} fewer",
                              S.CRITICAL_EFFECTS,
                              "Its -X ATK Dice Critical removes dice from every Hit roll.", section=sec,
                              facts={"pool": {c: n for c, n in pool.items()}}))
        faces: list[tuple[str, str]] = []
        hits = bolts = others = jams = ammo = 0
        for colour, n in pool.items():
            for f in dice.hit(colour, n):
                faces.append((colour, f.label))
                hits += f.hits
                b, o = effect_results(f, attack.effect_symbols)
                bolts, others, jams, ammo = bolts + b, others + o, jams + f.jams, ammo + f.ammo
        hr = HitRoll(hits + attack.bonus_hits, bolts, tuple(faces), others=others)
        default = list(attack.effect_symbols) == ["bolt"]
        more = "" if default else ", " + plural(others, "other effect result")
        steps.append(Step(f"{attack.attacker} rolls {plural(sum(pool.values()), 'die')}: {plural(hits, 'hit')}, "
                          f"{plural(bolts, 'Bolt')}{more}",
                          S.CORE_SET_DICE, "Faces: " + ", ".join(f"{c} {lbl}" for c, lbl in faces)
                          + " (faces from the calibration)." + ("" if default else
                          f" The weapon's effect symbols: {join_words(attack.effect_symbols)}; each works like the "
                          "Bolt, its effects applied once however many show."), section=sec,
                          marks=tuple(f"{c}:{lbl}" for c, lbl in faces),
                          facts={"hits": hits, "bolts": bolts, "faces": [list(x) for x in faces]}
                          | ({} if default else {"others": others})))
        if attack.power_suit_weapon:
            steps.append(Step(f"Power Suit weapon: {plural(jams, 'jam result')} and {plural(ammo, 'ammo result')} "
                              "ignored", S.POWER_SUIT_COMBAT, "It cannot jam, uses no ammo, rolls Red and Blue dice, "
                              "and its extra effect symbol works like the Bolt.", section=sec,
                              facts={"jams": jams, "ammo": ammo}))
    pose = attack._pose_hits
    if attack.bonus_hits - pose:
        steps.append(Step(f"+{plural(attack.bonus_hits - pose, 'hit')} from powers and items: "
                          f"{hr.hits - pose} in all", rule,
                          "Powers and items modify the number of hits of this attack only.", section=sec,
                          facts={"bonus": attack.bonus_hits - pose, "hits": hr.hits - pose}))
    if pose:
        steps.append(Step(f"+{plural(pose, 'hit')} from the Fighting Pose: {hr.hits} in all", S.FIGHTING_POSES,
                          "The pose token's Range Attack Bonus, added to each ranged attack.", section=sec,
                          facts={"bonus": pose, "hits": hr.hits}))
    return replace(state, roll=hr), tuple(steps)


def targets_hit(state: CombatState) -> tuple[str, ...]:
    """The targets the attack under way reaches, in order (the items of the per-target defence)."""
    return state.hit


def defend_and_wound(state: CombatState, ctx: CombatContext, name: str) -> tuple[CombatState, tuple[Step, ...]]:
    """One target's defence and damage (:data:`DEFENCE_SEQUENCE`): Mark (8.3), Energy Shields (11.7, 9.5.2.3),
    items, Lethal (8.1) or the Defend dice (Storybook 5.5.1) and roll (:func:`combat_rule`), wounds (9.3.1, 10.4), Poison (9.3.2), the Critical
    token (8.2)."""
    t = state.target(name)
    dctx = DefenceContext(rulings=ctx.rulings, dice=ctx.dice, attack=ctx.attacks[state.attack], roll=state.roll,
                          high_impact=ctx.high_impact, table=ctx.tables[state.attack])
    d, steps = run(Defence(t, state.roll.hits, wounds_before=t.wounds), DEFENCE_SEQUENCE, dctx)
    return replace(state.with_target(d.target), results=state.results + (d.result(),)), steps


def move_menace_token(state: CombatState, ctx: CombatContext) -> tuple[CombatState, tuple[Step, ...]]:
    """11.3.1 Menacing Agent System: the Menace token after the attack. Every wound the attack dealt to a Master
    Alien counts for the attacking agent, or for the agent controlling the attacking drone or NPC
    (:func:`.menace.master_alien_wounded`); an alien's attack never moves it. No step without a Menace token or
    when no Master Alien was hit."""
    menace, attack, targets = state.menace, ctx.attacks[state.attack], state.by_name()
    if menace is None or not any(targets[x.name].kind == "master_alien" for x in state.results):
        return state, ()
    wounds = sum(x.wounds for x in state.results if targets[x.name].kind == "master_alien")
    agent = attack.attacker if attack.attacker_kind == "agent" else attack.controller
    if agent is None:
        steps = [Step(f"{attack.attacker} is not an agent's attack: the Menace token does not change", S.MENACE,
                      "Only agents (and the drones and NPCs they control) move the token.",
                      marks=(attack.attacker,), facts={"holder": menace.holder, "level": menace.level})]
    else:
        via = {"agent": "attack", "drone": "drone", "npc": "npc"}.get(attack.attacker_kind, "attack")
        menace, steps = master_alien_wounded(menace, agent, wounds, via)
    return replace(state, menace=menace), tuple(s.in_section("Menace") for s in steps)


ATTACK_SEQUENCE = (
    ("Target selection", select_attack_targets),
    ("Hit roll", roll_to_hit),
    Each("Defence and wounds: {item}", targets_hit, defend_and_wound),
    ("Menace", move_menace_token),
)
"""One attack, in rulebook order: target selection, the Hit roll, each target's defence and wounds, the Menace
token."""


def attack_numbers(state: CombatState) -> tuple[int, ...]:
    """The items of :data:`COMBAT_SEQUENCE`'s per-attack entry: the attack numbers, from 1."""
    return state.numbers


def resolve_one_attack(state: CombatState, ctx: CombatContext, number: int) -> tuple[CombatState, tuple[Step, ...]]:
    """One attack of the scenario (:data:`ATTACK_SEQUENCE`); with several attacks its steps are filed under
    "Attack n: ..."."""
    i = number - 1
    start = replace(state, attack=i, hit=(), roll=None, results=())
    with with_source(ctx.source, f"attacks[{i}]."):
        after, steps = run(start, ATTACK_SEQUENCE, ctx)
    if ctx.sections:
        steps = tuple(s.in_section(f"Attack {number}: {s.section}") for s in steps)
    a = ctx.attacks[i]
    return replace(after, done=after.done + (AttackOutcome(a.attacker, a.weapon, after.roll, after.results,
                                                           after.menace),)), steps


COMBAT_SEQUENCE = (
    ("Setup", high_impact_rule),
    Each("Attack {item}", attack_numbers, resolve_one_attack),
)
"""A ``combat`` scenario: the High Impact setting, then every attack in order (:data:`ATTACK_SEQUENCE` each)."""


def resolve_attack(targets: Mapping[str, TargetState], attack: AttackModel, dice: DiceSource, high_impact: bool,
                   rulings: Rulings, ce: CloseEncounterModel | None = None
                   ) -> tuple[dict[str, TargetState], list[TargetResult], HitRoll | None, list[Step]]:
    """One attack on its own (:data:`ATTACK_SEQUENCE` with ``dice`` its :class:`TableDice`): for the tests' brute
    force and Monte Carlo.

    Returns:
        ``(targets after, results per target hit, the Hit roll or None if no target could be attacked, steps)``.
    """
    ctx = CombatContext(rulings=rulings, dice=getattr(dice, "dice", None), attacks=(attack,), tables=(dice,),
                        high_impact=high_impact, close_encounter=ce)
    after, steps = run(CombatState(tuple(targets.values())), ATTACK_SEQUENCE, ctx)
    return after.by_name(), list(after.results), after.roll, list(steps)


def held_tokens(cal: Calibration, targets) -> dict[str, tuple[str, ...]]:
    """``{target name: token ids}``: the Critical tokens already on the targets (each ``criticals`` entry: ``effect``,
    ``x``, optional ``level``) by token kind, taken out of their piles (8.2: a token on a figure is not in its
    pile). A token belongs to the pile of the level on its back (8.2), whatever its X: an entry whose effect and
    ``x`` fit kinds of two piles (an X = 0 effect such as Paralyzed is in both) names its ``level``. An entry that
    fits no kind of the calibration takes no token out (the calibration has none like it).

    Raises:
        ScenarioError: ``targets[i].criticals[j].level`` missing for a token of two piles, or naming a level whose
            pile has no such token.
    """
    out: dict[str, tuple[str, ...]] = {}
    for i, t in enumerate(targets):
        ids = []
        for j, c in enumerate(t.criticals):
            kinds = [k for k in cal.tokens if k.effect == c.effect and k.x == c.x]
            levels = sorted({k.level for k in kinds})
            if c.level is not None:
                kinds = [k for k in kinds if k.level == c.level]
                if not kinds and levels:
                    raise ScenarioError(f"targets[{i}].criticals[{j}].level", f"the Critical {c.level} pile has no "
                                        f"{c.effect} token with x = {c.x}", levels)
            if len({k.level for k in kinds}) > 1:
                raise ScenarioError(f"targets[{i}].criticals[{j}].level", f"a {c.effect} token with x = {c.x} is in "
                                    f"the Critical {' and '.join(map(str, levels))} piles: say which pile it came "
                                    "from (8.2: the number on its back)", levels)
            if kinds:
                ids.append(kinds[0].id)
        if ids:
            out[t.name] = tuple(ids)
    return out


def combat_frames(scenario: CombatScenario, rulings: Rulings, dice: Dice) -> tuple:
    """The kernel frames of a ``combat`` scenario: the High Impact setup, then one frame per attack."""
    cal = scenario_calibration(scenario)
    amap, spots = combat_map(scenario, scenario._source)
    with with_source(scenario._source):
        piles = CriticalPiles(cal, discard=scenario.critical_discard, rulings=rulings,
                              held=held_tokens(cal, scenario.targets))
    ctx = CombatContext(rulings=rulings, dice=dice, attacks=tuple(scenario.attacks),
                        tables=tuple(TableDice(cal, a.rolled, dice, scenario._blue_tray, piles)
                                     for a in scenario.attacks),
                        high_impact=scenario.high_impact, close_encounter=scenario.close_encounter,
                        source=scenario._source, sections=len(scenario.attacks) > 1,
                        amap=amap, spots=spots)
    menace = None if scenario.menace is None else Menace(scenario.menace.holder, scenario.menace.level)
    initial = CombatState(tuple(TargetState.from_model(t) for t in scenario.targets), menace,
                          numbers=tuple(range(1, len(scenario.attacks) + 1)))
    return play(initial, COMBAT_SEQUENCE, ctx)


def resolve_combat(scenario: CombatScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
                   roller: Roller | None = None) -> Trace:
    """Resolve every attack of a ``combat`` scenario in order (the targets carry shields, wounds and tokens from
    one attack to the next): :data:`COMBAT_SEQUENCE` played on the kernel.

    Args:
        scenario: from :func:`parse_combat`.
        rulings: ``{option key: reading}`` over the scenario's own ``[rulings]``.
        seed: replaces the scenario's seed for dice it does not fix.
        roller: a roller to use instead (Monte Carlo).

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`CombatOutcome` (``outcome`` its JSON: ``{"attacks":
        [{"attacker", "weapon", "hits", "bolts", "targets": [...]}], "targets": {name: {"wounds", "status",
        "stacks", "mark", "poison", "criticals"}}, "high_impact"}``).

    Raises:
        ScenarioError: fixed Defend dice or Critical draws ran out, or a fixed Critical token from the wrong pile
            (named ``attacks[i].rolled.defend.<target>`` with the scenario's file); an unknown ruling.
    """
    with with_source(scenario._source):
        r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    dice = Dice(roller=roller, seed=seed if seed is not None else scenario.seed)
    frames = combat_frames(scenario, r, dice)
    last = frames[-1].state
    return trace_of(scenario.title, frames, r.consulted).with_result(
        CombatOutcome(scenario.high_impact, last.done, last.targets))
