/* The score slip's fields (docs/pad.md "Score slips"; the facts: docs/record-format.md "Result-only records"):
 * every seat is chosen by its player's name — a menu, checkboxes, or players picked in order — never typed as a
 * number; a foul is a player, a kind and an amount, each with its own control. What is sent keeps the API's
 * contract (seats counted from 0). The recording pad uses it for a slip and for a correction (更正) of one, which
 * opens the form filled with the slip's facts.
 *
 * Each game's plugin (replay_ui/games/<game>/pad.js) registers Fupan.padGames[game] = { slip: [[name, kind,
 * default, options] …], facts(facts) → the facts as sent, prefill(facts) → the fields' values }. Kinds: seat,
 * seat? (or nobody), seats (checkboxes), order (players picked in order), number, number?, bool, choice, items
 * (fouls, throws, bombs: rows of controls). */
(function () {
  "use strict";

  const F = window.Fupan;
  const esc = F.esc;
  const t = (key, params) => F.t(key, params);
  const padGame = (game) => (F.padGames || {})[game] || { slip: [] };

  /* A seat as a person reads it: the player's name, with the game's own seat word where it has one (升级 东). */
  function seatLabel(names, seat) {
    const mark = F.seatMarks && F.seatMarks[F.lang()] ? F.seatMarks[F.lang()][seat] : "";
    return mark && !/^\d+$/.test(mark) ? `${names[seat]}（${mark}）` : names[seat];
  }

  function seatOptions(names, chosen, none) {
    const options = none ? [`<option value=""${chosen === undefined || chosen === null ? " selected" : ""}>${esc(t("slip.nobody"))}</option>`] : [];
    if (!none) options.push(`<option value=""${chosen === undefined || chosen === null ? " selected" : ""} disabled>${esc(t("slip.choose"))}</option>`);
    names.forEach((_, seat) => options.push(`<option value="${seat}"${chosen === seat ? " selected" : ""}>${esc(seatLabel(names, seat))}</option>`));
    return options.join("");
  }

  function itemRow(name, names, item, context) {
    const seat = `<select data-item-part="seat" aria-label="${esc(t("slip.item.player"))}">${seatOptions(names, item.seat, false)}</select>`;
    const remove = `<button type="button" class="ghost small" data-item-remove aria-label="${esc(t("slip.item.remove"))}">×</button>`;
    if (name === "fouls") {
      const kinds = context.fouls.map((f) => `<option value="${esc(f.code)}"${f.code === item.code ? " selected" : ""}>${esc(F.lang() === "zh" ? f.zh : f.en)}</option>`).join("");
      const unit = context.foul_unit ? (F.lang() === "zh" ? context.foul_unit.zh : context.foul_unit.en) : "";
      const amount = context.foul_unit
        ? `<label class="slip-amount">${esc(t("slip.item.amount", { unit }))} <input type="number" inputmode="numeric" min="0" max="1000" data-item-part="penalty" value="${item.penalty === undefined ? "" : esc(item.penalty)}"></label>`
        : "";
      return `<div class="slip-item" data-item>${seat}<select data-item-part="code" aria-label="${esc(t("slip.item.kind"))}">${kinds}</select>${amount}${remove}</div>`;
    }
    if (name === "throws") {
      return `<div class="slip-item" data-item>${seat}<label class="slip-amount">${esc(t("slip.item.retracted"))} <input type="number" inputmode="numeric" min="1" data-item-part="retracted" value="${item.retracted === undefined ? 1 : esc(item.retracted)}"></label>${remove}</div>`;
    }
    // bombs (三打一): of so many cards, or the kings
    return `<div class="slip-item" data-item>${seat}<label class="slip-amount">${esc(t("slip.item.cards"))} <input type="number" inputmode="numeric" min="4" data-item-part="cards" value="${item.king ? "" : item.cards === undefined ? 4 : esc(item.cards)}"></label>` +
      `<label class="slip-check"><input type="checkbox" data-item-part="king"${item.king ? " checked" : ""}> ${esc(t("slip.item.king"))}</label>${remove}</div>`;
  }

  function fieldHTML([name, kind, fallback, options], names, value, context) {
    const label = esc(t(`pad.slip.${name}`));
    const id = `slip-field-${name}`;
    const head = `<span class="slip-label" id="${id}-label">${label}</span>`;
    if (kind === "seat" || kind === "seat?") {
      return `<label for="${id}" class="slip-label">${label}</label><select id="${id}" data-slip="${name}" data-kind="${kind}">${seatOptions(names, value, kind === "seat?")}</select>`;
    }
    if (kind === "seats") {
      const chosen = value || [];
      return `<fieldset class="slip-field" data-slip="${name}" data-kind="seats"><legend>${label}</legend>` + names
        .map((_, seat) => `<label class="slip-check"><input type="checkbox" value="${seat}"${chosen.includes(seat) ? " checked" : ""}> ${esc(seatLabel(names, seat))}</label>`)
        .join("") + "</fieldset>";
    }
    if (kind === "order") {
      return `<fieldset class="slip-field" data-slip="${name}" data-kind="order" data-order="${esc(JSON.stringify(value || []))}"><legend>${label}</legend>` +
        `<p class="muted small">${esc(t("slip.order.hint"))}</p><ol class="slip-order" data-order-list></ol>` +
        `<div class="slip-pick">${names.map((_, seat) => `<button type="button" data-pick="${seat}">${esc(seatLabel(names, seat))}</button>`).join("")}</div>` +
        `<button type="button" class="ghost small" data-order-undo>${esc(t("slip.order.undo"))}</button> <button type="button" class="ghost small" data-order-clear>${esc(t("slip.order.clear"))}</button></fieldset>`;
    }
    if (kind === "bool") {
      return `<label class="slip-check slip-bool"><input type="checkbox" id="${id}" data-slip="${name}" data-kind="bool"${value ? " checked" : ""}> ${label}</label>`;
    }
    if (kind === "choice") {
      const chosen = value === undefined || value === null ? fallback : value;
      return `<label for="${id}" class="slip-label">${label}</label><select id="${id}" data-slip="${name}" data-kind="choice">` + options
        .map((o) => `<option value="${esc(o)}"${o === chosen ? " selected" : ""}>${esc(o ? t(`pad.slip.${name}.${o}`) : "—")}</option>`).join("") + "</select>";
    }
    if (kind === "number" || kind === "number?") {
      const shown = value === undefined || value === null ? (fallback === undefined ? "" : fallback) : value;
      return `<label for="${id}" class="slip-label">${label}</label><input id="${id}" type="number" inputmode="numeric" min="0" data-slip="${name}" data-kind="${kind}" value="${esc(shown)}">`;
    }
    // items: rows of a player and the item's own controls
    const rows = (value || []).map((item) => itemRow(name, names, item, context)).join("");
    return `<fieldset class="slip-field" data-slip="${name}" data-kind="items" aria-labelledby="${id}-label">${head}` +
      `<div data-items>${rows}</div><button type="button" class="small" data-item-add>${esc(t(`slip.add.${name}`))}</button></fieldset>`;
  }

  const number = (text) => (text === "" || text === undefined || text === null ? undefined : Number(text));

  /* The facts the fields say, in the API's form (seats from 0), shaped by the game. */
  function read(game, root) {
    const facts = {};
    padGame(game).slip.forEach(([name, kind]) => {
      const el = root.querySelector(`[data-slip="${name}"]`);
      if (!el) return;
      if (kind === "seat") facts[name] = number(el.value);
      else if (kind === "seat?") { if (el.value !== "") facts[name] = number(el.value); }
      else if (kind === "number") facts[name] = number(el.value);
      else if (kind === "number?") { if (el.value !== "") facts[name] = number(el.value); }
      else if (kind === "bool") facts[name] = el.checked;
      else if (kind === "choice") { if (el.value !== "") facts[name] = el.value; }
      else if (kind === "seats") facts[name] = [...el.querySelectorAll("input:checked")].map((box) => Number(box.value));
      else if (kind === "order") facts[name] = JSON.parse(el.dataset.order || "[]");
      else if (kind === "items") {
        facts[name] = [...el.querySelectorAll("[data-item]")].map((row) => {
          const part = (p) => row.querySelector(`[data-item-part="${p}"]`);
          const seat = number(part("seat").value);
          if (name === "fouls") {
            const penalty = part("penalty") ? number(part("penalty").value) : undefined;
            return { seat, code: part("code").value, note: "", ...(penalty !== undefined ? { penalty } : {}) };
          }
          if (name === "throws") return { seat, retracted: number(part("retracted").value) };
          return part("king").checked ? { seat, king: true } : { seat, cards: number(part("cards").value) };
        });
      }
    });
    const shape = padGame(game).facts;
    return shape ? shape(facts) : facts;
  }

  /* What is still to choose before the rules can be asked: a required player not chosen, a row's player. */
  function missing(game, root) {
    const unset = [];
    padGame(game).slip.forEach(([name, kind]) => {
      const el = root.querySelector(`[data-slip="${name}"]`);
      if (!el) return;
      if (kind === "seat" && el.value === "") unset.push(t(`pad.slip.${name}`));
      if (kind === "items" && [...el.querySelectorAll('[data-item-part="seat"]')].some((s) => s.value === "")) unset.push(t(`pad.slip.${name}`));
    });
    return unset;
  }

  function showOrder(field, names) {
    const order = JSON.parse(field.dataset.order || "[]");
    field.querySelector("[data-order-list]").innerHTML = order.map((seat) => `<li data-seat="${seat}">${esc(seatLabel(names, seat))}</li>`).join("");
    field.querySelectorAll("[data-pick]").forEach((button) => {
      button.disabled = order.includes(Number(button.dataset.pick));
    });
  }

  /* The fields' HTML, filled with `facts` (a slip's stored facts, for a correction) when given. */
  function html(game, names, facts, context) {
    const plugin = padGame(game);
    const values = facts ? (plugin.prefill ? plugin.prefill(JSON.parse(JSON.stringify(facts))) : facts) : {};
    return `<div class="slip-fields" data-slip-fields>${plugin.slip.map((field) => `<div class="slip-row">${fieldHTML(field, names, values[field[0]], context)}</div>`).join("")}</div>`;
  }

  /* Wire the controls; `changed()` after every change (the form's own input/change events reach it too). */
  function bind(game, root, names, context, changed) {
    const notify = () => root.dispatchEvent(new Event("change", { bubbles: true }));
    root.querySelectorAll('[data-kind="order"]').forEach((field) => showOrder(field, names));
    root.addEventListener("click", (event) => {
      const target = event.target.closest("button");
      if (!target || !root.contains(target)) return;
      const order = target.closest('[data-kind="order"]');
      if (order && (target.dataset.pick !== undefined || target.hasAttribute("data-order-undo") || target.hasAttribute("data-order-clear"))) {
        const picked = JSON.parse(order.dataset.order || "[]");
        if (target.dataset.pick !== undefined) picked.push(Number(target.dataset.pick));
        else if (target.hasAttribute("data-order-undo")) picked.pop();
        else picked.length = 0;
        order.dataset.order = JSON.stringify(picked);
        showOrder(order, names);
        notify();
        return;
      }
      if (target.hasAttribute("data-item-add")) {
        const field = target.closest('[data-kind="items"]');
        field.querySelector("[data-items]").insertAdjacentHTML("beforeend", itemRow(field.dataset.slip, names, {}, context));
        notify();
        return;
      }
      if (target.hasAttribute("data-item-remove")) {
        target.closest("[data-item]").remove();
        notify();
      }
    });
    if (changed) {
      root.addEventListener("input", changed);
      root.addEventListener("change", changed);
    }
  }

  F.slipForm = { html, bind, read, missing, seatLabel };
})();
