"""`panel serve apps/explorer_page.py` (no extra flag: the app serves its widget JavaScript itself): any page, chosen
by the URL (`?page=<game id>-<slug>&scenario=<id>`; Binder:
`<binder>/panel/explorer_page?page=dagger-nemesis-phase`)."""

from explorer.app import create_page_from_query

create_page_from_query().servable(title="Rules explorer")
