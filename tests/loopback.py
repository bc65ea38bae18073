"""A loopback HTTP server for the download tests: nothing in the tests touches the internet."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

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
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(files))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
