"""The session and user of a WebSocket: Channels' `AuthMiddlewareStack`, but for the check
its session wrapper makes on every frame sent, and with the user read on any pool thread."""

from channels.auth import AuthMiddleware, get_user
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware

# Channels' `get_user`, on any of the pool's threads. Channels runs it thread-sensitive: on
# the one thread a process keeps for such work, so every socket opening queued there behind
# the others' reads of their session and user.
read_user = database_sync_to_async(get_user.func, thread_sensitive=False)


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


class SocketAuthMiddleware(AuthMiddleware):
    """Channels' `AuthMiddleware`, reading the user with `read_user`."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await read_user(scope)


def socket_auth(inner):
    """Channels' `AuthMiddlewareStack` with `SocketSessionMiddleware` and `SocketAuthMiddleware`."""
    return CookieMiddleware(SocketSessionMiddleware(SocketAuthMiddleware(inner)))
