"""One error shape for every API response: `{"code": ..., "detail": ...}`.

`code` is stable snake_case for programs (`not_found`, `not_authenticated`,
`permission_denied`, `throttled`, `invalid`, `hand_running`, …); `detail` is a sentence a
person can read, in English (the API speaks one language: api/http_errors.py). Invalid
query parameters add `fields`: the message(s) per parameter.
"""

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from django.utils.translation import gettext as _
from rest_framework.views import exception_handler as drf_exception_handler


class Conflict(exceptions.APIException):
    """The request is valid but the resource is not in a state to answer it (409)."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


class LockedOut(exceptions.APIException):
    """Too many failed logins from this client address (django-axes; 429 with Retry-After)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"

    def __init__(self):
        minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
        super().__init__(_("Too many failed logins: try again in %(minutes)s minutes.")
                         % {"minutes": minutes})
        self.wait = minutes * 60  # DRF's handler turns it into Retry-After


def exception_handler(exc, context):
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # not an API error: Django's 500 handling applies
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = {"code": "invalid", "detail": "Some parameters are invalid.", "fields": fields}
    else:
        code = exc.get_codes()
        response.data = {"code": code if isinstance(code, str) else exc.default_code, "detail": str(exc.detail)}
    return response
