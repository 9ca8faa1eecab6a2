"""The production shape of `deploy/`, started on this machine for a test.

Nothing here restates the deployment: the processes are the `ExecStart=` lines of the
systemd units, their environment is `deploy/baohuang.env.example` with this machine's
values put in, and nginx runs the site file itself. Only the places a real machine has
(`/srv/baohuang`, ports 80/443/8001/8002, the certificate, the host name) are replaced,
and each replacement must find its text, so the files and this test cannot drift apart.
"""

import os
import re
import shlex
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.live import ROOT

DEPLOY = ROOT / "deploy"
APP_DIR = "/srv/baohuang"
VENV_PYTHON = f"{APP_DIR}/.venv/bin/python"


def replaced(text: str, replacements: dict[str, str]) -> str:
    for old, new in replacements.items():
        assert old in text, f"{old!r} is no longer in the file: update the test with it"
        text = text.replace(old, new)
    return text


def env_file(overrides: dict[str, str]) -> dict[str, str]:
    """The environment template's variables, with `overrides` (each must be in it)."""
    values = {}
    for line in (DEPLOY / "baohuang.env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    unknown = set(overrides) - set(values)
    assert not unknown, f"not in baohuang.env.example: {sorted(unknown)}"
    return {**values, **overrides}


def exec_starts(unit: str, *, env: dict, instance: str = "", paths: dict[str, str]) -> list[list[str]]:
    """A unit's `ExecStart=` commands, as systemd would run them here."""
    text = (DEPLOY / "systemd" / unit).read_text()
    assert f"WorkingDirectory={APP_DIR}" in text and "EnvironmentFile=/etc/baohuang/baohuang.env" in text
    commands = []
    for line in text.splitlines():
        if not line.startswith("ExecStart="):
            continue
        command = line.removeprefix("ExecStart=").replace("%i", instance).replace("%H", "localhost")
        command = re.sub(r"\$\{(\w+)\}", lambda match: env[match.group(1)], command)
        for old, new in paths.items():
            command = command.replace(old, new)
        commands.append([sys.executable if arg == VENV_PYTHON else arg for arg in shlex.split(command)])
    assert commands, f"{unit} has no ExecStart"
    return commands


def nginx_conf(tmp: Path, *, http_port: int, https_port: int, web_ports: list[int], cert: Path, key: Path,
               static_root: Path, workers: str = "1", connections: int = 256, open_files: int | None = None) -> Path:
    """The site, with this machine's ports and paths, inside a main config of its own
    (`workers`, `connections` and `open_files`: its worker_processes, worker_connections and
    worker_rlimit_nofile; the benchmarks' are those the site file's header asks for)."""
    site = replaced((DEPLOY / "nginx" / "baohuang.conf").read_text(), {
        "    listen [::]:80;\n": "",
        "    listen [::]:443 ssl;\n": "",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "server 127.0.0.1:8001;": f"server 127.0.0.1:{web_ports[0]};",
        "server 127.0.0.1:8002;": f"server 127.0.0.1:{web_ports[1]};",
        "/etc/letsencrypt/live/baohuang.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/baohuang.example.org/privkey.pem": str(key),
        f"alias {APP_DIR}/staticfiles/;": f"alias {static_root}/;",
        "server_name baohuang.example.org;": "server_name 127.0.0.1;",
    })
    (tmp / "site.conf").write_text(site)
    temp = "\n".join(f"    {kind}_temp_path {tmp / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes {workers};
{f"worker_rlimit_nofile {open_files};" if open_files else ""}
pid {tmp / "nginx.pid"};
error_log {tmp / "nginx-error.log"} warn;
events {{ worker_connections {connections}; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format shape '$request_uri $status $upstream_addr';  # which process served it
    access_log {tmp / "nginx-access.log"} shape;
{temp}
    include {tmp / "site.conf"};
}}
"""
    (tmp / "nginx.conf").write_text(main)
    return tmp / "nginx.conf"


def self_signed(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


class Processes:
    """Everything the shape started, stopped in reverse order (SIGTERM, as systemd does)."""

    def __init__(self, logs: Path):
        self.logs = logs
        self.running: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, args: list[str], env: dict) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "ab")
        process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.running.append((name, process))
        return process

    def run(self, args: list[str], env: dict) -> None:
        done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{args}: {done.stderr}"

    def check_alive(self) -> None:
        for name, process in self.running:
            assert process.poll() is None, f"{name} exited with {process.returncode}:\n{self.log(name)}"

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def stop(self) -> dict[str, int]:
        codes = {}
        for name, process in reversed(self.running):
            if process.poll() is None:
                process.terminate()
            try:
                codes[name] = process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
                codes[name] = process.wait()
            try:  # a pool process that outlived its parent
                os.killpg(process.pid, 9)
            except (ProcessLookupError, PermissionError):
                pass
        self.running.clear()
        return codes


def upstreams(tmp: Path, path_start: str) -> list[str]:
    """The Uvicorn process (address) nginx sent each finished request under `path_start` to."""
    log = tmp / "nginx-access.log"
    lines = log.read_text().splitlines() if log.exists() else []
    return [line.split()[-1] for line in lines if line.startswith(path_start)]


def wait_until_ready(url: str, context, processes: Processes, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        processes.check_alive()
        try:
            with urllib.request.urlopen(url, timeout=5, context=context) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} never answered 200")
        time.sleep(0.2)
