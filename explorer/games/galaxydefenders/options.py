"""Galaxy Defenders ruling options: every place the rulebook leaves a question open, with both readings.

Each option names the section that leaves the question open, its readings, the default and why; every reading is
implemented. :data:`ALL_OPTIONS` collects every :class:`RulingOption` defined here; :func:`rulings` gives a
:class:`~explorer.options.Rulings` with the defaults (or overrides).
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.options import RulingOption, Rulings

# --- combat: Defend roll, Critical tokens, Mark, Poison ---------------------------------------------------------

DEF_DICE_MINUS_BASE = RulingOption(
    key="def_dice_minus_base",
    title='What "-X Def Dice" is subtracted from when Energy Shields absorbed some hits',
    section="Storybook 5.5.1 High Impact; 11.7 Multiple Energy Shielded Armor",
    readings={
        "remaining_hits": "Blue dice = hits left after Energy Shields and hit-cancelling items, minus X, then the "
                          "High Impact cap of 5.",
        "total_hits": "Blue dice = the Hit roll's total hits minus X (the literal 'total number'), capped at 5 and "
                      "never more than the hits left after Energy Shields.",
    },
    default="remaining_hits",
    why_default="11.7 and 9.5.2.3 roll the Defend roll only for the hits left after the Energy Shields; the 'total' "
                "of 5.5.1 contrasts with the first five hits, and its example has no shields.",
)

DEF_DICE_MINUS_SOURCES = RulingOption(
    key="def_dice_minus_sources",
    title='Two "-X Def Dice" sources on one Defend roll (a weapon and a Critical token)',
    section="8.2.3 Effects; Storybook 5.5.1 High Impact",
    readings={
        "add": "The reductions add up (weapon -1 and Critical -1 make -2).",
        "largest": "Only the largest reduction applies.",
    },
    default="add",
    why_default="They come from different cards (the attacking weapon, the target's own Critical token); only the "
                "same Critical effect twice on one target is forbidden (8.2.3).",
)

CRITICAL_SEVERAL_SOURCES = RulingOption(
    key="critical_several_sources",
    title="An attack with two Critical sources of different levels (a weapon's Critical 2 and a power's Critical 1)",
    section="8.2 Critical",
    readings={
        "highest_level": "Draw one token, from the highest-level pile among the sources.",
        "lowest_level": "Draw one token, from the lowest-level pile among the sources.",
    },
    default="highest_level",
    why_default="8.2 caps an attack at one Critical but does not say which pile; every effect of the attack applies, "
                "so the strongest one is kept, as a greater effect replaces a lesser one elsewhere in 8.2.3.",
)

MARK_LESSER_ON_GREATER = RulingOption(
    key="mark_lesser_on_greater",
    title="A Mark 1 effect on a target that already has a Mark 2 token",
    section="8.3 Mark Locking System",
    readings={
        "keep_greater": "The Mark 2 token stays (the lesser Mark adds nothing).",
        "replace": "The token is flipped to Mark 1 (the newest Mark replaces the old one).",
    },
    default="keep_greater",
    why_default="8.3 only says a Mark 2 flips a Mark 1 up; 9.3.2 and 8.2.3 keep the greater of two effects of one "
                "type, and the book never lowers a token except in the Refresh phase.",
)

POISON_WITHOUT_WOUND = RulingOption(
    key="poison_without_wound",
    title="Does an attack's Poison effect apply when the attack dealt no wound?",
    section="9.3.2 Poisoned; 8.4 Explosion",
    readings={
        "applies": "The Poison token is placed whenever the effect triggers, wounds or not.",
        "needs_wound": "The Poison token is placed only if the attack dealt at least one wound to that target.",
    },
    default="applies",
    why_default="9.3.2 describes a toxin that bypasses any defence, and unlike Critical (8.2) the book sets no "
                "wound condition.",
)

IDENTICAL_POISON = RulingOption(
    key="identical_poison",
    title="A Poison effect on a target that already has a Poison token of the same level (Poison 1 on Poison 1)",
    section="9.3.2 Poisoned",
    readings={
        "wound": "Two poison effects cannot coexist: one copy is discarded and the target suffers 1 wound at once; "
                 "the token keeps its level.",
        "nothing": "The same effect again is no second poison: nothing happens (no wound).",
    },
    default="wound",
    why_default="9.3.2 forbids two poison effects on one target and attaches the immediate wound to that case; "
                "'the lesser one is discarded' names which copy goes, and with equal levels either copy is "
                "discarded. The other reading treats it as a repeat of one effect, as 8.2.3 does for Critical "
                "tokens, but 9.3.2 does not say so.",
)

NO_BOLT_OTHER_SYMBOLS = RulingOption(
    key="no_bolt_other_symbols",
    title="An attacker that cannot use Bolt effects (Critical) rolls its weapon's other effect symbol: do the "
          "effects apply?",
    section="8.2.3 Effects; 9.2 Combat; 9.5.2.2 Combat",
    readings={
        "all_effect_symbols": "No: the other symbol works exactly like the Bolt, so the Critical stops it too.",
        "bolt_only": "Yes: the Critical names the Bolt effects only; the weapon's other symbol still triggers them.",
    },
    default="all_effect_symbols",
    why_default="9.2 and 9.5.2.2 say the other symbol works 'exactly like' the Bolt and trigger the same effects; "
                "8.2.3 forbids using those effects, not only the Bolt face. The literal reading (only the Bolt "
                "symbol is named) is offered.",
)

UNLISTED_CLOSE_ENCOUNTER = RulingOption(
    key="unlisted_close_encounter",
    title="A Close Encounter card the 'clearly matching' lists do not name (for example #25, Activate X aliens)",
    section="7.2.1 Targeting and Damaging Burrowing Aliens",
    readings={
        "not_clearly_matching": "Only the listed clearly matching cards make a Burrowing alien vulnerable.",
        "matching_if_it_activates": "Any unlisted card that activates the alien makes it vulnerable.",
    },
    default="not_clearly_matching",
    why_default="The clear cards identify an attribute of the alien; card #25 picks a number of aliens like #21-#24, "
                "which the book lists as not clearly matching.",
)

# --- A.I. activation: line of sight -------------------------------------------------------------------------------

LINE_OF_SIGHT = RulingOption(
    key="line_of_sight",
    title="Line of sight between hexes (a Core Set rule this rulebook relies on but does not print)",
    section="10.2.1 NPC Movement; 11.11 Movement; 5.1 Barrier Hex Side",
    readings={
        "centre_to_centre": "A line from centre to centre is blocked only by a Blocking Hex whose interior it crosses "
                            "or a blocking Hex Side (wall, closed door) it crosses; grazing a corner or running along "
                            "a side does not block.",
        "strict": "As centre_to_centre, and a line that grazes a Blocking Hex's corner or runs along a blocking Hex "
                  "Side is blocked too.",
    },
    default="centre_to_centre",
    why_default="The rulebook only says a Barrier Hex Side does not block line of sight; the centre-to-centre line is "
                "the usual hex-game reading, and the strict one is offered because the Core Set text is not here.",
)

# --- Close Encounter activation, Event phase, Area Healing --------------------------------------------------------

PARALYZED_CARD_25 = RulingOption(
    key="paralyzed_card_25",
    title="May a Paralyzed alien be picked by Close Encounter card 25 (Activate as many aliens as agents)?",
    section="11.5 Alien Activation [Close Encounter Cards]; 11.9.1 Paralyzed",
    readings={
        "not_selectable": "As for cards 21-24: a Paralyzed alien is picked only when no other alien is in play.",
        "selectable": "Card 25 is not in the list, so a Paralyzed alien may fill a slot (and then skips its "
                      "activation).",
    },
    default="not_selectable",
    why_default="11.9.1 makes a Paralyzed alien skip every activation, and 11.5 states the aim: a player may not pick "
                "a Paralyzed alien 'with the hope of skipping the activation'; card 25 works like 22-24 with X = the "
                "number of agents.",
)

PARALYZED_FILL = RulingOption(
    key="paralyzed_fill",
    title="Activate X aliens when fewer than X aliens are not Paralyzed: do Paralyzed aliens fill the other slots?",
    section="11.5 Alien Activation [Close Encounter Cards]; 11.9.1 Paralyzed",
    readings={
        "no_fill": "No: a Paralyzed alien is selectable only when no other alien is in play; fewer aliens activate.",
        "fill": "Yes: once every other alien is selected, Paralyzed aliens fill the remaining slots (and skip).",
    },
    default="no_fill",
    why_default="The text allows a Paralyzed alien only 'unless there are no other aliens in play', and a selected "
                "Paralyzed alien would skip its activation anyway, so filling a slot with it changes nothing on the "
                "table; the literal reading is kept.",
)

ALPHA_AGENT_SUCCESSION = RulingOption(
    key="alpha_agent_succession",
    title="The Alpha Agent is eliminated during the round: who is the Alpha Agent for the rest of it?",
    section="11.5 Alien Activation [Close Encounter Cards]; 6.3 Event Phase (the book relies on the Core Set)",
    readings={
        "next_clockwise": "The next player clockwise becomes the Alpha Agent for the rest of the round (its aliens "
                          "are selected first; it draws the Event card).",
        "keeps_role": "The eliminated agent's player keeps the role until the next Alpha Agent promotion.",
    },
    default="next_clockwise",
    why_default="Operation Strikeback relies on the Core Set for the Alpha Agent and does not cover the case; a "
                "public review reports the Core Set rule as passing the role to the next player clockwise for the "
                "rest of the round. The Core Set text itself is not here, so the literal alternative (the role is "
                "only reassigned at the promotion) is offered.",
)

NO_PAIN_WITHOUT_DICE = RulingOption(
    key="no_pain_without_dice",
    title='"-X Def Dice" leaves the defender no Blue die: does a standard shield result from a power ("No Pain") '
          'still cancel a hit?',
    section="Storybook 5.5.1 High Impact; 8.1 Lethal",
    readings={
        "cancels": "Yes: the power's shield result cancels a hit whether or not any Blue die is rolled.",
        "needs_dice": "No: with no Blue die there is no Defend roll, and the power's result has nothing to join.",
    },
    default="cancels",
    why_default="5.5.1 lets powers and items raise the total shields beyond the dice, and 8.1 makes a standard "
                "shield result useless only against Lethal, where the Defend roll is skipped because such results "
                "cannot cancel Lethal hits; a non-Lethal attack keeps its defence. The book never says whether a "
                "Defend roll of zero dice still happens, so the other reading is offered.",
)

COMBAT_ACTIVITY = RulingOption(
    key="combat_activity",
    title="Is the Combat activity (Combat powers and items, 9.7; the Power Suit's weapon, 9.5.2.2) the agent's Action "
          "activity, or an activity of its own?",
    section="9.7 Powers & Items; 9.5.2.2 Combat; 6.2.1 Agent Turn (the agent turn itself is a Core Set rule)",
    readings={
        "separate": "An activity of its own, once per agent turn, beside the Movement and Action activities.",
        "is_the_action": "The Action activity used to attack: a Combat activity spends the turn's one Action.",
    },
    default="separate",
    why_default="9.7 names three once-per-turn activities side by side (Standard cards with the Action activity, "
                "Movement cards with the Movement activity, Combat cards with the Combat activity), and 9.5.2.2 "
                "fires the suit's weapon 'by using the Combat activity, as normal' while 9.5.1 equips it with the "
                "Action. The Core Set's agent turn is not in this rulebook, so the other reading is offered.",
)

MOVEMENT_ACTIVITY = RulingOption(
    key="movement_activity",
    title="May an agent split his one Movement activity around other activities (two `move` entries in one turn)?",
    section="6.2.1 Agent Turn (the agent turn itself is a Core Set rule); 9.2.2 Fighting Poses; 9.7 Powers & Items",
    readings={
        "once": "One Movement activity per agent turn: a second `move` is refused, except where the book itself says "
                "the movement goes on (a Seize Free Action during the movement, 7.3; equipping the Power Suit, whose "
                "Action 'does not interrupt movement', 9.5.1): that `move` continues the same activity.",
        "split": "Several `move` entries share one allowance: each walk (and each Fighting Pose cost) is paid from "
                 "the movement points left this turn, whatever comes between them.",
    },
    default="once",
    why_default="The book speaks of 'his movement activity' in the singular (9.2.2, and 9.7's Movement cards used "
                "once 'using his Movement activity') and names it beside Action and Combat as one main activity; "
                "9.5.1 has to say that equipping the suit 'does not interrupt movement', which implies an Action "
                "otherwise does, and 7.3 allows the Seize only 'during his movement'. The Core Set's turn rules are "
                "not printed here, so splitting the movement around any activity is offered.",
)

CARD_BONUS_TIMING = RulingOption(
    key="card_bonus_timing",
    title="A card with bonus hits or Hit dice used by a Free Action or the Action (not by the Combat activity): does "
          "its bonus join the agent's next attack this turn?",
    section="9.7 Powers & Items; 9.2 Hit Roll (the cards' texts are not printed in this rulebook)",
    readings={
        "next_attack": "Yes: the bonus waits for the agent's next attack in this turn, then is spent.",
        "same_activity": "No: a bonus only joins an attack made by the activity that used the card.",
    },
    default="next_attack",
    why_default="Tactics such as '+2 hits to the current Hit roll' are played just before the attack they help, and "
                "9.7 lets a card be used by the Free Action or Action activity; reading the bonus as lost would make "
                "such cards useless outside the Combat activity. The rulebook prints no card text, so the narrower "
                "reading is offered.",
)

RANGE_UNIT = RulingOption(
    key="range_unit",
    title="A weapon's Range (the maximum allowed range printed with it): counted in Areas or in Hexes?",
    section="9.2 Combat; 9.7.4.2 Vigil and 9.7.4.3 GD-5 print a Range, 'the maximum allowed range' (how it is "
            "counted is a Core Set rule this rulebook does not print)",
    readings={
        "areas": "In Areas: the Areas stepped through from the attacker's Area to the target's (0: the same Area); a "
                 "Barrier Hex Side keeps its Areas adjacent (5.1).",
        "hexes": "In Hexes: the hex distance from the attacker to the target.",
    },
    default="areas",
    why_default="Every distance this rulebook counts on the map is in Areas (the A.I.'s behavior rules, 10.1 and "
                "11.11; Area Damage), and 5.1 speaks of Range attacks between Areas across a Barrier; the book "
                "never counts a distance in Hexes except for adjacency.",
)

BLEEDING_AGENTS_IN_EVENT = RulingOption(
    key="bleeding_agents_in_event",
    title="Event phase signal balancing: does a bleeding agent count as an agent in play?",
    section="6.3 Event Phase",
    readings={
        "count": "Yes: a bleeding agent is still a player's agent on the battlefield.",
        "not_count": "No: only agents able to act count (a bleeding agent is not 'operative').",
    },
    default="count",
    why_default="6.3 contrasts 'real' agents (the players') with drones and NPCs; it says nothing about an agent's "
                "health, and a bleeding agent stays in play until it dies.",
)

END_OF_MISSION_WINGS_KILL = RulingOption(
    key="end_of_mission_wings_kill",
    title="The campaign's last GD-Wings roll at the end of a mission: does it need an alien killed in the last round?",
    section="Storybook 5.4 Gain GD-Wings in a Campaign; 9.8 GD-Wings",
    readings={
        "none": "No: an agent who failed all its rolls during the mission rolls once more at its end, whatever "
                "was killed.",
        "kill_condition": "Yes: 9.8's condition (at least one alien killed in the previous round) applies to it "
                          "too.",
    },
    default="none",
    why_default="5.4 grants the roll to an agent who failed all its rolls and states no condition; 9.8's kill "
                "condition belongs to the Strategy phase roll after the Alpha Agent promotion, which the end of a "
                "mission does not have.",
)

AREA_HEALING_ALLIES = RulingOption(
    key="area_healing_allies",
    title="Area Healing on the agents' side: are NPCs and drones healed too (the target's Area, or the target)?",
    section="8.5 Area Healing; 10.4 NPC Health Status and 9.7.4.2 / 9.7.4.3 (no normal / standard healing)",
    readings={
        "agents_only": "Only agents: the target if it is an agent, and the other agents in its Area; an NPC or drone "
                       "is never healed (10.4: not by normal healing weapons, powers or items; 9.7.4.2 / 9.7.4.3: not "
                       "by standard healing powers).",
        "agents_npcs_drones": "The target, and every agent, NPC and drone in its Area: Area Healing's 'advanced "
                              "healing technologies' (8.5) read as not the normal / standard healing 10.4 and 9.7.4.2 "
                              "/ 9.7.4.3 rule out (aliens count NPCs and drones as agents, section 11).",
    },
    default="agents_only",
    why_default="8.5 names 'all other agents'; NPCs and drones count as agents only for the aliens (11), 6.3 shows "
                "the book separating real agents from them, and 10.4 and 9.7.4.2 / 9.7.4.3 say they cannot be healed "
                "with normal or standard healing.",
)

AGENT_PATH_FIGURES = RulingOption(
    key="agent_path_figures",
    title="A round on a map: may an agent's walking path pass through a Hex where another figure stands?",
    section="6.2.1 Agent Turn (the agents' movement is a Core Set rule); 10.2.1 NPC Movement and 11.11 Movement say "
            "it only for NPCs and aliens",
    readings={
        "aliens_block": "Through agents and NPCs, not through aliens; no figure ends on an occupied Hex.",
        "none_block": "Through any figure, as 10.2.1 and 11.11 allow NPCs and aliens; no figure ends on an occupied "
                      "Hex.",
    },
    default="aliens_block",
    why_default="This rulebook grants walking through figures to NPCs and aliens by name (10.2.1, 11.11), each "
                "through its opponents as well; it says nothing of agents, whose movement is the Core Set's, so the "
                "narrower reading is the default: friends do not block a walk, enemies do.",
)

REVEALED_NPC_ACTIVATION = RulingOption(
    key="revealed_npc_activation",
    title="A round: an NPC that enters play from an NPC signal revealed during its controller's own turn: is it "
          "activated in that turn?",
    section="10.2 NPC Activation (NPCs are activated before the agent's first activity or after its last, every "
            "agent turn); 11.10.1 NPC Signals (the revealed signal is replaced with a new NPC at once)",
    readings={
        "next_turn": "It is first activated in its controller's next agent turn; an activate_npc for it in the turn "
                     "it arrived is refused (it is not yet one of that turn's NPCs).",
        "same_turn": "When its controller is the agent playing, it must be activated this turn, after the agent's "
                     "last activity; another controller activates it from its own next turn.",
    },
    default="next_turn",
    why_default="10.2 lets an agent choose, per assigned NPC, to activate it before his first activity or after his "
                "last: the choice presupposes the NPC was assigned when the turn began. An NPC arriving in the middle "
                "of the turn had no such choice, so its first turn is its controller's next one.",
)

REVEALED_ALIEN_ACTIVATION = RulingOption(
    key="revealed_alien_activation",
    title="A round: an alien that enters play from an Alien signal revealed in the Agents' phase: can a Close "
          "Encounter card drawn later in the same round activate it?",
    section="11.10 Signals (this book prints when and how a standard signal is revealed nowhere: Core Set rules); "
            "11.5 Alien Activation (the aliens a card selects are those in play)",
    readings={
        "in_play": "From its reveal it is an alien in play like any other: a Close Encounter card drawn after it "
                   "may activate it, and an 'Activate X aliens' card may select it.",
        "next_round": "It is not activated in the round it was revealed: a card naming it skips it (a cited step) "
                      "and an 'Activate X aliens' card passes it over.",
    },
    default="in_play",
    why_default="11.5 selects X aliens 'until ... there are no more aliens to activate' with no exception for a new "
                "one, 11.10.1 replaces a revealed signal with its figure at once, and 11.3 counts even a Master Alien "
                "as a standard alien for Close Encounter cards: nothing printed holds a revealed alien back.",
)

PRIME_SWARM_PARALYZED = RulingOption(
    key="prime_swarm_paralyzed",
    title="A Prime Swarm unit with one figure Paralyzed: does the whole unit skip its activation, or only that "
          "figure?",
    section="11.6 Prime Swarm Units (each figure defends as a stand-alone alien; the unit counts as a single "
            "alien); 11.9.1 Paralyzed (the Paralyzed alien skips all activations)",
    readings={
        "unit": "The unit skips its activation: the token is on its one Alien card (11.9) and the unit is the alien.",
        "figure": "Only the Paralyzed figure stays where it is; the other figure activates as the unit alone.",
    },
    default="unit",
    why_default="11.9 places a body-condition token 'on the alien card or near the figure', and a Prime Swarm has a "
                "single Alien card; 11.6 says the unit counts as a single alien and 11.9.1 makes 'the paralyzed "
                "alien' skip its activations, not a part of it.",
)

# --- missions (Storybook) ----------------------------------------------------------------------------------------

SPECIAL_EVENT_STATEMENT = RulingOption(
    key="special_event_statement",
    title="A special event card in a campaign, after an accomplished or partially accomplished mission: does the "
          "statement for that result replace the leftmost (standalone) column or add to it?",
    section="Storybook 2.5 Special Event Card Effects",
    readings={
        "replaces": "Only the statement for the previous result is applied (it is the column read).",
        "adds": "The leftmost column is applied, then the statement for the previous result.",
    },
    default="replaces",
    why_default="2.5 opens with 'the column to read and apply' depending on the previous missions, one column per "
                "case; its legend calls the other two 'statements' to read and apply, which could also be read as "
                "additions to the standalone column, so that reading is offered. After a failed mission no "
                "statement applies and both read the leftmost column.",
)

DEAD_AGENT_OUTSIDE_BASE = RulingOption(
    key="dead_agent_outside_base",
    title="Mission 4: does an agent who dies outside the alien base still count as an agent outside it (so that "
          "'all agents inside the alien base' can no longer be met)?",
    section="Storybook 2.4 Objectives (Mission 4's table)",
    readings={
        "not_counted": "Only the agents in play count: a death outside the base lowers the agents outside it.",
        "counted": "Every agent counts, a dead one too: he stays outside, and the mission cannot be accomplished.",
    },
    default="not_counted",
    why_default="Mission 4's rows speak of agents inside or outside the alien base on map X1, places on the map; a "
                "dead agent's figure has left the map. Where a mission's result depends on deaths its table says "
                "so (Mission 1: half the agents dead; Mission 5: agents who survived), and Mission 4's does not; "
                "Storybook 5.5 gives a death its campaign consequence (the agent returns without his ranks) and "
                "says nothing of the mission's result.",
)

FRIENDLY_FIRE_REACH = RulingOption(
    key="friendly_fire_reach",
    title="Friendly Fire is ON: whom does an NPC's (or an agent's, a drone's) Area Damage or Explosion reach?",
    section="10.2.2 NPC Combat; Storybook 6 Level of Difficulty (the Friendly Fire rule itself is the Core Set's, "
            "not printed in this book)",
    readings={
        "area_allies": "Every figure in the Areas the attack reaches: aliens, and the attacker's allies (agents, "
                       "NPCs, drones; never the attacker), each defending on its own. A single-target attack "
                       "is unchanged.",
        "none_printed": "The rule holds for the attack, but this book prints no effect of it: no ally is reached.",
    },
    default="area_allies",
    why_default="8.4 has Area Damage and Explosion hit 'all targets' in the Areas, not all aliens, while 8.5 names "
                "the side when it means one (Area Healing: agents, or aliens); 10.2.2 says the rule is valid for "
                "NPC attacks when ON, and Storybook 6 switches it ON only at HARD, which means one's own figures "
                "can be hit. The Core Set's text of the rule is not here, so the reading that applies nothing is "
                "offered.",
)

CRITICAL_PILE_REFORM = RulingOption(
    key="critical_pile_reform",
    title="When is an empty Critical pile recreated from its discarded tokens?",
    section="8.2 Critical",
    readings={
        "when_empty": "At once, the moment the last token leaves the pile: the tokens in the discard pile then are "
                      "reshuffled into the new pile (a token discarded later waits for the next time it empties).",
        "next_draw": "Only when a token must be drawn from the empty pile: every token discarded by then is "
                     "reshuffled into the new pile.",
    },
    default="when_empty",
    why_default="8.2 says 'once the pile is empty, recreate it by reshuffling discarded tokens': the trigger is the "
                "pile becoming empty, not the next draw. The book never says whether a token discarded after that "
                "moment (the instant token just drawn, a temporary one at the Refresh phase) joins it.",
)

CRITICAL_TOKENS_ON_DEATH = RulingOption(
    key="critical_tokens_on_death",
    title="An NPC or a drone dies with Critical tokens on its card or tile: where do the tokens go?",
    section="10.4 NPC Health Status; 9.7.4.2 Vigil and 9.7.4.3 GD-5 (destroyed); 8.2.2 Duration",
    readings={
        "discard": "Each token goes to the discard pile of its own level at once, and joins the next new pile "
                   "(ruling critical_pile_reform).",
        "stay_out": "The tokens leave play with the card or tile: out of the piles and the discard piles for the rest "
                    "of the mission.",
    },
    default="discard",
    why_default="11.9 discards an alien's tokens when it dies, and 8.2.2 sends every token whose effect ends "
                "('until the target dies' for a red one) to 'the relative discard pile'; 10.4 only says where an "
                "NPC's card goes and 9.7.4.2 / 9.7.4.3 that a destroyed drone is discarded, without a word on the "
                "tokens on them, so keeping them out is offered.",
)

FAILED_EVADE = RulingOption(
    key="failed_evade",
    title="An engaged agent (or drone) fails its Evade test: what happens to its movement? (STAND-IN: the test and "
          "its effect are the Core Set's, not printed in this book)",
    section="6.2 Battle Phase (keeps the Core Set's movement rules); 7.3 Seize, 10.2.1 NPC Movement and 11.11 "
            "Movement name the Evade without printing it",
    readings={
        "movement_ends": "It stays in its Hex, engaged, and its Movement activity is over: a later `move` entry "
                         "this turn is refused.",
        "walk_only": "It stays in its Hex, engaged; only that walk is lost, no movement point is spent and a later "
                     "`move` (ruling movement_activity = split) may try a new Evade.",
    },
    default="movement_ends",
    why_default="The book only shows the Evade as the condition for moving away (7.3: the seized agent moves "
                "'without performing an Evade'; NPCs and aliens disengage 'without an Evade test'); the test is "
                "taken for the movement activity, and 9.2.2 treats an engaged agent's stand-up as costing 'his "
                "entire movement activity', so a failed one ending it is the nearer reading. Trying again in a split "
                "movement is offered.",
)

# --- conditions between phases -----------------------------------------------------------------------------------

ALL_OPTIONS: tuple[RulingOption, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, RulingOption))
"""Every Galaxy Defenders ruling option, in definition order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """A :class:`Rulings` over :data:`ALL_OPTIONS` with the defaults, overridden by ``chosen``.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """
    return Rulings(ALL_OPTIONS, chosen)
