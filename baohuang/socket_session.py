"""The session and user of a WebSocket: Channels' `AuthMiddlewareStack`, but for the check
its session wrapper makes on every frame sent."""

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' `SessionMiddleware`, passing `send` on unwrapped.

    Its wrapper saves a changed session only on an HTTP response's start
    (`InstanceSessionWrapper.save_message_types`), so on a socket it never saves; yet it
    looks at the session, through its lazy proxy, on every frame sent — about 2% of the
    server's CPU per move. The sockets here only read the session (signing in and out are
    pages).
    """

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_auth(inner):
    """Channels' `AuthMiddlewareStack` with `SocketSessionMiddleware`."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
