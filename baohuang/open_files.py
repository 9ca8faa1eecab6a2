"""Open files of a server process: one descriptor per socket.

systemd starts a service with a soft limit of 1,024 open files (its default; the hard
limit is 524,288), and many shells start `make run` with the same. A Uvicorn process then
took no socket past about a thousand: `bench/bench_capacity.py` at 300 tables (1,530
sockets) on a server started with that soft limit had its sockets closed as they opened.
A process may raise its own soft limit up to the hard one, so a server process does as
Uvicorn starts it (`baohuang/asgi.py`, lifespan), and logs what it found and set.
"""

import logging
import resource

logger = logging.getLogger(__name__)

# Where the hard limit is "unlimited": the kernel's usual ceiling (fs.nr_open).
CEILING = 1_048_576


def raise_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; returns the soft
    limit in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CEILING if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError) as error:
            logger.warning("open files: the soft limit stays %s (could not raise it to %s: %s)", soft, wanted, error)
            return soft
        logger.info("open files: soft limit raised from %s to %s", soft, wanted)
        return wanted
    return soft
