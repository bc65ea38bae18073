"""A minimal progress bar on standard error, shown only when it is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``with Progress(total, "Annotating") as p: p.update()`` — silent when not on a terminal."""

    def __init__(self, total: int | None, label: str = "", stream: TextIO | None = None,
                 enabled: bool | None = None, interval: float = 0.2) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.label = label
        self.count = 0
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.interval = interval
        self._last = 0.0
        self._start = time.monotonic()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()

    def update(self, n: int = 1) -> None:
        self.count += n
        if self.enabled:
            self._draw()

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        rate = self.count / max(now - self._start, 1e-9)
        if self.total:
            frac = min(self.count / self.total, 1.0)
            bar = "#" * int(frac * 30)
            text = f"{self.label} [{bar:<30}] {self.count}/{self.total} ({rate:.0f}/s)"
        else:
            text = f"{self.label} {self.count} ({rate:.0f}/s)"
        self.stream.write("\r" + text)
        self.stream.flush()
