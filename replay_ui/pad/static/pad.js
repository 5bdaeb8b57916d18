/* fupan recording pad (docs/pad.md): a referee records a live deal by tapping.
 *
 * The rules live on the server: the pad shows what GET /api/deals/<id>/pad offers (each seat's choices, only
 * what is legal now), asks POST …/pad/check about the selected cards before anything is stored, and records
 * through POST /api/deals/<id>/actions with an Idempotency-Key per tap, so a resend after a dropped
 * connection is never stored twice. Taps made offline wait in a queue, in order, and are sent when the
 * connection returns; meanwhile the pad guesses the next seat (it cannot ask the rules) and says so.
 * The automation contract (data-seat, data-card, data-action, data-field, data-confirm, data-pad-state …) is
 * documented in docs/pad.md; keep the two in step. */
(function () {
  "use strict";

  const t = Fupan.t;
  const esc = Fupan.esc;
  // A referee card's QR opens the pad signed in (docs/pad.md "Getting in"): the token rides in the address's
  // fragment, which a browser never sends to a server; it moves to this tab's sessionStorage and leaves the
  // address bar (and the tab's history) before anything else runs.
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) {
    Fupan.setToken(fragment.get("token"));
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  const boot = JSON.parse(document.getElementById("pad-boot").textContent);
  const root = document.getElementById("pad");
  const body = document.getElementById("pad-body");
  const formLayer = document.getElementById("pad-form");
  const reasonEl = root.querySelector("[data-pad-reason]");
  const bannerEl = document.getElementById("pad-banner");
  const hintEl = document.getElementById("pad-hint");
  const stateLabel = document.getElementById("pad-state-label");
  const POLL_MS = 1500;
  const PLAY_PHASES = ["play", "playing"];

  let dealId = boot.deal_id || null;
  let current = null; // the last pad state shown (GET /api/deals/<id>/pad)
  let match = null; // the table, when the deal belongs to one
  let selection = []; // [{seat, i, code}] in tap order: a play is recorded in this order
  let queue = []; // [{action, key, started}] taps not yet stored, in tap order
  let baseVersion = null; // the stored version the queue's next write expects
  let flushing = false;
  let offline = !navigator.onLine;
  let refused = null; // () => the reason of the last refused submission or dry run, until the selection changes
  let hint = null; // () => what the last dry run found legal
  let checkSeq = 0;
  let verdict = null; // {seat, legal}: what the last dry run found of the selection shown (出牌 off when illegal)
  // Reads can cross on the wire (a poll sent before a tap may answer after the tap's own read): each refresh is
  // numbered, and an answer older than one already shown, or of a lower version of the same deal, is dropped —
  // else the pad would show a state the deal has left, and the next tap would be judged on it.
  let refreshSeq = 0;
  let shownSeq = 0;
  let reading = 0; // refreshes in flight: the poll waits for them
  let tableReadAt = null; // the finished deal's version the table was last read for
  let deck = null; // the hands being entered on the full deck grid: {zones: [[…] per seat, kitty], active}
  const latencies = []; // ms from a tap to its stored version shown (read by the browser test)
  window.FupanPad = { latencies };
  Fupan.seatMarks = boot.seat_marks; // seats as people call them (counted from 1; 升级 东南西北); data-seat counts from 0

  /* --- talking to the server ------------------------------------------------------------------------ */

  function newKey() {
    // crypto.getRandomValues works on plain http too (randomUUID needs a secure context): 128 random bits.
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return "pad-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function api(method, url, payload, key) {
    const headers = { Accept: "application/json" };
    const token = Fupan.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (payload !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    const response = await fetch(url, {
      method, headers, cache: "no-store", body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    return { status: response.status, ok: response.ok, data };
  }

  /* A refusal's reason, as a function: it is shown in the page's language at the time (the reader may switch). */
  function reasonOf(answer) {
    const error = answer.data && answer.data.error;
    if (!error) return () => t("pad.failed", { status: answer.status });
    if (answer.status === 409 && error.code === "conflict") {
      return () => t("pad.stale", { version: (error.details && error.details.version) || "?" });
    }
    return refusalText(error);
  }

  /* The server's refusals already name seats by their players and cards as ♠10 (docs/ARCHITECTURE.md). */
  function refusalText(refusal) {
    return () => String((Fupan.lang() === "zh" ? refusal.message_zh : refusal.message) || "");
  }

  function cardsText(codes) {
    return (codes || []).map(Fupan.cardShort).join(" ");
  }

  /* --- the pad's state: ready | sending | offline | refused -------------------------------------------- */

  function showState() {
    let state = "ready";
    if (offline) state = "offline";
    else if (queue.length || flushing) state = "sending";
    else if (refused) state = "refused";
    root.dataset.padState = state;
    stateLabel.textContent = t("pad.state." + state);
    reasonEl.hidden = !refused;
    reasonEl.textContent = refused ? refused() : "";
    bannerEl.hidden = !offline;
    bannerEl.textContent = offline ? Fupan.counted("pad.offline", queue.length, { n: queue.length }) : "";
    hintEl.hidden = !hint;
    hintEl.textContent = hint ? hint() : "";
    bringIntoView();
  }

  /* After every change the recorder needs the acting seat's hand, its buttons and the trick to beat on screen
   * together, clear of the fixed status bar (which grows with a refusal): scroll just enough, at once (no
   * animation: the next tap lands where the page shows it). Only when the deal, the seat to act or the bar
   * changed, so a recorder who scrolled away to read the score is not pulled back by a poll. */
  const brought = { key: "", bar: 0 };
  function bringIntoView() {
    // Offline at a trick's end nobody acts: the question who won it is what is needed next.
    const seat = body.querySelector(".pad-seat.acting") || body.querySelector("[data-pad-ask]");
    const bar = root.querySelector(".pad-status");
    if (!seat || !formLayer.hidden) return;
    const barHeight = Math.ceil(bar.getBoundingClientRect().height);
    const key = `${dealId}:${current && current.version}:${queue.length}:${seat.dataset.seat || "ask"}`;
    // A bar grown by a dry run's answer while cards are being picked moves nothing: the cards stay under the
    // finger (an illegal selection's 出牌 is off anyway, and the next change of selection clears the message).
    if (key === brought.key && (barHeight === brought.bar || selection.length)) return;
    brought.key = key;
    brought.bar = barHeight;
    // Room enough to scroll the last seat clear of the bar, whatever its height.
    document.querySelector("main").style.paddingBottom = `${barHeight + 24}px`;
    const room = { top: 4, bottom: window.innerHeight - barHeight - 4 };
    const box = seat.getBoundingClientRect();
    // Its bottom first: the trick to beat and the buttons sit under the hand; a seat taller than the room shows
    // them with as much of the hand as fits.
    let by = 0;
    if (box.top < room.top) by = box.top - room.top;
    if (box.bottom - by > room.bottom) by = box.bottom - room.bottom;
    // Where the room holds both (a tablet), the table's tools too: 撤回上一步 right after a slip of the finger.
    const tools = body.querySelector(".pad-tools");
    const below = tools ? tools.getBoundingClientRect().bottom : 0;
    if (tools && below - by > room.bottom && below - box.top <= room.bottom - room.top) {
      by = below - room.bottom;
    }
    if (by) window.scrollBy({ top: by, behavior: "instant" });
  }

  function refuse(reason) {
    refused = reason;
    hint = null;
    showState();
  }

  /* Offline: taps wait in the queue. Drawn again when taps wait, since a queued trick's end asks who won it only
   * offline (askHTML). A failed request is often the first sign of a dropped network: the browser's `offline`
   * event may come later, or never on a wifi with no way out. */
  function wentOffline() {
    offline = true;
    if (queue.length) render();
    showState();
  }

  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", () => {
    offline = false;
    showState();
    flush();
  });

  /* --- reading the deal ----------------------------------------------------------------------------- */

  /* `table`: also read the table (its score, its deal in play); a stored tap leaves it alone until the deal ends. */
  async function refresh(full, table = true) {
    if (!Fupan.token()) {
      signIn();
      return;
    }
    try {
      const wanted = [];
      const withTable = boot.match_id && (table || !match);
      if (withTable) wanted.push(api("GET", `/api/matches/${boot.match_id}/pad`));
      if (dealId) {
        const since = current && current.deal_id === dealId && !full ? `?since=${current.version}` : "";
        wanted.push(api("GET", `/api/deals/${dealId}/pad${since}`));
      }
      const serial = ++refreshSeq;
      reading += 1;
      let answers;
      try {
        answers = await Promise.all(wanted);
      } finally {
        reading -= 1;
      }
      if (serial < shownSeq) return; // a later read has been shown already
      shownSeq = serial;
      const matchAnswer = withTable ? answers.shift() : null;
      let changed = full || !current;
      if (matchAnswer && (matchAnswer.status === 401 || matchAnswer.status === 403)) {
        Fupan.setToken(null); // not a token of this table: ask again, saying why
        refused = reasonOf(matchAnswer);
        signIn();
        return;
      }
      if (matchAnswer && matchAnswer.ok) {
        changed = changed || !match || match.version !== matchAnswer.data.match.version;
        match = matchAnswer.data.match;
        if (boot.follow && match.current_deal && match.current_deal !== dealId) {
          dealId = match.current_deal; // another pad (or this one) started the table's next deal
          current = null;
          selection = [];
          return refresh(true);
        }
      }
      const padAnswer = answers.shift();
      if (offline) {
        offline = false;
        flush();
      }
      if (padAnswer && (padAnswer.status === 401 || padAnswer.status === 403)) {
        Fupan.setToken(null);
        refused = reasonOf(padAnswer);
        signIn();
        return;
      }
      if (padAnswer && !padAnswer.ok) {
        refuse(reasonOf(padAnswer));
        return;
      }
      const older = padAnswer && padAnswer.ok && current && current.deal_id === padAnswer.data.deal_id &&
        padAnswer.data.version < current.version;
      if (padAnswer && !padAnswer.data.unchanged && !older) {
        if (!current || current.version !== padAnswer.data.version) {
          selection = [];
          verdict = null;
        }
        current = padAnswer.data;
        if (!queue.length) baseVersion = current.version;
        changed = true;
      }
      if (!withTable && match && current && current.finished && match.current_deal === current.deal_id &&
          tableReadAt !== current.version) {
        tableReadAt = current.version; // the deal ended on another device: the table's score and next deal moved
        return refresh(true, true);
      }
      if (changed) render(); // a poll that finds nothing new leaves the page (and a tap in progress) alone
      else showState();
    } catch (e) {
      wentOffline();
    }
  }

  /* --- signing in and out ----------------------------------------------------------------------------- */

  function signIn() {
    closeForm();
    body.innerHTML = `<section class="pad-signin"><p class="muted">${esc(t("pad.signin.hint"))}</p><div id="pad-signin"></div></section>`;
    openForm("token", t("pad.signin"), [{ name: "token", label: t("token.label"), type: "password" }], (values) => {
      Fupan.setToken(values.token.trim());
      refused = null;
      refresh(true);
    }, false, null, document.getElementById("pad-signin"));
    showState();
  }

  function signOut() {
    Fupan.setToken(null);
    current = null;
    queue = [];
    signIn();
  }

  /* --- forms: inputs carry data-field, the confirm button data-confirm ------------------------------------ */

  /* A form in the layer over the pad, or (`host`) in the page itself: the sign-in form, which leaves the
   * language toggle and the page reachable. */
  /* A form's typed fields by name. */
  function fieldValues(form) {
    const values = {};
    form.querySelectorAll("[data-field]").forEach((el) => {
      values[el.dataset.field] = el.value;
    });
    return values;
  }

  function openForm(name, title, fields, confirm, cancellable = true, extra = null, host = null) {
    const inputs = fields.map((field) => {
      const id = `pad-field-${field.name}`;
      let input;
      if (field.type === "select") {
        input = `<select id="${id}" data-field="${field.name}">` + field.options
          .map((o) => `<option value="${esc(o.value)}"${o.value === field.value ? " selected" : ""}>${esc(o.label)}</option>`)
          .join("") + "</select>";
      } else {
        const value = field.value === undefined || field.value === null ? "" : ` value="${esc(field.value)}"`;
        const extra = field.type === "number" ? ` inputmode="numeric" min="${field.min || 0}"${field.max !== undefined ? ` max="${field.max}"` : ""}` : "";
        input = `<input id="${id}" data-field="${field.name}" type="${field.type || "text"}"${value}${extra} autocomplete="off" spellcheck="false">`;
      }
      return `<label for="${id}">${esc(field.label)}</label>${input}`;
    });
    const required = fields.filter((field) => field.required);
    const place = host || formLayer;
    place.innerHTML = `<form class="pad-form panel" data-form="${name}" novalidate><h2>${esc(title)}</h2>` +
      `<div class="pad-fields">${inputs.join("")}</div>${extra ? extra.html : ""}<p class="pad-form-error" data-form-error hidden></p><div class="pad-form-buttons">` +
      `<button type="submit" class="primary" data-confirm>${esc(t("pad.confirm"))}</button>` +
      (cancellable ? `<button type="button" data-cancel>${esc(t("pad.cancel"))}</button>` : "") + "</div></form>";
    if (!host) formLayer.hidden = false;
    const form = place.querySelector("form");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const values = {};
      form.querySelectorAll("[data-field]").forEach((el) => {
        values[el.dataset.field] = el.value;
      });
      const missing = required.filter((field) => !String(values[field.name] || "").trim());
      if (missing.length) { // the form stays open with what it needs, every missing field named at once
        const error = form.querySelector("[data-form-error]");
        error.textContent = missing.map((field) => t("pad.required", { field: field.label })).join(" ");
        error.hidden = false;
        form.querySelector(`[data-field="${missing[0].name}"]`).focus();
        return;
      }
      closeForm();
      confirm(values);
    });
    const cancel = form.querySelector("[data-cancel]");
    if (cancel) cancel.addEventListener("click", closeForm);
    if (extra && extra.onInput) {
      const changed = () => extra.onInput(fieldValues(form), form);
      form.addEventListener("input", changed);
      form.addEventListener("change", changed);
      changed();
    }
    const first = form.querySelector("[data-field]");
    if (first) first.focus();
  }

  function closeForm() {
    formLayer.hidden = true;
    formLayer.innerHTML = "";
  }

  /* --- what the page shows: the deal as stored, with the queued taps guessed on top --------------------- */

  function names() {
    if (match) return match.seat_names;
    return current ? current.seats : [];
  }

  /* The view with the taps not yet stored applied the simple way (cards leave the hand, the turn passes on to
   * the next seat holding cards): offline the pad cannot ask the rules, so it only guesses — and only where the
   * guess cannot be wrong. Where the rules decide who acts next (a trick's end: its winner leads; a hand played
   * out; any tap outside the play) it does not guess: no seat is offered anything but a foul, and the page says
   * it waits for the connection (`unknown`). At a trick's end (升级: its winner leads, by rules the pad does not
   * hold) it asks the referee instead (`ask`: the queued tap that closed the trick); the answer, kept on that tap
   * as `leader`, is who the pad offers the lead. The server judges every tap when it is sent: a wrong answer's
   * lead is refused there and named as not stored. */
  function displayed() {
    const view = JSON.parse(JSON.stringify(current.view));
    let choices = current.choices;
    if (!queue.length) return { view, choices, guessed: false, unknown: false, ask: null };
    const seats = view.seats.length;
    const playing = PLAY_PHASES.includes(view.phase);
    let inTrick = view.trick ? view.trick.plays.length : null; // trick games: plays in the trick so far
    let actor = view.to_act;
    let unknown = false;
    let ask = null;
    queue.forEach((item) => {
      const { action } = item;
      const seat = view.seats[action.seat];
      (action.cards || []).forEach((code) => {
        const at = (seat.hand || []).indexOf(code);
        if (at >= 0) seat.hand.splice(at, 1);
      });
      if (action.type === "foul" || unknown) return;
      if (!playing || (action.cards && action.cards.length && !(seat.hand || []).length)) {
        unknown = true;
        return;
      }
      if (inTrick !== null) {
        inTrick = (inTrick + 1) % seats;
        if (inTrick === 0) { // the trick is complete: its winner leads, which only the rules (or the referee) can tell
          if (item.leader === undefined) {
            unknown = true;
            ask = item;
          } else {
            actor = item.leader;
          }
          return;
        }
      }
      actor = action.seat;
      for (let step = 1; step <= seats; step += 1) {
        const next = (action.seat + step) % seats;
        if ((view.seats[next].hand || []).length) {
          actor = next;
          break;
        }
      }
    });
    choices = current.choices.filter((c) => c.action.type === "foul");
    if (unknown) {
      view.to_act = null;
      if (view.trick && ask) { // the trick just closed, for the referee to judge beside the question (docs/pad.md)
        const queued = queue.slice(0, queue.indexOf(ask) + 1).filter((q) => q.action.type === "play");
        view.closedTrick = view.trick.plays.concat(queued.map((q) => ({ ...q.action }))).slice(-seats);
      }
      if (view.trick) view.trick.plays = [];
      return { view, choices, guessed: true, unknown: true, ask };
    }
    view.to_act = actor;
    if (view.trick) {
      const all = view.trick.plays.concat(queue.filter((q) => q.action.type === "play").map((q) => ({ ...q.action })));
      view.trick.plays = inTrick ? all.slice(-inTrick) : [];
    }
    // A shedding game's round: when the turn comes back to the seat whose play stands, every other seat passed
    // and that seat leads a new round — nothing to beat, and no pass (a leader may not pass).
    let leads = false;
    if (!view.trick && view.round) {
      const plays = view.round.plays.concat(queue.filter((q) => ["play", "pass"].includes(q.action.type)).map((q) => ({ ...q.action })));
      const standing = plays.filter((p) => p.type === "play").slice(-1)[0];
      leads = !standing || standing.seat === actor;
      view.round.plays = leads ? [] : plays;
    }
    if (actor !== null && actor !== undefined) {
      // Whoever is next may do what the game offers in play: a trick game has no pass (升级: one follows suit);
      // a shedding game's follower may pass.
      const types = view.trick
        ? [...new Set(current.choices.filter((c) => c.seat === current.view.to_act && c.action.type !== "foul").map((c) => c.action.type))]
        : ["play", "pass", "timeout"].filter((type) => !(leads && type === "pass"));
      types.forEach((type) => {
        const like = { action: { type }, cards: type === "play" ? [] : null, typed: [] };
        const cards = like.cards === null ? null : view.seats[actor].hand || [];
        choices.push({ ...like, seat: actor, cards });
      });
    }
    return { view, choices, guessed: true, unknown: false, ask: null };
  }

  /* Offline at a trick's end: the question, each seat by its player's name (升级: with 东/南/西/北). */
  function askHTML(view) {
    const buttons = view.seats.map((_, seat) =>
      `<button type="button" class="pad-act" data-leader="${seat}">${esc(Fupan.seatName(seat, names()[seat]))}</button>`).join("");
    const trick = view.closedTrick ? `<div class="pad-ask-trick" data-ask-trick>${playsHTML(view.closedTrick)}</div>` : "";
    return `<section class="pad-ask panel" data-pad-ask><h3>${esc(t("pad.ask"))}</h3>${trick}` +
      `<p class="muted small">${esc(t("pad.ask.note"))}</p><div class="pad-actions">${buttons}</div></section>`;
  }

  function answerLeader(seat) {
    const { ask } = displayed();
    if (!ask) return;
    ask.leader = seat;
    render();
  }

  function handOf(view, seat) {
    if (view.phase === "dealing") return current.dealt[seat]; // dealt one by one (升级): in the order received
    return view.seats[seat].hand || [];
  }

  function kittyApart(view) {
    // While the game's `kitty_apart` phases last the kitty lies apart from every hand (docs/pad.md "The kitty").
    if ((current.table.kitty_apart || []).includes(view.phase)) return view.kitty;
    if (view.buried) return view.buried; // the buried kitty, once its game shows it (升级)
    return null;
  }

  function cardButton(code, seat, i, usable) {
    const picked = selection.some((s) => s.seat === seat && s.i === i);
    return `<button type="button" class="pad-card" data-card="${code}" data-i="${i}" aria-pressed="${picked}"` +
      `${usable ? "" : " disabled"} aria-label="${esc(Fupan.cardName(code))}">${Fupan.cardHTML(code, "md")}</button>`;
  }

  function actionLabel(choice, view) {
    const a = choice.action;
    switch (a.type) {
      case "bid":
        return t("pad.act.bid", { value: a.value });
      case "pass":
        if (PLAY_PHASES.includes(view.phase)) return t("pad.act.pass.play");
        if (view.phase === "dealing" || view.phase === "declaring") return t("pad.act.pass.declare");
        if (view.phase === "reveal" || view.phase === "post_reveal") return t("pad.act.pass.reveal");
        if (view.phase === "doubling") return t("pad.act.pass.double");
        if ((view.bidding || []).some((b) => b.type === "call")) return t("pad.act.pass.rob"); // 斗地主's 抢地主
        return t("pad.act.pass.bid");
      case "reveal":
        return t(a.stage ? `pad.act.reveal.${a.stage}` : "pad.act.reveal");
      case "declare":
        if (a.kind) return t(`pad.act.declare.${a.kind}`);
        return t((view.declarations || []).length ? "pad.act.overcall" : "pad.act.declare");
      case "irregularity":
        return t(`pad.irr.${a.kind}`);
      default:
        return t(`pad.act.${a.type}`);
    }
  }

  function seatHTML(view, seat, choices, acting, guessed) {
    const info = view.seats[seat];
    const mine = choices.filter((c) => c.seat === seat);
    const usable = new Set();
    mine.forEach((c) => (c.cards || []).forEach((code) => usable.add(code)));
    const hand = handOf(view, seat);
    const cards = hand.map((code, i) => cardButton(code, seat, i, usable.has(code))).join("");
    const refusedHere = verdict && verdict.seat === seat && !verdict.legal;
    const buttons = mine.map((c) => {
      const cls = c.action.type === "foul" ? "ghost" : c.cards ? "primary" : "";
      const off = c.cards && refusedHere ? " disabled" : ""; // the pad has said this selection is illegal
      return `<button type="button" class="pad-act ${cls}" data-action="${esc(JSON.stringify(c.action))}"${off}>${esc(actionLabel(c, view))}</button>`;
    }).join("");
    const picked = selection.filter((s) => s.seat === seat).length;
    const count = picked ? `<span class="pad-picked" data-picked>${esc(t("pad.picked", { n: picked }))}</span>` : "";
    const role = info.role ? t(`pad.role.${info.role}`) : "";
    const place = info.place ? t("pad.place", { n: info.place }) : "";
    const held = typeof info.count === "number" ? hand.length : info.count;
    return `<section class="pad-seat${acting ? " acting" : ""}" data-seat="${seat}"${acting ? ' aria-current="true"' : ""}>` +
      `<header><b>${esc(names()[seat] || info.name)}</b>${Fupan.seatNo(seat) ? ` <span class="muted">${esc(Fupan.seatNo(seat))}</span>` : ""}` +
      (role ? ` <span class="badge">${esc(role)}</span>` : "") + (place ? ` <span class="badge">${esc(place)}</span>` : "") +
      ` <span class="count">${esc(t("pad.cards", { n: held }))}</span>` +
      (acting ? ` <span class="badge live">${esc(t(guessed ? "pad.toAct.guess" : "pad.toAct"))}</span>` : "") +
      `</header><div class="pad-hand">${cards || `<span class="muted">${esc(t("pad.empty"))}</span>`}</div>` +
      `${acting ? toBeatHTML(view) : ""}<div class="pad-actions">${buttons}${count}</div></section>`;
  }

  /* What the acting seat must answer, beside its hand (a phone cannot show the summary above and the hand at once):
   * the trick so far (trick games), else the play to beat; nothing when it leads. */
  function toBeatHTML(view) {
    const plays = view.trick ? view.trick.plays : view.round ? view.round.plays : [];
    const shown = view.trick ? plays : plays.filter((p) => p.type !== "pass").slice(-1);
    if (!shown.length || !PLAY_PHASES.includes(view.phase)) return "";
    return `<div class="pad-to-beat" data-to-beat><span class="muted">${esc(t(view.trick ? "pad.trick" : "pad.toBeat"))}</span>` +
      `${playsHTML(shown)}</div>`;
  }

  function playsHTML(plays) {
    if (!plays || !plays.length) return `<span class="muted">${esc(t("pad.none"))}</span>`;
    return plays.map((p) => {
      const who = esc(names()[p.seat]);
      if (p.type === "pass") return `<div>${who}${t("punct.colon")}${esc(t("pad.act.pass.play"))}</div>`;
      const pattern = p.pattern ? ` <span class="muted">${esc(Fupan.lang() === "zh" ? p.pattern.zh : p.pattern.en)}</span>` : "";
      return `<div>${who}${t("punct.colon")}${Fupan.cardsHTML(p.cards, "sm")}${pattern}</div>`;
    }).join("");
  }

  function bidsHTML(view) {
    const rows = [];
    (view.bidding || []).forEach((b) => rows.push(`${names()[b.seat]}${t("punct.colon")}${b.type === "bid" ? t("pad.act.bid", { value: b.value }) : t("pad.bid." + b.type)}`));
    (view.decisions || []).forEach((d) => rows.push(`${names()[d.seat]}${t("punct.colon")}${d.type === "bid" ? t("pad.act.bid", { value: d.value }) : t("pad.bid." + d.type)}`));
    (view.reveals || []).forEach((r) => rows.push(`${names()[r.seat]}${t("punct.colon")}${t("pad.act.reveal." + r.stage)} ×${r.factor}`));
    (view.declarations || []).forEach((d) => rows.push(`${names()[d.seat]}${t("punct.colon")}${cardsText(d.cards)}${d.received !== undefined ? " · " + t("pad.received", { n: d.received }) : ""}`));
    (view.declared || []).forEach((kind) => rows.push(t("pad.act.declare." + kind)));
    return rows.length ? rows.map((r) => `<div>${esc(r)}</div>`).join("") : `<span class="muted">${esc(t("pad.none"))}</span>`;
  }

  function figuresHTML(view) {
    const rows = []; // escaped HTML: a name is never broken across lines (Chinese breaks anywhere)
    const name = (seat) => `<span class="nowrap">${esc(names()[seat])}</span>`;
    if (view.multipliers) rows.push(esc(`${t("pad.multiplier")} ×${view.multipliers.total}`));
    if (view.bid) rows.push(esc(`${t("pad.bidValue")} ${view.bid}`));
    if (view.level_rank) rows.push(esc(`${t("pad.level")} ${view.level_rank} · ${t("pad.trump")} ${trumpText(view)}`));
    if (view.attacker_points !== undefined && view.attacker_points !== null) rows.push(`<span data-points>${esc(pointsText(view))}</span>`);
    if (view.stakes) rows.push(esc(`${t("pad.stakes")} ${view.stakes.join(" / ")}`));
    if (view.finish_order && view.finish_order.length) rows.push(`${esc(t("pad.finishOrder"))} ${view.finish_order.map(name).join(" → ")}`);
    if (view.fouls && view.fouls.length) rows.push(esc(`${t("pad.fouls")} ${view.fouls.length}`));
    return rows.map((r) => `<div>${r}</div>`).join("");
  }

  /* The trump: fixed once the declarations close; while the cards are dealt, the last declaration's suit so far. */
  function trumpText(view) {
    if (view.trump) return Fupan.lang() === "zh" ? view.trump_zh : view.trump_en;
    const last = (view.declarations || []).slice(-1)[0];
    return last ? t("pad.trump.declared", { suit: t(`pad.slip.trump.${last.trump}`) }) : "—";
  }

  /* The attackers' points as the result counts them: card points, the kitty's bonus, the penalties (升级 §3.13). */
  function pointsText(view) {
    const counted = view.result && view.result.points;
    const cards = counted ? counted.cards : view.attacker_points;
    const kitty = counted ? counted.kitty_bonus : 0;
    const penalties = counted ? counted.penalties : (view.penalties || []).reduce((n, p) => n + (p.effect || 0), 0);
    const total = counted ? counted.total : Math.max(0, cards + kitty + penalties);
    if (!kitty && !penalties) return `${t("pad.attackerPoints")} ${total}`;
    const term = (n, key) => `${n < 0 ? "−" : "+"} ${t(key, { n: Math.abs(n) })}`;
    const parts = [t("pad.points.cards", { n: cards })];
    if (kitty) parts.push(term(kitty, "pad.points.kitty"));
    if (penalties) parts.push(term(penalties, "pad.points.penalties"));
    return `${t("pad.attackerPoints")} ${total} = ${parts.join(" ")}`;
  }

  function scoreHTML() {
    if (!match) return "";
    const s = match.standing || {};
    // One row per seat (chips, scores) or per team (升级 levels, 大怪路子 points).
    const row = (who, value) => `<tr><td>${esc(who)}</td><td class="num">${esc(value)}</td></tr>`;
    // A side of 升级/大怪路子 is every other seat (team 0: seats 0, 2, …), named by its team or its players.
    const side = (team) => Fupan.sideName(match.seat_names.map((_, seat) => seat).filter((seat) => seat % 2 === team),
      match.entries, match.seat_names);
    let cells = "";
    if (match.chips) cells = match.chips.map((c, seat) => row(match.seat_names[seat], c)).join("");
    else if (s.levels) cells = s.levels.map((level, team) => row(side(team), level)).join("");
    else if (s.points) cells = s.points.map((p, team) => row(side(team), p)).join("");
    else if (s.scores) cells = s.scores.map((p, seat) => row(match.seat_names[seat], p)).join("");
    const finished = match.deals.filter((d) => d.status === "finished").length;
    const deals = Fupan.counted("pad.dealsPlayed", finished, { n: finished });
    return `<section class="panel pad-info"><h3>${esc(t("pad.score"))}</h3><table class="pad-score">${cells}</table>` +
      `<p class="muted small">${esc(deals)}${match.status === "over" ? " · " + esc(t("pad.matchOver")) : ""}</p></section>`;
  }

  function resultHTML() {
    if (!current.finished || !current.result) return "";
    const scores = current.result.scores.map((score, seat) => `<tr><td>${esc(names()[seat])}</td>${Fupan.scoreCell(score)}</tr>`).join("");
    const redeal = current.result.redeal ? `<p>${esc(t("pad.redeal"))}</p>` : "";
    const points = current.result.points && current.view.attacker_points !== undefined ? `<p data-points>${esc(pointsText(current.view))}</p>` : "";
    return `<section class="panel pad-result" data-result><h2>${esc(t("pad.result"))}</h2>${redeal}${points}` +
      `<table class="pad-score">${scores}</table>${current.seed ? `<p class="muted small">${esc(t("pad.seed", { seed: current.seed }))}</p>` : ""}` +
      `${nextDealHTML()}${correctionsHTML()}</section>`;
  }

  function nextDealHTML() {
    if (!match || match.status !== "live" || match.current_deal) return "";
    if (deck) return deckHTML();
    return `<div class="pad-next"><h3>${esc(t("pad.next", { n: match.deals.length + 1 }))}</h3>` +
      `<button type="button" class="primary" data-command="deal-server">${esc(t("pad.deal.server"))}</button> ` +
      `<button type="button" data-command="deal-hands">${esc(t("pad.deal.hands"))}</button> ` +
      `<button type="button" data-command="slip">${esc(t("pad.slip"))}</button>` +
      `<p class="muted small">${esc(t("pad.deal.serverHint"))}</p></div>`;
  }

  function toolsHTML(view) {
    const tools = [];
    if (match && match.status === "live") {
      tools.push(`<button type="button" data-command="clock">${esc(t("pad.clock"))}</button>`);
      if (!match.current_deal) tools.push(`<button type="button" data-command="misdeal">${esc(t("pad.misdeal"))}</button>`);
    }
    if (current && !current.finished && current.last_standing !== null) {
      tools.push(`<button type="button" data-command="retract">${esc(t("pad.retract"))}</button>`);
    }
    if (boot.viewer_url || dealId) tools.push(`<a class="button" href="/deals/${esc(dealId)}">${esc(t("pad.viewer"))}</a>`);
    tools.push(`<button type="button" data-command="signout">${esc(t("pad.signout"))}</button>`);
    return `<div class="pad-tools">${tools.join("")}</div>`;
  }

  function render() {
    closeStaleForm();
    if (!current) {
      body.innerHTML = `${scoreHTML()}<section class="panel">${match && match.status === "live" ? nextDealHTML() : esc(t("pad.noDeal"))}${correctionsHTML()}</section>` + toolsHTML();
      root.dataset.dealVersion = "";
      showState();
      openPendingCorrection();
      return;
    }
    const { view, choices, guessed, unknown, ask } = displayed();
    const acting = view.to_act;
    const seats = view.seats.map((_, seat) => seatHTML(view, seat, choices, seat === acting, guessed)).join("");
    const kitty = kittyApart(view);
    const round = view.round ? view.round.plays : view.trick ? view.trick.plays : [];
    const phase = t(`pad.phase.${view.phase}`);
    const turn = acting === null || acting === undefined ? "" : ` · ${t("pad.toAct")}${t("punct.colon")}${names()[acting]}`;
    body.innerHTML =
      `<div class="pad-summary"><section class="panel pad-info"><h3>${esc(t("pad.phase"))}</h3><div><b>${esc(phase)}</b>${esc(turn)}</div>${figuresHTML(view)}` +
      (current.seed_commitment ? `<div class="muted small">${esc(t("pad.commitment", { c: current.seed_commitment.slice(0, 16) }))}</div>` : "") +
      `</section><section class="panel pad-info"><h3>${esc(t("pad.bids"))}</h3>${bidsHTML(view)}</section>` +
      `<section class="panel pad-info"><h3>${esc(t(view.trick ? "pad.trick" : "pad.round"))}</h3>${playsHTML(round)}</section>${scoreHTML()}</div>` +
      (kitty ? `<section class="panel pad-kitty" data-kitty><h3>${esc(t("pad.kitty"))}</h3><div class="pad-hand">${Fupan.cardsHTML(kitty, "md")}</div></section>` : "") +
      resultHTML() + (ask && offline ? askHTML(view) : unknown ? `<p class="pad-waiting panel" data-pad-waiting>${esc(t("pad.waiting"))}</p>` : "") +
      `<div class="pad-seats seats-${view.seats.length}">${seats}</div>` + toolsHTML(view);
    // The stored version the page now shows: set only after the new state is in the page (docs/pad.md).
    root.dataset.dealVersion = String(current.version);
    showState();
    openPendingCorrection();
  }

  function closeStaleForm() {
    const form = formLayer.querySelector("form");
    if (form && form.dataset.form !== "token" && form.dataset.version && Number(form.dataset.version) !== (current && current.version)) closeForm();
  }

  /* --- tapping ---------------------------------------------------------------------------------------- */

  body.addEventListener("click", (event) => {
    const card = event.target.closest("button[data-card]");
    if (card && !card.disabled) return tapCard(card);
    const action = event.target.closest("button[data-action]");
    if (action) return tapAction(action);
    const leader = event.target.closest("button[data-leader]");
    if (leader) return answerLeader(Number(leader.dataset.leader));
    const command = event.target.closest("[data-command]");
    if (command) return runCommand(command.dataset.command, command);
    const deckCard = event.target.closest("[data-deck-card]");
    if (deckCard) return placeCard(deckCard.dataset.deckCard);
    const placed = event.target.closest("[data-placed]");
    if (placed) return unplaceCard(placed);
    const zone = event.target.closest("[data-zone]");
    if (zone && deck) {
      deck.active = zone.dataset.zone === "kitty" ? deck.zones.length - 1 : Number(zone.dataset.zone);
      render();
    }
    return undefined;
  });

  function tapCard(button) {
    const seat = Number(button.closest("[data-seat]").dataset.seat);
    const i = Number(button.dataset.i);
    const at = selection.findIndex((s) => s.seat === seat && s.i === i);
    if (at >= 0) selection.splice(at, 1);
    else {
      selection = selection.filter((s) => s.seat === seat); // one seat's cards at a time
      selection.push({ seat, i, code: button.dataset.card });
    }
    refused = null; // cleared by the next change of selection
    hint = null;
    verdict = null;
    render();
    dryRun(seat);
  }

  function carded(seat, choices) {
    const order = ["play", "declare", "bury"];
    const mine = choices.filter((c) => c.seat === seat && c.cards);
    mine.sort((a, b) => order.indexOf(a.action.type) - order.indexOf(b.action.type));
    return mine[0];
  }

  async function dryRun(seat) {
    const picked = selection.filter((s) => s.seat === seat).map((s) => s.code);
    const seq = ++checkSeq;
    const version = current.version;
    if (!picked.length || queue.length || offline) return;
    const choice = carded(seat, current.choices);
    if (!choice || choice.typed.length) return; // a typed field (received) is checked on submission
    let answer;
    try {
      answer = await api("POST", `/api/deals/${dealId}/pad/check`, { action: { seat, ...choice.action, cards: picked } });
    } catch (e) {
      return;
    }
    // The selection changed, was tapped, or the deal moved meanwhile: this answer judged a state the pad has left
    // (a check that reaches the server after its own tap is stored reads "not your turn").
    if (seq !== checkSeq || !current || current.version !== version || queue.length) return;
    if (!answer.ok) return refuse(reasonOf(answer));
    verdict = { seat, legal: Boolean(answer.data.legal) };
    if (answer.data.legal) {
      const reads = answer.data.reads_as;
      hint = () => (reads ? t("pad.legalAs", { pattern: Fupan.lang() === "zh" ? reads.zh : reads.en }) : t("pad.legal"));
      showState();
    } else {
      // 出牌 off for a selection the rules refuse, in place: a redraw now would move cards under a finger.
      body.querySelectorAll(`[data-seat="${seat}"] .pad-act.primary`).forEach((button) => {
        button.disabled = true;
      });
      refuse(refusalText(answer.data.refusal));
    }
    return undefined;
  }

  function tapAction(button) {
    const seat = Number(button.closest("[data-seat]").dataset.seat);
    const template = JSON.parse(button.dataset.action);
    const { view, choices } = displayed();
    const choice = choices.find((c) => c.seat === seat && JSON.stringify(c.action) === button.dataset.action);
    const action = { seat, ...template };
    if (choice && choice.cards) {
      action.cards = selection.filter((s) => s.seat === seat).map((s) => s.code);
      if (!action.cards.length) return refuse(() => t("pad.selectFirst"));
    }
    const typed = choice ? choice.typed : [];
    if (!typed.length) return submit(action);
    const fields = typed.map((name) => typedField(name, seat, view));
    openForm(template.type, actionLabel(choice, view), fields, (values) => {
      typed.forEach((name) => {
        const value = values[name];
        if (name === "penalty" || name === "received") {
          if (value !== "" && value !== undefined) action[name] = Number(value);
        } else {
          action[name] = value;
        }
      });
      submit(action);
    });
    formLayer.querySelector("form").dataset.version = String(current.version);
    return undefined;
  }

  function typedField(name, seat, view) {
    if (name === "code") {
      const options = current.fouls.map((f) => ({ value: f.code, label: Fupan.lang() === "zh" ? f.zh : f.en }));
      return { name, label: t("pad.field.code"), type: "select", options, value: options[0].value };
    }
    if (name === "penalty") {
      const unit = current.foul_unit ? (Fupan.lang() === "zh" ? current.foul_unit.zh : current.foul_unit.en) : "";
      return { name, label: t("pad.field.penalty", { unit }), type: "number", min: 0, max: 1000, value: "" };
    }
    if (name === "received") {
      // At least the cards up to the last one selected (in the order received); the recorder may type more, or
      // clear it for a declaration in the round after the last card.
      const picked = selection.filter((s) => s.seat === seat).map((s) => s.i + 1);
      const least = view.phase === "dealing" && picked.length ? Math.max(...picked) : "";
      return { name, label: t("pad.field.received"), type: "number", min: 0, max: current.table.hand_size, value: least };
    }
    return { name, label: t(`pad.field.${name}`), type: "text", value: "" };
  }

  /* --- recording: the queue, sent in order, once each ---------------------------------------------------- */

  function submit(action) {
    if (!queue.length) baseVersion = current.version;
    queue.push({ action, key: newKey(), started: performance.now() });
    checkSeq += 1; // a dry run still on its way judged the selection just tapped: its answer is dropped
    verdict = null;
    selection = [];
    refused = null;
    hint = null;
    render();
    flush();
  }

  async function flush() {
    if (flushing || !queue.length) return;
    flushing = true;
    const stored = [];
    let ended = false; // a stored tap ended the deal: the table's score moved
    try {
      while (queue.length) {
        if (offline) return;
        showState();
        const item = queue[0];
        let answer;
        try {
          answer = await api("POST", `/api/deals/${dealId}/actions`, { action: item.action, expected_version: baseVersion }, item.key);
        } catch (e) {
          queue.forEach((queued) => {
            queued.delayed = true; // its time waiting for the network is not the pad's (latencies)
          });
          wentOffline(); // sent again, under the same key, when the connection returns
          return;
        }
        if (answer.status === 201 || answer.status === 200) {
          baseVersion = answer.data.version;
          if (answer.data.finished) ended = true;
          stored.push(queue.shift());
          continue;
        }
        // The taps after a refused one were made on a state that never was: none is stored, and each is named.
        const dropped = queue.map((queued) => queued.action);
        queue = [];
        const reason = reasonOf(answer);
        refused = () => `${reason()} ${t("pad.notStored", { what: dropped.map(tapText).join(Fupan.lang() === "zh" ? "；" : "; ") })}`;
        break;
      }
    } finally {
      flushing = false;
      const reason = refused;
      if (!offline) await refresh(true, ended || Boolean(reason));
      refused = reason;
      const shown = performance.now();
      stored.forEach((item) => item.delayed || latencies.push(shown - item.started));
      showState();
    }
  }

  /* A tap as a person reads it: 张三 出牌 ♠A ♠A. */
  function tapText(action) {
    const cards = action.cards && action.cards.length ? " " + cardsText(action.cards) : "";
    return `${names()[action.seat]} ${actionLabel({ action }, current.view)}${cards}`;
  }

  /* --- the table: clock, misdeals, the next deal, retraction, sign-out ------------------------------------ */

  async function post(url, payload, key) {
    let answer;
    try {
      answer = await api("POST", url, payload, key || newKey());
    } catch (e) {
      offline = true;
      showState();
      return null;
    }
    if (!answer.ok) {
      refuse(reasonOf(answer));
      return null;
    }
    refused = null;
    return answer.data;
  }

  async function runCommand(command, button) {
    const matchUrl = match ? `/api/matches/${match.id}` : null;
    if (command === "signout") return signOut();
    if (command === "clock") {
      return openForm("clock", t("pad.clock"), [{ name: "minutes", label: t("pad.field.minutes"), type: "number", min: 0 },
        { name: "note", label: t("pad.field.note") }], async (values) => {
        if (await post(`${matchUrl}/clock`, { minutes: Number(values.minutes), note: values.note })) refresh(true);
      });
    }
    if (command === "misdeal") {
      const options = names().map((name, seat) => ({ value: String(seat), label: Fupan.seatName(seat, name) }));
      return openForm("misdeal", t("pad.misdeal"), [{ name: "seat", label: t("pad.field.dealer"), type: "select", options, value: "0" },
        { name: "note", label: t("pad.field.note") }], async (values) => {
        if (await post(`${matchUrl}/misdeals`, { seat: Number(values.seat), note: values.note })) refresh(true);
      });
    }
    if (command === "retract") {
      const last = current.last_action;
      const what = `${names()[last.seat]}${t("punct.colon")}${actionLabel({ action: last }, current.view)}${last.cards ? " " + cardsText(last.cards) : ""}`;
      return openForm("retract", t("pad.retract.what", { what }), [{ name: "reason", label: t("pad.field.reason"), required: true }], async (values) => {
        const body = { at: current.last_standing, reason: values.reason, expected_version: current.version };
        if (await post(`/api/deals/${dealId}/retractions`, body)) refresh(true);
      });
    }
    if (command === "slip") return openSlip(matchUrl);
    if (command === "correct") return openCorrection(matchUrl, Number(button.dataset.number));
    if (command === "deal-server") {
      const deal = await post(`${matchUrl}/deals`, {});
      if (deal) startedDeal(deal);
      return undefined;
    }
    if (command === "deal-hands") {
      const table = boot.table;
      deck = { zones: [...Array(table.seats)].map(() => []).concat([[]]), active: 0 };
      return render();
    }
    if (command === "deal-cancel") {
      deck = null;
      return render();
    }
    if (command === "deal-start") {
      const hands = deck.zones.slice(0, -1);
      const kitty = deck.zones[deck.zones.length - 1];
      const deal = await post(`${matchUrl}/deals`, { hands, kitty });
      if (deal) startedDeal(deal);
    }
    return undefined;
  }

  function startedDeal(deal) {
    deck = null;
    dealId = deal.id;
    current = null;
    if (match) match.current_deal = deal.id;
    refresh(true);
  }

  /* --- score slips: a table without a recorder enters each deal's facts (POST /api/matches/<id>/slips) ----- */

  // The slip's fields are static/slip-form.js's (every seat chosen by name, never typed); each game's plugin
  // (replay_ui/games/<game>/pad.js) lists its facts. The same form corrects a scored deal (更正), filled with
  // its facts: POST /api/matches/<id>/corrections, with the reason (docs/corrections.md).
  const slipContext = () => boot.slip || { fouls: [], foul_unit: null };
  // The table page's 更正 link opens the pad at `?correct=N`: the correction of deal N, once the table is read.
  let pendingCorrection = Number(new URLSearchParams(location.search).get("correct")) || null;

  function openPendingCorrection() {
    if (!pendingCorrection || !match) return;
    const number = pendingCorrection;
    pendingCorrection = null;
    openCorrection(`/api/matches/${match.id}`, number);
  }

  /* Preview what the fields score as they change; confirm is enabled only for facts the rules accepted. */
  function slipPreview(game, url, body, ready) {
    let previewed = null;
    let seq = 0;
    let asked = null;
    const onInput = async (values, form) => {
      const confirm = form.querySelector("[data-confirm]");
      const shown = form.querySelector("[data-slip-preview]");
      const facts = Fupan.slipForm.read(game, form);
      const key = JSON.stringify(facts);
      confirm.disabled = !previewed || !ready(values);
      if (key === asked) return; // a field's change event after its input event: nothing new to ask
      asked = key;
      const mine = ++seq;
      previewed = null;
      confirm.disabled = true;
      const unset = Fupan.slipForm.missing(game, form);
      if (unset.length) { // nothing to ask the rules yet: say what is still to choose
        shown.dataset.slipState = "missing";
        shown.textContent = t("slip.missing", { what: unset.join(Fupan.lang() === "zh" ? "、" : ", ") });
        return;
      }
      let answer;
      try {
        answer = await api("POST", url, body(facts));
      } catch (e) {
        shown.textContent = t("pad.state.offline");
        return;
      }
      if (mine !== seq) return; // the fields changed again meanwhile
      if (!answer.ok) {
        shown.dataset.slipState = "refused";
        shown.textContent = reasonOf(answer)();
        return;
      }
      previewed = facts;
      // The reason may have been typed while the rules were asked: read the form as it is now.
      confirm.disabled = !ready(fieldValues(form));
      shown.dataset.slipState = "ok";
      shown.innerHTML = `<table class="pad-score">${answer.data.result.scores
        .map((score, seat) => `<tr><td>${esc(names()[seat])}</td>${Fupan.scoreCell(score)}</tr>`).join("")}</table>`;
    };
    return { onInput, facts: () => previewed };
  }

  function openSlip(matchUrl) {
    const game = boot.game;
    const preview = slipPreview(game, `${matchUrl}/slips/preview`, (facts) => ({ facts }), () => true);
    openForm("slip", t("pad.slip.title", { n: match.deals.length + 1 }), [], async () => {
      const facts = preview.facts();
      if (!facts) return;
      const entered = await post(`${matchUrl}/slips`, { facts });
      if (entered) {
        hint = () => t("pad.slip.entered", { n: entered.number });
        if (current && current.finished) {
          current = null; // the deal shown before is not the one just entered: show the table and its next deal
          dealId = null;
        }
        refresh(true);
      }
    }, true, {
      html: Fupan.slipForm.html(game, names(), null, slipContext()) +
        `<div class="pad-slip-preview" data-slip-preview aria-live="polite"></div>`,
      onInput: preview.onInput,
    });
    const form = formLayer.querySelector("form");
    Fupan.slipForm.bind(game, form, names(), slipContext());
  }

  /* 更正: a scored deal's facts as they should have been, and why. A slip's form opens with its facts. */
  async function openCorrection(matchUrl, number) {
    const game = boot.game;
    const entry = match.deals[number - 1];
    if (!entry || entry.status !== "finished") return undefined;
    let facts = entry.corrected ? entry.corrected.facts : null;
    if (!facts) {
      const deal = await api("GET", `/api/deals/${entry.deal_id}`);
      facts = deal.ok && deal.data.slip ? deal.data.slip : null;
    }
    const body = (values) => (facts) => ({ number, facts, ...(values ? { reason: values.reason } : {}) });
    const preview = slipPreview(game, `${matchUrl}/corrections/preview`, body(null), (values) => !!(values.reason || "").trim());
    openForm("correction", t("slip.correct.title", { n: number }), [{ name: "reason", label: t("slip.correct.reason") }], async (values) => {
      const corrected = preview.facts();
      if (!corrected || !values.reason.trim()) return;
      if (await post(`${matchUrl}/corrections`, body(values)(corrected))) {
        hint = () => t("slip.corrected", { n: number });
        refresh(true);
      }
    }, true, {
      html: Fupan.slipForm.html(game, names(), facts, slipContext()) +
        `<div class="pad-slip-preview" data-slip-preview aria-live="polite"></div>`,
      onInput: preview.onInput,
    });
    const form = formLayer.querySelector("form");
    Fupan.slipForm.bind(game, form, names(), slipContext());
    form.querySelector("[data-confirm]").disabled = true;
    return undefined;
  }

  function correctionsHTML() {
    if (!match || match.current_deal) return "";
    const scored = match.deals.filter((d) => d.status === "finished");
    if (!scored.length) return "";
    return `<div class="pad-corrections"><h3>${esc(t("slip.correct"))}</h3>` + scored
      .map((d) => `<button type="button" class="small" data-command="correct" data-number="${d.number}">${esc(t("match.dealN", { n: d.number }))}${d.corrected ? " · " + esc(t("correction.tag")) : ""}</button>`)
      .join(" ") + "</div>";
  }

  /* --- a full deck grid for entering the hands of physical cards ------------------------------------------ */

  function fullDeck() {
    const table = boot.table;
    const codes = [];
    ["S", "H", "C", "D"].forEach((suit) => ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
      .forEach((rank) => codes.push(suit + rank)));
    if (table.jokers) codes.push("BJ", "LJ");
    return codes;
  }

  function remaining(code) {
    const placed = deck.zones.reduce((n, zone) => n + zone.filter((c) => c === code).length, 0);
    return boot.table.decks - placed;
  }

  function zoneSize(index) {
    return index === deck.zones.length - 1 ? boot.table.kitty_size : boot.table.hand_size;
  }

  function placeCard(code) {
    if (remaining(code) <= 0) return;
    if (deck.zones[deck.active].length >= zoneSize(deck.active)) return;
    deck.zones[deck.active].push(code); // in the order received (升级 declarations are checked against it)
    if (deck.zones[deck.active].length === zoneSize(deck.active)) {
      const open = deck.zones.findIndex((zone, index) => zone.length < zoneSize(index));
      if (open >= 0) deck.active = open;
    }
    render();
  }

  function unplaceCard(button) {
    const zone = Number(button.dataset.zoneIndex);
    deck.zones[zone].splice(Number(button.dataset.placed), 1);
    deck.active = zone;
    render();
  }

  function deckHTML() {
    const last = deck.zones.length - 1;
    const complete = deck.zones.every((zone, index) => zone.length === zoneSize(index));
    const zones = deck.zones.map((zone, index) => {
      if (index === last && !boot.table.kitty_size) return "";
      const name = index === last ? t("pad.kitty") : Fupan.seatName(index, names()[index]);
      const cards = zone.map((code, at) => `<button type="button" class="pad-card" data-placed="${at}" data-zone-index="${index}">${Fupan.cardHTML(code, "sm")}</button>`).join("");
      return `<div class="pad-zone${index === deck.active ? " active" : ""}"><button type="button" data-zone="${index === last ? "kitty" : index}" aria-pressed="${index === deck.active}">` +
        `${esc(name)} ${zone.length}/${zoneSize(index)}</button><div class="pad-hand">${cards}</div></div>`;
    }).join("");
    const grid = fullDeck().map((code) => {
      const left = remaining(code);
      return `<button type="button" class="pad-card deck" data-deck-card="${code}"${left ? "" : " disabled"}>${Fupan.cardHTML(code, "sm")}<span class="left">${left}</span></button>`;
    }).join("");
    return `<div class="pad-deck"><h3>${esc(t("pad.deal.hands"))}</h3><p class="muted small">${esc(t("pad.deck.hint"))}</p>${zones}` +
      `<div class="pad-grid">${grid}</div><button type="button" class="primary" data-command="deal-start"${complete ? "" : " disabled"}>${esc(t("pad.deal.start"))}</button> ` +
      `<button type="button" data-command="deal-cancel">${esc(t("pad.cancel"))}</button></div>`;
  }

  /* --- start ------------------------------------------------------------------------------------------ */

  document.addEventListener("fupan:lang", () => (current || match ? render() : signIn()));
  /* Another pad's taps arrive by push (docs/streams.md): the table's stream (or the deal's) tells each change and
   * the pad reads it at once. A change told while a read or a tap is on its way is read at the next tick. */
  let stream = null;
  let pushed = false;
  function listen() {
    if (!Fupan.token()) {
      if (stream) stream.close();
      stream = null;
      return;
    }
    if (stream || Fupan.published() || (!boot.match_id && !dealId)) return;
    const url = boot.match_id ? `/api/matches/${boot.match_id}/stream?viewpoint=referee`
      : `/api/deals/${dealId}/stream?viewpoint=referee`;
    stream = Fupan.stream(url, () => {
      if (flushing || reading || queue.length) pushed = true;
      else refresh(false);
    });
  }

  refresh(true);
  // One cheap poll (GET …/pad?since=<version>: a few bytes unless the deal moved) while the stream is down (off
  // with ?poll=0): another pad's taps show up, and an offline pad finds out the connection is back even if the
  // browser never said so.
  setInterval(() => {
    listen();
    if (flushing || reading || !Fupan.token() || root.querySelector('form[data-form="token"]')) return;
    if (queue.length && !offline) flush();
    // Offline, it asks whether the server answers again even while its stream looks open: a send can fail on a
    // network that kept the stream's connection, and waiting taps must not wait for another pad's change.
    else if (pushed || offline || (!(stream && stream.live()) && !Fupan.pollingOff())) {
      pushed = false;
      refresh(false);
    }
  }, POLL_MS);
  listen();
})();
