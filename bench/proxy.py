"""deploy/'s nginx site in front of a benchmark's servers, as production runs them
(`--nginx` of bench_capacity.py and bench_reconnect.py)."""

import os
import resource
import shutil
import ssl
import tempfile
from pathlib import Path


class Proxy:
    """deploy/'s nginx site in front of the servers, with TLS on a self-signed certificate,
    as production runs; its main config has the workers, connections and open files that the
    site file's header asks for. `env`: what the servers need to accept its sockets. Started
    and awaited as `tests/test_deploy.py` starts the whole shape (`tests/deploy_shape.py`)."""

    def __init__(self):
        from tests.deploy_shape import Processes
        from tests.live import free_port

        if shutil.which("nginx") is None:
            raise SystemExit("--nginx: nginx is not installed")
        self.tmp, self.http, self.https = Path(tempfile.mkdtemp(prefix="bench_nginx_")), free_port(), free_port()
        self.ws_url = f"wss://127.0.0.1:{self.https}"
        self.env = {"CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{self.https}", "NUM_PROXIES": 1}
        self.tls = None  # the clients' context, trusting the certificate (`start` makes both)
        self.processes = Processes(self.tmp)

    def start(self, servers) -> None:
        from tests.deploy_shape import nginx_conf, self_signed, wait_until_ready

        ports = [server.port for server in servers]
        if len(ports) > 2:
            raise SystemExit("--nginx: the site balances over two Uvicorn processes")
        cert, key = self_signed(self.tmp)
        conf = nginx_conf(self.tmp, http_port=self.http, https_port=self.https, web_ports=[ports[0], ports[-1]],
                          cert=cert, key=key, static_root=self.tmp, workers="auto", connections=16384,
                          open_files=min(32768, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
        self.tls = ssl.create_default_context(cafile=str(cert))
        self.processes.start("nginx", ["nginx", "-p", str(self.tmp), "-c", str(conf), "-g", "daemon off;"],
                             dict(os.environ))
        wait_until_ready(f"https://127.0.0.1:{self.https}/healthz", self.tls, self.processes, seconds=30)

    def stop(self) -> None:
        self.processes.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)
