"""Mass Effect ruling options: every place the rulebook leaves a question open, with both readings.

Each option names the section that leaves the question open, its readings, the default and why. Options are grouped
by the part of the engine that consults them; :data:`ALL_OPTIONS` collects every :class:`RulingOption` defined here.
Use :func:`rulings` to get a :class:`~explorer.options.Rulings` with the defaults (or overrides).
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.options import RulingOption, Rulings

# --- mission map: adjacency, distances, Line of Fire, elevation, turrets (geometry) -----------------------------


# --- Strategy Pool, Core Abilities, Action Spaces ------------------------------------------------------------------

LOCKED_DIE_ICON = RulingOption(
    key="locked_die_icon",
    title="A Locked die showing the Core Ability icon",
    section="Playing a Mission › Squadmate Phase › Step A: Strategy Roll; Core Abilities",
    readings={
        "cannot_exist": "Every Strategy Roll ends with no icon showing (icons are re-rolled until none remain), so the "
                        "die a player Locks from the previous player never shows one; a situation that says it does "
                        "is rejected.",
        "triggers_and_rerolls": "If a Locked die shows the icon anyway, it counts as an icon of this roll: it triggers "
                                "the current Squadmate's Core Ability and is re-rolled with the others (the lock "
                                "keeps nothing).",
    },
    default="cannot_exist",
    why_default="The Core Abilities rule repeats trigger-and-re-roll until no icon remains, and the Lock keeps the "
                "face the die showed at the end of the previous turn, after that loop.",
)

PARAGON_CORE_ICON = RulingOption(
    key="paragon_core_icon",
    title="A Paragon die in the Strategy Roll",
    section="Additional Rules › Paragon Dice and Renegade Tokens › Paragon Dice; Core Abilities",
    readings={
        "like_strategy_die": "A Paragon die carries the six Strategy die faces and is rolled with the Pool: an icon on "
                             "it triggers the Core Ability and is re-rolled like any other die.",
        "rerolled_without_trigger": "A Paragon die carries the six Strategy die faces, but an icon on it is only "
                                    "re-rolled: it does not trigger the Core Ability (the bonus die adds Actions, "
                                    "not Core Ability triggers).",
    },
    default="like_strategy_die",
    why_default="The rulebook lists no separate faces for the Paragon die and adds it to the Strategy Pool, which is "
                "rolled as a whole; 'each icon they roll' triggers the Core Ability.",
)

RENEGADE_TIMING = RulingOption(
    key="renegade_timing",
    title="When a Renegade token may change a die",
    section="Additional Rules › Paragon Dice and Renegade Tokens › Renegade Tokens; Core Abilities",
    readings={
        "first_roll": "Only after the first roll of the Strategy Pool, before the Core Ability first triggers.",
        "any_roll": "After the first roll or after any re-roll of icons, each time before the Core Ability triggers.",
    },
    default="first_roll",
    why_default="The token is used 'after rolling the Strategy Pool at the start of their turn': the re-rolls of "
                "icons come later, after the Core Ability has already triggered.",
)

RENEGADE_TO_ICON = RulingOption(
    key="renegade_to_icon",
    title="A Renegade token changing a die to the Core Ability icon",
    section="Additional Rules › Paragon Dice and Renegade Tokens › Renegade Tokens",
    readings={
        "allowed": "Any result means any of the six faces: a die changed to the icon triggers the Core Ability and "
                   "is re-rolled.",
        "action_faces_only": "Only the five Action faces (Move 2, Move 3, Standard, Enhanced, Move 2 or Standard).",
    },
    default="allowed",
    why_default="The token changes a die 'to any result they choose', and the change comes before the Core Ability "
                "triggers, so an icon result is a legal and meaningful choice.",
)

RENEGADE_USES = RulingOption(
    key="renegade_uses",
    title="How many Renegade tokens one Strategy Roll may use",
    section="Additional Rules › Paragon Dice and Renegade Tokens › Renegade Tokens",
    readings={
        "several": "Each use returns one token and changes one die; a player may repeat it while their Squadmate "
                   "has tokens (a different die or the same one).",
        "one_per_turn": "At most one token per turn.",
    },
    default="several",
    why_default="The rule limits each use to one token and one die but sets no limit per turn; the tokens themselves "
                "are the limit.",
)

DUAL_FACE_IN_MOVE_SPACE = RulingOption(
    key="dual_face_in_move_space",
    title="The 'Move (2 Movement Points) or Standard Action' face on a Move Action space",
    section="Playing a Mission › Squadmate Phase › Action Spaces; Basic Actions (Move)",
    readings={
        "move_2": "The face shows a Move icon, so it fills a Move Action space as a Move with 2 Movement Points (or a "
                  "Standard Action space as a Standard Action).",
        "standard_only": "The face only fills Standard Action spaces.",
    },
    default="move_2",
    why_default="A Move Action space accepts 'any die showing a Move Action icon', and this face shows Move "
                "(2 Movement Points) as one of its two choices.",
)

PARAGON_COUNTS_TOWARD_THREE = RulingOption(
    key="paragon_counts_toward_three",
    title="Whether a Paragon die can be one of the three dice a Squadmate must take",
    section="Additional Rules › Paragon Dice and Renegade Tokens › Paragon Dice; "
            "Squadmate Phase › Step B: Actions",
    readings={
        "extra_only": "The three dice are Strategy dice; Paragon dice are only ever taken on top of them (4 or 5 "
                      "Actions).",
        "any_die": "Any three dice of the Pool, Paragon dice included, satisfy the three-dice rule; further Paragon "
                   "dice may be added.",
    },
    default="extra_only",
    why_default="Paragon dice are selected 'in addition to the three dice they are normally allowed to select'.",
)


# --- Squadmates, enemies: damage, Elites, activation, Advancing, Opportunity Attacks ----------------------------


ALL_OPTIONS: tuple[RulingOption, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, RulingOption))
"""Every Mass Effect ruling option, in definition order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """A :class:`Rulings` over :data:`ALL_OPTIONS` with the defaults, overridden by ``chosen``.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """
    return Rulings(ALL_OPTIONS, chosen)
