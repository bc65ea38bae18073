"""``errtype <command> ...``: one entry point for every tool (each also has its own script)."""

from __future__ import annotations

import importlib
import sys

#: subcommand -> (module under errtype.cli, one-line help)
COMMANDS = {
    "m2": ("m2", "parallel text -> M2, or re-annotate an M2 file (= errtype-m2)"),
    "score": ("score", "any metrics over any systems in one call (= errtype-score)"),
    "compare": ("compare", "ERRANT span-based scorer (= errtype-compare)"),
    "m2score": ("m2score", "MaxMatch (M2) scorer (= errtype-m2score)"),
    "gleu": ("gleu", "GLEU (= errtype-gleu)"),
    "scribendi": ("scribendi", "reference-less Scribendi score (= errtype-scribendi)"),
    "ratio": ("ratio", "human-relative ratio scoring (= errtype-ratio)"),
    "meta": ("meta", "correlation of metrics with human judgments (= errtype-meta)"),
    "lint": ("lint", "check an M2 file: duplicate, overlapping, out-of-range edits, ..."),
    "convert": ("convert", "M2 -> text, JSON lines or tables; text -> M2; GECToR edit tags"),
    "report": ("report", "HTML report / tables: per-type CIs, system comparison"),
    "fit": ("fit", "learn a corpus profile (merge granularity, categories) from gold M2"),
    "download": ("download", "download a model, e.g. 'errtype download cs'"),
}


def usage() -> str:
    from .. import __version__

    lines = [f"errtype {__version__}", "usage: errtype <command> [options]", "", "commands:"]
    lines += [f"  {name:<10} {text}" for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0
    if args[0] == "--version":
        from .. import __version__

        print(__version__)
        return 0
    name = args[0]
    if name not in COMMANDS:
        print(f"errtype: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"errtype.cli.{COMMANDS[name][0]}")
    return int(module.main(args[1:]) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
