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
    why_default="The Line of Fire text lists 'doors (locked or unlocked)' as blockers and then exempts 'doors' "
                "bordering the attacker's hex with no qualifier; the literal reading is the only one the text states.",
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


ALL_OPTIONS: tuple[RulingOption, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, RulingOption))
"""Every Mass Effect ruling option, in definition order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """A :class:`Rulings` over :data:`ALL_OPTIONS` with the defaults, overridden by ``chosen``.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """
    return Rulings(ALL_OPTIONS, chosen)
