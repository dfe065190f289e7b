"""Section titles of the Marvel D.A.G.G.E.R. rulebook, as cited by every resolution step.

Titles are facts about the book (its headings); the rule text itself stays out of the project.
The constants are in rulebook order: `explorer rules` and the rule index list the sections in this order.
"""

from explorer.trace import RuleRef

GAME = "Marvel D.A.G.G.E.R."


def ref(section: str) -> RuleRef:
    """A :class:`RuleRef` into the Marvel D.A.G.G.E.R. rulebook."""
    return RuleRef(GAME, section)


SETUP = ref("Setup")
HERO_PHASE = ref("Gameplay › Hero Phase")
ASPECT_ACTIONS = ref("Gameplay › Hero Phase › Aspect Actions")
HERO_ABILITIES = ref("Gameplay › Hero Phase › Hero Abilities")
DAGGER_ACTIONS = ref("Gameplay › Hero Phase › D.A.G.G.E.R. Actions")
NEMESIS_PHASE = ref("Nemesis Phase")
ADVANCE_THREAT = ref("Nemesis Phase › 1. Advance Threat")
CHECK_NEMESIS_MISSION = ref("Nemesis Phase › 2. Check Nemesis Mission")
RESOLVE_EVENT_CARDS = ref("Nemesis Phase › 3. Resolve Event Cards")
EVENT_TEXT = ref("Nemesis Phase › 3. Resolve Event Cards › Event text")
ONGOING_EFFECTS = ref("Nemesis Phase › 3. Resolve Event Cards › Ongoing mission effects")
SIDE_MISSION_SPAWN = ref("Nemesis Phase › 3. Resolve Event Cards › Spawn a side mission")
NEMESIS_ABILITY = ref("Nemesis Phase › 3. Resolve Event Cards › Nemesis ability")
ENEMY_ACTIVATION = ref("Nemesis Phase › 3. Resolve Event Cards › Activate enemies")
ENEMY_SPAWN = ref("Nemesis Phase › 3. Resolve Event Cards › Spawn enemies")
DISCARD_EVENT = ref("Nemesis Phase › 3. Resolve Event Cards › Discard")
END_OF_ROUND = ref("End of Round")
FINAL_SHOWDOWN = ref("Final Showdown")
WINNING_AND_LOSING = ref("Winning and Losing")
NEARBY_AND_OVERRUN = ref("Additional Rules › Nearby and Overrun")
SUPPORT_CARDS = ref("Additional Rules › Support Cards")
EMPOWERED_AND_PRIMED = ref("Additional Rules › Empowered and Primed")
TEAM_UP_ABILITIES = ref("Additional Rules › Team-up Abilities")
MISSIONS = ref("Additional Rules › Missions")
SIDE_MISSIONS = ref("Additional Rules › Missions › Side Missions")
HERO_MISSIONS = ref("Additional Rules › Missions › Hero Missions")
NEMESIS_MISSIONS = ref("Additional Rules › Missions › Nemesis and 1st Strike Missions")
DAMAGE_AND_DEFEAT = ref("Additional Rules › Damage and Defeat")
