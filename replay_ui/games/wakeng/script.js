/* 竞技挖坑 table renderer: three seats, one digger (庄家) against two defenders (闲家); the duplicate board, the
 * bid (or 烂挖), the kitty and the current round with each play's pattern in the middle; beside the table the
 * decisions in order (叫分前明牌, 叫分, 庄家收底后明牌, 加倍), each defender's stake, fouls and the result.
 *
 * Reads only what the server sent for the viewpoint: a seat's `hand` is drawn when present (its own, the
 * referee's view, or a hand shown by 明牌, face up for everyone from that step), otherwise only its count as
 * backs. The kitty is drawn face up when the view has it (the referee; everyone once the digger is known,
 * B4.5), else as four backs. The viewpoint's own seat sits at the bottom, 下家 (next to act) on the right, 上家
 * on the left. Styles: the `wakeng` section of fupan.css.
 */
(function () {
  "use strict";

  const F = window.Fupan;
  const t = F.t;
  const esc = F.esc;
  const KITTY_SIZE = 4;
  const DECIDING = ["reveal", "bidding", "post_reveal", "doubling"];

  const WHERE = ["bottom", "right", "left"];

  /* The engine sends a hand sorted by rank, high to low; each rank is kept together (pairs, triples, quads). */
  function handHTML(seat, where) {
    if (!seat.hand) return seat.count === 0 ? '<div class="hand"></div>' : F.hiddenHandHTML(seat.count);
    const size = where === "bottom" ? "" : "sm";
    return `<div class="hand wk-hand">${F.groupRuns(seat.hand, F.rankOf)
      .map((g) => `<span class="rank-group${g.cards.length === 4 ? " quad" : ""}">${F.cardsHTML(g.cards, size)}</span>`)
      .join("")}</div>`;
  }

  function deciding(view) {
    return DECIDING.includes(view.phase);
  }

  function turnLabel(view) {
    if (view.phase === "bidding") return t("toBid");
    return t(deciding(view) ? "wk.toDecide" : "toAct");
  }

  function seatHTML(seat, where, view, names) {
    const turn = view.to_act === seat.seat;
    const role = seat.role ? `<span class="role ${seat.role}">${esc(t("wk.role." + seat.role))}</span>` : "";
    const first = view.first === seat.seat ? `<span class="first-bidder">${esc(t("wk.firstBidder"))}</span>` : "";
    const shown = seat.exposed ? `<span class="wk-shown">${esc(t("wk.shown"))}</span>` : "";
    const doubled = seat.doubled ? `<span class="wk-doubled">${esc(t("wk.doubled"))}</span>` : "";
    const stake = view.stakes && seat.role === "defender"
      ? `<span class="wk-stake">${esc(t("wk.stake", { n: view.stakes[seat.seat] }))}</span>` : "";
    const toAct = turn ? `<span class="turn">${esc(turnLabel(view))}</span>` : "";
    const cls = `seat pos-${where}${turn ? " is-turn" : ""}${seat.role ? " role-" + seat.role : ""}` +
      (seat.exposed ? " exposed" : "");
    return (
      `<div class="${cls}" data-seat="${seat.seat}" data-count="${esc(seat.count)}">` +
      `<div class="seat-head"><span class="seat-no">${esc(F.seatNo(seat.seat))}</span>` +
      `<span class="seat-name">${esc(names[seat.seat])}</span>${role}${shown}${doubled}${first}${stake}${toAct}` +
      `<span class="count">${esc(F.counted("cards.n", seat.count, { n: seat.count }))}</span></div>${handHTML(seat, where)}</div>`
    );
  }

  function decisionText(d) {
    if (d.phase === "bidding") return d.type === "bid" ? t("wk.decision.bid", { n: d.value }) : t("wk.decision.nobid");
    if (d.phase === "doubling") return t(d.type === "double" ? "wk.decision.double" : "wk.decision.nodouble");
    return t(d.type === "reveal" ? "wk.decision.reveal" : "wk.decision.noreveal");
  }

  function decisionClass(d) {
    return d.type === "pass" ? "wk-no" : "wk-yes";
  }

  function playHTML(move) {
    if (move.type === "pass") return `<span class="bubble pass">${esc(t("play.pass"))}</span>`;
    return `<div class="played">${F.cardsHTML(move.cards, "md")}</div>` +
      `<span class="pattern">${esc(move.pattern ? move.pattern[F.lang()] : "")}</span>`;
  }

  function badgesHTML(view) {
    const badges = [];
    if (view.board !== null && view.board !== undefined) {
      badges.push(`<span class="wk-board">${esc(t("wk.board", { n: view.board }))}</span>`);
    }
    if (view.digger !== null) {
      badges.push(`<span class="wk-bid-badge"><b>${esc(t("wk.bid"))}</b>${esc(t("wk.bid.points", { n: view.bid }))}</span>`);
      if (view.lanwa) badges.push(`<span class="on wk-lanwa">${esc(t("wk.lanwa"))}</span>`);
    } else if (view.phase === "bidding") {
      badges.push(`<span><b>${esc(t("wk.bid"))}</b>${esc(view.bid ? t("wk.bid.highest", { n: view.bid }) : t("wk.bid.none"))}</span>`);
    }
    const m = Math.pow(2, new Set(view.revealed).size);
    badges.push(`<span class="${m > 1 ? "on " : ""}wk-show-factor"><b>${esc(t("wk.showFactor"))}</b>×${m}</span>`);
    if (view.doubled.length) {
      badges.push(`<span class="on wk-doubles"><b>${esc(t("wk.doubled"))}</b>${view.doubled.length}</span>`);
    }
    return badges.join("");
  }

  function kittyHTML(view) {
    if (view.kitty) {
      const taken = view.digger !== null ? `<span class="muted-label">${esc(t("wk.kitty.taken"))}</span>` : "";
      return `<div class="wk-kitty"><span class="lbl">${esc(t("kitty"))}</span>${F.cardsHTML(view.kitty, "sm")}${taken}</div>`;
    }
    return `<div class="wk-kitty hidden-kitty"><span class="lbl">${esc(t("kitty"))}</span>${F.backsHTML(KITTY_SIZE, "sm")}` +
      `<span class="hidden-label">${esc(t("wk.kitty.hidden"))}</span></div>`;
  }

  /* The middle of the table: the board, bid, 烂挖 and 明牌 factor as badges, the kitty, and each seat's latest
   * move of this round (or of the round just closed, faded) in front of it; the newest lit. Before play, each
   * seat's latest decision of the phase under way. */
  function centreHTML(view, pos, names) {
    let moves = [];
    let caption;
    let faded = false;
    if (deciding(view)) {
      moves = view.decisions
        .filter((d) => d.phase === view.phase)
        .map((d) => ({ seat: d.seat, html: `<span class="bubble ${decisionClass(d)}">${esc(decisionText(d))}</span>` }));
      caption = t("wk.phase." + view.phase);
    } else {
      const round = F.currentRound(view, names, "round.leader",
        view.phase === "finished" ? t("wk.phase.finished") : t("round.empty"));
      ({ caption, faded } = round);
      moves = round.plays.map((move) => ({ seat: move.seat, html: playHTML(move) }));
    }
    const slots = F.slotsHTML(moves, pos, 3, faded, true);
    return (
      `<div class="centre wk-centre${faded ? " faded" : ""}">` +
      `<div class="wk-badges">${badgesHTML(view)}</div>${kittyHTML(view)}` +
      `<div class="slots wk-slots">${slots}</div><div class="caption">${esc(caption)}</div></div>`
    );
  }

  function statusHTML(view, names) {
    const who = F.turnText(view, names, turnLabel(view));
    const board = view.board !== null && view.board !== undefined ? `${t("wk.board", { n: view.board })} · ` : "";
    const digger = view.digger === null ? "" :
      `<div class="status-line"><span class="role digger">${esc(t("wk.role.digger"))}</span> ` +
      `${esc(names[view.digger])} · ${esc(t("wk.decision.bid", { n: view.bid }))}` +
      (view.lanwa ? ` · <b>${esc(t("wk.lanwa"))}</b>` : "") + "</div>";
    return `<div class="status-line"><strong>${esc(t("wk.phase." + view.phase))}</strong>${esc(who)}</div>${digger}` +
      `<div class="status-line muted">${esc(board)}${esc(t("wk.firstBidder"))}${esc(t("punct.colon"))}${esc(names[view.first])}</div>`;
  }

  function decisionsHTML(view, names) {
    if (!view.decisions.length) return `<p class="muted">${esc(t("wk.decisions.none"))}</p>`;
    const stages = DECIDING.filter((phase) => view.decisions.some((d) => d.phase === phase));
    const lists = stages
      .map((phase) => {
        const items = view.decisions
          .filter((d) => d.phase === phase)
          .map((d) => `<li class="bid ${decisionClass(d)} wk-${d.type}" data-seat="${d.seat}">` +
            `<span>${esc(names[d.seat])}</span><b>${esc(decisionText(d))}</b></li>`)
          .join("");
        return `<div class="wk-stage" data-phase="${phase}"><div class="muted small">${esc(t("wk.stage." + phase))}</div>` +
          `<ol class="bids">${items}</ol></div>`;
      })
      .join("");
    const lanwa = view.lanwa ? `<p class="muted small">${esc(t("wk.lanwa.note"))}</p>` : "";
    return lists + lanwa;
  }

  function stakesHTML(view, names) {
    if (!view.stakes) return `<p class="muted small">${esc(t("wk.stakes.pending"))}</p>`;
    const m = Math.pow(2, new Set(view.revealed).size);
    const rows = view.stakes
      .map((stake, seat) => (seat === view.digger ? "" :
        `<tr data-seat="${seat}"><th>${esc(names[seat])}</th>` +
        `<td>${view.doubled.includes(seat) ? esc(t("wk.doubled")) : ""}</td><td class="num"><b>${stake}</b></td></tr>`))
      .join("");
    const total = view.stakes.reduce((a, b) => a + b, 0);
    return `<table class="data compact wk-stakes"><tbody>${rows}` +
      `<tr class="total"><th>${esc(t("wk.stakes.total"))}</th><td>${view.doubled.includes(view.digger) ? esc(t("wk.doubled")) : ""}</td>` +
      `<td class="num"><b>${total}</b></td></tr></tbody></table>` +
      `<p class="muted small">${esc(t("wk.stakes.formula", { bid: view.bid, m }))}</p>`;
  }

  function foulsHTML(view, names) {
    return `<ul class="fouls">${view.fouls
      .map((foul) => `<li><b>${esc(names[foul.seat])}</b> ${F.foulHTML(foul)}</li>`)
      .join("")}</ul><p class="muted small">${esc(t("wk.foul.note"))}</p>`;
  }

  function resultHTML(view, names) {
    const result = view.result;
    const side = t(result.digger_won ? "wk.result.diggerWins" : "wk.result.defendersWin");
    const how = t("wk.ending.out", { who: names[result.winner] });
    const rows = names
      .map((name, seat) => {
        const role = t(seat === result.digger ? "wk.role.digger" : "wk.role.defender");
        const stake = seat === result.digger ? "" : result.stakes[seat];
        return `<tr data-seat="${seat}"><th>${esc(name)}</th><td class="role-cell">${esc(role)}</td>` +
          `<td class="num">${stake}</td>${F.scoreCell(result.scores[seat])}</tr>`;
      })
      .join("");
    return `<p class="outcome"><strong>${esc(side)}</strong> · ${esc(how)}</p>` +
      `<table class="data compact wk-result"><thead><tr><th></th><th></th><th class="num">${esc(t("wk.stakes"))}</th>` +
      `<th class="num">${esc(t("result.score"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  F.games.wakeng = F.tableGame({
    // Timeline marks, most telling first (viewer.js).
    marks: ["foul", "end", "lanwa", "reveal", "double", "digger", "note"],
    cls: "wk", where: WHERE, seat: seatHTML, centre: centreHTML, status: statusHTML, fouls: foulsHTML,
    result: resultHTML,
    panels: (view, names) => [
      [t("wk.decisions"), decisionsHTML(view, names), "decisions"],
      [t("wk.stakes"), stakesHTML(view, names), "stakes"],
    ],
  });
})();
