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

FURTHEST_ENEMY_POOL = RulingOption(
    key="furthest_enemy_pool",
    title="Which Enemies an \"Activate Furthest Enemy\" card picks from",
    section="Icon Reference › Cards (Activate Furthest Enemy); Playing a Mission › Step C: Hazard Card",
    readings={
        "all_enemies": "The furthest Enemy on the board is picked; if it is Stunned or in a Shrouded area it is "
                       "simply not Activated (the card does nothing more).",
        "activatable_only": "Only Enemies that would Activate (not Stunned, not in a Shrouded area) compete; the "
                            "furthest of those is Activated.",
    },
    default="all_enemies",
    why_default="The rulebook only names the card (Icon Reference) and prints no text for it; Step C says Stunned "
                "Enemies 'are not Activated', which reads as a filter applied after the card names its Enemy, the "
                "same way an Activate card naming a type does not pass to another type when its Enemy is Stunned.",
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


REACT_BLOCKED = RulingOption(
    key="react_blocked",
    title="A React move when no hex nearer the attacker is free",
    section="Playing a Mission › Damaging Enemies › The React Tag; Step C: Hazard Card › Advancing",
    readings={
        "stays": "The Enemy moves only into a free adjacent hex nearer the attacker (fewer hexes by Counting "
                 "Distances); when every such hex holds a character (or it is already adjacent to the attacker) it "
                 "stays where it is.",
        "sidestep": "The Enemy must move one hex: when no nearer hex is free it moves into a free adjacent hex no "
                    "further from the attacker; only when there is none does it stay.",
    },
    default="stays",
    why_default="The React Tag says the Enemy moves one hex 'towards' its attacker: a hex that is not nearer is not "
                "towards it, and Advancing forbids an Enemy to enter a hex holding another character; the text "
                "does not say what happens when both cannot be met, and standing still changes the least.",
)

SHROUDED_REVEAL = RulingOption(
    key="shrouded_reveal",
    title="Does a Squadmate passing through a hex by an unlocked door reveal the Shrouded area?",
    section="Interacting with the Mission Map › Shrouded Areas",
    readings={
        "entered": "Every hex the Squadmate enters during a Move counts as standing in it: passing a hex bordered "
                   "by an unlocked door into a Shrouded area reveals it at once.",
        "end_of_move": "Only the hex where the Squadmate ends its Move (or an Action) counts as standing in it.",
    },
    default="entered",
    why_default="Each Movement Point moves the Squadmate into a hex (Basic Actions › Move), where it stands until "
                "the next point is spent; the reveal happens 'the first time' it stands there, with no mention of "
                "the end of the Action.",
)

REVIVED_TURN = RulingOption(
    key="revived_turn",
    title="Does a Squadmate Revived during the Squadmate Phase take a turn that Round?",
    section="Playing a Mission › Squadmate Phase; Preparation Phase; Basic Actions › Revive",
    readings={
        "takes_turn": "When its place in the turn order comes, the Revived Squadmate takes its turn (Strategy Roll "
                      "and Actions); no Hazard card was drawn for it in the Preparation Phase, so Step C has nothing "
                      "to flip.",
        "no_turn": "A Squadmate Downed at the start of the Round sits the Round out: Revived, it takes its next turn "
                   "in the next Round.",
    },
    default="takes_turn",
    why_default="The Squadmate Phase gives 'each Squadmate' a turn; the only thing the Preparation Phase withholds "
                "from a Downed Squadmate is its Hazard card, and Revive puts it 'back in the fight' at once. The "
                "back of the sheet, which the rulebook does not print, may say otherwise.",
)

DICE_WITHOUT_SPACE = RulingOption(
    key="dice_without_space",
    title="Dice a Squadmate must take but no free Action Space of its sheet can hold",
    section="Playing a Mission › Squadmate Phase › Step B: Actions; Action Spaces",
    readings={
        "set_aside": "The Squadmate still takes three dice from the Pool: those no free matching Action Space takes "
                     "are set aside with no Action, and the Pool shrinks by three all the same.",
        "left_in_pool": "A die is only taken by allocating it to an Action Space: dice no free space takes stay in "
                        "the Pool for the next Squadmate.",
    },
    default="set_aside",
    why_default="Step B says without condition that a Squadmate 'must always take three dice from the Pool', and "
                "that the Pool gets smaller over the Round; placing unused dice on matching spaces is how that is "
                "shown, not a condition of it. The text does not foresee a sheet with no matching space left.",
)

LOOT_PICKUP = RulingOption(
    key="loot_pickup",
    title="Loot tokens in a hex a Squadmate only passes through during a Move",
    section="Additional Rules › Loot Tokens; Playing a Mission › Squadmate Phase › Basic Actions (Move)",
    readings={
        "entered": "Every hex the Squadmate moves into during a Move counts: passing through a hex with Loot tokens "
                   "flips them and adds them to the Inventory.",
        "end_of_move": "Only the hex where the Move ends counts; Loot in hexes passed through stays face-down.",
    },
    default="entered",
    why_default="Loot Tokens says 'when a Squadmate moves into a hex', and each Movement Point moves the Squadmate "
                "into an adjacent hex (Basic Actions › Move); nothing requires the Move to end there.",
)

GRENADE_SHROUDED = RulingOption(
    key="grenade_shrouded",
    title="An Enemy in a Shrouded area in or next to a Grenade's target hex",
    section="Interacting with the Mission Map › Shrouded Areas; Additional Rules › Grenade and Grenade Cache Tokens",
    readings={
        "spared": "Enemies in Shrouded areas cannot be targeted, so a Grenade does not Damage them.",
        "damaged": "A Grenade targets a hex, not an Enemy: every Enemy in or adjacent to the hex suffers the Damage, "
                   "Shrouded or not.",
    },
    default="spared",
    why_default="Shrouded Areas says those Enemies 'cannot be targeted by Attacks or Abilities' and shows them "
                "Stunned side up as not yet engaged; the Grenade text damages 'each Enemy' without mentioning "
                "Shrouded areas, so the stricter, explicit rule is kept.",
)

HAZARD_RESHUFFLE = RulingOption(
    key="hazard_reshuffle",
    title="When the Hazard deck that runs out is rebuilt from the discard pile",
    section="Playing a Mission › Step C: Hazard Card; Preparation Phase",
    readings={
        "when_empty": "As soon as the last card is drawn, the discard pile is shuffled into the new deck; cards "
                      "discarded later this Round start the next discard pile.",
        "when_drawn": "Only when a card must be drawn from the empty deck: the discard pile then also holds every "
                      "card resolved since the deck ran out.",
    },
    default="when_empty",
    why_default="Step C says 'if the Hazard Deck runs out, shuffle the discard pile': the condition is the deck "
                "running out, not the next draw.",
)

DOWNED_HAZARD_CARD = RulingOption(
    key="downed_hazard_card",
    title="The face-down Hazard card of a Squadmate Downed after the Preparation Phase",
    section="Playing a Mission › Step C: Hazard Card; Squadmate Sheets › Downed Squadmates",
    readings={
        "discarded": "A Downed Squadmate makes no Actions, so there is no Step C for it: its card goes to the "
                     "discard pile unresolved when its turn comes.",
        "resolved": "The card was drawn for the Squadmate and is still flipped and resolved on its turn, with it as "
                    "the current Squadmate.",
    },
    default="discarded",
    why_default="Step C begins 'once a Squadmate has made their Actions'; a Downed Squadmate makes none and follows "
                "the back of its sheet, and the Preparation Phase draws no card for a Downed Squadmate at all.",
)

REVIVED_LOCKED_DICE = RulingOption(
    key="revived_locked_dice",
    title="The Strategy dice Locked on a Downed sheet when the Squadmate is Revived mid-Round",
    section="Playing a Mission › Preparation Phase; Squadmate Sheets › Downed Squadmates; Basic Actions › Revive",
    readings={
        "next_round": "The Locked dice stay off the Pool for the rest of the Round and come back when the On Point "
                      "player gathers the next Round's Pool (the Squadmate is no longer Downed then).",
        "at_revive": "Revived, the Squadmate is 'back in the fight' and its sheet no longer Locks them: the dice "
                     "return to the Pool once the current Squadmate's Actions are over, and the next Strategy Roll "
                     "rolls them.",
    },
    default="next_round",
    why_default="The rulebook mentions Locked dice only where the Pool is gathered (Preparation Phase), and the one "
                "rule it prints for dice held by a Downed sheet (Paragon dice) returns them 'at the start of the next "
                "Round'; the back of the sheet, which may say otherwise, is not printed.",
)

BARRIER_PIN = RulingOption(
    key="barrier_pin",
    title="Shepard's Barrier after a Move Action the Pin Tag ended early",
    section="Squadmate Commentary › Commander Shepard › Barrier; Basic Actions › The Pin Tag",
    readings={
        "completed": "The Pin Tag ends the Move Action where Shepard stands; an Action that has ended is complete, so "
                     "Barrier triggers.",
        "not_completed": "Pinned, Shepard did not finish the Move Action he declared: it was cut short, not "
                         "completed, so Barrier does not trigger.",
    },
    default="completed",
    why_default="The Pin Tag says the Move Action 'ends', and the Barrier commentary only excludes movement that is "
                "not a Move Action (Adrenaline Rush); nothing says a Move Action cut short is not completed.",
)

ANALYSIS_WINDOW = RulingOption(
    key="analysis_window",
    title="When in Liara's turn Analysis may be used",
    section="Squadmate Commentary › Liara T'Soni › Analysis; Squadmate Sheets (the Core Ability activates at the "
            "start of the turn)",
    readings={
        "before_actions": "Right after the Strategy Roll (every icon triggered and re-rolled, the token moved), "
                          "before Step B: the Core Ability is a start-of-turn ability.",
        "until_hazard_card": "Any time after the Strategy Roll until Step C flips Liara's Hazard card (after her "
                             "Actions too).",
    },
    default="before_actions",
    why_default="The commentary sets the earliest moment ('after making your Strategy Roll and after moving the "
                "Analysis token'); the sheet's Core Ability box 'activates at the start of their turn', which ends "
                "when Step B begins.",
)

COMMAND_SELF = RulingOption(
    key="command_self",
    title="Whether Shepard may spend his own Ready Command tokens",
    section="Playing a Mission › Squadmate Phase › Core Abilities; Squadmate Commentary › Commander Shepard › "
            "Command Tokens",
    readings={
        "others_only": "Command is how Shepard leads 'the other Squadmates': only another Squadmate spends a Ready "
                       "Command token on its Action.",
        "shepard_too": "A Ready Command token is the squad's: Shepard may spend one on his own Action as well.",
    },
    default="others_only",
    why_default="The Core Abilities paragraph says Shepard can Command 'the other Squadmates'; the commentary defines "
                "a Ready token but names no one else who may spend it.",
)

DRONE_REACT = RulingOption(
    key="drone_react",
    title="The React Tag when Tali's drone Chatika Damages an Enemy",
    section="Playing a Mission › Damaging Enemies › The React Tag; Squadmate Commentary › Tali'Zorah nar Rayya › "
            "Combat Drone",
    readings={
        "toward_tali": "The Damage is Tali's Core Ability: she is the Squadmate who attacked it, so the Enemy moves "
                       "one hex toward Tali.",
        "no_move": "The React Tag moves the Enemy toward 'the Squadmate who attacked it'; Chatika is a token, not a "
                   "Squadmate, and Enemies ignore it, so no Squadmate attacked and the Enemy stays.",
    },
    default="toward_tali",
    why_default="Chatika is Tali's Core Ability (the overview: Tali's Combat Drone), and the commentary says Enemies "
                "ignore the token itself, so the one attacker an Enemy can react to is Tali.",
)

PIN_ABILITY_MOVE = RulingOption(
    key="pin_ability_move",
    title="The Pin Tag when an Ability (Adrenaline Rush, Turian Rebel) moves the Squadmate",
    section="Basic Actions › The Pin Tag; Squadmate Commentary › Commander Shepard › Barrier, Garrus Vakarian › "
            "Turian Rebel",
    readings={
        "move_action_only": "The Pin Tag ends 'the Squadmate's Move Action'; an Ability that moves the Squadmate is "
                            "not a Move Action, so the Squadmate walks on (the Opportunity Attack is still made).",
        "any_move": "The Pin Tag stops the Squadmate however it moves: the Ability's movement ends there and its "
                    "unspent Movement Points are lost.",
    },
    default="move_action_only",
    why_default="The Barrier commentary draws the line itself: Adrenaline Rush lets Shepard move but is not a Move "
                "Action. The Pin Tag names only the Move Action; Opportunity Attacks, which name any move away, are "
                "still provoked.",
)

WARP_ON_BIOTIC = RulingOption(
    key="warp_on_biotic",
    title="What Shepard's Warp does to an Enemy that already has a Biotic Effect token",
    section="Squadmate Commentary › Commander Shepard › Warp; Additional Enemy Rules › Biotic Effects",
    readings={
        "no_effect": "The commentary says the Ability has no effect on such an Enemy: nothing happens (no Damage, no "
                     "token); the die stays on its Action Space.",
        "token_only": "Only the token is lost (an Enemy cannot have two); the rest of Warp (its Damage on the "
                      "sheet) is resolved.",
    },
    default="no_effect",
    why_default="The commentary's words are 'This Ability has no effect', for the whole Ability; where the book means "
                "'used, but no second token' it says so (Lift Grenade: 'You can use this Ability on an Enemy that "
                "already has a Biotic Effect token').",
)

CALIBRATE_AIM = RulingOption(
    key="calibrate_aim",
    title="Whether Garrus' Calibrate spends his Aim Value",
    section="Squadmate Commentary › Garrus Vakarian › Calibrate",
    readings={
        "kept": "Calibrate reads the Aim Value (2 or 3: +1 Damage, 4 or more: +2); the Aim Tracker stays where it is.",
        "spent": "The extra Damage uses the Aim up: the Aim Tracker goes back to 0 after Calibrate.",
    },
    default="kept",
    why_default="The commentary states a condition ('If your Aim Value is 2 or 3 ...') and limits it to once per "
                "turn; it says nothing of moving the tracker, and a once-per-turn limit would be needless if the "
                "Aim were spent.",
)


SHOOT_IT_46 = RulingOption(
    key="shoot_it_46",
    title="Which Shotgun Blast Wrex's Shoot It 46 More Times resolves a second time",
    section="Squadmate Commentary › Urdnot Wrex › Shoot It 46 More Times",
    readings={
        "twice": "The Ability's own die resolves the Shotgun Blast Action twice; both times deal the Damage of that "
                 "die's icon (Standard 2, Enhanced 4).",
        "repeat_first": "The Ability repeats a Shotgun Blast Action Wrex already resolved this turn, for that "
                        "Action's Damage, whatever icon is on this Ability; refused when there was none.",
    },
    default="twice",
    why_default="The commentary counts the resolutions made 'using this Ability' ('the second time you resolve the "
                "Shotgun Blast Action using this Ability'), and its example names one allocated icon for 'both "
                "times': the die on this Ability's Action Space.",
)

KROGAN_MOVES = RulingOption(
    key="krogan_moves",
    title="Which Enemy moves Wrex's What Krogan Do Best looks at",
    section="Squadmate Commentary › Urdnot Wrex › What Krogan Do Best",
    readings={
        "advance_only": "Only an Enemy's Advance (its own move when Activated) is 'its move'.",
        "any_move": "Also the one hex an Enemy with the React Tag moves toward its attacker.",
    },
    default="advance_only",
    why_default="The commentary speaks of 'its move' and 'the start of its move', the words of Advancing ('it must "
                "end its move ...'); the React Tag moves the Enemy as a reaction to Damage, not as its own move.",
)

INTUITION_ATTACKS = RulingOption(
    key="intuition_attacks",
    title="Whether Liara's Shadow Broker Intuition can be used on an Opportunity Attack",
    section="Squadmate Commentary › Liara T'Soni › Shadow Broker Intuition",
    readings={
        "attacking_only": "Only when an Activated Enemy selects its target (Attacking: 'First, select a target').",
        "opportunity_too": "Also an Opportunity Attack on a Squadmate leaving an Enemy's adjacency.",
    },
    default="attacking_only",
    why_default="The commentary says 'when an Enemy targets any Squadmate': Attacking is the rule in which an Enemy "
                "selects a target; an Opportunity Attack selects none, it hits the Squadmate who moves away.",
)


ALL_OPTIONS: tuple[RulingOption, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, RulingOption))
"""Every Mass Effect ruling option, in definition order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """A :class:`Rulings` over :data:`ALL_OPTIONS` with the defaults, overridden by ``chosen``.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """
    return Rulings(ALL_OPTIONS, chosen)
