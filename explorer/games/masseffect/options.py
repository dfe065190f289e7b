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


# --- Squadmates, enemies: damage, Elites, activation, Advancing, Opportunity Attacks ----------------------------

FEWEST_HIT_POINTS = RulingOption(
    key="fewest_hit_points",
    title="An Attacking Enemy's target: fewest Hit Points, or least Damage to Down?",
    section="Playing a Mission › Step C: Hazard Card › Attacking (handed case ME-06)",
    readings={
        "hit_points": "Compare the Squadmates' Hit Points only (the Hit Point tracker); Shield Points do not count.",
        "shields_and_hit_points": "Compare how much Damage each could take before being Downed: Shield Points plus "
                                  "Hit Points.",
    },
    default="hit_points",
    why_default="The sentence names 'Hit Points', a game term with its own tracker distinct from Shield Points; "
                "'remaining before they are Downed' describes Hit Points (reaching 0 Hit Points is what Downs). "
                "Handed case ME-06 prefers this reading (the Guardian Attacks Garrus, 3 Hit Points).",
)

ON_POINT_DIRECTION = RulingOption(
    key="on_point_direction",
    title="Which Squadmate gets the On Point token at the End Phase",
    section="Playing a Mission › End Phase; Playing a Mission › Squadmate Phase",
    readings={
        "right_hand_neighbour": "The sheet to the right of the On Point player, who faces the table: turns go "
                                "clockwise (to each player's left), so this is the previous Squadmate in turn order.",
        "next_in_turn_order": "The next Squadmate clockwise, i.e. the one who took the second turn this Round.",
    },
    default="right_hand_neighbour",
    why_default="The End Phase says 'to the right' while the Squadmate Phase, a page earlier, says turns go "
                "'clockwise'; had the next player in turn order been meant, the same word was at hand. Seated "
                "players' right-hand neighbours are counterclockwise.",
)

XP_OUTSIDE_ACTIONS = RulingOption(
    key="xp_outside_actions",
    title="XP for an Enemy Defeated by a Core Ability trigger or a Grenade",
    section="Playing a Mission › Damaging Enemies; Additional Rules › Earning XP; Grenade and Grenade Cache Tokens",
    readings={
        "none": "Only a Squadmate's Action earns XP (Earning XP: 'a Squadmate's Action'); Core Abilities trigger "
                "at the start of the turn and Grenades are thrown at the start or end of an Action, not by one.",
        "core_abilities": "A Core Ability is an Ability, and Damaging Enemies awards 1 XP for a Defeat 'using an "
                          "Ability'; Grenades (Loot, not an Ability) earn nothing.",
        "core_abilities_and_grenades": "Anything a Squadmate does on its turn counts as part of its Actions: Core "
                                       "Abilities and Grenades both earn XP.",
    },
    default="core_abilities",
    why_default="Damaging Enemies states the XP award in terms of Abilities, and the sheet calls the Core Ability an "
                "Ability; nothing calls a Grenade either an Ability or an Action.",
)

DOWNED_SQUADMATES = RulingOption(
    key="downed_squadmates",
    title="Do Enemies target or move toward Downed Squadmates?",
    section="Playing a Mission › Step C: Hazard Card › Attacking, Advancing; Squadmate Sheets › Downed Squadmates",
    readings={
        "not_targets": "A Downed Squadmate is neither a potential target of an Attack nor 'the nearest Squadmate' "
                       "an Advance aims for; it still occupies its hex.",
        "still_targets": "A Downed Squadmate is still a Squadmate on the map: it can be chosen as a target (it has "
                         "0 Hit Points, so it is chosen first; the Damage has no effect) and counts for Advancing.",
    },
    default="not_targets",
    why_default="Attacking compares the Hit Points 'remaining before they are Downed', which presumes targets that are "
                "not Downed yet; a Downed Squadmate draws no Hazard card and its sheet is face-down.",
)

INVALID_ACTIVATION_TIMING = RulingOption(
    key="invalid_activation_timing",
    title="When an Invalid Activation's Minion is Spawned",
    section="Playing a Mission › Step C: Hazard Card › Invalid Activations",
    readings={
        "after_activations": "First Activate every Enemy of the card's other types, then Spawn one Minion per type "
                             "that had no Enemy on the board.",
        "before_activations": "Spawn the Minions for the missing types first, then Activate the Enemies on the board.",
    },
    default="after_activations",
    why_default="The rulebook says nothing about the timing; Spawning afterwards keeps the new Minion from changing "
                "where the card's Activated Enemies can move (a Spawn hex taken), i.e. the card's Activations happen "
                "as if the missing type had simply been skipped.",
)

MEDI_GEL_ON_DOWNED = RulingOption(
    key="medi_gel_on_downed",
    title="Medi-gel on a Downed Squadmate",
    section="Additional Rules › Medi-gel Tokens; Squadmate Sheets › Downed Squadmates",
    readings={
        "not_a_target": "Medi-gel restores Hit Points to a Squadmate in play; a Downed Squadmate comes back only "
                        "through Revive, following the back of its sheet.",
        "restores_and_revives": "Medi-gel restores up to 2 Hit Points to anyone within two hexes; a Downed Squadmate "
                                "with Hit Points again is no longer Downed.",
    },
    default="not_a_target",
    why_default="Downed Squadmates says you are back in the fight 'as soon as another Squadmate revives you', and "
                "Revive follows instructions on the sheet's back that the rulebook does not give; Medi-gel says "
                "nothing about Downed Squadmates.",
)


ALL_OPTIONS: tuple[RulingOption, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, RulingOption))
"""Every Mass Effect ruling option, in definition order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """A :class:`Rulings` over :data:`ALL_OPTIONS` with the defaults, overridden by ``chosen``.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """
    return Rulings(ALL_OPTIONS, chosen)
