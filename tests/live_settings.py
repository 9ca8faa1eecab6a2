"""Settings for server processes started by tests: the project's, with the channel-layer
prefix of the test session (`CHANNEL_PREFIX`), so its Redis pub/sub traffic is its own."""

import os

from baohuang.settings import *  # noqa: F403
from baohuang.settings import CHANNEL_LAYERS

CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["CHANNEL_PREFIX"]
