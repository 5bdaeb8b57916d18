/* The fallback renderer for a game without its own module: every seat with its hand (when the viewpoint may
 * see it) or its card count, the step in words in the middle, and the view's simple facts beside the table
 * (phase, whose turn, level, trump … whatever scalars the engine's view has). A game's own renderer replaces
 * it by registering Fupan.games.<game> in replay_ui/games/<game>/script.js. */
(function () {
  "use strict";

  const F = window.Fupan;
  const esc = F.esc;

  function seatHTML(seat, name, toAct) {
    const count = Array.isArray(seat.hand) ? seat.hand.length : seat.count;
    const hand = Array.isArray(seat.hand)
      ? F.cardsHTML(seat.hand, "sm")
      : F.backsHTML(count || 0, "sm") + `<span class="hidden-label">${esc(F.t("hand.hidden"))}</span>`;
    return (
      `<div class="seat${toAct ? " is-turn" : ""}" data-seat="${seat.seat}"><div class="seat-head">` +
      `<span class="seat-no">${esc(F.seatNo(seat.seat))}</span><span class="seat-name">${esc(name)}</span>` +
      (toAct ? `<span class="turn">${esc(F.t("toAct"))}</span>` : "") +
      (count === undefined ? "" : `<span class="count">${esc(F.counted("cards.n", count, { n: count }))}</span>`) +
      `</div><div class="hand">${hand}</div></div>`
    );
  }

  function factsHTML(view) {
    const rows = Object.entries(view)
      .filter(([key, value]) => key !== "viewpoint" && value !== null && typeof value !== "object")
      .map(([key, value]) => `<tr><th>${esc(key)}</th><td>${esc(value)}</td></tr>`)
      .join("");
    return `<section class="panel info"><h3>${esc(F.t("phase"))}</h3><table class="data compact">${rows}</table></section>`;
  }

  F.games.generic = {
    render(ctx) {
      const view = ctx.frame.view;
      const seats = (view.seats || [])
        .map((seat, index) => seatHTML({ seat: index, ...seat }, ctx.names[index] || String(index), view.to_act === index))
        .join("");
      ctx.table.innerHTML =
        `<div class="generic">${seats}<div class="centre"><div class="caption">` +
        `${esc(ctx.frame.notation[F.lang()])}</div></div></div>`;
      ctx.info.innerHTML = factsHTML(view);
    },
  };
})();
