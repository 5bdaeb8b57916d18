/* The deal viewer: loads one viewpoint's frames, steps through them, keeps the URL a deep link.
 *
 * Game-agnostic. The table itself is drawn by the game's renderer, Fupan.games[game] (replay_ui/games/<game>/script.js),
 * falling back to Fupan.games.generic. A renderer is an object with render(ctx), where ctx carries the
 * frame (the engine's view for this viewpoint, the action, the step in words), the previous frame, the
 * seat names and two elements to fill: ctx.table and ctx.info; optionally `marks`, the notation tags the
 * timeline marks in its game, most telling first.
 *
 * Hidden cards: frames come from /ui-api/deals/<id>/frames?viewpoint=…, filtered on the server. Changing
 * the viewpoint drops the frames held so far and fetches the new viewpoint's, so the page never keeps a
 * view it was not asked for.
 *
 * A deal in play is followed: every FOLLOW_MS the page asks for the deal's version (one cheap read) and
 * fetches the frames again only when something was recorded. A reader at the last step moves on with the
 * play; one looking at an earlier step stays there. When the deal ends the page says so and stops asking.
 *
 * The seat and referee views of a deal in play need a token with rights over its match (docs/SECURITY.md §4). A reader
 * may paste one (static/fupan.js keeps it in this tab's sessionStorage and sends it as a header); the server
 * decides what it shows. A token the server refuses is dropped at once.
 */
(function () {
  "use strict";

  const F = window.Fupan;
  const boot = JSON.parse(document.getElementById("deal-boot").textContent);
  const renderer = F.games[boot.game] || F.games.generic;
  F.seatMarks = boot.seat_marks;
  F.foulNames = boot.foul_names || {};
  F.sideEntries = boot.entries || []; // a team event's sides by their teams' names (Fupan.sideName)
  const $ = (id) => document.getElementById(id);
  const el = {
    table: $("table"), info: $("game-info"), stepNo: $("step-no"), stepText: $("step-text"),
    notes: $("step-notes"), label: $("step-label"), slider: $("slider"), marks: $("marks"),
    playPanel: $("play-record-panel"), play_record: $("play-record"),
    timeline: $("timeline"), play: $("btn-play"), speed: $("speed"), viewpoints: $("viewpoints"),
    viewNote: $("view-note"), status: $("deal-status"), following: $("following"), token: $("token"),
  };
  const FOLLOW_MS = 2000;

  // Timeline marks, most telling first: one step may carry several (a bomb that also ends the deal). A game's
  // renderer names the tags worth a mark in its game (`marks`); these are what every game has.
  const MARK_ORDER = renderer.marks || ["foul", "end", "note"];

  const state = {
    view: null, step: 0, data: null, timer: null, active: null, loading: 0, moves: [],
    version: boot.version, finished: boot.finished, follow: null, refusal: null,
  };

  // Exposed for the browser tests and for anyone measuring: render time of every step drawn (ms).
  const probe = (window.fupanViewer = { renderTimes: [], state });

  function validView(view) {
    return !!el.viewpoints.querySelector(`[data-view="${CSS.escape(view)}"]`);
  }

  function readURL() {
    const params = new URLSearchParams(location.search);
    const view = params.get("view") || "public"; // the least a viewer can see, unless asked for more
    const step = parseInt(params.get("step") || "0", 10);
    return { view: validView(view) ? view : "public", step: Number.isFinite(step) ? step : 0 };
  }

  function writeURL() {
    // Written by hand so the link reads as people type it: ?step=23&view=seat:2
    const query = `?step=${state.step}&view=${state.view}`;
    if (location.search !== query) history.replaceState(null, "", location.pathname + query);
    // The previous and next deal open from the same viewpoint.
    document.querySelectorAll("a[data-keep-view]").forEach((link) => {
      link.search = `?view=${state.view}`;
    });
  }

  function markViewButtons() {
    el.viewpoints.querySelectorAll("[data-view]").forEach((button) => {
      const on = button.dataset.view === state.view;
      button.classList.toggle("active", on);
      button.setAttribute("aria-checked", on ? "true" : "false");
    });
  }

  function notationText(frame) {
    return frame.notation[F.lang()];
  }

  /* --- timeline and marks: built once per loaded viewpoint (and language), then only highlighted ------- */

  function buildTimeline() {
    const frames = state.data.frames;
    el.timeline.innerHTML = frames
      .map((frame) => {
        const tags = frame.notation.tags.filter((tag) => MARK_ORDER.includes(tag));
        const badges = tags.map((tag) => `<span class="tag ${tag}">${F.esc(F.t("tag." + tag))}</span>`).join("");
        // An entry taken back later (domain/records/retraction.py): struck through, with the reason and who retracted it.
        const taken = frame.notation.retracted;
        const txt = taken
          ? `<s class="txt" data-retracted="${taken.step}">${F.esc(notationText(frame))}</s>` +
            `<span class="why">${F.esc(taken[F.lang()])}</span>`
          : `<span class="txt">${F.esc(notationText(frame))}</span>`;
        return (
          `<li data-step="${frame.step}" data-tags="${frame.notation.tags.join(" ")}">` +
          `<span class="no">${frame.step}</span>${txt}${badges}</li>`
        );
      })
      .join("");
    const total = state.data.total || 1;
    const short = markLabels();
    el.marks.innerHTML = frames
      .filter((frame) => frame.notation.tags.some((tag) => MARK_ORDER.includes(tag)))
      .map((frame) => {
        const tags = MARK_ORDER.filter((tag) => frame.notation.tags.includes(tag));
        const title = F.esc(`${frame.step}. ${notationText(frame)}`);
        const dots = tags.map((tag) => `<span class="mk ${tag}">${F.esc(short[tag])}</span>`);
        return `<button type="button" class="mark" data-step="${frame.step}" title="${title}" ` +
          `style="left:${(100 * frame.step) / total}%">${dots.join("")}</button>`;
      })
      .join("");
    el.slider.max = String(state.data.total);
    state.active = null;
    stackMarks();
  }

  /* Each mark's letters: the shortest start of its name no other mark of this game shares (Foul and Five of a
   * kind were both "F"). */
  function markLabels() {
    const names = Object.fromEntries(MARK_ORDER.map((tag) => [tag, Array.from(F.t("tag." + tag))]));
    const labels = {};
    MARK_ORDER.forEach((tag) => {
      let length = 1;
      const clashes = (n) => MARK_ORDER.some((other) => other !== tag && names[other].slice(0, n).join("") ===
        names[tag].slice(0, n).join(""));
      while (length < names[tag].length && clashes(length)) length += 1;
      labels[tag] = names[tag].slice(0, length).join("");
    });
    return labels;
  }

  /* Marks of nearby steps would overlap on one line: a mark that would touch the one before it on a lane goes
   * up a lane (as many as it takes), and the strip grows to hold them. */
  function stackMarks() {
    const ends = []; // per lane, the right edge of its last mark (px)
    el.marks.querySelectorAll(".mark").forEach((mark) => {
      mark.style.bottom = "";
      const left = mark.offsetLeft - mark.offsetWidth / 2; // centred on its step (translateX(-50%))
      let lane = ends.findIndex((end) => left >= end + 2);
      if (lane === -1) lane = ends.length;
      ends[lane] = left + mark.offsetWidth;
      mark.style.bottom = `calc(${lane} * 1.2rem)`;
    });
    el.marks.style.height = `calc(${Math.max(1, ends.length)} * 1.2rem + 0.15rem)`;
  }

  function highlight(step) {
    if (state.active) state.active.classList.remove("current");
    const item = el.timeline.children[step];
    if (!item) return;
    item.classList.add("current");
    state.active = item;
    // Keep the current step in view inside the list without scrolling the page itself.
    const list = el.timeline;
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }

  /* --- the play record: every round (trick) so far by seat, and each seat's cards played so far --------------- */

  // A round's number in a view: the shedding games count rounds, 升级 tricks.
  const roundOf = (view) => view.rounds_played ?? view.tricks_played ?? 0;

  /* The cards a play put on the table: what left the seat's hand by its `played` list (a timeout's lowest single
   * too), else its entry in the trick on the table or the one it closed (a failed 甩牌 plays fewer than tried). */
  function cardsPlayed(before, after, action) {
    const was = before.seats[action.seat].played;
    const now = after.seats[action.seat].played;
    if (Array.isArray(was) && Array.isArray(now)) return now.slice(was.length);
    const trick = after.trick && after.trick.plays.length ? after.trick : after.last_trick;
    const entry = trick && trick.plays.find((play) => play.seat === action.seat);
    return entry ? entry.cards : action.cards || [];
  }

  /* Every move of the play, once per loaded viewpoint: {step, seat, round, cards} (cards [] is a pass). */
  function playMoves(frames) {
    const moves = [];
    for (let step = 1; step < frames.length; step += 1) {
      const before = frames[step - 1].view;
      const action = frames[step].action;
      if (!action || before.phase !== boot.play_phase || !["play", "pass", "timeout"].includes(action.type)) continue;
      const cards = action.type === "pass" ? [] : cardsPlayed(before, frames[step].view, action);
      moves.push({ step, seat: action.seat, round: roundOf(before), cards, timeout: action.type === "timeout" });
    }
    return moves;
  }

  function cardsText(codes) {
    // data-code, not data-card: these are the table's cards again, in words (a count of drawn cards skips them)
    return codes.map((code) => `<span class="pc ${/^[HD]|BJ/.test(code) ? "red" : "black"}" data-code="${code}">` +
      `${F.esc(F.cardShort(code))}</span>`).join(" ");
  }

  function renderPlayRecord(step) {
    const moves = state.moves.filter((move) => move.step <= step);
    if (!moves.length) {
      el.play_record.innerHTML = `<p class="muted small">${F.esc(F.t("record.noPlay"))}</p>`;
      return;
    }
    const seats = boot.names.length;
    const rounds = [];
    moves.forEach((move) => {
      const row = (rounds[move.round] = rounds[move.round] || Array.from({ length: seats }, () => []));
      row[move.seat].push(move);
    });
    const cell = (move) => {
      const what = move.cards.length ? cardsText(move.cards) : `<span class="muted">${F.esc(F.t("play.pass"))}</span>`;
      const late = move.timeout ? ` <span class="tag foul">${F.esc(F.t("record.timeout"))}</span>` : "";
      return `<span class="move${move.step === step ? " now" : ""}" data-step="${move.step}">${what}${late}</span>`;
    };
    const head = boot.names.map((name, seat) => `<th>${F.esc(F.seatName(seat, name))}</th>`).join("");
    const body = rounds.map((row, index) => row && `<tr data-round="${index + 1}"><th class="num">${index + 1}</th>` +
      row.map((cellMoves) => `<td>${cellMoves.map(cell).join("<br>")}</td>`).join("") + "</tr>").filter(Boolean);
    const played = boot.names.map((_, seat) => `<td data-seat="${seat}">` +
      cardsText(moves.filter((move) => move.seat === seat).flatMap((move) => move.cards)) + "</td>").join("");
    el.play_record.innerHTML = `<div class="play-record-scroll"><table class="data compact play-record">` +
      `<thead><tr><th>${F.esc(F.t("record.round"))}</th>${head}</tr></thead><tbody>${body.join("")}</tbody>` +
      `<tfoot><tr class="played-so-far"><th>${F.esc(F.t("record.played"))}</th>${played}</tr></tfoot></table></div>`;
  }

  /* --- one step ------------------------------------------------------------------------------------------ */

  function anchorSeat() {
    return state.view.startsWith("seat:") ? parseInt(state.view.slice(5), 10) : 0;
  }

  function render(step) {
    const started = performance.now();
    const frames = state.data.frames;
    const frame = frames[step];
    renderer.render({
      frame, previous: step > 0 ? frames[step - 1] : null, names: boot.names, boot, anchor: anchorSeat(),
      viewpoint: state.view, closed: state.data.closed, table: el.table, info: el.info,
    });
    el.stepNo.textContent = step === 0 ? "" : step + ".";
    el.stepText.textContent = notationText(frame);
    el.notes.innerHTML = frame.annotations.map(F.noteHTML).join("");
    el.label.textContent = F.t("step.of", { k: step, n: state.data.total });
    if (state.moves.length) renderPlayRecord(step);
    el.slider.value = String(step);
    highlight(step);
    void el.table.offsetHeight; // force style and layout now, so the measured time includes them
    probe.renderTimes.push({ step, ms: performance.now() - started });
    document.body.dataset.step = String(step);
    document.body.dataset.viewpoint = state.view;
  }

  function go(step) {
    if (!state.data) return;
    state.step = Math.max(0, Math.min(state.data.total, step));
    render(state.step);
    writeURL();
  }

  /* --- loading a viewpoint --------------------------------------------------------------------------- */

  function framesURL(view) {
    return `${boot.frames_url}?viewpoint=${encodeURIComponent(view)}`;
  }

  async function load(view, step) {
    const ticket = ++state.loading; // a slower earlier answer must not overwrite a later choice
    state.view = view;
    state.step = step; // kept if this viewpoint is refused, for the next one tried
    state.data = null; // forget the previous viewpoint's frames before asking for the next
    markViewButtons();
    document.body.dataset.ready = "0";
    try {
      const data = await F.getJSON(framesURL(view));
      if (ticket !== state.loading) return;
      state.data = data;
    } catch (error) {
      if (ticket !== state.loading) return;
      // 401/403: the server will not show this viewpoint of a deal still in play to this reader (docs/SECURITY.md §4).
      const body = error.body && error.body.error;
      let key = error.status === 401 || error.status === 403 ? "error.hiddenView" : "error.load";
      if (error.status === 401 && F.token() && body && ["invalid_token", "revoked_token"].includes(body.code)) {
        F.setToken(null);
        showToken();
        key = "error.badToken";
      }
      const said = (field) => (body && body[field]) || error.message;
      state.refusal = { key, zh: said("message_zh"), en: said("message") };
      showRefusal();
      // Nothing of the previous viewpoint stays: its step in words, notes and counter went with its frames.
      el.stepNo.textContent = "";
      el.stepText.textContent = "";
      el.notes.innerHTML = "";
      el.label.textContent = "";
      el.playPanel.hidden = true;
      el.info.innerHTML = "";
      el.timeline.innerHTML = "";
      el.marks.innerHTML = "";
      document.body.dataset.ready = "error";
      return;
    }
    state.refusal = null;
    state.moves = playMoves(state.data.frames);
    el.playPanel.hidden = !state.moves.length;
    el.viewNote.hidden = !(view === "public" && state.data.closed);
    buildTimeline();
    go(step);
    document.body.dataset.total = String(state.data.total);
    document.body.dataset.ready = "1";
    scheduleFollow();
  }

  function showRefusal() {
    const { key, zh, en } = state.refusal;
    const offer = key !== "error.load" && el.token
      ? ` <button type="button" class="linkish" id="error-token">${F.esc(F.t("token.open"))}</button>` : "";
    const detail = F.lang() === "zh" ? zh : en;
    el.table.innerHTML = `<p class="error">${F.esc(F.t(key, { detail }))}${offer}</p>`;
  }

  /* --- following a deal in play ------------------------------------------------------------------------- */

  function scheduleFollow() {
    clearTimeout(state.follow);
    const still = state.finished || !!F.published(); // a published copy is what was public then: nothing to follow
    state.follow = null;
    el.following.hidden = still;
    if (still) {
      closeStream();
      return;
    }
    openStream();
    // The deal's stream tells each change (docs/streams.md); asking every FOLLOW_MS is the fallback while it is
    // down, and off with ?poll=0 (the browser tests show a page following by push alone).
    if (!(state.stream && state.stream.live()) && !F.pollingOff()) state.follow = setTimeout(follow, FOLLOW_MS);
  }

  function openStream() {
    const url = `${boot.deal_url}/stream?viewpoint=${encodeURIComponent(state.view)}`;
    if (state.stream && state.streamURL === url) return;
    closeStream();
    state.streamURL = url;
    state.stream = F.stream(url, (name, data) => {
      if (name === "deal" && (data.version !== state.version || data.closed)) followNow();
    }, () => scheduleFollow());
  }

  function closeStream() {
    if (state.stream) state.stream.close();
    state.stream = null;
    state.streamURL = null;
  }

  /* A pushed change: read the deal now, once at a time (a change told meanwhile reads again after). */
  async function followNow() {
    if (state.reading) {
      state.again = true;
      return;
    }
    state.reading = true;
    try {
      await follow();
    } finally {
      state.reading = false;
    }
    if (state.again) {
      state.again = false;
      followNow();
    }
  }

  async function follow() {
    const ticket = state.loading;
    let deal = null;
    let data = null;
    try {
      deal = await F.getJSON(boot.deal_url);
      if (deal.version !== state.version && state.data) data = await F.getJSON(framesURL(state.view));
    } catch (error) {
      if (error.status === 401 && F.token()) {
        load(state.view, state.step); // the token was revoked meanwhile: the reload says so and drops it
        return;
      }
      // Otherwise a dropped connection or a restarting server: ask again at the next tick.
      if (ticket === state.loading) scheduleFollow();
      return;
    }
    if (ticket !== state.loading) return; // another viewpoint was chosen meanwhile; its load follows on
    if (data && state.data) {
      const atEnd = state.step >= state.data.total;
      state.data = data;
      state.version = deal.version;
      el.viewNote.hidden = !(state.view === "public" && data.closed);
      state.moves = playMoves(data.frames);
      el.playPanel.hidden = !state.moves.length;
      buildTimeline();
      go(atEnd ? data.total : state.step);
      document.body.dataset.total = String(data.total);
    }
    if (deal.finished && !state.finished) {
      state.finished = true;
      el.status.className = "badge over";
      el.status.innerHTML = F.bilingualHTML("status.over");
    }
    scheduleFollow();
  }

  /* --- a token for the hidden views of a deal in play ----------------------------------------------------- */

  function showToken() {
    if (!el.token) return;
    const held = !!F.token();
    $("token-none").hidden = held;
    $("token-held").hidden = !held;
    $("token-forget").hidden = !held;
  }

  if (el.token) {
    $("token-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("token-input");
      F.setToken(input.value.trim());
      input.value = "";
      el.token.open = false;
      showToken();
      load(state.view, state.step);
    });
    $("token-forget").addEventListener("click", () => {
      F.setToken(null);
      el.token.open = false;
      showToken();
      load("public", state.step); // back to what anyone may see
    });
    el.table.addEventListener("click", (event) => {
      if (event.target.closest("#error-token")) {
        el.token.open = true;
        $("token-input").focus();
      }
    });
    showToken();
  }

  /* --- autoplay -------------------------------------------------------------------------------------- */

  function stop() {
    if (state.timer !== null) clearInterval(state.timer);
    state.timer = null;
    el.play.classList.remove("playing");
    el.play.dataset.i18nTitle = "ctl.play";
    el.play.title = F.t("ctl.play");
    el.play.setAttribute("aria-label", F.t("ctl.play"));
  }

  function start() {
    if (!state.data) return;
    if (state.step >= state.data.total) go(0);
    el.play.classList.add("playing");
    el.play.dataset.i18nTitle = "ctl.pause";
    el.play.title = F.t("ctl.pause");
    el.play.setAttribute("aria-label", F.t("ctl.pause"));
    state.timer = setInterval(() => {
      if (state.step >= state.data.total) stop();
      else go(state.step + 1);
    }, parseInt(el.speed.value, 10));
  }

  function toggle() {
    if (state.timer === null) start();
    else stop();
  }

  /* --- wiring ---------------------------------------------------------------------------------------- */

  $("btn-first").addEventListener("click", () => go(0));
  $("btn-prev").addEventListener("click", () => go(state.step - 1));
  $("btn-next").addEventListener("click", () => go(state.step + 1));
  $("btn-last").addEventListener("click", () => go(state.data ? state.data.total : 0));
  el.play.addEventListener("click", toggle);
  el.speed.addEventListener("change", () => {
    if (state.timer !== null) {
      stop();
      start();
    }
  });
  el.slider.addEventListener("input", () => go(parseInt(el.slider.value, 10)));
  el.timeline.addEventListener("click", (event) => {
    const item = event.target.closest("li[data-step]");
    if (item) go(parseInt(item.dataset.step, 10));
  });
  el.marks.addEventListener("click", (event) => {
    const mark = event.target.closest("[data-step]");
    if (mark) go(parseInt(mark.dataset.step, 10));
  });
  el.viewpoints.addEventListener("click", (event) => {
    const button = event.target.closest("[data-view]");
    if (button && button.dataset.view !== state.view) load(button.dataset.view, state.step);
  });

  const KEYS = {
    ArrowLeft: () => go(state.step - 1),
    ArrowRight: () => go(state.step + 1),
    Home: () => go(0),
    End: () => go(state.data ? state.data.total : 0),
    " ": toggle,
  };
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target.matches("select, textarea, input:not([type=range])");
    // Space on a focused button already clicks it; handling it here as well would toggle twice.
    if (typing || event.altKey || event.ctrlKey || event.metaKey || (event.key === " " && target.matches("button"))) {
      return;
    }
    const action = KEYS[event.key];
    if (!action) return;
    event.preventDefault(); // the slider would move on its own as well, and the page would scroll
    action();
  });

  window.addEventListener("resize", () => {
    if (state.data) stackMarks();
  });

  document.addEventListener("fupan:lang", () => {
    if (!state.data) {
      if (state.refusal) showRefusal();
      return;
    }
    buildTimeline();
    render(state.step);
  });

  // For the browser tests: another viewpoint or step of this page without a reload (a promise, then a step).
  probe.load = load;
  probe.go = go;

  const initial = readURL();
  load(initial.view, initial.step);
})();
