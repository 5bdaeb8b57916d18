/* 大怪路子 table renderer: six seats in two alternating teams of three (甲 = seats 0·2·4, 乙 = 1·3·5), play going
 * counter-clockwise; the current round in the middle with each play's pattern (五同, 同花顺, 四带一, 三带二, 同花,
 * 杂顺 …); beside the table the teams with their fouls and finishing places, the finishing order and the result
 * (抓 k 家 / 被关 k 家, team points, decided by fouls).
 *
 * Reads only what the server sent for the viewpoint: a seat's `hand` is drawn when present (its own, or every
 * hand for the referee), otherwise only its count — an exact number when it is 10 or fewer, the string ">10"
 * above that (A7), drawn as a short stack of backs marked ">10". The viewpoint's own seat sits at the bottom;
 * counter-clockwise from it 下家 on the lower right, then upper right, opposite at the top, upper left and
 * 上家 on the lower left.
 *
 * Its styles are the 大怪路子 section of fupan.css, on top of the shared seat, card and slot styles.
 */
(function () {
  "use strict";

  const F = window.Fupan;
  const t = F.t;
  const esc = F.esc;
  // Counter-clockwise from the bottom (the viewpoint's seat): the next seat to play is on the lower right.
  const WHERE = ["bottom", "right-low", "right-high", "top", "left-high", "left-low"];

  function teamOf(seat) {
    return seat % 2;
  }

  /* A side as people know it: its team's name where the players entered as a team (the match's entries, which
   * the viewer keeps in Fupan.sideEntries), else its players ("张伟·李娜·陈静") — never 甲队 / 乙队. */
  function side(team, names) {
    return F.sideName([0, 1, 2, 3, 4, 5].filter((seat) => teamOf(seat) === team && seat < names.length),
      F.sideEntries, names);
  }

  function teamBadge(team) {
    return `<span class="dg-team team-${team}">${esc(t("dg.team.short." + team))}</span>`;
  }

  function placeText(place) {
    return place === 1 ? t("dg.place.head") : t("dg.place.n", { n: place });
  }

  function countText(count) {
    return typeof count === "number" ? F.counted("cards.n", count, { n: count }) : t("dg.count.many");
  }

  /* The engine sends a hand sorted by rank, high to low; each rank is kept together (pairs, triples, 五同 show). */
  function handHTML(seat, where) {
    if (!seat.hand) return seat.count === 0 ? '<div class="hand dg-out-hand"></div>' : F.hiddenHandHTML(seat.count, true);
    const size = where === "bottom" ? "" : "sm";
    return `<div class="hand dg-hand">${F.groupRuns(seat.hand, F.rankOf)
      .map((g) => {
        const wild = g.key === "BJ" || g.key === "LJ";
        const cls = `rank-group${wild ? " wild" : g.cards.length >= 4 ? " many-of" : ""}`;
        return `<span class="${cls}">${F.cardsHTML(g.cards, size)}</span>`;
      })
      .join("")}</div>`;
  }

  function seatHTML(seat, where, view, names) {
    const turn = view.to_act === seat.seat;
    const dealer = view.first === seat.seat ? `<span class="dg-dealer">${esc(t("dg.dealer"))}</span>` : "";
    const place = seat.place
      ? `<span class="dg-place${seat.place === 1 ? " head" : ""}">${esc(placeText(seat.place))}</span>` : "";
    const toAct = turn ? `<span class="turn">${esc(t("toAct"))}</span>` : "";
    const cls = `seat pos-${where} team-${seat.team}${turn ? " is-turn" : ""}${seat.place ? " is-out" : ""}` +
      (seat.place === 1 ? " is-head" : "");
    return (
      `<div class="${cls}" data-seat="${seat.seat}" data-team="${seat.team}" data-count="${esc(seat.count)}"` +
      ` data-place="${seat.place || ""}">` +
      `<div class="seat-head"><span class="seat-no">${esc(F.seatNo(seat.seat))}</span>` +
      `<span class="seat-name">${esc(names[seat.seat])}</span>${teamBadge(seat.team)}${dealer}${place}${toAct}` +
      `<span class="count">${esc(countText(seat.count))}</span></div>${handHTML(seat, where)}</div>`
    );
  }

  function moveHTML(move) {
    if (move.type === "pass") return `<span class="bubble pass">${esc(t("dg.knock"))}</span>`;
    if (move.type === "timeout") return `<span class="bubble pass dg-timeout">${esc(t("dg.timeout"))}</span>`;
    const strong = move.pattern && (move.pattern.kind === "five" || move.pattern.kind === "straight_flush");
    return `<div class="played">${F.cardsHTML(move.cards, "md")}</div>` +
      `<span class="pattern${strong ? " boom" : ""}" data-kind="${esc(move.pattern ? move.pattern.kind : "")}">` +
      `${esc(move.pattern ? move.pattern[F.lang()] : "")}</span>`;
  }

  /* The middle of the table: each seat's latest move of this round (or of the round just closed, faded) in
   * front of it, the newest lit; above them the fouls per team and the 头家 once someone is out. */
  function centreHTML(view, pos, names) {
    const { plays, caption, faded } = F.currentRound(view, names, "dg.round.leader",
      t("dg.round.lead", { name: names[view.round.leader] }));
    const moves = plays.map((move) => ({ seat: move.seat, html: moveHTML(move) }));
    const slots = F.slotsHTML(moves, pos, view.seats.length, faded, true);
    const badges = [0, 1].map((team) => {
      const n = view.fouls_by_team[team];
      return `<span class="dg-fouls team-${team}${n >= 2 ? " lost" : n ? " on" : ""}" data-team="${team}">` +
        `<b>${esc(side(team, names))}</b>${esc(t("dg.fouls.n", { n }))}</span>`;
    });
    if (view.finish_order.length) {
      const head = view.finish_order[0];
      badges.unshift(`<span class="dg-head-badge"><b>${esc(t("dg.place.head"))}</b>${esc(names[head])} ` +
        `${esc(t("dg.team.short." + teamOf(head)))}</span>`);
    }
    return (
      `<div class="centre dg-centre${faded ? " faded" : ""}">` +
      `<div class="dg-badges">${badges.join("")}</div>` +
      `<div class="dg-slots${faded ? " faded" : ""}">${slots}<div class="caption">${esc(caption)}</div></div></div>`
    );
  }

  function statusHTML(view, names) {
    const who = F.turnText(view, names, t("toAct"));
    return `<div class="status-line"><strong>${esc(t("dg.phase." + view.phase))}</strong>${esc(who)}</div>` +
      `<div class="status-line muted">${esc(t("dg.dealerLeads", { name: names[view.first] }))} · ` +
      `${esc(t("dg.roundsPlayed", { n: view.rounds_played }))}</div>`;
  }

  /* Both teams: their players with each one's count or place, and the team's fouls in this deal. */
  function teamsHTML(view, names) {
    return [0, 1]
      .map((team) => {
        const members = view.seats.filter((seat) => seat.team === team)
          .map((seat) => `<li data-seat="${seat.seat}"${seat.place ? ' class="out"' : ""}><span>${esc(names[seat.seat])}</span>` +
            `<b>${esc(seat.place ? placeText(seat.place) : countText(seat.count))}</b></li>`)
          .join("");
        const n = view.fouls_by_team[team];
        return `<div class="dg-team-box team-${team}" data-team="${team}"><div class="dg-team-head">${teamBadge(team)}` +
          `<b>${esc(side(team, names))}</b><span class="dg-team-fouls${n >= 2 ? " lost" : ""}">` +
          `${esc(t("dg.fouls.n", { n }))}</span></div><ul class="dg-members">${members}</ul></div>`;
      })
      .join("");
  }

  function orderHTML(view, names) {
    if (!view.finish_order.length) return `<p class="muted small">${esc(t("dg.order.none"))}</p>`;
    return `<ol class="dg-order">${view.finish_order
      .map((seat, index) => `<li class="team-${teamOf(seat)}${index === 0 ? " head" : ""}" data-seat="${seat}">` +
        `${teamBadge(teamOf(seat))}<span>${esc(names[seat])}</span>` +
        (index === 0 ? ` <b>${esc(t("dg.place.head"))}</b>` : "") + "</li>")
      .join("")}</ol>`;
  }

  function foulsHTML(view, names) {
    const seen = [0, 0];
    return `<ul class="fouls">${view.fouls
      .map((foul) => {
        const team = teamOf(foul.seat);
        seen[team] += 1;
        // In-deal fouls come first in the list, so a team's second one decides when the result counts ≥ 2.
        const decides = seen[team] === 2 && view.result && view.result.fouls_by_team[team] >= 2;
        return `<li class="${decides ? "decides" : ""}"><b>${esc(names[foul.seat])}</b> ${teamBadge(team)} ` +
          `<span class="tag foul">${esc(t("dg.foul.nth", { team: side(team, names), n: seen[team] }))}</span> ` +
          `${F.foulHTML(foul)}` +
          (decides ? ` <strong>${esc(t("dg.foul.decides"))}</strong>` : "") + "</li>";
      })
      .join("")}</ul>`;
  }

  function resultHTML(view, names) {
    const result = view.result;
    const head = result.head_team;
    const how = t(result.outcome === "catch" ? "dg.result.catch" : "dg.result.caught",
      { team: side(head, names), k: result.k });
    let fouls = "";
    if (result.decided_by_fouls) {
      const fouled = [0, 1].filter((team) => result.fouls_by_team[team] >= 2);
      fouls = `<p class="dg-by-fouls"><strong>${esc(fouled.length === 2 ? t("dg.result.bothFouled")
        : t("dg.result.fouled", { team: side(fouled[0], names), other: side(1 - fouled[0], names) }))}</strong></p>`;
    }
    const rows = [0, 1]
      .map((team) => `<tr class="team-${team}" data-team="${team}"><th>${teamBadge(team)} ${esc(side(team, names))}</th>` +
        `<td class="num">${result.fouls_by_team[team]}</td>` +
        `<td class="num score${result.team_points[team] > 0 ? " up" : ""}"><b>${result.team_points[team]}</b></td></tr>`)
      .join("");
    return `<p class="outcome"><strong>${esc(how)}</strong> · ${esc(t("dg.result.head", { name: names[result.first_finisher] }))}</p>` +
      fouls +
      `<table class="data compact dg-result"><thead><tr><th></th><th class="num">${esc(t("fouls"))}</th>` +
      `<th class="num">${esc(t("dg.teamPoints"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  F.games.daguai = F.tableGame({
    // Timeline marks, most telling first (viewer.js).
    marks: ["foul", "end", "head", "out", "five", "straight_flush", "note"],
    cls: "dg", where: WHERE, seat: seatHTML, centre: centreHTML, status: statusHTML, fouls: foulsHTML,
    result: resultHTML,
    panels: (view, names) => [
      [t("dg.teams"), teamsHTML(view, names), "teams"],
      [t("dg.order"), orderHTML(view, names), "order"],
    ],
  });
})();
