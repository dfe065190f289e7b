"""`panel serve apps/explorer_app.py --static-dirs widget-js=<dir>`: the TAG Raid pages as tabs (Binder: one file, one app)."""

from explorer.app import create_app

create_app("tagraid").servable(title="TAG Raid explorer")
