"""The API's front page."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


class ApiRootView(APIView):
    """Links to the collections and to the documentation (the browsable API's front page)."""

    @extend_schema(exclude=True)
    def get(self, request):
        names = ("leaderboard", "rooms", "me", "token", "schema", "docs", "redoc")
        return Response({name: reverse(f"api:{name}", request=request) for name in names})
