"""`panel serve apps/lof_app.py` (no extra flag: the app serves its widget JavaScript itself): the TAG Raid Line of
Fire explorer alone."""

from explorer.app import create_lof_page

create_lof_page().servable(title="TAG Raid Line of Fire explorer")
