"""Server-Sent Events: the live state pushed to every open page.

Every (re)connection starts with ``retry:`` and a full snapshot, so a page never depends on what
it missed. Event ids are ``<boot id>-<seq>``: a page sees from the id when the server restarted.
A ``ping`` event every few seconds keeps proxies from closing the stream and lets the page notice
a dead connection (comments are invisible to scripts). Each stream holds a server thread, so
their number is capped below the thread pool (``Streams``): when full, a new stream gets a 503
with ``Retry-After`` and the health check and the API still answer.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from . import auth
from .logview import annotate
from .view import audience_view

bp = Blueprint("sse", __name__)


class Streams:
    """A counter of open long-lived streams with a limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def acquire(self) -> bool:
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def release(self) -> None:
        with self._lock:
            self.open = max(0, self.open - 1)


def frame(snapshot: dict[str, Any], operator: bool) -> str:
    data = json.dumps(audience_view(snapshot, operator), separators=(",", ":"))
    return f"id: {snapshot['boot_id']}-{snapshot['seq']}\nevent: state\ndata: {data}\n\n"


def stream_response(body: Iterator[str], cleanup: Any) -> Response:
    resp = Response(body, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache, no-store"
    resp.headers["X-Accel-Buffering"] = "no"
    resp.headers["Access-Control-Allow-Origin"] = "*"
    resp.call_on_close(cleanup)
    return resp


@bp.get("/api/events")
def events() -> Any:
    service = current_app.extensions["gammoncam_service"]
    streams: Streams = current_app.extensions["gammoncam_streams"]
    keepalive = float(current_app.config["SSE_KEEPALIVE_S"])
    retry_ms = int(current_app.config["SSE_RETRY_MS"])
    operator = auth.is_operator()
    if not streams.acquire():
        resp = jsonify({"error": "too many live streams on this board; retrying"})
        resp.status_code = 503
        resp.headers["Retry-After"] = "5"
        resp.headers["Access-Control-Allow-Origin"] = "*"
        return resp
    sub = service.publisher.subscribe()
    closed = threading.Event()

    def cleanup() -> None:
        if not closed.is_set():
            closed.set()
            service.publisher.unsubscribe(sub)
            streams.release()

    def body() -> Iterator[str]:
        try:
            yield f"retry: {retry_ms}\n\n"
            # subscribed first: nothing is missed
            yield frame(annotate(service.snapshot(), service), operator)
            while not closed.is_set():
                snap = sub.get(timeout=keepalive)
                if snap is None:
                    yield f"event: ping\ndata: {time.time():.3f}\n\n"
                else:
                    yield frame(annotate(snap, service), operator)
        finally:
            cleanup()

    return stream_response(body(), cleanup)
