"""Mass Effect ruling options: every place the rulebook leaves a question open, with both readings.

Each option names the section that leaves the question open, its readings, the default and why. Options are grouped
by the part of the engine that consults them; :data:`ALL_OPTIONS` collects every :class:`RulingOption` defined here.
Use :func:`rulings` to get a :class:`~explorer.options.Rulings` with the defaults (or overrides).
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.options import RulingOption, Rulings

# --- mission map: adjacency, distances, Line of Fire, elevation, turrets (geometry) -----------------------------

LOF_OWN_HEX_LOCKED_DOOR = RulingOption(
    key="lof_own_hex_locked_door",
    title="A locked door bordering the attacker's own hex",
    section="Interacting with the Mission Map › Line of Fire; Adjacency",
    readings={
        "ignored": "The exemption names doors without distinction: any door (locked or unlocked) on a side of the "
                   "attacker's own hex is ignored for Line of Fire, like an Obstacle there.",
        "blocks": "A locked door is a barrier (it breaks adjacency and movement like a wall), so it blocks Line of "
                  "Fire even on a side of the attacker's own hex; only unlocked doors and Obstacles there are ignored.",
    },
    default="ignored",
    why_default="The Line of Fire text lists 'doors (locked or unlocked)' as blockers and then exempts 'doors' bordering "
                "the attacker's hex with no qualifier; the literal reading is the only one the text states.",
)

LOF_OUT_OF_BOUNDS = RulingOption(
    key="lof_out_of_bounds",
    title="A straight line that crosses an Out of Bounds hex",
    section="Interacting with the Mission Map › Out of Bounds; Line of Fire",
    readings={
        "blocks": "The map is an enclosed area: a line that leaves the grid (a gap between two parts of the map) "
                  "does not come back, so targets beyond an Out of Bounds hex are not in Line of Fire.",
        "ignored": "Only walls, doors and Obstacles block: a line may cross Out of Bounds hexes and reach a target "
                   "on the far side.",
    },
    default="blocks",
    why_default="Out of Bounds says each map is an enclosed area and nothing outside the grid is part of it; mission "
                "maps draw their boundary as the edge of the enclosure, so a line leaving it is stopped.",
)

LOF_INTERVENING_ELEVATION = RulingOption(
    key="lof_intervening_elevation",
    title="Ground of another elevation between two characters on the same elevation",
    section="Map Features › Elevation Change Icons; Line of Fire",
    readings={
        "ignored": "Only the two ends' elevations matter: two characters on Low Ground see each other across a raised "
                   "platform between them (Elevation Change icons are not walls, doors or Obstacles).",
        "blocks": "A line that passes over hexes at another elevation than its two ends is blocked (a platform or "
                  "trench between them hides them from each other).",
    },
    default="ignored",
    why_default="The Elevation Change text compares only the two characters' elevations, and the Line of Fire text "
                "lists walls, doors and Obstacles as the only things between that block.",
)

DISTANCE_ELEVATION = RulingOption(
    key="distance_elevation",
    title="Counting distances across an Elevation Change icon from Low Ground to High Ground",
    section="Interacting with the Mission Map › Counting Distances; Map Features › Elevation Change Icons",
    readings={
        "adjacent": "Distances count routes through adjacent hexes; hexes either side of an Elevation Change icon "
                    "are adjacent, so the route may cross it either way (distance stays symmetric).",
        "movement": "A route may only cross an Elevation Change icon from High Ground to Low Ground, as a character "
                    "moves (the distance from Low Ground up to High Ground may then be longer than back down).",
    },
    default="adjacent",
    why_default="Counting Distances defines the route by adjacency ('moving only between adjacent hexes'), and the "
                "Elevation Change text says the hexes either side still count as adjacent; only moving is one-way.",
)

TURRET_OWN_HEX_EXEMPTION = RulingOption(
    key="turret_own_hex_exemption",
    title="Obstacles and doors bordering a Turret's own hex",
    section="Additional Rules › Turrets; Interacting with the Mission Map › Line of Fire",
    readings={
        "applies": "A Turret's Line of Fire works 'in a similar way to a character', so Obstacles and doors on a "
                   "side of the Turret's hex are ignored, as for an attacking character.",
        "none": "The exemption is for 'the attacking character's own hex'; a Turret is not a character, so every "
                "Obstacle and door on its line blocks.",
    },
    default="applies",
    why_default="The Turrets section tells us to treat a Turret's Line of Fire like a character's and lists only its "
                "differences (own hex included, one direction, never changes); the exemption is not among them.",
)


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
