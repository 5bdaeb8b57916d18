"""Every UI string of the viewer in Chinese (the default) and English, keyed for templates and scripts alike.

One table serves both sides: Jinja renders `t(key)` as a pair of spans (CSS shows the chosen language, so a
reload in English never flashes Chinese), and the same table is embedded in each page as JSON for the scripts.
`{name}` placeholders are filled by `t(key, name=…)` in templates and `t(key, {name: …})` in JS. A count's words
come from `counted(key, lang, n)` / `Fupan.counted(key, n, {…})`: `key.one` where n is 1 and it exists ("1 deal"),
else `key` ("2 deals"); never "deal(s)".

The strings are data: the common ones (the pages, the deal viewer, words several games share) in
replay_ui/shared/strings.toml, each page family's with its pages (replay_ui/<family>/strings.toml), and each
registered game's own with its plugin (`GameUI.strings`, from replay_ui/games/<game>/strings.toml). A key may be
defined only once.
"""

from __future__ import annotations

import tomllib
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
LANGUAGES = ("zh", "en")

# The whole table: the common strings and the annotations' marks, then what `register` adds — each page
# family's own strings (replay_ui/<family>/strings.toml) and each game plugin's (replay_ui/pages.py registers
# them: this module sits below the plugins, which use it, so it never imports them).
_TABLE: Strings = {**COMMON, **{f"glyph.{code}": names for code, names in GLYPHS.items()}}
_SOURCES = dict.fromkeys(_TABLE, "strings.toml")  # who defined each key


def register(strings: Strings, source: str) -> None:
    """Add `source`'s strings to the table; a key may be defined only once (registering a source again, as a
    reloaded module would, changes nothing)."""
    again = {key for key in strings.keys() & _TABLE.keys() if _SOURCES[key] != source}
    if again:
        raise ValueError(f"{source} defines strings that exist already: {sorted(again)}")
    _TABLE.update(strings)
    _SOURCES.update(dict.fromkeys(strings, source))


def catalog() -> Strings:
    """The table as registered so far (complete once the page families are imported: `replay_ui` does)."""
    return _TABLE


def text(key: str, lang: str, **params: object) -> str:
    """The plain string in one language; a missing key is a bug, so it raises."""
    zh, en = catalog()[key]
    template = zh if lang == "zh" else en
    return template.format(**params) if params else template


def counted_key(key: str, count: object) -> str:
    """A count's key: `key.one` where the count is 1 and that string exists ("1 deal", "2 deals"), else `key`."""
    return f"{key}.one" if count == 1 and f"{key}.one" in catalog() else key


def counted(key: str, lang: str, count: int, **params: object) -> str:
    """A count's words in one language (`counted_key`)."""
    return text(counted_key(key, count), lang, **params)


def bilingual(key: str, **params: object) -> Markup:
    """Both languages as spans; the stylesheet shows the one chosen (html[data-lang])."""
    zh = escape(text(key, "zh", **params))
    en = escape(text(key, "en", **params))
    return Markup(f'<span class="zh" lang="zh-CN">{zh}</span><span class="en" lang="en">{en}</span>')


def as_json() -> dict[str, dict[str, str]]:
    """The table for the scripts: {key: {"zh": …, "en": …}}."""
    return {key: {"zh": zh, "en": en} for key, (zh, en) in catalog().items()}
