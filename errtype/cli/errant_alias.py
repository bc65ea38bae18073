"""``python -m errtype.cli.errant_alias DIR``: build the ``errant`` alias wheel into DIR
(:func:`errtype.errant.alias.build_wheel`; then ``pip install DIR/errant-*.whl``)."""

from __future__ import annotations

from ..errant.alias import build_wheel
from .common import CommandParser


def main(argv: list[str] | None = None) -> int:
    ap = CommandParser(
        prog="python -m errtype.cli.errant_alias",
        description="Build the 'errant' alias wheel: a distribution named errant whose package "
                    "and commands (errant_parallel, errant_m2, errant_compare) are errtype's "
                    "ERRANT drop-in. Install it instead of ERRANT with pip install WHEEL.")
    ap.add_argument("dest", help="directory to write the wheel into")
    args = ap.parse_args(argv)
    print(build_wheel(args.dest))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
