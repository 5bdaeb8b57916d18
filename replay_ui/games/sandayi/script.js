/* 快乐三打一 table renderer: four seats, each for themselves (the dealer 庄家 against three defenders 闲家), the
 * current round in the middle with each play's pattern, the bid and the dealer's declarations; beside the table
 * the bidding (叫 1–3 分 / 不叫, 头撂), 摊打/报到, the 倍数 breakdown, fouls and the result.
 *
 * Reads only what the server sent for the viewpoint: a seat's `hand` is drawn when present (its own, the
 * referee's view, or a 摊打 hand face up), otherwise only its count — an exact number when it is 10 or fewer,
 * the string ">10" above that (§1.10a.12), drawn as a short stack of backs with "10 张以上". The kitty is drawn
 * only when the view has it (the referee, the dealer's seat). The viewpoint's own seat sits at the bottom,
 * 下家 (next to play) on the right, 对家 at the top, 上家 on the left.
 *
 * Its styles are the 快乐三打一 section of fupan.css, on top of the shared seat, card and slot styles.
 */
(function () {
  "use strict";

  const F = window.Fupan;
  const t = F.t;
  const esc = F.esc;
  const WHERE = ["bottom", "right", "top", "left"];

  function countText(count) {
    return typeof count === "number" ? F.counted("cards.n", count, { n: count }) : t("sdy.count.many");
  }

  /* The engine sends a hand sorted by rank, high to low; each rank is kept together (pairs, triples, bombs show). */
  function handHTML(seat, where) {
    if (!seat.hand) return seat.count === 0 ? '<div class="hand"></div>' : F.hiddenHandHTML(seat.count);
    const size = where === "bottom" ? "" : "sm";
    return `<div class="hand sdy-hand">${F.groupRuns(seat.hand, F.rankOf)
      .map((g) => {
        const bomb = g.cards.length >= 4 && g.key !== "BJ" && g.key !== "LJ";
        return `<span class="rank-group${bomb ? " bomb" : ""}">${F.cardsHTML(g.cards, size)}</span>`;
      })
      .join("")}</div>`;
  }

  function bombsHTML(seat, view) {
    if (view.phase === "bidding" || seat.role === null) return "";
    const free = seat.bombs_allowed === null || seat.bombs_allowed === undefined;
    const label = free
      ? t("sdy.bombs.free", { played: seat.bombs_played })
      : t("sdy.bombs", { played: seat.bombs_played, allowed: seat.bombs_allowed });
    const spent = !free && seat.bombs_played >= seat.bombs_allowed;
    return `<span class="bombs${spent ? " spent" : ""}" title="${esc(t("sdy.bombs.title"))}">${esc(label)}</span>`;
  }

  function seatHTML(seat, where, view, names) {
    const turn = view.to_act === seat.seat;
    const role = seat.role ? `<span class="role ${seat.role}">${esc(t("sdy.role." + seat.role))}</span>` : "";
    const first = view.first === seat.seat ? `<span class="first-bidder">${esc(t("sdy.firstBidder"))}</span>` : "";
    const tanda = seat.exposed ? `<span class="tanda">${esc(t("sdy.tanda"))}</span>` : "";
    const toAct = turn ? `<span class="turn">${esc(t(view.phase === "bidding" ? "toBid" : "toAct"))}</span>` : "";
    const cls = `seat pos-${where}${turn ? " is-turn" : ""}${seat.role ? " role-" + seat.role : ""}` +
      (seat.exposed ? " exposed" : "");
    return (
      `<div class="${cls}" data-seat="${seat.seat}" data-count="${esc(seat.count)}">` +
      `<div class="seat-head"><span class="seat-no">${esc(F.seatNo(seat.seat))}</span>` +
      `<span class="seat-name">${esc(names[seat.seat])}</span>${role}${tanda}${first}${bombsHTML(seat, view)}${toAct}` +
      `<span class="count">${esc(countText(seat.count))}</span></div>${handHTML(seat, where)}</div>`
    );
  }

  function bidText(bid) {
    return bid.type === "bid" ? t("sdy.bid.value", { n: bid.value }) : t("sdy.bid.pass");
  }

  function playHTML(move) {
    if (move.type === "pass") return `<span class="bubble pass">${esc(t("play.pass"))}</span>`;
    const boom = move.pattern && (move.pattern.kind === "bomb" || move.pattern.kind === "king_bomb");
    return `<div class="played">${F.cardsHTML(move.cards, "md")}</div>` +
      `<span class="pattern${boom ? " boom" : ""}">${esc(move.pattern ? move.pattern[F.lang()] : "")}</span>`;
  }

  /* The middle of the table: the bid and declarations as badges, the kitty (when the view has it), and each
   * seat's latest move of this round (or of the round just closed, faded) in front of it; the newest lit.
   * While bidding, each seat's latest bid. */
  function centreHTML(view, pos, names) {
    let moves = [];
    let caption;
    let faded = false;
    if (view.phase === "bidding") {
      moves = view.bidding.map((bid) => ({ seat: bid.seat, html: `<span class="bubble">${esc(bidText(bid))}</span>` }));
      caption = t("sdy.phase.bidding");
    } else {
      const round = F.currentRound(view, names, "round.leader",
        view.phase === "finished" ? t("sdy.phase.finished") : t("round.empty"));
      ({ caption, faded } = round);
      moves = round.plays.map((move) => ({ seat: move.seat, html: playHTML(move) }));
    }
    const slots = F.slotsHTML(moves, pos, 4, faded);
    const badges = [];
    if (view.dealer !== null) {
      badges.push(`<span class="sdy-bid-badge"><b>${esc(t("sdy.bid"))}</b>${esc(t("sdy.bid.dealer", { bid: view.bid }))}</span>`);
    }
    if (view.toulu) badges.push(`<span class="on">${esc(t("sdy.toulu"))}</span>`);
    view.declared.forEach((kind) => badges.push(`<span class="on">${esc(t("sdy." + kind))}</span>`));
    badges.push(`<span><b>${esc(t("multipliers"))}</b>×${view.multipliers.total}</span>`);
    const kitty = view.kitty
      ? `<span class="lbl">${esc(t("kitty"))}</span>${F.cardsHTML(view.kitty, "sm")}`
      : `<span class="lbl">${esc(t("kitty"))}</span>${F.backsHTML(8, "sm")}` +
        `<span class="hidden-label">${esc(t("sdy.kitty.hidden"))}</span>`;
    return (
      `<div class="centre sdy-centre${faded ? " faded" : ""}">` +
      `<div class="sdy-badges">${badges.join("")}</div>` +
      `<div class="sdy-kitty${view.kitty ? "" : " hidden-kitty"}">${kitty}</div>` +
      `<div class="sdy-slots${faded ? " faded" : ""}">${slots}<div class="caption">${esc(caption)}</div></div></div>`
    );
  }

  function statusHTML(view, names) {
    const who = F.turnText(view, names, t(view.phase === "bidding" ? "toBid" : "toAct"));
    const dealer = view.dealer === null ? "" :
      `<div class="status-line"><span class="role dealer">${esc(t("sdy.role.dealer"))}</span> ` +
      `${esc(names[view.dealer])} · ${esc(t("sdy.bid.dealer", { bid: view.bid }))}` +
      (view.toulu ? ` · <b>${esc(t("sdy.toulu"))}</b>` : "") + "</div>";
    return `<div class="status-line"><strong>${esc(t("sdy.phase." + view.phase))}</strong>${esc(who)}</div>${dealer}` +
      `<div class="status-line muted">${esc(t("sdy.firstBidder"))}${esc(t("punct.colon"))}${esc(names[view.first])}</div>`;
  }

  function biddingHTML(view, names) {
    const bids = view.bidding.length
      ? `<ol class="bids">${view.bidding
        .map((bid, index) => `<li class="bid ${bid.type === "bid" ? "sdy-bid" : "sdy-pass"}${index === 0 ? " first" : ""}">` +
          `<span>${esc(names[bid.seat])}</span><b>${esc(bidText(bid))}</b></li>`)
        .join("")}</ol>`
      : `<p class="muted">${esc(t("bidding.none"))}</p>`;
    const toulu = view.toulu ? `<p class="muted small">${esc(t("sdy.toulu.note"))}</p>` : "";
    return bids + toulu;
  }

  function declarationsHTML(view) {
    if (!view.declared.length) {
      const pending = view.phase === "play" && view.dealer !== null && !view.seats[view.dealer].played.length;
      return `<p class="muted small">${esc(t(pending ? "sdy.declarations.pending" : "sdy.declarations.none"))}</p>`;
    }
    const items = view.declared
      .map((kind) => `<li data-kind="${esc(kind)}"><b>${esc(t("sdy." + kind))}</b> ${esc(t("sdy.declare." + kind + ".note"))}</li>`)
      .join("");
    const locked = view.locked.length
      ? `<div class="muted small">${esc(t("sdy.locked"))}</div><div class="sdy-locked">` +
        view.locked.map((set) => `<div class="played">${F.cardsHTML(set, "sm")}</div>`).join("") + "</div>"
      : "";
    return `<ul class="sdy-decl">${items}</ul>${locked}`;
  }

  function foulsHTML(view, names) {
    const seen = {};
    return `<ul class="fouls">${view.fouls
      .map((foul) => {
        seen[foul.seat] = (seen[foul.seat] || 0) + 1;
        const result = view.result;
        const decides = seen[foul.seat] === 2 && result && (result.redeal || result.offender === foul.seat);
        return `<li class="${decides ? "decides" : ""}"><b>${esc(names[foul.seat])}</b> ` +
          `<span class="tag foul">${esc(t("sdy.foul.nth", { n: seen[foul.seat] }))}</span> ` +
          `${F.foulHTML(foul)}` +
          (decides ? ` <strong>${esc(t("sdy.foul.decides"))}</strong>` : "") + "</li>";
      })
      .join("")}</ul>`;
  }

  function resultHTML(view, names) {
    const result = view.result;
    if (result.redeal) return `<p class="outcome"><strong>${esc(t("sdy.result.void"))}</strong></p>`;
    const side = t(result.dealer_won ? "sdy.result.dealerWins" : "sdy.result.defendersWin");
    let how;
    if (result.ending === "foul") how = t("sdy.ending.foul", { who: names[result.offender] });
    else if (result.ending === "instant") how = t("sdy.ending.instant", { who: names[result.dealer] });
    else how = t("sdy.ending.out", { who: names[result.winner] });
    const zero = !result.dealer_won && result.declared.includes("baodao") && result.scores.every((s) => s === 0);
    const unit = t("sdy.result.unit", { stake: result.stake, total: result.multipliers.total,
      unit: result.stake * result.multipliers.total });
    const rows = names
      .map((name, seat) => {
        const role = t(seat === result.dealer ? "sdy.role.dealer" : "sdy.role.defender");
        return `<tr><th>${esc(name)}</th><td class="role-cell">${esc(role)}</td>${F.scoreCell(result.scores[seat])}</tr>`;
      })
      .join("");
    return `<p class="outcome"><strong>${esc(side)}</strong> · ${esc(how)}</p>` +
      `<p class="muted small">${esc(zero ? t("sdy.result.zero") : unit)}</p>` +
      `<table class="data compact sdy-result"><thead><tr><th></th><th></th><th class="num">${esc(t("result.score"))}</th>` +
      `</tr></thead><tbody>${rows}</tbody></table>`;
  }

  F.games.sandayi = F.tableGame({
    // Timeline marks, most telling first (viewer.js).
    marks: ["foul", "king_bomb", "bomb", "end", "tanda", "baodao", "toulu", "dealer", "note"],
    cls: "sdy", where: WHERE, seat: seatHTML, centre: centreHTML, status: statusHTML, fouls: foulsHTML,
    result: resultHTML,
    panels: (view, names) => [
      [t("bidding"), biddingHTML(view, names), "bidding"],
      view.phase !== "bidding" && [t("sdy.declarations"), declarationsHTML(view), "declarations"],
      [t("multipliers"), F.factorsHTML(view.multipliers, ["tanda", "baodao", "bomb", "spring"]), "multipliers"],
    ],
  });
})();
