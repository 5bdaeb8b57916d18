/* Tables that end early or short (docs/pairing.md, docs/console.md), for the organiser console (console.js):
 * - the organiser's override of a proposed Swiss pairing: each seat and each bye is a menu of the round's players
 *   by name; choosing a player swaps them with whoever held that place, so everyone stays placed once. Every
 *   change is checked by the server with the rules `fupan pair` follows (POST …/draw/check), which names each rule
 *   broken in plain words; the tables open with the organiser's reason (recorded as Tournament.PairingOverridden).
 * - a table the organiser closed early can be reopened, with its reason (POST /api/matches/<id>/reopen). */
(function () {
  "use strict";
  const t = (key, params) => Fupan.t(key, params);
  const esc = Fupan.esc;
  const both = (zh, en) => `<span class="zh" lang="zh-CN">${esc(zh)}</span><span class="en" lang="en">${esc(en)}</span>`;

  function attach(plan, hooks) {
    const box = document.getElementById("proposal");
    const edit = document.createElement("button");
    edit.type = "button";
    edit.className = "button";
    edit.id = "edit-pairing";
    edit.textContent = t("console.override.edit");
    box.appendChild(edit);
    document.addEventListener("fupan:lang", () => { edit.textContent = t("console.override.edit"); });
    edit.addEventListener("click", () => {
      edit.hidden = true;
      editor(plan, hooks, box);
    });
  }

  function editor(plan, hooks, box) {
    // The places: each table's seats in seat order, then the byes; each holds one player id.
    let tables = plan.tables.map((table) => table.seats.slice());
    let byes = plan.byes.slice();
    const everyone = [...tables.flat(), ...byes];
    const name = (id) => hooks.players[id] || id;
    const area = document.createElement("section");
    area.id = "override-editor";
    area.className = "override-editor";
    box.appendChild(area);

    function menu(place, chosen, label) {
      const options = everyone
        .slice()
        .sort((a, b) => name(a).localeCompare(name(b), "zh-CN"))
        .map((id) => `<option value="${esc(id)}"${id === chosen ? " selected" : ""}>${esc(name(id))}</option>`)
        .join("");
      // A seat's menu has no label of its own (a seat is its player, never a number): the table names it.
      return `<label class="override-place">${label.shown ? `${esc(label.text)} ` : ""}<select data-place="${esc(place)}" aria-label="${esc(label.text)}">${options}</select></label>`;
    }

    function draw() {
      const cards = tables.map((seats, i) => `<fieldset class="table-card" data-override-table="${esc(plan.tables[i].table)}"><legend>${esc(t("console.override.table", { table: plan.tables[i].table }))}</legend>${seats.map((id, seat) => menu(`t${i}s${seat}`, id, { text: t("console.override.table", { table: plan.tables[i].table }), shown: false })).join("")}</fieldset>`);
      const byeMenus = byes.map((id, n) => menu(`b${n}`, id, { text: t("console.override.bye", { n: n + 1 }), shown: true }));
      area.innerHTML = `<p class="muted small">${esc(t("console.override.hint"))}</p><div class="table-cards">${cards.join("")}</div>${byeMenus.length ? `<p class="override-byes">${byeMenus.join(" ")}</p>` : ""}<div id="override-check" aria-live="polite"></div><form id="override-form" class="row-form"><input id="override-reason" name="reason" required maxlength="500" placeholder="${esc(t("console.override.reason"))}" aria-label="${esc(t("console.override.reason"))}"><button type="submit" class="button primary" id="open-override">${esc(t("console.override.open"))}</button><button type="button" class="button" id="cancel-override">${esc(t("console.override.cancel"))}</button></form>`;
      area.querySelectorAll("select[data-place]").forEach((select) => select.addEventListener("change", () => {
        move(select.dataset.place, select.value);
        draw();
        hooks.act(check);
      }));
      area.querySelector("#override-form").addEventListener("submit", (event) => {
        event.preventDefault();
        hooks.act(open);
      });
      area.querySelector("#cancel-override").addEventListener("click", () => {
        tables = plan.tables.map((table) => table.seats.slice());
        byes = plan.byes.slice();
        draw();
        hooks.act(check);
      });
    }

    function get(place) {
      const [, i, seat] = place.match(/^t(\d+)s(\d+)$/) || [];
      return i !== undefined ? tables[Number(i)][Number(seat)] : byes[Number(place.slice(1))];
    }

    function put(place, id) {
      const [, i, seat] = place.match(/^t(\d+)s(\d+)$/) || [];
      if (i !== undefined) tables[Number(i)][Number(seat)] = id;
      else byes[Number(place.slice(1))] = id;
    }

    /* The chosen player leaves their place to whoever held this one: a swap keeps everyone placed once. */
    function move(place, id) {
      const held = get(place);
      const from = [...tables.flatMap((seats, i) => seats.map((_, seat) => `t${i}s${seat}`)), ...byes.map((_, n) => `b${n}`)]
        .find((other) => other !== place && get(other) === id);
      put(place, id);
      if (from) put(from, held);
    }

    async function check() {
      const answer = await hooks.api("POST", `${hooks.base}/draw/check`, { tables, byes });
      const out = area.querySelector("#override-check");
      out.dataset.same = String(answer.same_as_proposal);
      out.dataset.refused = String(answer.refused);
      const items = answer.problems.map((p) => `<li data-code="${esc(p.code)}" data-severity="${esc(p.severity)}" class="override-${esc(p.severity)}"><strong>${esc(t(p.severity === "refused" ? "console.override.refused" : "console.override.warning"))} · ${esc(p.rule)}</strong> ${both(p.zh, p.en)}</li>`);
      const summary = answer.same_as_proposal ? t("console.override.same") : answer.problems.length ? "" : t("console.override.clean");
      out.innerHTML = `${summary ? `<p class="muted">${esc(summary)}</p>` : ""}${items.length ? `<ul class="override-problems">${items.join("")}</ul>` : ""}`;
      area.querySelector("#open-override").disabled = answer.refused || answer.same_as_proposal;
    }

    async function open() {
      const body = {
        label: plan.label, kind: plan.kind, byes,
        tables: plan.tables.map((table, i) => ({ table: table.table, seats: tables[i], first: table.first, options: table.options })),
        override: { reason: area.querySelector("#override-reason").value.trim() },
      };
      const opened = await hooks.api("POST", `${hooks.base}/round-tables`, body);
      hooks.say("console.override.opened", { round: opened.round });
      hooks.hideProposal();
      await hooks.refreshAll();
    }

    // The editor's words in the language chosen later: drawn again from its places, the reason typed kept.
    document.addEventListener("fupan:lang", () => {
      if (!area.isConnected) return;
      const reason = area.querySelector("#override-reason").value;
      draw();
      area.querySelector("#override-reason").value = reason;
      hooks.act(check);
    });

    draw();
    hooks.act(check);
  }

  /* A table the organiser closed (not one its own end rule ended) gets a reopen form with its reason. */
  function reopenForms(progress, hooks) {
    progress.tables.forEach((table) => {
      if (table.ended_by !== "closed") return;
      const card = document.querySelector(`#progress-list [data-match="${CSS.escape(table.match_id)}"]`);
      if (!card) return;
      const form = document.createElement("form");
      form.className = "reopen-form row-form";
      form.dataset.match = table.match_id;
      form.innerHTML = `<input name="reason" required maxlength="500" placeholder="${esc(t("console.reopen.reason"))}" aria-label="${esc(t("console.reopen.reason"))}"><button type="submit" class="button">${esc(t("console.reopen"))}</button>`;
      card.appendChild(form);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        hooks.act(async () => {
          await hooks.api("POST", `/api/matches/${table.match_id}/reopen`, { reason: form.reason.value.trim() });
          hooks.say("console.reopened");
          await hooks.refreshAll();
        });
      });
    });
  }

  window.FupanOverride = { attach, reopenForms };
})();
