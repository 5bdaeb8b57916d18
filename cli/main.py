"""The `fupan` command: serve, import, export, check, analyse, token, standings, explain, rebuild, verify, pair
and publish — one module of this package per family of commands, their shared helpers in cli/common.py.

The store is the SQLite file given by `--db`; without it, the process environment decides when it names a
persistence module (PERSISTENCE_MODULE=eventsourcing.postgres …), else ./fupan.sqlite.

The CLI is trusted (docs/SECURITY.md): whoever runs it can read and write the store directly, so its commands
act as the `local` principal — exports include live hands, events name {"role": "local"}.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cli import analysis, pair, publish, records, serve, standings, tokens, verify
from cli.common import close_opened
from domain.kernel.errors import Refusal


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fupan", description="复盘 — record and replay card-game deals")
    commands = parser.add_subparsers(dest="command", required=True)
    for family in (serve, records, analysis, tokens, standings, verify, pair, publish):  # the order of --help
        family.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):
        # Text stored before the API refused lone surrogates is printed as its escape rather than failing.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return args.handler(args)
    except Refusal as error:
        # the store cannot be opened with the configured key (domain/store/signing.py)
        if error.code != "bad_signing_key":
            raise
        print(f"fupan: {error.message}", file=sys.stderr)
        return 2
    finally:
        close_opened()


if __name__ == "__main__":
    sys.exit(main())
