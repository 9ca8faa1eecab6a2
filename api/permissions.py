"""Who may read what: public data needs no login; private data needs its owner."""

from rest_framework.permissions import BasePermission


class IsOwnerOrStaff(BasePermission):
    """The player the object belongs to (a `Player`, or an object with `player_id`), or staff."""

    message = "Only the player themself (or staff) may read this."

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        owner_id = getattr(obj, "player_id", obj.pk)
        return request.user.is_staff or request.user.pk == owner_id
