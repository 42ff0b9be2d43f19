"""``makemessages`` that also extracts the pure cores' ``N_("...")`` messages (common.translatable).

Django's command takes no keyword option; its documented way to add one is a command of the
same name whose ``xgettext_options`` say more. ``make messages`` and the extraction test run it.
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
