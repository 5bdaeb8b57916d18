/* 斗地主 table renderer: three seats, the kitty (底牌), the current round in the middle; beside the table the
 * bidding (叫地主/不叫/抢地主/不抢), 明牌, the 倍数 breakdown, fouls and the result.
 *
 * Reads only what the server sent for the viewpoint: a seat's `hand` is drawn when present, otherwise only its
 * card count (as backs). The viewpoint's own seat sits at the bottom; 下家 (next to act) on the right, 上家 on
 * the left, as players see the table.
 */
(function () {
  "use strict";

  const F = window.Fupan;
  const t = F.t;
  const esc = F.esc;

  const WHERE = ["bottom", "right", "left"];

  /* 不叫 before anyone called, 不抢 after: the same `pass` means different things in the two rounds. */
  function bidLabels(bids) {
    let called = false;
    return bids.map((bid) => {
      let key;
      if (bid.type === "call") key = "bid.call";
      else if (bid.type === "rob") key = "bid.rob";
      else key = called ? "bid.norob" : "bid.nocall";
      if (bid.type === "call") called = true;
      return { seat: bid.seat, type: bid.type, text: t(key) };
    });
  }

  function roleBadge(role) {
    return role ? `<span class="role ${role}">${esc(t("role." + role))}</span>` : "";
  }

  function seatHTML(seat, where, view, names) {
    const side = where !== "bottom";
    const turn = view.to_act === seat.seat;
    const hand = seat.hand
      ? `<div class="hand">${F.cardsHTML(seat.hand, side ? "sm" : "")}</div>`
      : F.hiddenHandHTML(seat.count);
    return (
      `<div class="seat pos-${where}${turn ? " is-turn" : ""}${seat.role ? " role-" + seat.role : ""}" ` +
      `data-seat="${seat.seat}">` +
      `<div class="seat-head"><span class="seat-no">${esc(F.seatNo(seat.seat))}</span>` +
      `<span class="seat-name">${esc(names[seat.seat])}</span>${roleBadge(seat.role)}` +
      (seat.exposed ? `<span class="badge exposed">${esc(t("exposed"))}</span>` : "") +
      (turn ? `<span class="turn">${esc(t(view.phase === "bidding" ? "toBid" : "toAct"))}</span>` : "") +
      `<span class="count">${esc(F.counted("cards.n", seat.count, { n: seat.count }))}</span></div>${hand}</div>`
    );
  }

  /* The middle of the table: each seat's latest move of this round (or of the round just closed), in front
   * of that seat; the newest one lit. While bidding, each seat's latest bid. */
  function centreHTML(view, pos, names) {
    let moves = [];
    let caption = "";
    let faded = false;
    if (view.phase === "bidding") {
      moves = bidLabels(view.bidding).map((bid) => ({ seat: bid.seat, html: `<span class="bubble">${esc(bid.text)}</span>` }));
      caption = t("phase.bidding");
    } else {
      const round = F.currentRound(view, names, "round.leader", t("round.empty"));
      ({ caption, faded } = round);
      moves = round.plays.map((move) => ({
        seat: move.seat,
        html: move.type === "pass"
          ? `<span class="bubble pass">${esc(t("play.pass"))}</span>`
          : `<div class="played">${F.cardsHTML(move.cards, "md")}</div>` +
            `<span class="pattern${move.pattern && /bomb|rocket/.test(move.pattern.kind) ? " boom" : ""}">` +
            `${esc(move.pattern ? move.pattern[F.lang()] : "")}</span>`,
      }));
    }
    const slots = F.slotsHTML(moves, pos, 3, faded);
    const kitty = view.kitty
      ? F.cardsHTML(view.kitty, "sm")
      : `${F.backsHTML(3, "sm")}<span class="hidden-label">${esc(t("kitty.hidden"))}</span>`;
    return (
      `<div class="centre${faded ? " faded" : ""}">` +
      `<div class="kitty"><span class="lbl">${esc(t("kitty"))}</span>${kitty}</div>` +
      `<div class="caption">${esc(caption)}</div><div class="slots">${slots}</div></div>`
    );
  }

  function statusHTML(view, names) {
    const phase = t("phase." + view.phase);
    const who = F.turnText(view, names, t(view.phase === "bidding" ? "toBid" : "toAct"));
    const landlord = view.landlord === null ? "" : `<span class="role landlord">${esc(t("role.landlord"))}</span> ${esc(names[view.landlord])}`;
    return `<div class="status-line"><strong>${esc(phase)}</strong>${esc(who)}</div>` +
      (landlord ? `<div class="status-line">${landlord}</div>` : "");
  }

  function biddingHTML(view, names) {
    if (!view.bidding.length && !view.reveals.length) return `<p class="muted">${esc(t("bidding.none"))}</p>`;
    const bids = bidLabels(view.bidding)
      .map((bid) => `<li class="bid ${bid.type}"><span>${esc(names[bid.seat])}</span><b>${esc(bid.text)}</b></li>`)
      .join("");
    const revealItem = (reveal) => {
      const stage = t("reveal." + reveal.stage) +
        (reveal.stage === "deal" ? `（${t("reveal.received", { n: reveal.received })}）` : "");
      return `<li class="bid reveal"><span>${esc(names[reveal.seat])}</span><b>${esc(stage)} ×${reveal.factor}</b></li>`;
    };
    // 明牌开始/发牌明牌 come before any bid, 明牌 after the kitty after the last one.
    const before = view.reveals.filter((r) => r.stage !== "after_kitty").map(revealItem).join("");
    const after = view.reveals.filter((r) => r.stage === "after_kitty").map(revealItem).join("");
    return `<ol class="bids">${before}${bids}${after}</ol>`;
  }

  function foulsHTML(view, names) {
    return `<ul class="fouls">${view.fouls
      .map((foul) => `<li><b>${esc(names[foul.seat])}</b> ${F.foulHTML(foul)}` +
        (foul.penalty ? ` <span class="tag foul">${esc(t("foul.penalty", { n: foul.penalty }))}</span>` : "") + "</li>")
      .join("")}</ul>`;
  }

  function resultHTML(view, names, boot) {
    const result = view.result;
    if (result.redeal) return `<p><strong>${esc(t("result.redeal"))}</strong></p>`;
    const flags = [t(result.landlord_won ? "result.landlordWins" : "result.farmersWin")];
    if (result.spring) flags.push(t("result.spring"));
    if (result.anti_spring) flags.push(t("result.antiSpring"));
    const chips = boot.chips_after && boot.chips_before;
    const rows = names
      .map((name, seat) => `<tr><th>${esc(name)}</th>${F.scoreCell(result.scores[seat])}` +
        (chips ? `<td class="num">${boot.chips_before[seat]} → <b>${boot.chips_after[seat]}</b></td>` : "") + "</tr>")
      .join("");
    const head = `<tr><th></th><th class="num">${esc(t("result.score"))}</th>` +
      (chips ? `<th class="num">${esc(t("result.chips"))}</th>` : "") + "</tr>";
    return `<p class="outcome">${flags.map((flag) => `<strong>${esc(flag)}</strong>`).join(" · ")}</p>` +
      `<table class="data compact"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
  }

  F.games.doudizhu = F.tableGame({
    // Timeline marks, most telling first (viewer.js).
    marks: ["foul", "bomb", "rocket", "spring", "end", "reveal", "landlord", "note"],
    cls: "ddz", where: WHERE, seat: seatHTML, centre: centreHTML, status: statusHTML, fouls: foulsHTML,
    result: resultHTML,
    panels: (view, names) => [
      [t("bidding"), biddingHTML(view, names), "bidding"],
      [t("multipliers"), F.factorsHTML(view.multipliers, ["rob", "reveal", "bomb", "spring"]), "multipliers"],
    ],
  });
})();
