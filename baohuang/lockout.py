"""The answer to a login from a locked-out address (django-axes' `AXES_LOCKOUT_CALLABLE`).

Under /api/ it is the API's error shape, `{"code": "locked_out", "detail": ...}`; on the
pages it is the login page's frame with the same sentence. Both are 429 with Retry-After.
"""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def locked_out(request, original_response=None, credentials=None):
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    detail = _("Too many failed logins: try again in %(minutes)s minutes.") % {"minutes": minutes}
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": "locked_out", "detail": detail}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"detail": detail}, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response
