"""Load benchmark of the web app on loopback: many spectators' live streams plus API traffic.

A real ``gammoncam serve`` (waitress) in a child process; ``--clients`` Server-Sent Events
streams (100) stay open while ``--rps`` plain requests a second (20: /api/state, /healthz and the
board page in turn) run for ``--seconds`` (60) and the operator records one play a second (the
demo game's turns). Reports errors (failed requests, broken streams, clients that did not get
the last state), the time from a recorded event to each client and to every client (p50, p95,
max: the server stamps each state with its time; same machine, same clock) and the server's
memory (RSS at start, peak, end).

    python -m bench.bench_web [--seconds 60] [--clients 100] [--rps 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from gammoncam.demo import commands, load_game
from tests.webui.server import OperatorClient, Server


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class StreamClient(threading.Thread):
    """One spectator's event stream: records (seq, receive time - state time) per state."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.received: dict[int, float] = {}
        self.error: str | None = None
        self.connected = threading.Event()

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
            resp = conn.getresponse()
            if resp.status != 200:
                self.error = f"status {resp.status}"
                return
            event = None
            while not self.stop.is_set():
                line = resp.fp.readline()
                if not line:
                    if not self.stop.is_set():
                        self.error = "stream closed by the server"
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "state":
                    now = time.time()
                    state = json.loads(text[6:])
                    self.received[state["seq"]] = now - state["time"]
                    self.connected.set()
            conn.close()
        except Exception as exc:  # every failure is counted, with its kind
            if not self.stop.is_set():
                self.error = f"{type(exc).__name__}: {exc}"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run(seconds: float, clients: int, rps: float, threads: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    server = Server(folder, threads=threads).start()
    assert server.proc is not None
    pid = server.proc.pid
    stop = threading.Event()
    op = OperatorClient(server.url)
    script = list(commands(load_game()))
    op.send(script[0])
    rss_start = rss_mb(pid)
    streams = [StreamClient(server.port, stop) for _ in range(clients)]
    for s in streams:
        s.start()
    for s in streams:
        s.connected.wait(10)
    request_errors: list[str] = []
    request_times: list[float] = []
    recorded: list[int] = []
    peak = [rss_start]

    def requests() -> None:
        paths = ["/api/state", "/healthz", "/"]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        i, start = 0, time.monotonic()
        while not stop.is_set():
            due = start + i / rps
            time.sleep(max(0.0, due - time.monotonic()))
            t0 = time.monotonic()
            try:
                conn.request("GET", paths[i % len(paths)])
                resp = conn.getresponse()
                resp.read()
                if resp.status != 200:
                    request_errors.append(f"{paths[i % len(paths)]}: {resp.status}")
            except Exception as exc:  # counted as an error, then a fresh connection
                request_errors.append(f"{type(exc).__name__}: {exc}")
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            request_times.append(time.monotonic() - t0)
            i += 1

    def operator() -> None:
        k = 1
        while not stop.wait(1.0):
            cmd = script[k % len(script)]
            try:
                out = op.send(cmd)
                if out["events"]:
                    recorded.append(out["events"][-1]["seq"])
            except Exception as exc:  # a refused command is an error of the benchmark run
                request_errors.append(f"command {cmd}: {exc}")
            k += 1

    def memory() -> None:
        while not stop.wait(1.0):
            peak[0] = max(peak[0], rss_mb(pid))

    workers = [threading.Thread(target=f, daemon=True) for f in (requests, operator, memory)]
    for w in workers:
        w.start()
    time.sleep(seconds)
    time.sleep(1.5)  # let the last event reach everyone
    stop.set()
    for w in workers:
        w.join(5)
    rss_end = rss_mb(pid)
    server.stop()
    per_client: list[float] = []
    per_event: dict[int, list[float]] = defaultdict(list)
    for s in streams:
        for seq in recorded:
            if seq in s.received:
                per_client.append(s.received[seq])
                per_event[seq].append(s.received[seq])
    to_every = [max(v) for seq, v in per_event.items() if len(v) == clients]
    missed = sum(1 for s in streams if recorded and recorded[-1] not in s.received)
    stream_errors = [s.error for s in streams if s.error]
    return {
        "seconds": seconds, "clients": clients, "rps": rps, "threads": threads,
        "requests": len(request_times), "events": len(recorded),
        "errors": len(request_errors) + len(stream_errors) + missed,
        "request_errors": request_errors[:5], "stream_errors": stream_errors[:5],
        "clients_missing_last_event": missed,
        "request_p95_ms": round(pct(request_times, 0.95) * 1000, 1),
        "event_to_client_ms": {"p50": round(pct(per_client, 0.5) * 1000, 1),
                               "p95": round(pct(per_client, 0.95) * 1000, 1),
                               "max": round(max(per_client, default=float("nan")) * 1000, 1)},
        "event_to_every_client_ms": {"p50": round(pct(to_every, 0.5) * 1000, 1),
                                     "p95": round(pct(to_every, 0.95) * 1000, 1),
                                     "max": round(max(to_every, default=float("nan")) * 1000, 1)},
        "server_rss_mb": {"start": round(rss_start, 1), "peak": round(peak[0], 1),
                          "end": round(rss_end, 1)},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--rps", type=float, default=20.0)
    ap.add_argument("--threads", type=int, default=160, help="the server's thread pool")
    ap.add_argument("--json", action="store_true", help="print only the JSON result")
    args = ap.parse_args(argv)
    result = run(args.seconds, args.clients, args.rps, args.threads)
    if args.json:
        print(json.dumps(result))
    else:
        e, a = result["event_to_client_ms"], result["event_to_every_client_ms"]
        m = result["server_rss_mb"]
        print(f"{result['clients']} SSE clients + {result['rps']:g} req/s for "
              f"{result['seconds']:g} s ({result['threads']} server threads)")
        print(f"  requests {result['requests']}, events {result['events']}, "
              f"errors {result['errors']}")
        print(f"  request p95 {result['request_p95_ms']} ms")
        print(f"  event -> each client  p50 {e['p50']} ms  p95 {e['p95']} ms  max {e['max']} ms")
        print(f"  event -> every client p50 {a['p50']} ms  p95 {a['p95']} ms  max {a['max']} ms")
        print(f"  server RSS start {m['start']} MB  peak {m['peak']} MB  end {m['end']} MB")
        for err in result["request_errors"] + result["stream_errors"]:
            print(f"  error: {err}")
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
