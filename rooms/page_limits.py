"""Public pages that read the ledger or replay hands — player pages, the leaderboard, a
hand's replay — are limited per client address (`settings.LIMITS["reads"]`, 120 a minute
by default), as the REST API's anonymous reads are (api/throttles.py): anyone may open
them, so nobody may crawl them as fast as the server can answer."""

from functools import wraps

from django.shortcuts import render

from baohuang import limits
from baohuang.clients import request_address


def read_limited(view):
    """`view`, answering 429 with a page that says why once the address is past the rate."""
    @wraps(view)
    def limited(request, *args, **kwargs):
        if limits.over("reads", request_address(request)):
            return render(request, "rooms/too_many.html", status=429)
        return view(request, *args, **kwargs)
    return limited
