/* 升级 table renderer: four seats in two partnerships (partner opposite), the trick on the table, trump and
 * level; beside the table the declarations, the attackers' points with every penalty, the kitty (when the
 * viewpoint may see it), the referee's records and the result.
 *
 * Reads only what the server sent for the viewpoint: a seat's `hand` is drawn when present, otherwise only its
 * card count (as backs); the kitty and the buried cards only when the view has them. The viewpoint's own seat
 * sits at the bottom, its partner at the top, 下家 (next to play) on the right, 上家 on the left.
 */
(function () {
  "use strict";

  const F = window.Fupan;
  const t = F.t;
  const esc = F.esc;
  const RANKS = { 11: "J", 12: "Q", 13: "K", 14: "A" };
  const SUIT_SIGN = { S: "♠", H: "♥", C: "♣", D: "♦", NT: "无" };

  const WHERE = ["bottom", "right", "top", "left"];

  /* ♥3-style short names for a line of text (jokers by name). */
  function shortName(code) {
    return SUIT_SIGN[code[0]] && code.length > 1 && code !== "BJ" && code !== "LJ" ? SUIT_SIGN[code[0]] + code.slice(1)
      : F.cardName(code);
  }

  function rank(level) {
    return RANKS[level] || String(level);
  }

  function teamNames(names, team) {
    return names.filter((_, seat) => seat % 2 === team).join("·");
  }

  /* The effective suit of a card, as the engine groups a hand (jokers and level cards are trumps). */
  function effectiveSuit(code, view) {
    if (code === "BJ" || code === "LJ" || code.slice(1) === view.level_rank) return "T";
    return view.trump && view.trump !== "NT" && code[0] === view.trump ? "T" : code[0];
  }

  /* The engine sends a hand sorted by effective suit; it is split where the suit changes. */
  function handHTML(seat, where, view) {
    if (!seat.hand) return seat.count ? F.hiddenHandHTML(seat.count) : '<div class="hand"></div>'; // nothing to hide
    const size = where === "bottom" ? "" : "sm";
    const groups = F.groupRuns(seat.hand, (code) => effectiveSuit(code, view));
    const side = where === "left" || where === "right";
    return `<div class="hand sj-hand${side ? " by-suit" : ""}">` +
      groups.map((g) => `<span class="suit-group${g.key === "T" ? " trumps" : ""}">${F.cardsHTML(g.cards, size)}</span>`)
        .join("") + "</div>";
  }

  function roleBadge(role) {
    return role ? `<span class="role ${role}">${esc(t("role." + role))}</span>` : "";
  }

  function seatHTML(seat, where, view, names) {
    const turn = view.to_act === seat.seat;
    const count = view.phase === "dealing" ? t("sj.received", { n: seat.received }) : F.counted("cards.n", seat.count, { n: seat.count });
    return (
      `<div class="seat pos-${where} team-${seat.team}${turn ? " is-turn" : ""}${seat.role ? " role-" + seat.role : ""}" ` +
      `data-seat="${seat.seat}">` +
      `<div class="seat-head"><span class="seat-no">${esc(F.seatNo(seat.seat))}</span>` +
      `<span class="seat-name">${esc(names[seat.seat])}</span>${roleBadge(seat.role)}` +
      (turn ? `<span class="turn">${esc(t("toAct"))}</span>` : "") +
      `<span class="count">${esc(count)}</span></div>${handHTML(seat, where, view)}</div>`
    );
  }

  function playHTML(play, winning) {
    let notes = "";
    if (play.failed_throw) {
      notes += `<span class="sj-note throw">${esc(t("sj.failedThrow", { attempted: play.attempted.map(shortName).join(" ") }))}</span>`;
    }
    if (play.irregularity) notes += `<span class="sj-note irregular">${esc(t("sj.irr." + play.irregularity))}</span>`;
    if (play.penalty) notes += `<span class="sj-note penalty">${esc(t("sj.penaltyN", { n: play.penalty }))}</span>`;
    const cls = `played${winning ? " winning" : ""}${play.irregularity ? " irregular" : ""}`;
    return `<div class="${cls}">${F.cardsHTML(play.cards, "md")}</div>${notes}`;
  }

  /* The middle of the table: the trick being played (or the one just closed, faded), one slot per seat. */
  function centreHTML(view, pos, names) {
    let plays = view.trick.plays;
    let caption;
    let faded = false;
    let winning = view.trick.winning;
    if (plays.length) {
      caption = `${t("sj.trick.n", { n: view.tricks_played + 1 })} · ${t("sj.trick.leader", { name: names[plays[0].seat] })}`;
    } else if (view.last_trick) {
      plays = view.last_trick.plays;
      winning = view.last_trick.winner;
      faded = view.phase !== "finished";
      // A result-blind review leaves out who won a trick: the previous trick is then named without its winner.
      caption = view.last_trick.winner === undefined ? t("sj.trick.lastBlind")
        : t("sj.trick.last", { name: names[view.last_trick.winner], points: view.last_trick.points });
    } else {
      caption = view.phase === "playing" ? t("sj.trick.waiting") : t("phase." + view.phase);
    }
    const moves = plays.map((play) => ({ seat: play.seat, html: playHTML(play, play.seat === winning) }));
    const slots = F.slotsHTML(moves, pos, 4, faded);
    const sign = view.trump && view.trump !== "NT" ? `${SUIT_SIGN[view.trump]} ` : "";
    const trump = view.trump
      ? `<span class="sj-trump"><b>${esc(t("sj.trump"))}</b> ${esc(sign)}${esc(F.lang() === "zh" ? view.trump_zh : view.trump_en)}</span>`
      : "";
    const level = `<span class="sj-level"><b>${esc(t("sj.level"))}</b> ${esc(view.level_rank)}</span>`;
    const points = view.attacker_points === null ? "" :
      `<span class="sj-points"><b>${esc(t("sj.attackerPoints"))}</b> ${view.attacker_points}</span>`;
    return (
      `<div class="centre sj-centre${faded ? " faded" : ""}">` +
      `<div class="sj-badges">${trump}${level}${points}</div>` +
      `<div class="sj-slots">${slots}<div class="caption">${esc(caption)}</div></div></div>`
    );
  }

  function statusHTML(view, names) {
    const who = F.turnText(view, names, t("toAct"));
    const dealer = view.dealer === null ? "" :
      `<div class="status-line"><span class="role dealer">${esc(t("role.dealer"))}</span> ${esc(names[view.dealer])}</div>`;
    const levels = [0, 1]
      .map((team) => `<span class="sj-team team-${team}">${esc(teamNames(names, team))} <b>${esc(rank(view.levels[team]))}</b></span>`)
      .join(" ");
    return `<div class="status-line"><strong>${esc(t("phase." + view.phase))}</strong>${esc(who)}</div>${dealer}` +
      `<div class="status-line sj-levels">${esc(t("sj.levels"))}${esc(t("punct.colon"))}${levels}</div>`;
  }

  function declarationsHTML(view, names) {
    if (!view.declarations.length) return `<p class="muted">${esc(t("sj.declarations.none"))}</p>`;
    return `<ol class="bids">${view.declarations
      .map((d) => `<li class="bid declare"><span>${esc(names[d.seat])}</span>${F.cardsHTML(d.cards, "sm")}` +
        `<b>${esc(d.trump === "NT" ? t("suit.NT") : SUIT_SIGN[d.trump])}</b></li>`)
      .join("")}</ol>`;
  }

  function kittyHTML(view) {
    let body = "";
    if (view.kitty_shown.length) {
      body += `<div class="sj-kitty"><span class="lbl">${esc(t("sj.kittyShown"))}</span>${F.cardsHTML(view.kitty_shown, "sm")}</div>`;
    }
    if (view.kitty) {
      body += `<div class="sj-kitty"><span class="lbl">${esc(t("sj.kitty"))}</span>${F.cardsHTML(view.kitty, "sm")}</div>`;
    } else {
      body += `<div class="sj-kitty hidden-kitty">${F.backsHTML(8, "sm")}<span class="lbl">${esc(t("sj.kitty.hidden"))}</span></div>`;
    }
    if (view.buried) {
      body += `<div class="sj-kitty"><span class="lbl">${esc(t("sj.buried"))}</span>${F.cardsHTML(view.buried, "sm")}</div>`;
    }
    return body;
  }

  function penaltiesHTML(view, names) {
    return `<ul class="fouls">${view.penalties
      .map((p) => `<li><b>${esc(names[p.seat])}</b> ${esc(t("sj.penalty." + p.reason))} ` +
        `<span class="tag penalty">${esc(t("sj.penaltyN", { n: p.points }))}</span> ` +
        `<span class="muted">${p.effect > 0 ? "+" : ""}${p.effect}</span></li>`)
      .join("")}</ul>`;
  }

  function recordsHTML(view, names) {
    const irregular = view.irregularities.map((i) => `<li><b>${esc(names[i.seat])}</b> ` +
      `<span class="tag irregularity">${esc(t("sj.irr." + i.kind))}</span> ${i.cards ? F.cardsHTML(i.cards, "sm") : ""} ` +
      `${esc(F.noteText(i.note))}</li>`);
    const fouls = view.fouls.map((f) => `<li><b>${esc(names[f.seat])}</b> ${F.foulHTML(f)}` +
      (f.penalty ? ` <span class="tag foul">${esc(t("sj.penaltyN", { n: f.penalty }))}</span>` : "") + "</li>");
    return `<ul class="fouls">${irregular.concat(fouls).join("")}</ul>`;
  }

  function resultHTML(view, names) {
    const result = view.result;
    if (result.redeal) return `<p><strong>${esc(t("sj.result.redeal"))}</strong></p>`;
    const change = result.level_change;
    let outcome;
    if (result.ended_by === "revoke" || result.ended_by === "miscount") outcome = t("sj.result.forfeit");
    else outcome = t(result.takeover ? "sj.result.takeover" : "sj.result.hold");
    const gained = `${teamNames(names, change.team)} ${t("sj.result.up", { n: change.steps })}`;
    const p = result.points;
    const rows = [
      [t("sj.result.cards"), p.cards],
      [t("sj.result.kitty"), p.kitty_multiplier ? `${p.kitty_cards} ×${p.kitty_multiplier} = ${p.kitty_bonus}` : 0],
      [t("sj.result.penalties"), p.penalties],
      [t("sj.result.points"), `<b>${result.attacker_points}</b>`],
    ].map(([label, value]) => `<tr><th>${esc(label)}</th><td class="num">${value}</td></tr>`).join("");
    const teams = [0, 1].map((team) => `<tr><th>${esc(teamNames(names, team))}</th>` +
      `<td class="num">${esc(rank(result.new_levels[team]))}</td><td class="num">${result.big_points[team]}</td>` +
      `<td class="num">${result.small_points[team]}</td></tr>`).join("");
    return `<p class="outcome"><strong>${esc(outcome)}</strong> · ${esc(gained)}</p>` +
      `<table class="data compact"><tbody>${rows}</tbody></table>` +
      `<table class="data compact sj-after"><thead><tr><th></th><th class="num">${esc(t("sj.result.newLevels"))}</th>` +
      `<th class="num">${esc(t("sj.result.big"))}</th><th class="num">${esc(t("sj.result.small"))}</th></tr></thead>` +
      `<tbody>${teams}</tbody></table>`;
  }

  F.games.shengji = F.tableGame({
    // Timeline marks, most telling first (viewer.js).
    marks: ["irregularity", "foul", "throw", "penalty", "dig", "end", "dealer", "declare", "note"],
    cls: "sj", where: WHERE, seat: seatHTML, centre: centreHTML, status: statusHTML, result: resultHTML,
    // Fouls are among the referee's records, with the irregularities.
    panels: (view, names) => [
      [t("sj.declarations"), declarationsHTML(view, names), "declarations"],
      [t("sj.kitty"), kittyHTML(view), "sj-kitty-panel"],
      view.penalties.length && [t("sj.penalties"), penaltiesHTML(view, names), "penalties"],
      (view.irregularities.length || view.fouls.length) && [t("sj.irregularities"), recordsHTML(view, names), "records"],
    ],
  });
})();
