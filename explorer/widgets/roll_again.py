"""What "Roll again" did, in one line: the pages that keep hand-set dice through a new seed say how many dice the
new seed rolled and how many it kept, and, when every die is set by hand, that the new seed rolls nothing and how
to roll them (before, the click silently changed nothing)."""

from __future__ import annotations

import html

from explorer.text import plural

ROLL_AGAIN_CLASS = "xr-roll-again"
"""The CSS class of the note (tests find it by this class)."""


def roll_again_note(seed: int, dice: int, kept: int, how_to_roll: str, hand_word: str = "set by hand") -> str:
    """The note shown after "Roll again" (HTML, escaped).

    Args:
        seed: the new seed.
        dice: how many dice the roll has.
        kept: how many of them keep a face given by hand (0 to ``dice``).
        how_to_roll: what to do to roll a hand-set die ("press Clear hand-set faces").
        hand_word: how the page's dice are given by hand ("set by hand", "typed").

    Returns:
        ``""`` when no die is kept (the new faces show for themselves), else one ``<span>``.
    """
    kept = max(0, min(kept, dice))
    if kept == 0:
        return ""
    if kept == dice:
        text = (f"Seed {seed}: every die is {hand_word}, so a new seed rolls nothing and the faces stay; to roll "
                f"them, {how_to_roll}.")
    else:
        kept_text = f"the die {hand_word} keeps its face" if kept == 1 else \
            f"the {plural(kept, 'die')} {hand_word} keep their faces"
        text = f"Seed {seed}: {plural(dice - kept, 'die', 'dice')} rolled again; {kept_text}."
    return (f"<span class='{ROLL_AGAIN_CLASS}' style='font-family:sans-serif;font-size:12px;color:#495057'>"
            f"{html.escape(text)}</span>")
