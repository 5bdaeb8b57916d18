/* The organiser console (docs/console.md): every change goes through the API with the organiser's token, which is
 * kept in this tab's sessionStorage (Fupan.token) and sent as a header, never in a URL. The pages hold nothing
 * secret; referee cards are built here from the API's answer and never stored. */
(function () {
  "use strict";
  const boot = JSON.parse(document.getElementById("console-boot").textContent);
  const root = document.getElementById("console");
  const $ = (selector) => document.querySelector(selector);
  const t = (key, params) => Fupan.t(key, params);
  const esc = Fupan.esc;
  const tournament = boot.tournament;
  Fupan.seatMarks = boot.seat_marks || null; // the game's words for its seats (升级 东南西北); none: names alone
  let started = false; // a round was drawn: entries are no longer taken off, players withdraw
  const base = tournament ? `/api/tournaments/${tournament.id}` : null;
  let players = {}; // id → name
  let teamSize = 1;
  let fmt = null;
  let proposal = null;

  /* --- the API --------------------------------------------------------------------------------------------- */

  async function api(method, url, body) {
    const headers = { Accept: "application/json" };
    const token = Fupan.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      // A resend of this write (a double click, a retried request) is answered once (docs/SECURITY.md §6a).
      if (window.crypto && crypto.randomUUID) headers["Idempotency-Key"] = crypto.randomUUID();
    }
    const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    if (!response.ok) {
      const error = new Error((data && data.error && data.error.message) || response.statusText);
      error.body = data;
      error.status = response.status;
      throw error;
    }
    return data;
  }

  // The last message, said again in the other language when the language is switched.
  let said = null;

  function say(key, params) {
    said = { key, params };
    const box = $("#message");
    box.textContent = t(key, params);
    box.hidden = false;
    $("#error").hidden = true;
  }

  function colon() {
    return Fupan.lang() === "en" ? ": " : "：";
  }

  /* A round as the page's language reads it (as replay_ui/pages.py round_label): the organiser's label in
     Chinese; in English its English half ("中文 / English"), else the round's number and kind in English. */
  function roundLabel(round) {
    const label = round.label || "";
    if (Fupan.lang() !== "en") return label || t("round.number", { n: round.round });
    const english = label.includes(" / ") ? label.split(" / ").pop().trim() : "";
    if (english && !/[\u3400-\u9fff]/.test(english)) return english;
    const kind = ["tables", "final", "playoff"].includes(round.kind) ? ` · ${t(`round.kind.${round.kind}`)}` : "";
    return t("round.number", { n: round.round }) + kind;
  }

  /* A list of names as the page's language writes it (、 in Chinese, a comma in English). */
  function listed(names) {
    return names.join(Fupan.lang() === "en" ? ", " : "、");
  }

  function fail(error) {
    const box = $("#error");
    const detail = error && error.body && error.body.error;
    box.innerHTML = "";
    if (detail) {
      box.dataset.code = detail.code;
      box.innerHTML = linesHTML(detail.message_zh, detail.message);
    } else {
      box.dataset.code = "";
      box.textContent = String((error && error.message) || error);
    }
    box.hidden = false;
    $("#message").hidden = true;
  }

  /* A refusal of several errors (an entry batch: one a line, each with its line number) as a list, else one line. */
  function linesHTML(zh, en) {
    const zhLines = String(zh || "").split("\n");
    const enLines = String(en || "").split("\n");
    if (zhLines.length < 2) return `<span class="zh" lang="zh-CN">${esc(zh)}</span><span class="en" lang="en">${esc(en)}</span>`;
    return `<ul class="error-lines">${zhLines.map((line, i) => `<li data-error-line><span class="zh" lang="zh-CN">${esc(line)}</span><span class="en" lang="en">${esc(enLines[i] || "")}</span></li>`).join("")}</ul>`;
  }

  // The page is "ready" once every action started has ended: two may overlap (a language switch's redraw and a
  // check of the override editor), and the first to end must not say the page is ready while the other still runs.
  let running = 0;
  async function act(work) {
    running += 1;
    root.dataset.consoleState = "busy";
    try {
      await work();
    } catch (error) {
      fail(error);
    } finally {
      running -= 1;
      if (running === 0) root.dataset.consoleState = "ready";
    }
  }

  /* --- sign in ------------------------------------------------------------------------------------------------ */

  function showSignedIn() {
    const held = Boolean(Fupan.token());
    $("#signin-form").hidden = held;
    $("#signin-hint").hidden = held;
    $("#signed-in").hidden = !held;
    $("#signed-out").hidden = held;
  }

  $("#signin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    Fupan.setToken($("#signin-token").value.trim());
    $("#signin-token").value = "";
    showSignedIn();
  });
  $("#signout").addEventListener("click", () => {
    Fupan.setToken(null);
    showSignedIn();
  });

  /* --- home: create a tournament ------------------------------------------------------------------------------ */

  let redrawHome = null; // set by home(): its script-drawn parts, drawn again in the language chosen

  async function home() {
    const listed = await api("GET", "/api/formats");
    const formats = listed.formats;
    const presets = listed.presets || {}; // per game, the ruleset preset option its form offers
    const games = [...new Set(formats.map((f) => f.game))];
    const gameSelect = $("#create-game");
    gameSelect.innerHTML = games.map((g) => `<option value="${esc(g)}" data-i18n-option="game.${esc(g)}">${esc(t(`game.${g}`))}</option>`).join("");
    const formatSelect = $("#create-format");
    function fillFormats() {
      const chosen = formatSelect.value;
      const mine = formats.filter((f) => f.game === gameSelect.value);
      formatSelect.innerHTML = mine
        .map((f) => `<option value="${esc(f.code)}">${esc(Fupan.lang() === "en" ? `${f.en} (${f.code})` : f.zh)}</option>`)
        .join("");
      if (mine.some((f) => f.code === chosen)) formatSelect.value = chosen;
      fillTiebreaks();
      $("#preset-label").hidden = !presets[gameSelect.value];
    }
    // The tiebreaks are chosen by name from the format's list, never typed as codes: each ticked or not, in the
    // order they apply (moved up and down); the format's default order comes ticked first.
    function tiebreakState() {
      return [...document.querySelectorAll("#tiebreak-list li")].map((li) => ({
        code: li.dataset.tiebreak, on: li.querySelector("input").checked,
      }));
    }
    function fillTiebreaks(kept) {
      const chosen = formats.find((f) => f.code === formatSelect.value);
      if (!chosen) return;
      const byCode = Object.fromEntries(chosen.tiebreaks.map((c) => [c.code, c]));
      const state = kept && kept.every((item) => byCode[item.code]) && kept.length === chosen.tiebreaks.length ? kept
        : chosen.default_tiebreaks.map((code) => ({ code, on: true }))
          .concat(chosen.tiebreaks.filter((c) => !chosen.default_tiebreaks.includes(c.code)).map((c) => ({ code: c.code, on: false })));
      $("#tiebreak-list").innerHTML = state.map((item) => {
        const name = Fupan.lang() === "en" ? byCode[item.code].en : byCode[item.code].zh;
        return `<li data-tiebreak="${esc(item.code)}"><label><input type="checkbox"${item.on ? " checked" : ""}> ${esc(name)}</label>`
          + ` <button type="button" class="button small" data-move="-1" aria-label="${esc(t("console.tiebreak.up"))}" title="${esc(t("console.tiebreak.up"))}">↑</button>`
          + `<button type="button" class="button small" data-move="1" aria-label="${esc(t("console.tiebreak.down"))}" title="${esc(t("console.tiebreak.down"))}">↓</button></li>`;
      }).join("");
    }
    $("#tiebreak-list").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-move]");
      if (!button) return;
      const li = button.closest("li");
      const other = Number(button.dataset.move) < 0 ? li.previousElementSibling : li.nextElementSibling;
      if (!other) return;
      if (Number(button.dataset.move) < 0) other.before(li);
      else other.after(li);
      button.focus();
    });
    gameSelect.addEventListener("change", fillFormats);
    formatSelect.addEventListener("change", () => fillTiebreaks());
    fillFormats();
    $("#create-form").addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const form = new FormData(event.target);
        let options = {};
        const text = String(form.get("options") || "").trim();
        if (text) {
          try {
            options = JSON.parse(text);
          } catch (e) {
            options = null;
          }
          if (!options || typeof options !== "object" || Array.isArray(options)) throw new Error(t("console.badOptions"));
        }
        const preset = presets[form.get("game")];
        if (preset && !(preset.option in options)) options[preset.option] = form.get("preset");
        const body = {
          name: String(form.get("name")).trim(), game: form.get("game"), format: form.get("format"), options,
          tiebreaks: tiebreakState().filter((item) => item.on).map((item) => item.code),
        };
        if (String(form.get("lots_seed")).trim()) body.lots_seed = String(form.get("lots_seed")).trim();
        if (String(form.get("department_limit")).trim()) body.department_limit = Number(form.get("department_limit"));
        const created = await api("POST", "/api/tournaments", body);
        say("console.created", { name: created.name });
        window.location.assign(`/console/tournaments/${created.id}`);
      });
    });
    const tournaments = await api("GET", "/api/tournaments");
    function drawList() {
      $("#tournament-list").innerHTML = tournaments.map(
        (item) => `<li><a href="/console/tournaments/${esc(item.id)}" data-tournament="${esc(item.id)}">${esc(item.name)}</a> <span class="badge game">${esc(t(`game.${item.game}`))}</span></li>`,
      ).join("");
    }
    drawList();
    // The script-drawn menus and list speak the language chosen later too (the tiebreaks chosen kept).
    redrawHome = () => {
      const kept = tiebreakState();
      fillFormats();
      fillTiebreaks(kept);
      drawList();
    };
  }

  /* --- entries ------------------------------------------------------------------------------------------------ */

  async function loadEntries() {
    const answer = await api("GET", `${base}/entries`);
    const out = (entry) => entry.members.some((m) => m.id in answer.withdrawn);
    const member = (m) => `${esc(m.name)}${m.id in answer.withdrawn ? ` ${withdrawnMark()}` : ""}`;
    const remove = (entry) => (started ? "" : `<button type="button" class="button small remove-entry" data-remove="${esc(entry.name)}">${esc(t("console.entry.remove"))}</button>`);
    // An individual event's entry is its one player: a 队员 column would only say the name again.
    const teams = teamSize > 1;
    const membersColumn = $("#entries-table th[data-members-col]");
    if (membersColumn) membersColumn.hidden = !teams;
    const rows = answer.entries.map(
      (entry, index) => `<tr data-entry="${esc(entry.name)}" data-department="${esc(entry.department)}"${out(entry) ? ' data-withdrawn="true"' : ""}><td class="num">${index + 1}</td><td>${esc(entry.name)}${out(entry) ? ` ${withdrawnMark()}` : ""}</td><td>${esc(entry.department || "—")}</td>${teams ? `<td>${listed(entry.members.map(member))}</td>` : ""}<td>${remove(entry)}</td></tr>`,
    );
    $("#entries-table tbody").innerHTML = rows.join("") || `<tr><td colspan="${teams ? 5 : 4}" class="muted">${esc(t("console.entries.none"))}</td></tr>`;
    document.querySelectorAll("button.remove-entry").forEach((button) => button.addEventListener("click", () => act(async () => {
      if (!window.confirm(t("console.entry.remove.confirm", { name: button.dataset.remove }))) return;
      await api("POST", `${base}/entries/removals`, { name: button.dataset.remove, reason: "" });
      say("console.entry.removed", { name: button.dataset.remove });
      await refreshAll();
    })));
    const limit = answer.entry_rules.department_limit;
    $("#entry-count").textContent = Fupan.counted("console.entries.count", answer.entries.length, { n: answer.entries.length }) + (limit ? ` · ${t("console.entries.limit", { n: limit })}` : "");
    root.dataset.entries = String(answer.entries.length);
  }

  function memberFields() {
    const box = $("#member-fields");
    if (teamSize === 1) {
      box.hidden = true;
      return;
    }
    box.innerHTML = Array.from({ length: teamSize }, (_, i) => `<label>${esc(t("console.entry.member", { n: i + 1 }))} <input name="member" required maxlength="200"></label>`).join("");
  }

  function entriesForms() {
    $("#entry-form").addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const form = new FormData(event.target);
        const name = String(form.get("name")).trim();
        const members = teamSize === 1 ? [name] : form.getAll("member").map((m) => String(m).trim());
        const body = { entries: [{ name, department: String(form.get("department")).trim(), members: members.map((m) => ({ name: m })) }] };
        const answer = await api("POST", `${base}/entries`, body);
        say(Fupan.countedKey("console.entries.done", answer.registered.length), { n: answer.registered.length });
        event.target.reset();
        await refreshAll();
      });
    });
    $("#bulk-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (file) $("#bulk-text").value = await file.text();
    });
    $("#bulk-form").addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const answer = await api("POST", `${base}/entries`, { text: $("#bulk-text").value });
        say(Fupan.countedKey("console.entries.done", answer.registered.length), { n: answer.registered.length });
        $("#bulk-text").value = "";
        await refreshAll();
      });
    });
  }

  /* --- rounds: draw, then open ------------------------------------------------------------------------------ */

  /* A table's seats in playing order, each as its player's name (with the game's seat word where it has one);
   * in a team format each seat names its team too. */
  function seatsHTML(table) {
    const teamOf = {};
    (table.entries || []).forEach((entry) => entry.seats.forEach((seat) => { teamOf[seat] = entry; }));
    return table.names.map((name, seat) => {
      const team = teamSize > 1 && teamOf[seat] ? ` <span class="muted small" data-seat-team>${esc(teamOf[seat].name)}</span>` : "";
      return `<li data-seat="${seat}">${esc(Fupan.seatName(seat, name))}${team}</li>`;
    }).join("");
  }

  /* The entries (teams, pairs) facing each other at a table, each with its department: "机械一队（机械学院） 对 外语队（外语学院）". */
  function entriesHTML(entries) {
    if (teamSize === 1 || !entries || !entries.length) return "";
    const named = entries.map((entry) => `<span class="team-name" data-team="${esc(entry.name)}">${esc(entryName(entry))}</span>`);
    return `<p class="teams">${named.join(` <span class="muted">${esc(t("console.versus"))}</span> `)}</p>`;
  }

  function entryName(entry) {
    return entry.department ? t("console.entry.named", { name: entry.name, department: entry.department }) : entry.name;
  }

  function byesText(names, entries) {
    const listed = teamSize > 1 && entries && entries.length ? entries.map(entryName) : names;
    return `${t("console.byes")}${colon()}${listed.join(Fupan.lang() === "en" ? ", " : "、")}`;
  }

  function withdrawnMark() {
    return `<span class="badge withdrawn" data-withdrawn-mark>${esc(t("console.withdrawn"))}</span>`;
  }

  function proposalHeading(plan) {
    const apart = plan.departments_apart ? ` · ${t("console.draw.apart.on")}` : "";
    return `${t("console.draw.proposed", { round: plan.round })} · ${t(`console.draw.method.${plan.method}`)}` +
      `${plan.kind === "final" ? ` · ${t("console.final")}` : ""}${apart}`;
  }

  /* The proposal's own words in the language chosen later, in place: the override editor beside it keeps its changes. */
  function translateProposal() {
    if (!proposal || $("#proposal").hidden) return;
    $("#proposal h3").textContent = proposalHeading(proposal);
    const byes = $("#proposal [data-proposed-byes]");
    if (byes) byes.textContent = byesText(proposal.bye_names, proposal.bye_entries);
    $("#open-round").textContent = t("console.draw.open");
    $("#proposal").querySelectorAll("[data-proposed-table] .first-dealer").forEach((span) => {
      const table = proposal.tables.find((x) => x.table === span.closest("[data-proposed-table]").dataset.proposedTable);
      span.textContent = t("console.first", { seat: Fupan.seatName(table.first, table.names[table.first]) });
    });
  }

  function showProposal(plan) {
    proposal = plan;
    const tables = plan.tables.map(
      (table) => `<li class="table-card" data-proposed-table="${esc(table.table)}" data-seats="${esc(JSON.stringify(table.names))}"><strong>${esc(table.table)}</strong>${fmt.first_by_lot ? ` <span class="muted small first-dealer">${esc(t("console.first", { seat: Fupan.seatName(table.first, table.names[table.first]) }))}</span>` : ""}${entriesHTML(table.entries)}<ol class="seats">${seatsHTML(table)}</ol></li>`,
    );
    const byes = plan.bye_names.length ? `<p data-proposed-byes="${esc(JSON.stringify(plan.bye_names))}">${esc(byesText(plan.bye_names, plan.bye_entries))}</p>` : "";
    $("#proposal").innerHTML = `<h3>${esc(proposalHeading(plan))}</h3><ul class="table-cards">${tables.join("")}</ul>${byes}<button type="button" class="button primary" id="open-round">${esc(t("console.draw.open"))}</button>`;
    $("#proposal").hidden = false;
    $("#proposal").dataset.round = String(plan.round);
    $("#open-round").addEventListener("click", () => act(openRound));
    if (plan.method === "swiss" && window.FupanOverride) FupanOverride.attach(plan, hooks()); // override.js
  }

  async function openRound() {
    const body = {
      label: proposal.label, kind: proposal.kind, byes: proposal.byes,
      tables: proposal.tables.map((table) => ({ table: table.table, seats: table.seats, first: table.first, options: table.options })),
    };
    const opened = await api("POST", `${base}/round-tables`, body);
    say("console.draw.opened", { round: opened.round });
    proposal = null;
    $("#proposal").hidden = true;
    await refreshAll();
  }

  function roundForms() {
    $("#draw-form").addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const method = $("#method-label").hidden ? "" : $("#draw-method").value;
        const query = new URLSearchParams();
        if (method) query.set("method", method);
        if (!$("#apart-label").hidden && $("#draw-apart").checked) query.set("apart", "1");
        showProposal(await api("GET", `${base}/draw${query.toString() ? `?${query}` : ""}`));
      });
    });
  }

  /* --- progress, tables, referee cards ---------------------------------------------------------------------- */

  async function loadProgress() {
    const answer = await api("GET", `${base}/progress`);
    const started = answer.tables.length > 0; // this round's tables are open
    $("#progress-round").textContent = started ? roundLabel(answer) : "";
    $("#seating-link").hidden = !started;
    $("#seating-link").href = `/console/tournaments/${tournament.id}/rounds/${answer.round}/seating`;
    $("#cards-button").hidden = !started;
    $("#method-label").hidden = !(fmt.structure === "knockout" && !started);
    $("#apart-label").hidden = $("#method-label").hidden;
    const items = answer.tables.map((table) => {
      const playoff = table.playoff_first !== null ? `<p class="playoff">${esc(t("console.playoff", { seat: Fupan.seatName(table.playoff_first, table.names[table.playoff_first]) }))}</p>` : "";
      const live = table.deal_url ? `<a href="${esc(table.deal_url)}" data-live-deal="${esc(table.current_deal)}">${esc(t("console.liveDeal"))}</a>` : "";
      const close = table.state === "finished" ? "" : `<form class="close-form row-form" data-match="${esc(table.match_id)}"><input name="reason" required maxlength="500" placeholder="${esc(t("console.close.reason"))}" aria-label="${esc(t("console.close.reason"))}"><button type="submit" class="button">${esc(t("console.close"))}</button></form>`;
      return `<li class="table-card" data-table="${esc(table.table)}" data-match="${esc(table.match_id)}" data-state="${table.state}" data-deals="${table.deals}"><div class="table-head"><strong>${esc(table.table)}</strong> <span class="badge state-${table.state}">${esc(t(`console.state.${table.state}`))}</span> <span class="muted small" data-deals-count>${esc(t("console.table.deals", { n: table.deals }))}</span></div>${entriesHTML(table.entries)}<ol class="seats">${seatsHTML(table)}</ol>${playoff}<p class="links"><a href="${esc(table.pad_url)}">${esc(t("console.pad"))}</a> <a href="${esc(table.match_url)}">${esc(t("nav.match"))}</a> ${live}</p>${close}</li>`;
    });
    $("#progress-list").innerHTML = items.join("") || `<li class="muted">${esc(t("console.progress.none"))}</li>`;
    $("#progress-byes").hidden = !answer.bye_names.length;
    $("#progress-byes").textContent = byesText(answer.bye_names, answer.bye_entries);
    document.querySelectorAll(".close-form").forEach((form) =>
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        act(async () => {
          await api("POST", `/api/matches/${form.dataset.match}/close`, { reason: form.reason.value.trim() });
          say("console.closed");
          await refreshAll();
        });
      }),
    );
    if (window.FupanOverride) FupanOverride.reopenForms(answer, hooks()); // a table closed early: reopen it
    root.dataset.round = String(answer.round);
    root.dataset.progress = answer.tables.map((table) => table.state).join(",");
    return answer;
  }

  /* A card is made once (its token is answered once): on a language switch its words are set again in place. */
  function translateCards() {
    document.querySelectorAll("#cards-sheet [data-i18n-card]").forEach((el) => {
      el.textContent = t(el.dataset.i18nCard);
    });
    document.querySelectorAll("#cards-sheet img[data-i18n-alt]").forEach((img) => {
      img.alt = t(img.dataset.i18nAlt);
    });
    document.querySelectorAll("#cards-sheet [data-card-warning]").forEach((el) => {
      el.textContent = el.dataset[Fupan.lang()];
    });
  }

  async function refereeCards() {
    const progress = await api("GET", `${base}/progress`);
    const cards = [];
    for (const table of progress.tables) {
      const card = await api("POST", `/api/matches/${table.match_id}/referee-card`, {});
      cards.push(`<article class="referee-card" data-card="${esc(card.table)}"><h3>${esc(card.tournament)} · ${esc(card.table)}</h3><p>${esc(listed(card.names))}</p><div class="qr-pair"><figure>${card.pad_qr ? `<img src="${card.pad_qr}" alt="${esc(t("console.card.pad"))}" data-i18n-alt="console.card.pad" width="140" height="140">` : ""}<figcaption><span data-i18n-card="console.card.pad">${esc(t("console.card.pad"))}</span><br><code class="pad-url">${esc(card.pad_url)}</code></figcaption></figure>${card.token ? `<figure><img src="${card.token_qr}" alt="${esc(t("console.card.token"))}" data-i18n-alt="console.card.token" width="140" height="140"><figcaption><span data-i18n-card="console.card.token">${esc(t("console.card.token"))}</span><br><code class="token-text">${esc(card.token)}</code></figcaption></figure>` : `<p class="token-replayed" data-i18n-card="console.card.replayed">${esc(t("console.card.replayed"))}</p>`}</div><p class="muted small" data-i18n-card="console.card.hint">${esc(t("console.card.hint"))}</p>${card.warning ? `<p class="card-warning" data-card-warning data-zh="${esc(card.warning.zh)}" data-en="${esc(card.warning.en)}">${esc(card.warning[Fupan.lang()])}</p>` : ""}</article>`);
    }
    $("#cards-sheet").innerHTML = cards.join("");
    $("#cards").hidden = false;
  }

  /* --- penalties and standings ---------------------------------------------------------------------------- */

  function penaltyForm() {
    $("#penalty-form").addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const form = new FormData(event.target);
        const body = { player_id: form.get("player_id"), points: Number(form.get("points")), kind: form.get("kind"), reason: String(form.get("reason")).trim() };
        await api("POST", `${base}/adjustments`, body);
        say("console.penalty.done", { name: players[body.player_id], points: body.points });
        event.target.reset();
        await refreshAll();
      });
    });
  }

  /* --- side events (seed 001: 五子棋, 跳棋): results only ------------------------------------------------------ */

  async function loadSideEvents() {
    const events = (await api("GET", `${base}/side-events`)).side_events;
    $("#side-events").innerHTML = events.map(sideEventHTML).join("");
    document.querySelectorAll("[data-side-result]").forEach((control) => {
      const submit = (placing) => act(async () => {
        const [key, round, table] = control.dataset.sideResult.split("|");
        await api("POST", `${base}/side-events/${encodeURIComponent(key)}/results`, { round: Number(round), table: Number(table), placing });
        await loadSideEvents();
      });
      if (control.tagName === "BUTTON") {
        control.addEventListener("click", () => submit(JSON.parse(control.dataset.placing)));
      } else {
        control.addEventListener("submit", (event) => {
          event.preventDefault();
          submit(control.placing.value.split(/[,，、\s]+/).filter(Boolean));
        });
      }
    });
  }

  function sideEventHTML(event) {
    const current = event.current === null ? null : event.rounds[event.rounds.length - 1];
    const tables = current ? current.tables.map((table) => {
      const id = `${event.key}|${current.round}|${table.table}`;
      let control = "";
      if (table.placing) {
        control = `<p>${esc(table.placing.join(" › "))}</p>`;
      } else if (table.seats.length === 2) {
        const [a, b] = table.seats;
        control = `<p class="links"><button type="button" class="button" data-side-result="${esc(id)}" data-placing="${esc(JSON.stringify([a, b]))}">${esc(t("console.side.wins", { name: a }))}</button> <button type="button" class="button" data-side-result="${esc(id)}" data-placing="${esc(JSON.stringify([b, a]))}">${esc(t("console.side.wins", { name: b }))}</button></p>`;
      } else {
        control = `<form class="row-form" data-side-result="${esc(id)}"><label class="grow">${esc(t("console.side.placing"))} <input name="placing" value="${esc(table.seats.join("，"))}" required></label><button type="submit" class="button">${esc(t("console.side.record"))}</button></form>`;
      }
      return `<li class="table-card" data-side-table="${esc(id)}"><strong>${esc(String(table.table))}</strong><ol class="seats">${table.seats.map((s) => `<li>${esc(s)}</li>`).join("")}</ol>${control}</li>`;
    }) : [];
    const byes = current && current.byes.length ? `<p>${esc(t("console.byes"))}${colon()}${esc(listed(current.byes))}</p>` : "";
    const places = event.places ? `<h4>${esc(t("console.side.places"))}</h4><ol class="side-places">${event.places.map((p) => `<li data-place="${p.place}">${p.place}. ${esc(p.player)}</li>`).join("")}</ol>` : "";
    const heading = current ? (current.final ? t("console.side.final") : t("console.side.round", { n: current.round })) : "";
    return `<article class="side-event" data-side-event="${esc(event.key)}"><h3>${esc(event.name)} <span class="muted small">${esc(heading)}</span></h3><ul class="table-cards">${tables.join("")}</ul>${byes}${places}</article>`;
  }

  function sideForm() {
    $("#side-form").addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const form = new FormData(event.target);
        await api("POST", `${base}/side-events`, {
          key: String(form.get("key")).trim(), game: form.get("game"), name: String(form.get("name")).trim(),
          table_size: Number(form.get("table_size")), advance: Number(form.get("advance")), text: String(form.get("text")),
        });
        event.target.reset();
        await loadSideEvents();
      });
    });
  }

  function withdrawForm() {
    $("#withdraw-form").addEventListener("submit", (event) => {
      event.preventDefault();
      act(async () => {
        const form = new FormData(event.target);
        const player = form.get("player_id");
        await api("POST", `${base}/withdrawals`, { player_id: player, reason: String(form.get("reason")).trim() });
        say("console.withdraw.done", { name: players[player] });
        event.target.reset();
        await refreshAll();
      });
    });
  }

  function figure(value) {
    return typeof value === "number" && !Number.isInteger(value) ? value.toFixed(4).replace(/0+$/, "") : String(value);
  }

  async function loadStandings() {
    const answer = await api("GET", `${base}/standings`);
    const heads = [t("col.rank"), t("col.player"), answer.total_measure[Fupan.lang() === "en" ? "en" : "zh"]]
      .concat(answer.tiebreaks.map((c) => (Fupan.lang() === "en" ? c.en : c.zh)), [t("col.status"), ""]);
    $("#standings-table thead").innerHTML = `<tr>${heads.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>`;
    const gone = Object.fromEntries(answer.rows.filter((row) => row.withdrawn).map((row) => [row.player_id, true]));
    const explainButton = (pid) => `<button type="button" class="button small explain" data-explain="${esc(pid)}">${esc(t("console.explain"))}</button>`;
    const status = (row, out) => `${esc(statusText(row.status))}${out ? ` ${withdrawnMark()}` : ""}`;
    if (answer.teams && answer.teams.length) {
      // A team format: a line per team (its department, its members; partners share their figures).
      $("#standings-table thead").innerHTML = `<tr>${heads.map((h, i) => `<th>${esc(i === 1 ? t("col.team") : h)}</th>`).join("")}</tr>`;
      $("#standings-table tbody").innerHTML = answer.teams
        .map((team) => `<tr data-team="${esc(team.entry)}" data-rank="${team.rank}" data-total="${esc(figure(team.total))}"${team.withdrawn ? ' data-withdrawn="true"' : ""}><td class="num">${team.rank}</td><td><b>${esc(team.entry)}</b>${team.department ? ` <span class="muted small">${esc(team.department)}</span>` : ""}<br><span class="small">${listed(team.player_ids.map((pid, i) => `${esc(team.names[i])}${gone[pid] ? ` ${withdrawnMark()}` : ""}`))}</span></td><td class="num">${esc(figure(team.total))}</td>${(team.tiebreak_values || []).map((v) => `<td class="num">${esc(figure(v))}</td>`).join("")}<td>${status(team, team.withdrawn)}</td><td>${explainButton(team.player_ids[0])}</td></tr>`)
        .join("");
    } else {
      $("#standings-table tbody").innerHTML = answer.rows
        .map((row) => `<tr data-player="${esc(row.player_id)}" data-rank="${row.rank}" data-total="${esc(figure(row.total))}"${row.withdrawn ? ' data-withdrawn="true"' : ""}><td class="num">${row.rank}</td><td>${esc(row.name)}${row.withdrawn ? ` ${withdrawnMark()}` : ""}${row.department ? ` <span class="muted small">${esc(row.department)}</span>` : ""}</td><td class="num">${esc(figure(row.total))}</td>${row.tiebreak_values.map((v) => `<td class="num">${esc(figure(v))}</td>`).join("")}<td>${status(row, row.withdrawn)}</td><td>${explainButton(row.player_id)}</td></tr>`)
        .join("");
    }
    document.querySelectorAll("button.explain").forEach((button) => button.addEventListener("click", () => act(() => explain(button.dataset.explain))));
    root.dataset.standingsAsOf = String(answer.as_of);
  }

  function statusText(status) {
    return t(`console.status.${status}`);
  }

  // The total as parts that add up, each named (更正, 申诉, 罚分…); a change counted inside a rate's deals after it.
  function totalParts(total) {
    const named = (part) => t(`explain.part.${part.kind}`, { n: part.number });
    const summed = total.parts.filter((part) => !part.included).map((part) => `${named(part)} ${figure(part.points)}`);
    const included = total.parts.filter((part) => part.included).map(named);
    return `${t("explain.sum", { total: figure(total.total) })} ${summed.join(" + ")}` +
      (included.length ? ` · ${t("explain.included")}${included.join(" · ")}` : "");
  }

  let explained = null; // the player whose explanation is shown: drawn again in the language chosen
  async function explain(player) {
    explained = player;
    const answer = await api("GET", `${base}/standings/${encodeURIComponent(player)}/explain`);
    const total = answer.total_explained;
    const tables = answer.matches.map((m) => `<li data-explained-round="${m.round}">${esc(roundLabel(m))} · ${m.bye ? esc(t("console.byes")) : esc(m.table)} · ${m.deals.map((d) => esc(figure(d.facts.mp_rate !== undefined ? d.facts.mp_rate : d.score))).join(" ")}</li>`);
    // An appeal's compensation counted in its deal is the total's 申诉（第 N 局） part: not listed again as an
    // adjustment (its stored reason is a record's, not words for a person).
    const adjustments = answer.adjustments.filter((a) => !a.counted_in_deal).map((a) => `<li>${esc(t(`adjust.kind.${a.kind}`))} ${a.points}${esc(t("punct.colon"))}${esc(Fupan.noteText(a.reason))}</li>`);
    $("#explanation").innerHTML = `<h3 data-explained="${esc(player)}" data-explained-total="${esc(figure(answer.total))}">${esc(answer.name)}</h3><p data-total-explained>${esc(totalParts(total))}</p><ul>${tables.join("")}${adjustments.join("")}</ul>`;
    $("#explanation").hidden = false;
  }

  /* What override.js (the pairing override, reopening a closed table) uses of this page. */
  function hooks() {
    return { api, act, say, refreshAll, base, players, hideProposal: () => { proposal = null; $("#proposal").hidden = true; } };
  }

  /* --- the tournament page -------------------------------------------------------------------------------- */

  async function refreshAll() {
    const current = await api("GET", base);
    started = current.rounds.length > 0 || current.matches.length > 0;
    root.dataset.started = String(started);
    players = Object.fromEntries(current.players.map((p) => [p.id, p.name]));
    const gone = new Set(Object.keys((await api("GET", `${base}/entries`)).withdrawn));
    const choices = current.players.map((p) => `<option value="${esc(p.id)}"${gone.has(p.id) ? " data-withdrawn" : ""}>${esc(p.name)}${gone.has(p.id) ? ` · ${esc(t("console.withdrawn"))}` : ""}</option>`).join("");
    $("#penalty-player").innerHTML = choices;
    $("#withdraw-player").innerHTML = choices;
    await loadEntries();
    await loadProgress();
    await loadStandings();
    await loadSideEvents();
  }

  async function tournamentPage() {
    const formats = (await api("GET", "/api/formats")).formats;
    fmt = formats.find((f) => f.code === (tournament.format || formats.find((x) => x.game === tournament.game).code));
    teamSize = fmt.team_size;
    memberFields();
    entriesForms();
    roundForms();
    penaltyForm();
    withdrawForm();
    sideForm();
    $("#refresh").addEventListener("click", () => act(refreshAll));
    $("#cards-button").addEventListener("click", () => act(refereeCards));
    $("#cards-print").addEventListener("click", () => window.print());
    await refreshAll();
  }

  /* Options cannot hold the two language spans the server renders: their text is set in the chosen language. */
  function translateOptions() {
    document.querySelectorAll("option[data-i18n-option]").forEach((option) => {
      option.textContent = t(option.dataset.i18nOption);
    });
  }

  document.addEventListener("fupan:lang", () => {
    translateOptions();
    if (said && !$("#message").hidden) $("#message").textContent = t(said.key, said.params);
    if (teamSize > 1) memberFields(); // the member fields' labels
    translateCards();
    if (tournament && fmt) act(refreshAll); // the script-drawn tables speak the chosen language too
    if (explained && !$("#explanation").hidden) act(() => explain(explained));
    else if (redrawHome) redrawHome();
    translateProposal();
  });
  translateOptions();
  showSignedIn();
  act(tournament ? tournamentPage : home);
})();
