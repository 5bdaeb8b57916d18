"""Every UI string of the viewer in Chinese (the default) and English, keyed for templates and scripts alike.

One table serves both sides: Jinja renders `t(key)` as a pair of spans (CSS shows the chosen language, so a
reload in English never flashes Chinese), and the same table is embedded in each page as JSON for the scripts.
`{name}` placeholders are filled by `t(key, name=…)` in templates and `t(key, {name: …})` in JS.

The strings are data: the common ones (the pages, the deal viewer, words several games share) in
replay_ui/strings.toml, and each registered game's own with its plugin (`GameUI.strings`, from
replay_ui/games/<game>/strings.toml). A key may be defined only once.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from markupsafe import Markup, escape

from domain.records.annotations import GLYPHS

HERE = Path(__file__).parent
Strings = dict[str, tuple[str, str]]


def load_strings(path: Path) -> Strings:
    """A TOML file of `"key" = ["中文", "English"]` lines (comments allowed), in its order."""
    with path.open("rb") as file:
        table = tomllib.load(file)
    for key, value in table.items():
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
            raise ValueError(f"{path.name}: {key} is not [Chinese, English]")
    return {key: (zh, en) for key, (zh, en) in table.items()}


COMMON = load_strings(HERE / "strings.toml")
PAD = load_strings(HERE / "pad_strings.toml")  # the recording pad's (replay_ui/pad.py)
CONSOLE = load_strings(HERE / "console_strings.toml")  # the organiser console's (replay_ui/console.py)
APPEALS = load_strings(HERE / "appeals_strings.toml")  # the appeals pages' (replay_ui/appeals.py)

LANGUAGES = ("zh", "en")


@cache
def catalog() -> Strings:
    """The whole table: the common strings, then each game's in the registry's order. Built on first use, as
    the plugins import this module (for `text`) while the registry is being loaded."""
    from replay_ui.games import plugins

    table = dict(COMMON)
    if table.keys() & PAD.keys():
        raise ValueError(f"pad_strings.toml redefines {sorted(table.keys() & PAD.keys())}")
    table.update(PAD)
    if table.keys() & CONSOLE.keys():
        raise ValueError(f"console_strings.toml redefines {sorted(table.keys() & CONSOLE.keys())}")
    table.update(CONSOLE)
    if table.keys() & APPEALS.keys():
        raise ValueError(f"appeals_strings.toml redefines {sorted(table.keys() & APPEALS.keys())}")
    table.update(APPEALS)
    table.update({f"glyph.{code}": names for code, names in GLYPHS.items()})  # the annotations' marks
    for game, ui in plugins().items():
        again = table.keys() & ui.strings.keys()
        if again:
            raise ValueError(f"{game} defines strings that exist already: {sorted(again)}")
        table.update(ui.strings)
    return table


def text(key: str, lang: str, **params: object) -> str:
    """The plain string in one language; a missing key is a bug, so it raises."""
    zh, en = catalog()[key]
    template = zh if lang == "zh" else en
    return template.format(**params) if params else template


def bilingual(key: str, **params: object) -> Markup:
    """Both languages as spans; the stylesheet shows the one chosen (html[data-lang])."""
    zh = escape(text(key, "zh", **params))
    en = escape(text(key, "en", **params))
    return Markup(f'<span class="zh" lang="zh-CN">{zh}</span><span class="en" lang="en">{en}</span>')


def as_json() -> dict[str, dict[str, str]]:
    """The table for the scripts: {key: {"zh": …, "en": …}}."""
    return {key: {"zh": zh, "en": en} for key, (zh, en) in catalog().items()}
