/* The table, tournament and standings pages follow their stream (docs/streams.md): `#live-stream` names the stream
 * (`data-url`) and the events that change what the page shows (`data-on`). On one of them the page reads itself
 * again — the standings from the API (static/charts.js), the others as the server renders them, swapped in place
 * — so a reader sees a deal scored or a table opened without reloading. While the stream is down the page reads
 * itself every POLL_MS instead (not with ?poll=0: the browser tests show it follows by push alone). A published
 * copy has no server and no stream. `body[data-live-reads]` counts the reads, for tests and tools. */
(function () {
  "use strict";

  const F = window.Fupan;
  const marker = document.getElementById("live-stream");
  if (!marker || F.published()) return;
  const POLL_MS = 10000;
  const wanted = new Set((marker.dataset.on || "").split(/\s+/).filter(Boolean));
  let reading = false;
  let again = false;
  let timer = null;
  let reads = 0;

  async function read() {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      if (marker.dataset.standings !== undefined) {
        if (F.refreshStandings) await F.refreshStandings();
      } else {
        const response = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
        if (response.ok) {
          const fresh = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("main");
          const main = document.querySelector("main");
          if (fresh && main) {
            main.innerHTML = fresh.innerHTML;
            F.setLang(F.lang()); // attributes in the reader's language, charts drawn again
          }
        }
      }
      reads += 1;
      document.body.dataset.liveReads = String(reads);
    } catch (e) {
      /* the server is away: the stream's reconnection or the next poll tries again */
    } finally {
      reading = false;
    }
    if (again) {
      again = false;
      read();
    }
  }

  function schedule(connected) {
    clearTimeout(timer);
    timer = null;
    if (!connected && !F.pollingOff()) timer = setTimeout(() => read().then(() => schedule(stream.live())), POLL_MS);
  }

  const stream = F.stream(marker.dataset.url, (name) => {
    if (wanted.has(name)) read();
  }, schedule);
})();
