"""Pieces every view uses: the error responses of the schema, the id parameter, query parsing."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from api import serializers as s

ERROR = s.ErrorSerializer
# Path ids are positive 64-bit integers (a negative or non-numeric id matches no URL at all).
ID = OpenApiParameter("id", {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}, OpenApiParameter.PATH)
THROTTLED = {429: OpenApiResponse(ERROR, description="throttled: too many requests from this address or account")}
NOT_FOUND = {404: ERROR, **THROTTLED}
PRIVATE = {401: ERROR, 403: ERROR, 404: ERROR, **THROTTLED}

HAND_BRIEF = ("id", "room_id", "number", "preset", "phase", "version", "started", "ended", "scored")


def parse_query(serializer_class, request) -> dict:
    """The query parameters, validated by `serializer_class` (400 `invalid` naming the bad ones)."""
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
