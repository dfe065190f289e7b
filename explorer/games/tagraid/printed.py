"""Numbers printed beside the comparison they decided (issue 22: every printed distance rounds the way its band or
limit is decided).

A length the engine compared against a limit (a Move's allowance, a climb's one Segment, contact at 0) is printed
with the usual number of decimals when those already show which side of the limit it fell on, and with more
decimals (up to :data:`MOST_DIGITS`) when they do not: "the route is 5.2001" beside an allowance of "5.1962", never
"5.20" beside "5.20". Range Ruler distances go through :meth:`.ranges.RangeCalibration.rounded` instead (the band
decides the rounding there)."""

from __future__ import annotations

__all__ = ["against", "MOST_DIGITS"]

MOST_DIGITS = 6
"""The most decimals printed; a value beyond its limit by less than that shows prints as "just over" the limit."""


def against(value: float, limit: float, over: bool, digits: int = 2) -> tuple[str, str]:
    """``(value, limit)`` as printed: the fewest decimals, at least ``digits``, with which the printed value is above
    the printed limit exactly when ``over`` (the engine's decision; otherwise at or below it).

    Args:
        value, limit: the compared numbers (board or hex units).
        over: whether the engine found ``value`` beyond ``limit`` (after its own tolerance).
        digits: the usual number of decimals.

    Returns:
        Two strings; when even :data:`MOST_DIGITS` decimals cannot show the side, the value reads
        ``"just over <limit>"`` (``over``), or the limit itself (not ``over``: the value is the limit within the
        engine's tolerance)."""
    for d in range(digits, MOST_DIGITS + 1):
        v, lim = f"{value:.{d}f}", f"{limit:.{d}f}"
        if (float(v) > float(lim)) == over:
            return v, lim
    lim = f"{limit:.{digits}f}"
    return (f"just over {lim}" if over else lim), lim
