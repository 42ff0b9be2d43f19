"""The site's pages, a module per audience (pretalx's ``orga/views/`` is the model).

Every page module imports what pages share, the selectors and read models, and the services, never
another audience's module, so no two of them import each other. ``public``: everyone's pages;
``offline``: the installable app; ``player``: the player's page; ``teams``: forming a team
(invitations, join codes, the partner pool, check-in); ``report``: reporting a result (the player's
phone, the slip's QR page, the scorekeeper's slip entry); ``manage``: the staff's manage page, rounds
and results; ``manage_teams``: the team desk; ``pool``: the organizer forming teams from the pool;
``events``: the dashboard, a new event, the event's settings, staff and audit log.

What pages share: ``common`` (small helpers: a posted text, htmx, a round's label and matches);
``me_page`` and ``manage_page`` (the player's page and the manage page, which several audiences
render again after a refusal); ``result_block`` (the result block of the player's page and the
slip page); ``staff_results`` (results as staff enter them).

Write views take a POST, call a single service and redirect with a message (post/redirect/get), so a
reload never repeats an action. When the service refuses (``DomainError``), the page is rendered
again with the service's message and a 4xx status instead of a redirect, so the refusal is visible
and testable: ``me_page.back_to_me`` for the player's page, ``manage_page.refused`` for the manage
page.
"""
