"""The Face to Face explorer's inputs, and their mapping to an engine scenario. No rules live here.

The explorer's plain inputs (two Miners, or a Miner against the MegaBeast, plus hand-set dice) become an engine
scenario document (:func:`scenario_data`, format in ``docs/scenario-format.md``), which
:func:`~explorer.games.tagraid.resolve.resolve_detailed` resolves into the
:class:`~explorer.games.tagraid.resolve.Resolution` the widget draws: Success Values, cancellation, the MegaBeast's
Threat Level, Attack Damage, Saving Rolls and Wounds are all the engine's (:func:`resolve_inputs`). How many dice
each side rolls comes from the engine's model too (:func:`dice_counts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from explorer.errors import ScenarioError

from .model import Scenario, active_dice, aro_burst, parse_scenario
from .resolve import Resolution, resolve_detailed
from .rolls import saving_rolls

ATTACKS = ("ranged_attack", "close_combat_attack")
SKILLS_ACTIVE = ("ranged_attack", "close_combat_attack", "evade")
SKILLS_REACTIVE = ("ranged_attack", "close_combat_attack", "evade", "none")
SKILL_NAMES = {"ranged_attack": "Ranged Attack", "close_combat_attack": "Close Combat Attack", "evade": "Evade",
               "idle": "Idle", "none": "no ARO"}
AMMUNITION = ("N", "DA", "EXP", "AP")


@dataclass
class SideInputs:
    """One Miner's side of the exchange, as typed in the widget (all whole numbers already parsed).

    Attributes:
        name: display name (``"A"`` / ``"B"`` by default).
        skill: ``"ranged_attack"``, ``"close_combat_attack"``, ``"evade"`` or ``"none"`` (no ARO).
        attribute: the Attribute the Skill uses (0..30).
        mods: named MODs the user entered (e.g. ``{"Range": 3, "Skills/Tools": 0}``); the engine adds the ones the
            opponent's situation imposes (Partial Cover, the ``Ranged Attack -3`` Trait).
        burst: the Weapon's Burst as printed on its profile. The Active Miner rolls it (plus ``burst_mod``); a
            Reactive Miner's ARO has Burst 1 whatever the Weapon's Burst, unless a MOD says otherwise (Orders and
            AROs): it rolls ``1 + burst_mod`` dice.
        burst_mod: a Burst MOD from Skills or Tool cards (default 0).
        damage: the Weapon's Damage (0..30); ammunition: N, DA, EXP or AP.
        armor, wounds: Armor and Wounds left; partial_cover: whether this Miner is in Partial Cover.
        armor_zero: this Miner's Weapon has the ``Armor = 0`` Trait.
        ranged_attack_minus_3: this Miner carries a Tool with the ``Ranged Attack -3`` Trait.
        silhouette_contact: (the Reactive side only) this Miner and the Active Miner are in Silhouette Contact: a
            Close Combat Attack between them requires it, a Ranged Attack by either is not allowed with it (the
            engine applies both Requirements; Common Skills › Close Combat Attack / Ranged Attack).
    """

    name: str = "A"
    skill: str = "ranged_attack"
    attribute: int = 12
    mods: dict[str, int] = field(default_factory=dict)
    burst: int = 1
    damage: int = 13
    ammunition: str = "N"
    armor: int = 4
    wounds: int = 3
    partial_cover: bool = False
    armor_zero: bool = False
    ranged_attack_minus_3: bool = False
    silhouette_contact: bool = False
    burst_mod: int = 0


@dataclass
class MegaBeastInputs:
    """The MegaBeast: ``threat_level`` of the side attacked from, ``wounds`` left, and its Behavior Attack
    (``damage``, ``ammunition``; one impact) applied to the Miner when the MegaBeast prevails;
    ``silhouette_contact``: the Miner is in Silhouette Contact with it (required for a Close Combat Attack on it)."""

    name: str = "MegaBeast"
    threat_level: int = 5
    wounds: int = 6
    damage: int = 14
    ammunition: str = "N"
    silhouette_contact: bool = False


def scenario_data(a: SideInputs, b: SideInputs | None, dice_a: Sequence[int] | None = (),
                  dice_b: Sequence[int] | None = (), saves_a: Sequence[int] | None = (),
                  saves_b: Sequence[int] | None = (), *, megabeast: MegaBeastInputs | None = None,
                  rulings: Mapping[str, str] | None = None, title: str = "Face to Face explorer") -> dict:
    """The engine scenario document (see ``docs/scenario-format.md``) for the explorer's inputs: a one-on-one roll
    exchange (or a Miner against the MegaBeast) with every die fixed, so
    :func:`~explorer.games.tagraid.resolve.resolve` replays exactly the dice on the tray. ``None`` dice are left
    out (the engine would roll them from the scenario's seed)."""

    def weapon(s: SideInputs) -> dict:
        return {"damage": s.damage, "burst": s.burst, "ammunition": s.ammunition,
                "traits": ["Armor = 0"] if s.armor_zero else []}

    def miner(s: SideInputs, saves) -> dict:
        out = {"name": s.name, "skill": s.skill, "attribute": s.attribute,
               "mods": {k: v for k, v in s.mods.items() if v}, "armor": s.armor, "wounds": s.wounds,
               "partial_cover": s.partial_cover, "traits": ["Ranged Attack -3"] if s.ranged_attack_minus_3 else []}
        if saves is not None:
            out["save_dice"] = list(saves)
        return out

    def dice(faces) -> dict:
        return {} if faces is None else {"dice": list(faces)}

    target = megabeast.name if megabeast is not None else (b.name if b is not None else "")
    act = miner(a, saves_a)
    if a.skill in ATTACKS:
        act |= {"weapon": weapon(a), "attacks": [{"target": target} | dice(dice_a)]}
        if a.burst_mod:
            act["burst_mod"] = a.burst_mod
    else:
        act |= dice(dice_a)
    doc: dict[str, Any] = {"title": title, "active": act, "rulings": dict(rulings or {})}
    if megabeast is not None:
        doc["megabeast"] = {"name": megabeast.name, "threat_level": megabeast.threat_level,
                            "wounds": megabeast.wounds, "aro": True,
                            "silhouette_contact": megabeast.silhouette_contact,
                            "behavior_attack": {"damage": megabeast.damage, "ammunition": megabeast.ammunition}}
    elif b is not None:
        rea = miner(b, saves_b) | dice(dice_b) | {"silhouette_contact": b.silhouette_contact}
        if b.skill in ATTACKS:
            rea |= {"weapon": weapon(b), "burst_mod": b.burst_mod}
        doc["reactive"] = [rea]
    return doc


def _scenario(a: SideInputs, b: SideInputs | None, megabeast: MegaBeastInputs | None) -> Scenario:
    return parse_scenario(scenario_data(a, b, None, None, None, None, megabeast=megabeast), "widget")


def dice_counts(a: SideInputs, b: SideInputs | None, megabeast: MegaBeastInputs | None = None) -> tuple[int, int]:
    """How many dice A and B must be given, from the engine's model (:func:`~.model.active_dice`,
    :func:`~.model.aro_burst`): A its attack Burst or 1 for Evade; B its ARO Burst, 1 for Evade, 0 with no ARO;
    B is 0 against the MegaBeast (it does not roll).

    Raises:
        ScenarioError: the inputs do not make a valid scenario (field named as in the scenario format).
    """
    sc = _scenario(a, b, megabeast)
    return active_dice(sc.active), (aro_burst(sc.reactive[0]) if sc.reactive else 0)


def save_pool_sizes(a: SideInputs, b: SideInputs | None,
                    megabeast: MegaBeastInputs | None = None) -> tuple[int, int]:
    """How many Saving Roll dice A and B may need at most: the engine's count
    (:func:`~explorer.games.tagraid.rolls.saving_rolls`) for every die of the opponent an uncancelled Critical (the
    MegaBeast: its Behavior Attack's one impact). The widget keeps that many dice in each pool, so the engine never
    runs short; the engine decides how many are used."""
    na, nb = dice_counts(a, b, megabeast)
    if megabeast is not None:
        return saving_rolls(1, 0, megabeast.ammunition), 0
    assert b is not None
    return (saving_rolls(0, nb, b.ammunition) if b.skill in ATTACKS else 0,
            saving_rolls(0, na, a.ammunition) if a.skill in ATTACKS else 0)


_WIDGET_FIELDS = {"active.attacks[0].dice": "dice A", "active.dice": "dice A", "reactive[0].dice": "dice B",
                  "active.save_dice": "saves A", "reactive[0].save_dice": "saves B"}


def _widget_error(e: ScenarioError) -> ScenarioError:
    """The engine's error with the scenario field renamed to the widget's (``active.attacks[0].dice[1]`` ->
    ``dice A[2]``: the widget counts dice from 1)."""
    f = e.field
    for path, name in _WIDGET_FIELDS.items():
        if f == path:
            return ScenarioError(name, e.problem, e.allowed, "widget")
        if f.startswith(path + "["):
            i = int(f[len(path) + 1:-1])
            return ScenarioError(f"{name}[{i + 1}]", e.problem, e.allowed, "widget")
    return ScenarioError(f, e.problem, e.allowed, "widget")


def roll_heading(pairs: Sequence) -> str:
    """The name of what an exchange rolled, for a heading (Rolls › Face to Face Rolls, Normal Roll): ``"Face to
    Face"`` when every roll was opposed, ``"Normal Roll"`` when every roll was unopposed (an Evade nobody opposes
    included), ``"Face to Face and Normal Rolls"`` for both, ``"No roll"`` when nobody rolled.

    Args:
        pairs: the :class:`~explorer.games.tagraid.resolve.Pair` s of a resolution (their ``kind``)."""
    kinds = {p.kind for p in pairs}
    opposed = bool(kinds & {"face_to_face"})
    unopposed = bool(kinds - {"face_to_face"})
    if opposed and unopposed:
        return "Face to Face and Normal Rolls"
    return "Face to Face" if opposed else "Normal Roll" if unopposed else "No roll"


def resolve_inputs(a: SideInputs, b: SideInputs | None, dice_a: Sequence[int], dice_b: Sequence[int] = (),
                   saves_a: Sequence[int] = (), saves_b: Sequence[int] = (), *,
                   megabeast: MegaBeastInputs | None = None, rulings: Mapping[str, str] | None = None,
                   title: str = "Face to Face explorer") -> Resolution:
    """Resolve the explorer's inputs with the engine: :func:`scenario_data` ->
    :func:`~explorer.games.tagraid.model.parse_scenario` -> :func:`~explorer.games.tagraid.resolve.resolve_detailed`.

    Args:
        a: the Active Miner. b: the Reactive Miner (ignored when ``megabeast`` is given).
        dice_a, dice_b: faces rolled, exactly as many as :func:`dice_counts` says.
        saves_a, saves_b: Saving Roll faces for A / B, used in order (extra ones are unused).
        megabeast: resolve ``a`` against the MegaBeast's Threat Level instead of against ``b``.
        rulings: ``{option key: reading}``; the trace lists every reading consulted.

    Returns:
        the engine's :class:`~explorer.games.tagraid.resolve.Resolution` (A's die ids ``"A.1"``..., B's ``"B.1"``...,
        Saving Rolls ``"A.s1"`` / ``"B.s1"``..., the MegaBeast's Threat Level ``"MB"``).

    Raises:
        ScenarioError: a face outside 1..20, the wrong number of dice, too few Saving Roll dice, an unknown ruling
            (dice fields are named ``dice A`` / ``dice B`` / ``saves A`` / ``saves B``).
    """
    doc = scenario_data(a, None if megabeast is not None else b, dice_a, dice_b, saves_a, saves_b,
                        megabeast=megabeast, rulings=rulings, title=title)
    try:
        return resolve_detailed(parse_scenario(doc, "widget"), rulings=dict(rulings or {}))
    except ScenarioError as e:
        raise _widget_error(e) from None
