"""The pages' files: the shared templates (base.html, error.html) and every script, style sheet and image under
one URL, `/ui/static/<file>` (endpoint `assets.static`), whichever page family's folder holds it.

Each family keeps its scripts beside its view module (replay_ui/<family>/static); one URL space keeps the links
of the pages and of the published site short and stable when a file moves between families. A file name is
therefore unique across the folders (tests/pages/test_viewer_pages.py checks it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from flask import Blueprint, Response, send_from_directory
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

from replay_ui.shared import transfer

HERE = Path(__file__).parent


class Assets(Blueprint):
    """A blueprint whose static files come from several folders, the first holding the file serving it."""

    def __init__(self, folders: Sequence[Path]):
        super().__init__("assets", __name__, static_folder=HERE / "static", static_url_path="/ui/static",
                         template_folder="templates")
        self.folders = [HERE / "static", *folders]
        transfer.install(self)  # compressed like the pages

    def folder_of(self, filename: str) -> Path | None:
        for folder in self.folders:
            path = safe_join(str(folder), filename)  # None for a name that leaves the folder
            if path is not None and Path(path).is_file():
                return folder
        return None

    def send_static_file(self, filename: str) -> Response:
        folder = self.folder_of(filename)
        if folder is None:
            raise NotFound()
        return send_from_directory(folder, filename, max_age=self.get_send_file_max_age(filename))
