"""Django's own error answers (URL-level 404, 400, an oversized body, 500) in the API's
error shape, `{"code", "detail"}`, for paths under /api/; Django's pages elsewhere.

Errors inside an API view are DRF's and go through `api.errors.exception_handler`; these
are the ones that happen before or around any view. API answers are English only
(`EnglishApi`), so one response never mixes two languages: `code` is what a program
reads, and the pages word codes in the player's language themselves.
"""

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.views import defaults

API = "/api/"


def _api(request) -> bool:
    return request.path_info.startswith(API)


def _error(code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


def bad_request(request, exception=None):
    if not _api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return _error("too_large", "The request body is too large.", 413)
    return _error("bad_request", "The request could not be understood.", 400)


def not_found(request, exception=None):
    if not _api(request):
        return defaults.page_not_found(request, exception)
    return _error("not_found", "There is nothing at this address.", 404)


def server_error(request):
    if not _api(request):
        return defaults.server_error(request)
    return _error("server_error", "Something went wrong on the server; nothing was changed.", 500)


class EnglishApi(MiddlewareMixin):
    """Answer under /api/ in English, whatever the browser's language (after LocaleMiddleware)."""

    def process_request(self, request):
        if _api(request):
            translation.activate("en")
            request.LANGUAGE_CODE = "en"
