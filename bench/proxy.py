"""deploy/'s nginx site in front of a benchmark's servers, as production runs them
(`--nginx` of bench_capacity.py and bench_reconnect.py)."""

import resource
import shutil
import ssl
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path


class Proxy:
    """deploy/'s nginx site in front of the servers, with TLS on a self-signed certificate,
    as production runs; its main config has the workers, connections and open files that the
    site file's header asks for. `env`: what the servers need to accept its sockets."""

    def __init__(self):
        from tests.live import free_port

        if shutil.which("nginx") is None:
            raise SystemExit("--nginx: nginx is not installed")
        self.tmp, self.http, self.https = Path(tempfile.mkdtemp(prefix="bench_nginx_")), free_port(), free_port()
        self.ws_url = f"wss://127.0.0.1:{self.https}"
        self.env = {"CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{self.https}", "NUM_PROXIES": 1}
        self.tls = None  # the clients' context, trusting the certificate (`start` makes both)
        self.process = None

    def start(self, servers) -> None:
        from tests.deploy_shape import nginx_conf, self_signed

        ports = [server.port for server in servers]
        if len(ports) > 2:
            raise SystemExit("--nginx: the site balances over two Uvicorn processes")
        cert, key = self_signed(self.tmp)
        conf = nginx_conf(self.tmp, http_port=self.http, https_port=self.https, web_ports=[ports[0], ports[-1]],
                          cert=cert, key=key, static_root=self.tmp, workers="auto", connections=16384,
                          open_files=min(32768, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
        self.tls = ssl.create_default_context(cafile=str(cert))
        with open(self.tmp / "nginx.log", "ab") as log:
            self.process = subprocess.Popen(["nginx", "-p", str(self.tmp), "-c", str(conf), "-g", "daemon off;"],
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"https://127.0.0.1:{self.https}/healthz", timeout=2, context=self.tls).read()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    logs = [path.read_text()[-500:] for path in (self.tmp / "nginx.log", self.tmp / "nginx-error.log")
                            if path.exists()]
                    raise SystemExit(f"nginx did not answer: {' '.join(logs)}")
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)
        shutil.rmtree(self.tmp, ignore_errors=True)
