"""Test-wide settings.

Under CI (``CI`` set) hypothesis runs derandomized: the same examples every run, so a red CI is reproducible and never
a coin toss. Locally it explores new random examples each run (and keeps failures in its database).
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
