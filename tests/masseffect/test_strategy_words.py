"""The Strategy Pool in words: Paragon dice are added to the Pool (Paragon Dice), so the text counts them on top of
the Strategy dice ("Pool of 12 Strategy dice + 2 Paragon dice: 14 rolled"), not as a part of them ("Pool of 12 dice
(2 Paragon)", newcomer finding)."""

from __future__ import annotations

import pytest

from explorer.games.masseffect.strategy_odds import pool_text, strategy_odds_table


@pytest.mark.parametrize("pool", [1, 2, 7, 12])
@pytest.mark.parametrize("paragon", [0, 1, 2])
@pytest.mark.parametrize("locked", [None, "enhanced"])
def test_pool_text_adds_paragon_dice_to_the_pool(pool, paragon, locked):
    t = strategy_odds_table(pool, locked, paragon=paragon)
    text = pool_text(t)
    assert text.startswith(f"Pool of {pool} Strategy {'die' if pool == 1 else 'dice'}")
    assert text.endswith(f": {t['rolled']} rolled") and "(" not in text
    assert (f" + {paragon} Paragon {'die' if paragon == 1 else 'dice'}" in text) == bool(paragon)
    assert ("Locked die showing enhanced" in text) == bool(locked)
    assert t["rolled"] == pool + paragon - (1 if locked else 0)
