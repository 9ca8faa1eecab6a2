"""`python -m baohuang.metrics_dir`: empty `PROMETHEUS_MULTIPROC_DIR` before a site's
processes start (prometheus-client's multiprocess mode keeps each process's values in
files there, and a file left from an earlier run would be added in; rooms/telemetry.py).
Run by `make run` and by deploy/systemd/baohuang-setup.service."""

import os
import shutil
import sys
from pathlib import Path


def reset(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)
    Path(path).mkdir(parents=True)


if __name__ == "__main__":
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        sys.exit("PROMETHEUS_MULTIPROC_DIR is not set: nothing to reset")
    reset(os.environ["PROMETHEUS_MULTIPROC_DIR"])
