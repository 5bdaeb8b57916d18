"""What a table of deals marks beside a deal's figures: its fouls and penalties, so a −3 says why.

Read from the deal's latest public view (the engine's `fouls`, and the `penalties` a game lists apart, as 升级
does for a failed throw), never from hands: fouls are announced at the table.
"""

from __future__ import annotations

from typing import Any

from domain.games import get_engine
from domain.model.token import Principal
from domain.services.fupan import Fupan
from replay_ui.games import ui_for
from replay_ui.shared.i18n import text
from replay_ui.shared.notation import foul_name


def deal_marks(app: Fupan, deal: dict[str, Any], names: list[str], reader: Principal
               ) -> list[dict[str, Any]]:
    """Each foul and penalty of `deal`, in order: {kind, who, zh, en} — `zh`/`en` already in words ("李强 犯规：说话，
    罚 1 筹码")."""
    if deal.get("result_only") or not deal["actions"]:
        return []  # a score slip has no actions to read fouls from; a deal not begun has none
    game = deal["game"]
    view = app.deals.replay(deal["id"], viewpoint="public", reader=reader)["view"]
    unit = get_engine(game).foul_unit
    marks = []
    for foul in view.get("fouls", []):
        def said(lang: str, foul: dict[str, Any] = foul) -> str:
            words = text("mark.foul", lang, who=names[foul["seat"]], what=foul_name(game, foul["code"], lang))
            if foul.get("penalty") and unit:
                words += text("mark.penaltyUnit", lang, n=foul["penalty"], unit=unit[1] if lang == "zh" else unit[0])
            return words
        marks.append({"kind": "foul", "who": foul["seat"], "zh": said("zh"), "en": said("en")})
    for penalty in view.get("penalties", []):
        if penalty.get("reason") == "foul":
            continue  # listed with the fouls above
        # The game's own words for the reason, from its strings (升级: "sj.penalty.failed_throw" 甩牌失败).
        reason = str(penalty.get("reason", ""))
        key = next((k for k in ui_for(game).strings if k.endswith(f".penalty.{reason}")), None)

        def told(lang: str, penalty: dict[str, Any] = penalty, key: str | None = key, reason: str = reason) -> str:
            what = text(key, lang) if key else reason
            return text("mark.penalty", lang, who=names[penalty["seat"]], what=what, n=penalty.get("points", 0))
        marks.append({"kind": "penalty", "who": penalty["seat"], "zh": told("zh"), "en": told("en")})
    return marks
