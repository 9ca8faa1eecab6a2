"""Pages refuse a banned player (rooms/services/moderation.py) with the reason; the admin
stays reachable, so a banned staff account can still be repaired, and so does logging out."""

from django.shortcuts import render
from django.urls import reverse

from rooms.services.moderation import ban_refusal


class BannedMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refusal = ban_refusal(request.user) if request.user.is_authenticated else None
        if refusal is not None and not request.path.startswith((reverse("admin:index"), reverse("rooms:logout"))):
            return render(request, "rooms/banned.html", {"reason": request.user.ban_reason}, status=403)
        return self.get_response(request)
