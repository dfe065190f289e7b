"""A list that fixes dice gives exactly the dice its roll uses (issue #25 item 4), in every format that fixes dice:
too many is refused (never dropped in silence), too few is refused unless the format documents that the missing
dice are rolled from the seed (and then the step says so). Each refusal is one line naming the file, the field and
how many faces are allowed. The same file with and without a seed is accepted or refused alike."""

from __future__ import annotations

import re
import tempfile
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from explorer.errors import ExplorerError, naming_source
from explorer.games import load_any


def _text(game: str, name: str) -> str:
    return (resources.files(f"explorer.games.{game}") / "scenarios" / f"{name}.toml").read_text(encoding="utf-8")


def _edit(game: str, name: str, old: str, new: str) -> str:
    text = _text(game, name)
    assert text.count(old) == 1, (name, old)
    return text.replace(old, new)


def _run(text: str, seed: int | None = None, with_seed_line: bool = True) -> str:
    """``"accepted: <outcome text>"`` or ``"refused: <one-line message>"`` (the file named ``v.toml``)."""
    from explorer.games import outcome_text

    if not with_seed_line:
        text = re.sub(r"(?m)^seed = \d+\n", "", text)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "v.toml"
        path.write_text(text, encoding="utf-8")
        try:
            game, sc = load_any(str(path))
            with naming_source(str(path)):   # the one gate the CLI and the pages resolve through
                trace = game.resolve(sc, seed=seed)
        except ExplorerError as e:
            msg = str(e)
            assert "\n" not in msg
            return "refused: " + msg
    return "accepted: " + outcome_text(trace) + "\n" + "\n".join(s.title for s in trace.steps)


def _refused(text: str, *parts: str) -> str:
    out = _run(text)
    assert out.startswith("refused: "), out[:300]
    assert "v.toml" in out, out
    for p in parts:
        assert p in out, (p, out)
    return out


# --- TAG Raid roll scenario: save_dice -------------------------------------------------------------------------

def _roll_exact(text: str):
    from explorer.games.tagraid.model import parse_scenario
    from explorer.games.tagraid.resolve import resolve
    import tomllib

    return resolve(parse_scenario(tomllib.loads(text), "v.toml"), exact_dice=True)


def _save_line(name: str) -> tuple[str, str]:
    line = next(ln for ln in _text("tagraid", name).splitlines() if ln.startswith("save_dice = ["))
    return line, line[:-1] + ", 7]"


def test_roll_scenario_extra_saving_roll_face_is_refused_with_exact_dice():
    from explorer.errors import ScenarioError

    with pytest.raises(ScenarioError, match=r"save_dice.*exactly 2 faces"):
        _roll_exact(_edit("tagraid", "tr-02", *_save_line("tr-02")))


def test_roll_scenario_faces_for_another_reading_are_accepted():
    from explorer.errors import ScenarioError

    # TR-05 gives four Saving Roll faces: two are rolled under the default sv_above_20 reading, four under the other
    _roll_exact(_text("tagraid", "tr-05"))
    text = _edit("tagraid", "tr-05", "save_dice = [18, 19, 17, 16]", "save_dice = [18, 19, 17, 16, 15]")
    with pytest.raises(ScenarioError, match=r"reactive\[0\]\.save_dice.*exactly 2 faces"):
        _roll_exact(text)


# --- TAG Raid order file: dice.rolls / dice.saves --------------------------------------------------------------

def test_order_too_many_attack_dice_are_refused_not_dropped():
    text = _edit("tagraid", "tr-secured-death", '"Blue TAG" = [5]', '"Blue TAG" = [5, 3]')
    _refused(text, 'dice.rolls."Blue TAG"', "exactly 1 die")


def test_order_too_few_saves_names_the_real_field():
    text = _edit("tagraid", "tr-secured-death", 'saves = { "Red TAG" = [2, 3, 4] }', 'saves = { "Red TAG" = [2] }')
    out = _refused(text, 'dice.saves."Red TAG"', "exactly 3 faces")
    assert "'save_dice'" not in out


def test_order_too_many_saves_are_refused():
    text = _edit("tagraid", "tr-secured-death", 'saves = { "Red TAG" = [2, 3, 4] }',
                 'saves = { "Red TAG" = [2, 3, 4, 5] }')
    _refused(text, 'dice.saves."Red TAG"', "exactly 3 faces")


# --- TAG Raid Initial Deployment: rolls ------------------------------------------------------------------------

def test_deployment_list_too_short_for_the_reroll_is_refused():
    text = _edit("tagraid", "tr-deploy-reroll", "red = [1, 3]", "red = [1]")
    out = _refused(text, "initial_deployment.rolls.red", "at least 2")
    assert "19" not in out


def test_deployment_extra_face_after_a_free_access_point_is_refused():
    text = _edit("tagraid", "tr-deploy-reroll", "red = [1, 3]", "red = [3, 4]")
    _refused(text, "initial_deployment.rolls.red", "exactly 1 face")
    text = _edit("tagraid", "tr-deploy-reroll", "red = [1, 3]", "red = [1, 3, 5]")
    _refused(text, "initial_deployment.rolls.red", "exactly 2 faces")


def test_deployment_every_die_given_including_the_reroll_is_accepted():
    out = _run(_text("tagraid", "tr-deploy-reroll"))
    assert out.startswith("accepted") and "red rolls 3: Access Point 3" in out


# --- Galaxy Defenders round: rolled.hit / rolled.defend --------------------------------------------------------

GD_RED = 'red = ["hit", "bolt"]'


@pytest.mark.parametrize("faces", ['red = ["hit"]', 'red = ["hit", "bolt", "hit"]'])
def test_gd_round_hit_list_must_give_every_die_of_its_colour(faces):
    _refused(_edit("galaxydefenders", "gd-round-map", GD_RED, faces), "rolled.hit.red", "exactly 2 faces")


GD_DEFEND = '"Flying Critter" = ["shield", "blank", "blank"]'


@pytest.mark.parametrize("faces, given", [('"Flying Critter" = ["shield", "blank"]', 2),
                                          ('"Flying Critter" = ["shield", "blank", "blank", "shield"]', 4)])
def test_gd_round_defend_list_must_give_one_blue_die_per_hit(faces, given):
    """The Flying Critter takes 3 hits: its Defend roll rolls 3 Blue dice; a 4th face was cut in silence before."""
    _refused(_edit("galaxydefenders", "gd-round-map", GD_DEFEND, faces),
             "rolled.defend.Flying Critter", f"{given} faces given", "3 Blue dice", "exactly 3 faces")


def test_gd_combat_defend_list_longer_than_the_roll_is_refused():
    text = _text("galaxydefenders", "gd-04")
    line = next(ln for ln in text.splitlines() if "Xeno-Delta" in ln and "defend" in ln)
    longer = re.sub(r'("Xeno-Delta" = \[[^\]]*)\]', r'\1, "blank"]', line)
    assert longer != line
    _refused(text.replace(line, longer), "rolled.defend.Xeno-Delta", "exactly")


# --- Mass Effect: a Strategy Roll's rolls (strategy kind; a round file's [turns.roll]) ----------------------------

ME_TALI = 'rolls = [["move_2", "standard", "enhanced"]]'
ME_WREX = '"standard", "core"], ["enhanced"]]'


def test_me_round_rolls_shorter_than_the_dice_rolled_is_refused_naming_the_count():
    _refused(_edit("masseffect", "me-round-2", ME_TALI, 'rolls = [["move_2", "standard"]]'),
             "turns[3].roll.rolls[0]", "2 fixed faces for the 3 dice rolled", "exactly 3 faces")


def test_me_round_rolls_with_a_question_mark_for_the_seed_is_accepted():
    out = _run(_edit("masseffect", "me-round-2", ME_TALI, 'rolls = [["move_2", "standard", "?"]]'), seed=3)
    assert out.startswith("accepted: "), out[:300]


def test_me_strategy_first_roll_shorter_than_the_pool_is_refused_when_read():
    _refused(_edit("masseffect", "me-strategy-paragon", ME_WREX, '"standard"], ["enhanced"]]'),
             "rolls[0]", "8 fixed faces for the 9 dice rolled", "exactly 9 faces")


def test_me_strategy_missing_reroll_list_after_fixed_faces_is_refused():
    _refused(_edit("masseffect", "me-strategy-paragon", ME_WREX, '"standard", "core"]]'),
             "rolls[1]", "roll round 2 has no list", "1 face")


# --- the same file with and without a seed ---------------------------------------------------------------------

VARIANTS = [
    ("tagraid", "tr-deploy-reroll", "red = [1, 3]", "red = [1]"),
    ("tagraid", "tr-deploy-reroll", "red = [1, 3]", "red = [3, 4]"),
    ("tagraid", "tr-secured-death", '"Blue TAG" = [5]', '"Blue TAG" = [5, 3]'),
    ("tagraid", "tr-secured-death", 'saves = { "Red TAG" = [2, 3, 4] }', 'saves = { "Red TAG" = [2] }'),
    ("galaxydefenders", "gd-round-map", GD_RED, 'red = ["hit"]'),
    ("galaxydefenders", "gd-round-map", GD_RED, 'red = ["hit", "bolt", "hit"]'),
    ("galaxydefenders", "gd-round-map", GD_DEFEND, '"Flying Critter" = ["shield", "blank", "blank", "blank"]'),
    ("galaxydefenders", "gd-round-map", GD_DEFEND, '"Flying Critter" = ["shield"]'),
    ("masseffect", "me-round-2", ME_TALI, 'rolls = [["move_2", "standard"]]'),
    ("masseffect", "me-strategy-paragon", ME_WREX, '"standard", "core"]]'),
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_a_dice_list_is_accepted_or_refused_alike_with_and_without_a_seed(which, seed):
    game, name, old, new = which
    text = _edit(game, name, old, new)
    verdicts = {_run(text, s, line).split(":", 1)[0]
                for s, line in [(seed, True), (seed + 1, True), (None, False), (None, True)]}
    assert len(verdicts) == 1, (which, verdicts)
