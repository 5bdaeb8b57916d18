"""A published site opened from file:// in a browser that may reach nothing else: every request to another scheme is
blocked and listed, every script error, console error and failed request is collected (a published copy must work
from a folder, with no network at all)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class FileSite:
    page: Any
    blocked: list[str] = field(default_factory=list)  # requests that left file:// (aborted)
    errors: list[str] = field(default_factory=list)  # script errors, console errors, failed requests


@contextmanager
def files_only(browser: Any, *, width: int = 1366, height: int = 900) -> Iterator[FileSite]:
    """A page whose requests may only be file:// ones; closed on leaving the block."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
    site = FileSite(page=None)

    def only_files(route: Any, request: Any) -> None:
        if request.url.startswith("file://"):
            route.continue_()
        else:
            site.blocked.append(request.url)
            route.abort("internetdisconnected")

    context.route("**/*", only_files)
    page = context.new_page()
    page.on("pageerror", lambda error: site.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and site.errors.append(message.text))
    page.on("requestfailed", lambda request: site.errors.append(f"{request.url}: {request.failure}"))
    site.page = page
    try:
        yield site
    finally:
        context.close()
