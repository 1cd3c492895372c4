"""Runs the web app under waitress: one process (it may own the camera), never Flask's
development server or its reloader.

Each open live page holds a server thread for its event stream, so the pool is sized for the
spectators (``threads``) and the streams are capped ``RESERVED`` threads below it: with the cap
reached a new stream gets a 503 and retries, while health checks and commands still answer.
Browsers allow about six connections per host across tabs, so a tablet with a few pages open
holds a few threads.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from flask import Flask
from waitress.server import create_server

DEFAULT_THREADS = 160
RESERVED = 24  # threads kept for pages, the API and /healthz when the streams are at their cap
log = logging.getLogger(__name__)


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8080,
                threads: int = DEFAULT_THREADS) -> Any:
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` from another thread)."""
    if threads <= RESERVED:
        raise ValueError(f"threads must be more than {RESERVED}")
    app.extensions["gammoncam_streams"].limit = threads - RESERVED
    return create_server(
        app, host=host, port=port, threads=threads,
        connection_limit=max(1000, 4 * threads),
        channel_timeout=120,  # event streams ping every few seconds, so they never idle out
        backlog=1024,
        asyncore_use_poll=True,  # many sockets: poll(), not select()'s 1024 limit
        ident="gammoncam",
        clear_untrusted_proxy_headers=True,
    )


def serve(app: Flask, host: str = "127.0.0.1", port: int = 8080,
          threads: int = DEFAULT_THREADS) -> None:
    """Serve until interrupted."""
    server = make_server(app, host, port, threads)
    log.info("serving on http://%s:%s with %d threads", host, port, threads)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def build_app(service: Any, auth_path: str | None, password_file: str | None = None,
              board_name: str = "") -> Flask:
    """The web app for ``service``; a first-run password may come from ``password_file``
    (deployments), otherwise the operator sets it on /setup with the printed code."""
    from webui import create_app

    config: dict[str, Any] = {"BOARD_NAME": board_name}
    if auth_path:
        config["CLIP_DIR"] = os.path.join(os.path.dirname(os.path.abspath(auth_path)), "clips")
    app = create_app(service, auth_path=auth_path, config=config)
    store = app.extensions["gammoncam_auth"]
    if password_file and not store.password_set:
        with open(password_file, encoding="utf-8") as f:
            store.set_password(f.read().strip())
    return app


def announce(app: Flask, url: str) -> str:
    """The lines a launcher prints: where the board is and, on first run, the setup code."""
    lines = [f"gammoncam: board on {url}  (referee: {url}/referee)"]
    if not app.extensions["gammoncam_auth"].password_set:
        lines.append(f"gammoncam: first run: set the referee password at {url}/setup "
                     f"with the code {app.config['SETUP_CODE']}")
    return "\n".join(lines)
