"""A real board server in a child process (``gammoncam serve``) and an operator HTTP client,
for the browser tests and the load benchmark."""

from __future__ import annotations

import http.cookiejar
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``gammoncam serve`` on a store in ``folder``; restartable on the same port."""

    def __init__(self, folder: Path, port: int | None = None, threads: int = 160) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.threads = threads
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        (folder / "password").write_text(PASSWORD)

    def start(self) -> Server:
        cmd = [sys.executable, "-m", "gammoncam.cli", "serve", "--db", str(self.folder / "b.db"),
               "--host", "127.0.0.1", "--port", str(self.port), "--threads", str(self.threads),
               "--password-file", str(self.folder / "password")]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                     stderr=open(self.folder / "server.log", "ab"))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        raise RuntimeError("the server did not start: " + (self.folder / "server.log").read_text())

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None


class OperatorClient:
    """Logs in through the login form and posts commands with the CSRF token."""

    def __init__(self, url: str, password: str = PASSWORD) -> None:
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        page = self.opener.open(url + "/login").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"password": password, "csrf_token": token,
                                       "next": "/referee"}).encode()
        self.opener.open(url + "/login", data=data).read()
        self.csrf = json.loads(self.opener.open(url + "/api/session").read())["csrf"]
        if not self.csrf:
            raise RuntimeError("login failed")

    def command(self, name: str, **args: Any) -> dict[str, Any]:
        return self.send({"command": name, **args})

    def send(self, cmd: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            self.url + "/api/commands", data=json.dumps(cmd).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        with self.opener.open(req, timeout=10) as r:
            return json.loads(r.read())
