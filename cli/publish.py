"""`fupan publish TOURNAMENT --out DIR`: the tournament as a static site (replay_ui/publishing/publish.py) — its tables,
standings with charts, every deal's viewer with its annotations, the printable records and their PDFs, the
records to download and the rules — that opens from the file system with no server and no network.

What is published is what the public may read (docs/SECURITY.md §4): deals still in play show only their
public view. Progress and the summary are shown on a terminal only (cli/common.py Progress).

Nothing the site links is missing: a page the app failed to make (or a linked page it says does not exist) is
written nowhere and every link to it is removed; each is named on stderr with its reason, and the command exits 1.
Links to what is outside the tournament are left out by design (named on a terminal, and in `--json`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.common import Progress, open_service, tournament_ref
from domain.kernel.errors import Refusal


def register(commands: argparse._SubParsersAction) -> None:
    publish = commands.add_parser("publish", help="write a tournament as a static site that works from file://")
    publish.add_argument("tournament", help="tournament id or key")
    publish.add_argument("--out", required=True, type=Path, help="the folder to write (created if missing)")
    publish.add_argument("--db")
    publish.add_argument("--json", action="store_true",
                         help="print what was written and every page left out (and why) as JSON on stdout")
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
    if args.json:
        print(json.dumps(done.as_json(), ensure_ascii=False, indent=1))
    # Every page left out is named with its reason on stderr (the site has no link to any of them): an error always,
    # a link outside the tournament (left out by design) on a terminal, so a script's pipe stays quiet.
    for item in (item for item in done.left_out if item.error or progress.shown):
        kind = "error" if item.error else "left out"
        where = f" (linked from {len(item.linked_from)} pages)" if item.linked_from else ""
        print(f"fupan publish: {kind}: {item.url}{where}: {item.why} / {item.why_zh}", file=sys.stderr)
    errors = len(done.errors)
    left = f"; {len(done.left_out)} pages left out, {errors} of them errors" if done.left_out else ""
    progress.done(f"fupan publish: {done.pages} pages, {done.files} files ({done.bytes / 1e6:.1f} MB) for "
                  f"{done.deals} deals in {done.seconds:.1f} s → {done.out / 'index.html'}{left}")
    if errors:
        print(f"fupan publish: {errors} pages could not be written (see above); the site links none of them. / "
              f"{errors} 个页面未能生成（见上），网站中没有指向它们的链接。", file=sys.stderr)
        return 1
    return 0
