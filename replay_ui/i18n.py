"""Every UI string of the viewer in Chinese (the default) and English, keyed for templates and scripts alike.

One table serves both sides: Jinja renders `t(key)` as a pair of spans (CSS shows the chosen language, so a
reload in English never flashes Chinese), and the same table is embedded in each page as JSON for the scripts.
`{name}` placeholders are filled by `t(key, name=…)` in templates and `t(key, {name: …})` in JS.

The table is the common strings below (the pages, the deal viewer, words several games share) plus each
registered game's own (`GameUI.strings`, from replay_ui/games/<game>_strings.py): a game's words live with
its plugin, and a key may be defined only once.
"""

from __future__ import annotations

from functools import cache

from markupsafe import Markup, escape

COMMON: dict[str, tuple[str, str]] = {
    # chrome
    "app.name": ("复盘", "Fupan"),
    "app.tagline": ("牌局记录与复盘", "Card-game records and replays"),
    "lang.switch": ("English", "中文"),
    "lang.switch.title": ("切换到英文", "Switch to Chinese"),
    "nav.tournaments": ("赛事", "Tournaments"),
    "nav.tournament": ("赛事", "Tournament"),
    "nav.match": ("牌桌", "Table"),
    "nav.viewer": ("复盘", "Replay"),
    "nav.record": ("文字记录", "Text record"),
    "nav.standings": ("积分榜", "Standings"),
    "nav.api": ("API 文档", "API docs"),
    "loading": ("加载中…", "Loading…"),
    "error.load": ("加载失败：{detail}", "Could not load: {detail}"),
    "error.notfound": ("找不到该页面", "Not found"),
    "error.hiddenView": ("无法以这个视角查看：{detail}", "This viewpoint is not available: {detail}"),
    "error.badToken": ("令牌无效或已被吊销，已从本页删除：{detail}",
                       "The token is not valid or has been revoked, so this page dropped it: {detail}"),
    "token.open": ("使用令牌", "Use a token"),
    "token.label": ("令牌", "Token"),
    "token.use": ("使用", "Use"),
    "token.forget": ("删除令牌", "Forget the token"),
    "token.held": ("正在使用令牌", "Using a token"),
    "token.hint": ("裁判、仲裁委员会或组织者的令牌可以查看进行中牌局的座位视角和裁判视角。"
                   "令牌只保存在本标签页，关闭即删除。",
                   "A referee's, the appeals committee's or the organiser's token shows the seat and referee views "
                   "of a deal in play. It is kept in this tab only and is gone when the tab is closed."),
    "error.notfound.tournament": ("没有 id 为 {id} 的赛事。", "There is no tournament with id {id}."),
    "error.notfound.match": ("没有 id 为 {id} 的牌桌。", "There is no table with id {id}."),
    "error.notfound.deal": ("没有 id 为 {id} 的牌局。", "There is no deal with id {id}."),
    # tournaments list and tournament page
    "tournaments.title": ("赛事列表", "Tournaments"),
    "tournaments.empty": ("还没有赛事。", "No tournaments yet."),
    "col.name": ("名称", "Name"),
    "col.game": ("项目", "Game"),
    "col.players": ("选手", "Players"),
    "col.tables": ("牌桌", "Tables"),
    "col.created": ("创建时间", "Created"),
    "col.table": ("桌号", "Table"),
    "col.seats": ("座位", "Seats"),
    "col.chips": ("筹码", "Chips"),
    "col.status": ("状态", "Status"),
    "col.winner": ("胜者", "Winner"),
    "col.deals": ("局数", "Deals"),
    "col.deal": ("局", "Deal"),
    "col.first": ("首叫", "First bidder"),
    "col.multiplier": ("倍数", "Multiplier"),
    "col.scores": ("本局得分", "Deal score"),
    "col.chipsAfter": ("局后筹码", "Chips after"),
    "col.open": ("查看", "Open"),
    "col.rank": ("名次", "Rank"),
    "col.player": ("选手", "Player"),
    "col.total": ("总分", "Total"),
    "col.matches": ("场次", "Matches"),
    "tournament.players": ("选手", "Players"),
    "tournament.tables": ("牌桌", "Tables"),
    "tournament.noTables": ("还没有牌桌。", "No tables yet."),
    "tournament.standingsLink": ("查看积分榜", "See the standings"),
    "status.live": ("进行中", "In play"),
    "viewer.following": ("实时更新中", "updating live"),
    "status.over": ("已结束", "Finished"),
    "status.finished": ("已结束", "Finished"),
    "status.bidding": ("叫牌中", "Bidding"),
    "status.play": ("出牌中", "In play"),
    # match page
    "match.title": ("第 {table} 桌", "Table {table}"),
    "match.summary": ("起始筹码 {start}，目标 {target} 张。",
                      "Each player starts with {start} chips; target {target}."),
    "match.chart.scores": ("每局后的累计得分", "Running totals after each deal"),
    "match.drawn": ("平局", "Drawn"),
    # A 三打一 table whose top seats tie on total, 庄家数量 and 庄家难度: the standings' lots decide, not a draw.
    "match.tiedTop": ("并列第一，由积分榜的破同分规则决定", "tied at the top: the standings' tiebreaks decide"),
    "match.timeLimit": ("限时 {n} 分钟", "Time limit {n} minutes"),
    "match.clockAfter": ("最近计时 {minutes} 分钟（第 {n} 局）", "clock last read at {minutes} min (deal {n})"),
    "match.timeUp": ("时间到", "time called"),
    "match.endedBy.closed": ("组织者结束本桌", "closed by the organiser"),
    "match.misdeal": ("第 {n} 局发牌数目错误（{name} 发牌），重新发牌", "deal {n} misdealt by {name}: dealt again"),
    "col.bid": ("叫分", "Bid"),
    "match.endedBy.boards": ("本轮牌局已打完 · 按复式得分率排名", "all boards played · ranked by duplicate score rate"),
    "match.duplicate": ("桌内不分胜负 · 见积分榜", "no table winner · see the standings"),
    "col.firstSeat": ("首家", "First seat"),
    "col.dealer": ("庄家", "Dealer"),
    "col.outcome": ("结果", "Outcome"),
    "col.standing": ("战况", "Standing"),
    "chart.score": ("累计得分", "Running total"),
    "match.deals": ("牌局", "Deals"),
    "match.noDeals": ("这张牌桌还没有牌局。", "No deals at this table yet."),
    "match.dealN": ("第 {n} 局", "Deal {n}"),
    "chart.start": ("开局", "Start"),
    "chart.target": ("目标", "Target"),
    "chart.round": ("轮次", "Round"),
    # standings
    "standings.title": ("积分榜", "Standings"),
    "standings.unavailable": ("积分榜暂不可用：排名尚未生成。对局记录完成后会在这里显示。",
                              "Standings are not available yet: the rankings have not been computed. "
                              "They will appear here once the projections are ready."),
    "standings.asOf": ("截至第 {when} 条事件", "As of event {when}"),
    "standings.format": ("赛制：{format}", "Format: {format}"),
    "standings.progression": ("各轮积分走势", "Standings progression by round"),
    "standings.direction": ("{direction}方向排名", "{direction} pairs"),
    "col.pair": ("搭档", "Pair"),
    # deal viewer
    "viewer.title": ("第 {n} 局复盘", "Replay of deal {n}"),
    "viewer.standalone": ("单独牌局", "Stand-alone deal"),
    "viewpoint": ("视角", "Viewpoint"),
    "view.referee": ("裁判", "Referee"),
    "view.public": ("公开", "Public"),
    "view.seat": ("{name}（{n} 号位）", "{name} (seat {n})"),
    "view.publicClosed": ("本局已结束，公开视角可以看到全部手牌。",
                          "The deal is closed: the public view shows every hand."),
    "ctl.first": ("回到开始", "First step"),
    "ctl.prev": ("上一步", "Previous step"),
    "ctl.next": ("下一步", "Next step"),
    "ctl.last": ("最后一步", "Last step"),
    "ctl.play": ("自动播放", "Autoplay"),
    "ctl.pause": ("暂停", "Pause"),
    "ctl.speed": ("速度", "Speed"),
    "ctl.keys": ("键盘：←/→ 逐步，Home/End 首尾，空格 播放/暂停",
                 "Keys: ←/→ step, Home/End first/last, Space play/pause"),
    "step.of": ("第 {k} / {n} 步", "Step {k} of {n}"),
    "step.dealt": ("发牌完毕", "Cards dealt"),
    "timeline": ("过程", "Timeline"),
    "timeline.marks": ("事件标记", "Event marks"),
    "notes": ("注释", "Notes"),
    "notes.none": ("本步没有注释。", "No notes at this step."),
    # the table: words more than one game's renderer uses (a game's own are in replay_ui/games/<game>_strings.py)
    "cards.n": ("{n} 张", "{n} cards"),
    "hand.hidden": ("手牌不可见", "Hand hidden"),
    "toAct": ("轮到出牌", "To act"),
    "toBid": ("轮到叫牌", "To bid"),
    "kitty": ("底牌", "Kitty"),
    "phase": ("阶段", "Phase"),
    "phase.finished": ("本局结束", "Deal over"),
    "bidding": ("叫牌", "Bidding"),
    "bidding.none": ("还没有人叫牌。", "No bids yet."),
    "play.pass": ("不出", "passes"),
    "round.current": ("本轮", "This round"),
    "round.previous": ("上一轮", "Previous round"),
    "round.final": ("最后一轮", "Final round"),
    "round.number": ("第 {n} 轮", "Round {n}"),
    "round.leader": ("{name} 首出", "{name} led"),
    "round.empty": ("新一轮，等待首出。", "A new round: waiting for the lead."),
    "multipliers": ("倍数", "Multiplier"),
    "mult.bomb": ("炸弹", "Bombs"),
    "mult.spring": ("春天", "Spring"),
    "mult.total": ("总倍数", "Total"),
    "fouls": ("犯规", "Fouls"),
    "result": ("结果", "Result"),
    "result.score": ("得分", "Score"),
    "tag.bomb": ("炸弹", "Bomb"),
    "tag.foul": ("犯规", "Foul"),
    "tag.reveal": ("明牌", "Open hand"),
    "tag.note": ("注", "Note"),
    "tag.end": ("终局", "End"),
    "tag.dealer": ("定庄", "Dealer set"),
    # text record
    "record.title": ("牌局记录", "Deal record"),
    "record.players": ("选手", "Players"),
    "record.hands": ("发牌", "Hands dealt"),
    "record.handsHidden": ("对局进行中，手牌不公开。", "The deal is in progress: hands are not public."),
    "record.actions": ("过程", "Play"),
    "record.result": ("结果", "Result"),
    "record.digest": ("结束摘要（SHA-256 哈希链）", "Closing digest (SHA-256 hash chain)"),
    "record.noDigest": ("牌局尚未结束，没有结束摘要。", "The deal is not closed: no closing digest yet."),
    "record.print": ("打印", "Print"),
    "record.note": ("注", "Note"),
    # action notation (the timeline and the text record share these)
    "n.dealt": ("发牌完毕", "Cards dealt"),
    "n.pass": ("{who} 不出", "{who} passes"),
    "n.play": ("{who} 出 {cards}（{pattern}）", "{who} plays {cards} ({pattern})"),
    "n.foul": ("{who} 犯规（{code}）：{note}", "{who} foul ({code}): {note}"),
    "n.timeout": ("{who} 超时", "{who} times out"),
    "n.timeout.play": ("{who} 超时，自动出 {cards}", "{who} times out: {cards} played for them"),
    "n.timeout.pass": ("{who} 超时，视为不出", "{who} times out: counted as a pass"),
    "n.generic": ("{who}：{type} {cards}", "{who}: {type} {cards}"),
    "n.sep": ("；", "; "),
    "n.comma": ("，", ", "),
}

LANGUAGES = ("zh", "en")


@cache
def catalog() -> dict[str, tuple[str, str]]:
    """The whole table: the common strings, then each game's in the registry's order. Built on first use, as
    the plugins import this module (for `text`) while the registry is being loaded."""
    from replay_ui.games import GAMES

    table = dict(COMMON)
    for game, ui in GAMES.items():
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
