"""The one domain exception of the penalties core.

It subclasses :class:`common.errors.DomainError` (plain Python, no Django) so the API's single
exception handler answers it with a 4xx and the message, as for every other rule refusal.
"""

from __future__ import annotations

from common.errors import DomainError


class PenaltyRuleError(DomainError):
    """A penalty operation breaks a rule: unknown infraction, deviation by someone other than
    the head judge, a deviation or overturn without a reason, a penalty the policy does not know."""
