"""What every page family uses: the service and reader of the request, the template globals (strings, seat
marks, cards, names), the page of a missing thing, and a deal's context and frames in words.

It sits above the game plugins (replay_ui/games, whose words it uses) and below the families; it registers each
plugin's strings with replay_ui/shared/i18n.py, which the plugins themselves import and so cannot import them.
"""

from __future__ import annotations

from typing import Any

import plotly
from flask import Blueprint, current_app, render_template, url_for
from markupsafe import Markup

from domain.kernel.errors import NotFound
from domain.model.token import Principal
from domain.services.fupan import Fupan
from replay_ui.games import plugins, script_of, ui_for
from replay_ui.shared import i18n
from replay_ui.shared.cards import card_text, is_red
from replay_ui.shared.notation import note_text
from replay_ui.shared.retraction import describe_retraction, is_retraction_step, mark_retracted

for _game, _ui in plugins().items():
    i18n.register(_ui.strings, f"replay_ui/games/{_game}/strings.toml")

# No routes: the template globals every page uses (registered as a blueprint so they reach every template).
common = Blueprint("ui_common", __name__)


def service() -> Fupan:
    return current_app.extensions["fupan"]


def reader() -> Principal:
    """Who is asking, as the host app's access guard decided (api/auth.py installs it). The viewer's routes are
    read-only and open to anyone; what each reader sees of a live deal is the service's decision."""
    return current_app.extensions["fupan.reader"]()


@common.app_template_global("t")
def _t(key: str, **params: Any) -> Any:
    return i18n.bilingual(key, **params)


@common.app_template_global("tc")
def _tc(key: str, how_many: Any, /, **params: Any) -> Any:
    """As `t`, for a count's words: `key.one` where `how_many` is 1 ("1 deal", "2 deals"); positional, so a string's
    own `{count}` stays free for `params`."""
    return i18n.bilingual(i18n.counted_key(key, how_many), **params)


@common.app_template_global("zh")
def _zh(key: str, **params: Any) -> str:
    """The Chinese alone, where no language spans fit (a <select>'s options): the element names the key in
    `data-i18n-text` and static/fupan.js writes it again in the language chosen."""
    return i18n.text(key, "zh", **params)


@common.app_template_global("en")
def _en(key: str, **params: Any) -> str:
    """The English alone: a page's English `<title>` (base.html's `title_en` block), which fupan.js shows when
    the reader chooses English — a title holds no language spans."""
    return i18n.text(key, "en", **params)


@common.app_template_global("title_attr")
def _title_attr(key: str) -> Markup:
    """A string as an element's tooltip: ` title="…" data-i18n-title="key"` — plain text, escaped, in Chinese, and
    written again in the chosen language by static/fupan.js. An attribute never holds `t()`'s language spans."""
    return Markup(' title="{}" data-i18n-title="{}"').format(i18n.text(key, "zh"), key)


@common.app_template_global("game_name")
def _game_name(game: str) -> Any:
    return i18n.bilingual(f"game.{game}") if f"game.{game}" in i18n.catalog() else game


@common.app_template_global("table_text")
def _table_text(label: str, lang: str) -> str:
    """A table as one language calls it, in plain text (a page's title): '第 1 桌' / 'Table 1', a named one by its
    name."""
    return i18n.text("match.title", lang, table=label) if label.isdigit() else label


@common.app_template_global("table_name")
def _table_name(label: str) -> Any:
    """'第 1 桌' / 'Table 1' for a numbered table, never broken across lines (第 1 / 桌 in a narrow column); a named
    one (决赛, 加赛) is called by its name."""
    if not label.isdigit():
        return label
    return Markup('<span class="nowrap">') + i18n.bilingual("match.title", table=label) + Markup("</span>")


def game_script(game: str) -> str | None:
    """The game's own viewer script under the pages' static URL (`games/<game>.js`, its plugin's script.js), or
    None: the generic script draws its table."""
    return script_of(game)


def seat_mark(game: str, seat: int, lang: str) -> str:
    """The game's own word for a seat (GameUI.seat_marks): 升级's '东'; '' where the game only numbers its seats.
    A person never reads a seat's number (issue 23): with the word or without, the seat is its player's name
    (`seat_called`, `seat_named`; fupan.js `Fupan.seatName`)."""
    zh, en = ui_for(game).seat_marks(seat + 1)[seat]
    return zh if lang == "zh" else en


def seat_named(game: str, seat: int, name: str, lang: str) -> str:
    """A seat as a person reads it, in one language: the player's name, with the game's word for the seat where
    it has one ('张伟（东）', 'Zhang Wei (E)'), else the name alone."""
    mark = seat_mark(game, seat, lang)
    return i18n.text("view.seat", lang, name=name, seat=mark) if mark else name


@common.app_template_global("seat_mark")
def _seat_mark(game: str, seat: int) -> Any:
    zh, en = seat_mark(game, seat, "zh"), seat_mark(game, seat, "en")
    return zh if zh == en else both_languages(zh, en)


def both_languages(zh: str, en: str) -> Markup:
    """Two texts as the pair of language spans the stylesheet chooses between (escaped)."""
    return Markup('<span class="zh" lang="zh-CN">{}</span><span class="en" lang="en">{}</span>').format(zh, en)


@common.app_template_global("seat_called")
def _seat_called(game: str, seat: int, name: str | None = None) -> Any:
    """A seat as a person reads it: with `name`, the player's name and the game's word for the seat where it has
    one ('张伟（东）', else '张伟'); without, the game's word ('东'), or — where a game only numbers its seats and
    no name is known — '2 号位' (pass the name: a person reads names)."""
    if name is not None:
        return both_languages(*(seat_named(game, seat, name, lang) for lang in i18n.LANGUAGES))
    key = ui_for(game).seat_called
    called = {lang: i18n.text(key, lang, mark=seat_mark(game, seat, lang) or str(seat + 1))
              for lang in i18n.LANGUAGES}
    return both_languages(called["zh"], called["en"])


@common.app_template_global("note")
def _note(written: str) -> Any:
    """An organiser's or referee's note in the chosen language (one written "中文 / English" shows its half)."""
    return both_languages(note_text(written, "zh"), note_text(written, "en"))


@common.app_template_global("round_text")
def _round_text(stage: dict[str, Any], tournament: dict[str, Any] | None = None) -> dict[str, str]:
    """A round's name in each language, plain text (`round_label` shows it; a page's title reads one half)."""
    label, number, kind = stage.get("label") or "", stage.get("round"), stage.get("kind")
    if kind is None and tournament is not None:
        kind = next((r.get("kind") for r in tournament.get("rounds", []) if r.get("round") == number), None)
    fallback = {lang: i18n.text("round.number", lang, n=number) + (
        f" · {i18n.text(f'round.kind.{kind}', lang)}" if f"round.kind.{kind}" in i18n.catalog() else "")
        for lang in i18n.LANGUAGES}
    english = note_text(label, "en")
    if not english or any("\u3400" <= char <= "\u9fff" for char in english):
        english = fallback["en"]
    return {"zh": note_text(label, "zh") or fallback["zh"], "en": english}


@common.app_template_global("round_label")
def _round_label(stage: dict[str, Any], tournament: dict[str, Any] | None = None) -> Any:
    """A round as each language reads it (issue 23): the organiser's label in Chinese; in English its English half
    (a label written "中文 / English"), else the round's number and kind in English, never the Chinese label.
    `tournament`: where the round's kind is found when `stage` does not carry it."""
    called = _round_text(stage, tournament)
    return both_languages(called["zh"], called["en"])


@common.app_template_global("card_html")
def _card_html(code: str) -> Any:
    """A card as printable text: '♥10' in red, '大王'/'Big Joker' as a pair of language spans."""
    colour = "red" if is_red(code) else "black"
    zh, en = card_text(code, "zh"), card_text(code, "en")
    inner = zh if zh == en else Markup(
        f'<span class="zh" lang="zh-CN">{zh}</span><span class="en" lang="en">{en}</span>')
    return Markup(f'<span class="pc {colour}" data-card="{code}">{inner}</span>')


@common.app_context_processor
def _page_globals() -> dict[str, Any]:
    return {"strings": i18n.as_json(), "plotly_url": url_for("replay_ui.plotly_js", v=plotly.__version__)}


def not_found_page(error: NotFound) -> tuple[str, int]:
    """The page of a missing tournament, table, deal, appeal or game (each family's NotFound handler)."""
    kind = error.details.get("kind")
    kind = kind if f"error.notfound.{kind}" in i18n.catalog() else "deal"
    return render_template("error.html", kind=kind, missing=error.details.get("id", "")), 404


# --- what a deal's pages show -------------------------------------------------------------------------------


def seat_names(deal: dict[str, Any], match: dict[str, Any] | None) -> list[str]:
    """Players' display names; a deal outside a match only has its seat labels."""
    return list(match["seat_names"]) if match else list(deal["seats"])


def deal_context(deal_id: str) -> dict[str, Any]:
    """What every deal page shows around the table: where it was played, who sat where, and the game's figures
    of the table around the deal (`figures`, GameUI.deal_figures)."""
    app = service()
    deal = app.deals.get(deal_id, reader())
    match = app.tables.get(deal["match_id"]) if deal["match_id"] else None
    tournament = app.tournaments.get(match["tournament_id"]) if match else None
    deal = as_corrected(deal, match)
    names = seat_names(deal, match)
    return {
        "deal": deal, "match": match, "tournament": tournament, "names": names,
        "figures": ui_for(deal["game"]).deal_figures(match, deal),
        "correction": correction_texts(deal, names) if "corrected" in deal else None,
    }


def scores_named(scores: list[int], names: list[str], lang: str) -> str:
    """A deal's scores with the players' names: '张伟 +6，王芳 −3，李娜 −3'."""
    signed = [f"{name} {score:+d}".replace("-", "−") if score else f"{name} 0" for name, score in zip(names, scores,
                                                                                                     strict=False)]
    return ("，" if lang == "zh" else ", ").join(signed)


def correction_texts(deal: dict[str, Any], names: list[str]) -> dict[str, dict[str, str]]:
    """A corrected deal's 更正 in words, per language: `mark` (the table's line under the deal) and `note` (the
    deal page's) — the reason, who corrected it and the scores before, by name."""
    corrected = deal["corrected"]
    role = (corrected.get("by") or {}).get("role")
    out: dict[str, dict[str, str]] = {}
    for lang in i18n.LANGUAGES:
        words = {"reason": note_text(corrected["reason"], lang), "was": scores_named(corrected["was"], names, lang),
                 "by": i18n.text("correction.by.referee" if role == "referee" else "correction.by.organiser", lang)}
        out[lang] = {"mark": i18n.text("correction.mark", lang, **words),
                     "note": i18n.text("correction.note", lang, **words)}
    return out


def as_corrected(deal: dict[str, Any], match: dict[str, Any] | None) -> dict[str, Any]:
    """The deal as its table scores it: a corrected deal (更正, Match.DealCorrected) reads with the corrected
    result and facts, and says so (`corrected`); the deal's own record keeps what was recorded."""
    entry = next((e for e in (match or {}).get("deals", ()) if e["deal_id"] == deal["id"]), None)
    if entry is None or "corrected" not in entry:
        return deal
    corrected = entry["corrected"]
    return {**deal, "result": corrected["result"], "corrected": corrected,
            **({"slip": corrected["facts"]} if deal.get("result_only") else {})}


def described_frames(deal_id: str, viewpoint: str, names: list[str],
                     folded: dict[str, Any] | None = None) -> dict[str, Any]:
    """`replay_all` for the viewpoint (or `folded`, an answer of it already read), each frame with its step in
    words (zh, en) and timeline tags."""
    folded = service().deals.replay_all(deal_id, viewpoint, reader()) if folded is None else folded
    frames = folded["frames"]
    describe = ui_for(frames[0]["view"]["game"]).describe
    previous = None
    for frame in frames:
        if is_retraction_step(frame):
            notation = describe_retraction(frame).as_json()
        else:
            notation = describe(frame, previous, names).as_json()
        mark_retracted(frame, notation)  # an entry taken back later: struck through, with why and by whom
        if frame["annotations"]:
            notation["tags"].append("note")
        frame["notation"] = notation
        previous = frame
    return folded
