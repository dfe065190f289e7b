"""Interactive rules explorer for tactical board games.

The engine (everything outside :mod:`explorer.widgets`, :mod:`explorer.app`) is pure Python with no UI
imports: a scenario goes in, a :class:`~explorer.trace.Trace` (or an exact distribution) comes out.
"""

__version__ = "0.1.0"
