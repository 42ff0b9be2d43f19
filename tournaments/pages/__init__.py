"""The site's pages, a module per audience (pretalx's ``orga/views/`` is the model).

Every page module imports ``common`` (the page-context builders and helpers several pages share),
the selectors and read models, and the services, never another page module, so no two of them
import each other. ``public``: everyone's pages; ``offline``: the installable app; ``player``: the
player's page; ``teams``: forming a team (invitations, join codes, the partner pool, check-in);
``report``: reporting a result (the player's phone, the slip's QR page, the scorekeeper's slip
entry); ``manage``: the staff's manage page, rounds and results; ``manage_teams``: the team desk;
``pool``: the organizer forming teams from the pool; ``events``: the dashboard, a new event, the
event's settings, staff and audit log.
"""
