"""Headless Chromium for the report tests: the DOM after the page's script ran, a scripted
session (a harness script appended to a copy of the page clicks headers, links and buttons and
writes what it saw into the DOM), real downloads into a folder, and a small DOM reader.

The network is cut off (no resolver, no proxy). Chromium is skipped when absent locally and
required under CI (``apt-get install chromium``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

OFFLINE = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9"]


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("headless Chromium is required under CI (apt-get install chromium)")
        pytest.skip("chromium not installed (apt-get install chromium)")
    return exe


def dump_dom(page: Path, profile: Path, fragment: str = "") -> str:
    """The DOM after the page's scripts ran."""
    cmd = [chromium(), *OFFLINE, f"--user-data-dir={profile}", "--virtual-time-budget=5000",
           "--dump-dom", page.as_uri() + fragment]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


def _downloads(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.endswith(".crdownload"))


def run_harness(page: Path, script: str, work: Path, downloads: int = 0) -> dict[str, Any]:
    """Run ``script`` (the body of an async function; it returns a JSON-able value) in a copy
    of ``page`` after the page's own script, and return ``{"result": ..., "files": {name:
    text}}`` with the files the page downloaded (``downloads`` of them are awaited)."""
    work.mkdir(parents=True, exist_ok=True)
    folder = work / "downloads"
    folder.mkdir(exist_ok=True)
    profile = work / "profile"
    (profile / "Default").mkdir(parents=True, exist_ok=True)
    prefs = {"download": {"default_directory": str(folder), "prompt_for_download": False},
             "profile": {"default_content_setting_values": {"automatic_downloads": 1}}}
    (profile / "Default" / "Preferences").write_text(json.dumps(prefs), encoding="utf-8")
    harness = ("<script>(async () => { const out = document.createElement('pre'); "
               "out.id = 'harness-result'; const wait = ms => new Promise(r => "
               "setTimeout(r, ms)); try { const value = await (async () => {" + script +
               "})(); out.textContent = JSON.stringify({ok: true, value}); } catch (e) { "
               "out.textContent = JSON.stringify({ok: false, error: String(e && e.stack || "
               "e)}); } document.body.appendChild(out); })();</script>")
    html = page.read_text(encoding="utf-8")
    copy = work / page.name
    copy.write_text(html.replace("</body>", harness + "</body>"), encoding="utf-8")
    cmd = [chromium(), *OFFLINE, f"--user-data-dir={profile}", "--virtual-time-budget=10000",
           "--dump-dom", copy.as_uri()]
    # Chromium may stay up after a download finished: wait for the DOM and the files, then stop
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 300
    try:
        out, _ = proc.communicate(timeout=20 if downloads else 300)
    except subprocess.TimeoutExpired:
        while len(_downloads(folder)) < downloads and time.monotonic() < deadline:
            time.sleep(0.2)
        proc.kill()
        out, _ = proc.communicate()
    dom = Dom(out)
    found = dom.by_id.get("harness-result")
    assert found is not None, f"the harness did not finish: {out[-2000:]}"
    result = json.loads(found["text"])
    assert result["ok"], result.get("error")
    files = {p.name: p.read_text(encoding="utf-8") for p in _downloads(folder)}
    assert len(files) >= downloads, (files, downloads)
    return {"result": result["value"], "files": files, "dom": dom}


VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


class Dom(HTMLParser):
    """Just enough of the DOM: tables by id (cell texts), attributes and text (textContent) by
    id, class counts, chart bars, links by table."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.links: dict[str, list[str]] = {}
        self.by_id: dict[str, dict[str, Any]] = {}
        self.classes: dict[str, int] = {}
        self.bars: list[dict[str, str]] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._text_of: list[str] = []
        self._svg: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for c in a.get("class", "").split():
            self.classes[c] = self.classes.get(c, 0) + 1
        if "id" in a:
            self.by_id[a["id"]] = {**a, "text": ""}
        if tag not in VOID:
            self._text_of.append(a.get("id", ""))
        if tag == "svg":
            self._svg = a.get("id")
        if tag == "rect" and a.get("class") == "bar":
            self.bars.append({**a, "svg": self._svg or ""})
        if tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table] = []
            self.links[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        elif tag == "a" and self._table is not None and "href" in a:
            self.links[self._table].append(a["href"])

    def handle_endtag(self, tag: str) -> None:
        if self._text_of and tag not in VOID:
            self._text_of.pop()
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        for i in dict.fromkeys(self._text_of):  # textContent: every enclosing element
            if i:
                self.by_id[i]["text"] += data


def rows(dom: Dom, table: str) -> dict[str, list[str]]:
    """Body rows of a table keyed by their first cell."""
    return {r[0]: r for r in dom.tables[f"table-{table}"][1:]}
