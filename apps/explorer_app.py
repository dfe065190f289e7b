"""`panel serve apps/explorer_app.py` (no extra flag: the app serves its widget JavaScript itself): the TAG Raid
pages as tabs (Binder: one file, one app)."""

from explorer.app import create_app

create_app("tagraid").servable(title="TAG Raid explorer")
