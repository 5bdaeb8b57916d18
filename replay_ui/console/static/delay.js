/* The organiser console's broadcast delay (直播延迟, docs/console.md): shows the tournament's public delay and sets
 * it (POST /api/tournaments/<id>/delay with the organiser token kept in this tab, as console.js does). The server
 * checks the amount and says what is wrong in both languages; the message shown is the reader's language. */
(function () {
  "use strict";
  const panel = document.getElementById("delay-panel");
  if (!panel) return;
  const url = `/api/tournaments/${encodeURIComponent(panel.dataset.tournament)}/delay`;
  const form = document.getElementById("delay-form");
  const now = document.getElementById("delay-now");
  let current = null;
  let problem = null;

  function words(delay) {
    const key = { deals: "console.delay.deals", tricks: "console.delay.tricks", minutes: "console.delay.minutes" }[delay.kind];
    return `${delay.amount} ${Fupan.counted(key, delay.amount)}`;
  }

  function show() {
    if (problem) {
      now.textContent = Fupan.lang() === "en" ? problem.message : problem.message_zh;
      now.dataset.state = "error";
      return;
    }
    now.dataset.state = current ? "set" : "";
    now.textContent = current ? Fupan.t("console.delay.now", { text: words(current) }) : "";
  }

  async function send(method, body) {
    const headers = { Accept: "application/json" };
    const token = Fupan.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body) headers["Content-Type"] = "application/json";
    const response = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const data = await response.json();
    if (!response.ok) throw data.error;
    return data;
  }

  async function load() {
    try {
      current = (await send("GET")).delay;
      problem = null;
      form.amount.value = current.amount;
      form.kind.value = current.kind;
    } catch (error) {
      problem = error;
    }
    show();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    panel.dataset.state = "busy";
    try {
      current = (await send("POST", { kind: form.kind.value, amount: Number(form.amount.value) })).delay;
      problem = null;
    } catch (error) {
      problem = error && error.message_zh ? error : { message: String(error), message_zh: String(error) };
    }
    show();
    panel.dataset.state = "ready";
  });
  document.addEventListener("fupan:lang", show);
  load();
})();
