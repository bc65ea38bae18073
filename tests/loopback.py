"""Loopback HTTP servers for the download tests and the LLM judges' fake chat API: nothing in the
tests touches the internet."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: the path that streams a 1 GiB body slowly (for interrupting a download)
SLOW = "/slow"


def _handler(files: dict[str, bytes]) -> type[http.server.BaseHTTPRequestHandler]:
    class Files(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server API
            if self.path == SLOW:
                self.send_response(200)
                self.send_header("Content-Length", str(1 << 30))
                self.end_headers()
                try:
                    while True:
                        self.wfile.write(b"\0" * 4096)
                        time.sleep(0.01)
                except OSError:
                    return
            body = files.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Files


@contextmanager
def serve(files: dict[str, bytes]) -> Iterator[str]:
    """Serve ``files`` (URL path -> body; 404 otherwise, :data:`SLOW` streams slowly) on
    127.0.0.1; yields the base URL."""
    with _serving(_handler(files)) as url:
        yield url


#: a JSON API handler: (path, request headers, request body as JSON) -> (status, extra response
#: headers, response body as JSON)
ApiHandler = Callable[[str, dict[str, str], Any], tuple[int, dict[str, str], Any]]


@contextmanager
def serve_api(handler: ApiHandler) -> Iterator[str]:
    """Serve a JSON POST API on 127.0.0.1 (``handler`` answers every request); yields the base
    URL. A request body that is not JSON is passed as None."""

    class Api(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server API
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            status, headers, answer = handler(self.path, dict(self.headers.items()), body)
            data = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
            self.send_response(status)
            for k, v in {"Content-Type": "application/json", **headers}.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    with _serving(Api) as url:
        yield url


@contextmanager
def _serving(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on 127.0.0.1 from a thread until the block ends; yields the base URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
