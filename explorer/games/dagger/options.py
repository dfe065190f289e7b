"""Marvel D.A.G.G.E.R. ruling options: every place the rulebook leaves a Nemesis Phase question open.

Each option names the section that leaves the question open, its readings, the default and why. :data:`ALL_OPTIONS`
collects every :class:`RulingOption` defined here; :func:`rulings` gives a :class:`~explorer.options.Rulings` with the
defaults (or overrides).
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.options import RulingOption, Rulings

# --- Nemesis Phase › 2. Check Nemesis Mission ---------------------------------------------------------------------

MISSION_FAIL_COMPARISON = RulingOption(
    key="mission_fail_comparison",
    title="When does a nemesis mission fail on threat?",
    section="Nemesis Phase › 2. Check Nemesis Mission (item 2); Additional Rules › Missions",
    readings={
        "track_reaches_value": "The mission fails when the threat track has reached the mission's threat value "
                               "(track >= threat value); a track equal to the value fails it.",
        "literal": "As the sentence is worded: the mission fails when its threat value is >= the track (so a low "
                   "track fails it and a high one does not).",
    },
    default="track_reaches_value",
    why_default="Missions 'can be failed when threat advances', so failure must come from a rising track; the literal "
                "comparison would fail a mission more easily the lower the threat is.",
)

FIRST_STRIKE_SIDE_MISSION = RulingOption(
    key="first_strike_side_mission",
    title="Does completing the 1st strike spawn a side mission?",
    section="Nemesis Phase › 2. Check Nemesis Mission (item 3); Missions › Nemesis and 1st Strike Missions",
    readings={
        "no": "Only a nemesis mission (I, II, III) completed spawns a side mission; the 1st strike is not one of them.",
        "yes": "The 1st strike sits on top of the nemesis mission deck, so completing it counts as a nemesis mission "
               "and spawns a side mission too.",
    },
    default="no",
    why_default="The rulebook names the 1st strike apart ('Nemesis and 1st Strike Missions'; 'complete a 1st strike "
                "mission before ... the 1st nemesis mission') and gives it its own outcome (removed from the game).",
)

REVEALED_MISSION_CHECK = RulingOption(
    key="revealed_mission_check",
    title="Is the nemesis mission revealed by a completed 1st strike checked in the same step?",
    section="Nemesis Phase › 2. Check Nemesis Mission",
    readings={
        "next_phase": "Step 2 checks one card, the top one at the start of the step; mission I revealed now is first "
                      "checked in the next Nemesis Phase.",
        "same_step": "After the 1st strike is removed, mission I (now the top card) is checked at once, against the "
                     "track before it is reset.",
    },
    default="next_phase",
    why_default="Step 2 says to check 'the top card', singular; the track is reset right after the completion.",
)

SHOWDOWN_TIMING = RulingOption(
    key="showdown_timing",
    title="What happens to step 3 when the final nemesis mission is completed in step 2?",
    section="Nemesis Phase › 2. Check Nemesis Mission ('Proceed to the Final Showdown'); Final Showdown",
    readings={
        "continue_phase": "Flip the nemesis sheet to its Final Showdown side now; step 3 (the event) is still "
                          "resolved, with the showdown in force.",
        "end_phase": "Proceeding to the Final Showdown ends the Nemesis Phase: no event is resolved this phase.",
    },
    default="continue_phase",
    why_default="No rule skips step 3, and the Final Showdown says every other mission and enemy keeps functioning "
                "as normal.",
)

# --- Nemesis Phase › 3. Resolve Event Cards ----------------------------------------------------------------------

SIDE_DECK_EMPTY = RulingOption(
    key="side_deck_empty",
    title="A side mission must spawn into an empty slot but the side mission deck is empty",
    section="Nemesis Phase › 3. Resolve Event Cards (spawn a side mission); Missions › Side Missions",
    readings={
        "nothing": "No card can be drawn, so nothing happens.",
        "threat": "Treat it like having no empty slot: advance threat by 1 + number of heroes.",
    },
    default="nothing",
    why_default="The threat penalty is stated only for a missing slot; the rulebook gives none for an empty deck.",
)

OVERRUN_BASE_NO_HERO = RulingOption(
    key="overrun_base_no_hero",
    title="An activated enemy on an already overrun base, with no hero there",
    section="Nemesis Phase › 3. Resolve Event Cards › Activate enemies; Additional Rules › Nearby and Overrun",
    readings={
        "moves": "It cannot overrun a base that is already overrun, so the first item it can resolve is Move: one "
                 "space toward the nearest operational base.",
        "stays": "Its base counts as 'a base in its space' to overrun: it resolves Overrun (no new token) and stays.",
    },
    default="moves",
    why_default="An enemy resolves the first item 'that they can'; overrunning places a token, which an overrun base "
                "cannot take again.",
)

REGION_DISTANCE = RulingOption(
    key="region_distance",
    title="How 'nearest operational base in its region' is measured",
    section="Nemesis Phase › 3. Resolve Event Cards › Activate enemies (Move)",
    readings={
        "whole_map": "Count lines along any route on the whole map; only the target base must be in the enemy's "
                     "region.",
        "within_region": "Count lines along routes that stay inside the region; a base of the region unreachable "
                         "that way is not a target (then the nearest operational base anywhere is).",
    },
    default="whole_map",
    why_default="The region only selects which bases qualify; the enemy then moves along the dotted lines like any "
                "standee, which cross regions freely.",
)

THREAT_LOSS_TIMING = RulingOption(
    key="threat_loss_timing",
    title="Threat reaches 20 in step 1: lost at once, or after step 2 may reset the track?",
    section="Winning and Losing; Nemesis Phase › 2. Check Nemesis Mission",
    readings={
        "immediate": "The heroes lose the moment the track reaches 20, even if step 2 would then reset it.",
        "after_mission_check": "A track at 20 after step 1 is judged after step 2: a nemesis mission completed "
                               "there resets it and the game goes on.",
    },
    default="immediate",
    why_default="The loss is worded as something that happens ('If ... Threat reaches 20'), with no waiting period; "
                "a failed mission is exactly what the rising track is meant to cause before it reaches 20.",
)

# --- End of Round -------------------------------------------------------------------------------------------------

FIRST_PLAYER_ELIMINATED = RulingOption(
    key="first_player_eliminated",
    title="The 1st player marker passes clockwise onto an eliminated player's seat: skipped, or held there?",
    section="End of Round ('Pass the 1st player marker clockwise'); Additional Rules › Damage and Defeat (a "
            "shattered hero defeated: the player is out of the game)",
    readings={
        "skip_eliminated": "The marker passes to the next player clockwise who is still in the game; an eliminated "
                           "player never holds it.",
        "clockwise": "The marker passes one seat clockwise, onto an eliminated player too; that player takes no "
                     "turn, so the next hero clockwise still in the game takes the Hero Phase's first turn, and the "
                     "marker moves on from that seat at the next End of Round.",
    },
    default="skip_eliminated",
    why_default="An eliminated player 'is out of the game', and the 1st player is the one who decides the game's "
                "ties (an enemy's move between bases at equal distance), which only a player in the game can do; "
                "'Per player effects still count the eliminated player' is about counting, not about who acts.",
)

# --- Additional Rules › Nearby -------------------------------------------------------------------------------------

NEARBY_SPACE_ITSELF = RulingOption(
    key="nearby_space_itself",
    title="Which spaces are 'nearby' a space (an effect on the spaces nearby a given space)",
    section="Additional Rules › Nearby and Overrun",
    readings={
        "adjacent_only": "A space is not nearby itself: the spaces nearby a space are the adjacent ones. (Pieces "
                         "nearby a hero or enemy still include the other pieces in its own space.)",
        "same_and_adjacent": "Nearby means the same or an adjacent space, for spaces too: the space itself counts.",
    },
    default="adjacent_only",
    why_default="The rulebook adds that a 'space is not nearby itself' right after defining nearby as the same or "
                "an adjacent space; for pieces, the same space is the other pieces' space.",
)

NEARBY_PIECES = RulingOption(
    key="nearby_pieces",
    title="Which pieces are 'nearby' a hero or enemy (an effect on each enemy nearby, the heroes nearby the nemesis)",
    section="Additional Rules › Nearby and Overrun",
    readings={
        "same_and_adjacent": "Nearby is the same or an adjacent space: the other pieces on the piece's own space "
                             "and those on the adjacent spaces; 'not nearby itself' only keeps a piece from being "
                             "nearby itself.",
        "adjacent_only": "The rule that a space is not nearby itself is read for the piece's own space: only the "
                         "pieces on the adjacent spaces are nearby.",
    },
    default="same_and_adjacent",
    why_default="The rulebook defines nearby as 'the same space or an adjacent space'; for pieces the literal reading "
                "would leave 'the same space' with no use, while 'not nearby itself' still has one (a hero is not "
                "nearby itself). Handed case DG-08 recommends it.",
)

# --- Additional Rules › Empowered and Primed -------------------------------------------------------------------

EMPOWERED_ABILITY_TOKEN = RulingOption(
    key="empowered_ability_token",
    title="Does an ability with the EMPOWERED icon use up the hero's empowered token?",
    section="Gameplay › Hero Phase › Hero Abilities; Additional Rules › Empowered and Primed",
    readings={
        "spent": "The ability cannot be resolved without the empowered token, and resolving it spends the token.",
        "kept": "The token only has to be there: the ability resolves and the hero stays empowered.",
    },
    default="spent",
    why_default="The rulebook pairs the EMPOWERED icon with the PRIMED one ('cannot be resolved without a primed or "
                "empowered token'), and a primed ability discards its primed tokens; empowered tokens are things "
                "a hero spends (on a die roll, on a combo ability).",
)

PRIMED_ABILITY_TOKEN = RulingOption(
    key="primed_ability_token",
    title="Does an ability with the PRIMED icon that is not a combo ability discard the primed tokens?",
    section="Gameplay › Hero Phase › Hero Abilities; Additional Rules › Empowered and Primed",
    readings={
        "discarded": "The ability needs a primed token on each enemy it would affect, and resolving it discards "
                     "them, as a primed combo ability does.",
        "kept": "The primed tokens only have to be there: the ability resolves and the enemies stay primed (only a "
                "combo ability discards them).",
    },
    default="discarded",
    why_default="Hero Abilities only says a PRIMED ability cannot be resolved without a primed token; the one rule "
                "that says what becomes of the tokens (a primed combo ability discards one from each enemy it "
                "affects) is read for every PRIMED icon, as the EMPOWERED icon spends its token "
                "(empowered_ability_token). A combo ability always discards them (Empowered and Primed).",
)

HERO_SUPPORT_GAINED = RulingOption(
    key="hero_support_gained",
    title="A hero-specific support card gained by completing the hero mission: ready or exhausted?",
    section="Additional Rules › Missions › Hero Missions ('the hero gains their hero specific support card'); "
            "Additional Rules › Support Cards; Setup",
    readings={
        "exhausted": "It stays on the side Setup placed it (face down: exhausted); a Rest charges it, and fully "
                     "charged it is readied.",
        "ready": "Gaining it puts it into play face up: ready to be used at once.",
    },
    default="exhausted",
    why_default="Setup places the hero-specific card face down, Support Cards knows only face up (ready) or "
                "exhausted, and no rule flips the card when it is gained; readying is what charging does.",
)

OVERRUN_MISSION_DAGGER_EFFECT = RulingOption(
    key="overrun_mission_dagger_effect",
    title="A D.A.G.G.E.R. action a mission calls for, on an overrun base: is the base's D.A.G.G.E.R. effect resolved?",
    section="Gameplay › Hero Phase › D.A.G.G.E.R. Actions; Additional Rules › Nearby and Overrun",
    readings={
        "mission_only": "The action can be performed for the mission (the mission's own effect applies), but the "
                        "base's D.A.G.G.E.R. effect stays covered by the overrun token and no hero mission is placed.",
        "effect_too": "'The D.A.G.G.E.R. can still be resolved if called for by a mission' is read as the base's "
                      "effect: it resolves too (still no hero mission placed).",
    },
    default="mission_only",
    why_default="D.A.G.G.E.R. Actions says in so many words that on an overrun base the action can be performed if "
                "a mission calls for it 'but you cannot resolve the D.A.G.G.E.R. effect', and Nearby and Overrun "
                "that while overrun the effect cannot be used; the shorter sentence that follows (the word after "
                "D.A.G.G.E.R. is missing) is read as the action, not the effect.",
)

TEAM_UP_AFTER_LOSS = RulingOption(
    key="team_up_after_loss",
    title="A team-up entry at a point after a loss condition is reached, before its Winning and Losing check",
    section="Additional Rules › Team-up Abilities; Winning and Losing",
    readings={
        "not_played": "Once a loss condition has happened (threat at 20, every base overrun, every hero out), the "
                      "game is over: a team-up card readied or used at a later point of the phase is not played.",
        "played": "Team-up can be spent and team-up abilities used at any time, even to interrupt other game "
                  "effects: the entry is played, then the Winning and Losing check ends the game.",
    },
    default="not_played",
    why_default="Winning and Losing says the heroes lose if any of the listed things happens: the loss comes with the "
                "condition, not with a later check; 'interrupt other game effects' names effects, and the game "
                "ending is not one a team-up card can wait on.",
)


NEMESIS_STUNNED_MID_ACTIVATION = RulingOption(
    key="nemesis_stunned_mid_activation",
    title="The nemesis is stunned during its own activation: which activation does the stun cost it?",
    section="Additional Rules › Damage and Defeat ('on its next turn'); Nemesis Phase › 3. Resolve Event Cards "
            "(a stunned nemesis); Additional Rules › Team-up Abilities (interrupt)",
    readings={
        "skip_next": "Its interrupted item does not resolve (it is stunned when it would land); the stun and damage "
                     "tokens stay, and its next activation is the turn it loses: then they are removed, with no "
                     "attack, overrun or move.",
        "this_activation": "Its interrupted item does not resolve, and the interrupted activation counts as the "
                           "turn the stun costs: the stun and damage tokens are removed at once; its next "
                           "activation is a normal one.",
    },
    default="skip_next",
    why_default="Damage and Defeat takes away the nemesis's 'next turn': a turn that begins after the stun, and the "
                "interrupted one had begun. Both readings stop the item, as step 3 resolves no attack, overrun or "
                "move for a stunned nemesis; an item that completes anyway is the board of the point after that "
                "activation (3.activation.N+1), which a file can name instead.",
)

INTERRUPTED_ITEM = RulingOption(
    key="interrupted_item",
    title="An enemy activation interrupted before its item lands, the enemy still standing: which item lands?",
    section="Nemesis Phase › 3. Resolve Event Cards › Activate enemies; Additional Rules › Team-up Abilities "
            "(interrupt)",
    readings={
        "as_determined": "The item determined as the activation began lands as it was determined (the same hero "
                         "attacked, base overrun or step taken); if the interrupt left the board so that it cannot "
                         "(the hero left its space, the base is overrun, the enemy is elsewhere), the activation "
                         "resolves nothing.",
        "redetermined": "When the item lands, the enemy resolves the first item it can on the board as the "
                        "interrupt left it (attack, overrun, move), as if the activation began then.",
    },
    default="as_determined",
    why_default="An activation resolves one item, the first it can ('not all'), found as the activation begins; "
                "Team-up Abilities lets a card interrupt a game effect under way, which can stop it (a defeated "
                "enemy resolves nothing, a stunned nemesis no attack, overrun or move), but gives an interrupt no "
                "power to swap the effect for another. The readings differ when the interrupt leaves the item "
                "unable to land: a stand-in team-up card that moves the attacked hero away (dg-interrupted-item).",
)


ALL_OPTIONS: tuple[RulingOption, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, RulingOption))
"""Every Marvel D.A.G.G.E.R. ruling option, in definition order."""


def rulings(chosen: Mapping[str, str] | None = None) -> Rulings:
    """A :class:`Rulings` over :data:`ALL_OPTIONS` with the defaults, overridden by ``chosen``.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """
    return Rulings(ALL_OPTIONS, chosen)
