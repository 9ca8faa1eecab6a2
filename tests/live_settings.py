"""Settings for server processes started by tests: the project's, with the Redis prefix of
the test (`CHANNEL_PREFIX`, required here), so its pub/sub traffic is its own."""

import os

from baohuang.settings import *  # noqa: F403

CHANNEL_PREFIX = os.environ["CHANNEL_PREFIX"]
