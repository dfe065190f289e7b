"""`panel serve apps/explorer_app.py --static-dirs widget-js=<dir>`: the Face to Face explorer as a Panel app."""

from explorer.app import create_app

create_app().servable(title="TAG Raid Face to Face explorer")
