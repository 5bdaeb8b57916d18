"""`fupan publish TOURNAMENT --out DIR`: the tournament as a static site (replay_ui/publishing/publish.py) — its tables,
standings with charts, every deal's viewer with its annotations, the printable records and their PDFs, the
records to download and the rules — that opens from the file system with no server and no network.

What is published is what the public may read (docs/SECURITY.md §4): deals still in play show only their
public view. Progress and the summary are shown on a terminal only (cli/common.py Progress).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cli.common import Progress, open_service, tournament_ref
from domain.kernel.errors import Refusal


def register(commands: argparse._SubParsersAction) -> None:
    publish = commands.add_parser("publish", help="write a tournament as a static site that works from file://")
    publish.add_argument("tournament", help="tournament id or key")
    publish.add_argument("--out", required=True, type=Path, help="the folder to write (created if missing)")
    publish.add_argument("--db")
    publish.set_defaults(handler=cmd_publish)


def cmd_publish(args: argparse.Namespace) -> int:
    # Imported here: the web app and the pages (Flask, reportlab …) would slow every other command's start.
    from replay_ui.publishing.publish import publish
    from web.app import create_app

    service = open_service(args.db)
    app = create_app({"FUPAN_APPLICATION": service, "FUPAN_PROJECTION_POLL": 0})
    progress = Progress("fupan publish", "files")
    try:
        done = publish(app, tournament_ref(args.tournament), args.out, progress.step)
    except Refusal as error:
        print(f"fupan publish: {error.message}", file=sys.stderr)
        return 1
    left = f"; {len(done.left_out)} links left out" if done.left_out else ""
    progress.done(f"fupan publish: {done.pages} pages, {done.files} files ({done.bytes / 1e6:.1f} MB) for "
                  f"{done.deals} deals in {done.seconds:.1f} s → {done.out / 'index.html'}{left}")
    return 0
