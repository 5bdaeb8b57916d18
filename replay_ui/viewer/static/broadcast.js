/* The broadcast (直播, docs/console.md): one table followed under the tournament's public delay.
 *
 * Fupan.broadcast.refresh() reads the table as this reader may see it (GET /ui-api/matches/<id>/broadcast: the server
 * applies the delay, domain/services/visibility.py) and redraws the followed table from that answer alone. It is the
 * one function that draws: the table's server-sent-event stream calls it on each change, a poll only while the
 * stream is down. Every card drawn sits inside an element naming its deal
 * (data-deal), so what was shown of which deal can be checked. */
(function () {
  "use strict";

  const root = document.getElementById("broadcast");
  if (!root) return;
  // A published copy (`fupan publish`) is one file for every table followed: the table comes from its address.
  const asked = new URLSearchParams(window.location.search).get("follow");
  const url = asked && Fupan.published() ? root.dataset.url.replace(root.dataset.match, asked) : root.dataset.url;
  const POLL_MS = 3000;
  const RELEASE_MS = 30000;
  const heading = document.getElementById("broadcast-heading");
  const status = document.getElementById("broadcast-status");
  const heldList = document.getElementById("broadcast-held");
  const dealBox = document.getElementById("broadcast-deal");
  let last = null;
  let failed = false;

  function seatName(names, seat) {
    return Fupan.seatName(seat, names[seat]);
  }

  function handsHTML(frame, names) {
    const seats = (frame && frame.view && frame.view.seats) || [];
    const rows = seats
      .filter((entry) => Array.isArray(entry.hand) && entry.hand.length && typeof entry.hand[0] === "string")
      .map((entry) => `<li><span class="seat-name">${Fupan.esc(seatName(names, entry.seat))}</span>` +
        `<span class="hand broadcast-hand">${Fupan.cardsHTML(entry.hand)}</span></li>`);
    return rows.length ? `<h3>${Fupan.bilingualHTML("broadcast.hands")}</h3><ul class="plain broadcast-hands">${rows.join("")}</ul>` : "";
  }

  function movesHTML(frames, names) {
    const lang = Fupan.lang();
    const rows = frames.slice(1).map((frame) => {
      const action = frame.action || {};
      const words = frame.notation ? frame.notation[lang] || frame.notation.zh : "";
      const cards = Array.isArray(action.cards) && action.cards.length && typeof action.cards[0] === "string"
        ? `<span class="broadcast-cards">${Fupan.cardsHTML(action.cards, "sm")}</span>` : "";
      const notes = (frame.annotations || []).map(Fupan.noteHTML).join("");
      return `<li data-step="${frame.step}"><span class="move-text">${Fupan.esc(words)}</span>${cards}${notes}</li>`;
    });
    const opening = (frames[0] && frames[0].annotations || []).map(Fupan.noteHTML).join("");
    return `<h3>${Fupan.bilingualHTML("broadcast.moves")}</h3>${opening}<ol class="broadcast-moves">${rows.join("")}</ol>`;
  }

  function draw(data) {
    last = data;
    const names = data.seat_names || [];
    heading.textContent = names.join(Fupan.t("list.sep"));
    heldList.innerHTML = data.held
      .map((deal) => `<li data-held="${Fupan.esc(deal.deal_id)}">${Fupan.esc(Fupan.counted("broadcast.held", deal.delayed, { n: deal.number, k: deal.delayed }))}</li>`)
      .join("");
    const shown = data.following;
    if (!shown) {
      status.textContent = Fupan.t("broadcast.nothing");
      dealBox.innerHTML = "";
      dealBox.removeAttribute("data-deal");
      return;
    }
    status.textContent = shown.delayed ? Fupan.counted("broadcast.delayed", shown.delayed, { k: shown.delayed }) : "";
    dealBox.dataset.deal = shown.deal_id;
    dealBox.innerHTML =
      `<h3>${Fupan.esc(Fupan.t("broadcast.deal", { n: shown.number }))} ` +
      `<a class="button" href="/deals/${encodeURIComponent(shown.deal_id)}">${Fupan.bilingualHTML("broadcast.replay")}</a></h3>` +
      handsHTML(shown.frames[0], names) + movesHTML(shown.frames, names);
  }

  async function refresh() {
    try {
      const data = await Fupan.getJSON(url);
      // Drawn again only when something changed: a spectator's place on the page (and a tap on its replay link)
      // survives the stream's first event and the timed reads of a minutes delay.
      if (last && !failed && JSON.stringify(data) === JSON.stringify(last)) return;
      failed = false;
      draw(data);
    } catch (error) {
      failed = true; // the status says so until a read succeeds and draws again
      status.textContent = Fupan.t("error.load", { detail: error.message });
    }
  }

  Fupan.broadcast = { refresh };
  document.addEventListener("fupan:lang", () => last && draw(last));
  refresh();
  if (Fupan.published()) return; // a published copy never changes
  // The table's stream (docs/streams.md) calls refresh() on each change; polling every POLL_MS only while it is
  // down. A minutes delay releases steps as time passes, with no event to say so: a slow read meanwhile.
  let timer = null;
  const schedule = (connected) => {
    clearTimeout(timer);
    const wait = connected ? RELEASE_MS : POLL_MS;
    if (connected || !Fupan.pollingOff()) timer = setTimeout(() => refresh().then(() => schedule(stream.live())), wait);
  };
  const stream = Fupan.stream(`/api/matches/${encodeURIComponent(root.dataset.match)}/stream`, (name) => {
    if (name === "table" || name === "deal") refresh();
  }, schedule);
})();
