/* The 分析 panel of the deal viewer (templates/analysis.html; docs/analysis.md): at the step on show, every play of
 * the seat to act marked 胜/负 (升级: the attackers' points) under perfect open-hand play, the side's verdict and
 * one best line — the answer of GET /api/deals/<id>/analysis?step=k, the same as `fupan analyse`.
 *
 * Lazy: nothing is asked until the panel is opened; then the step on show is analysed, and again whenever the
 * step changes while it is open. Answers are kept per step (the position after k entries never changes). A deal
 * in play is analysed only with a referee's or the organiser's token (Fupan.getJSON sends the one kept in this
 * tab); the refusal is shown as the server words it.
 *
 * For tests and tools the panel says what it shows: #analysis[data-state=loading|answer|too-large|not-in-play|
 * error][data-step=k]; each move li[data-move] with data-type (play|pass), data-cards (codes, space-separated)
 * and data-wins (true|false) or data-points; each line entry li[data-line] with data-seat and data-cards. */
(function () {
  "use strict";

  const F = window.Fupan;
  const viewer = window.fupanViewer;
  const panel = document.getElementById("analysis");
  if (!panel || !viewer) return;
  if (F.published()) {
    panel.hidden = true; // a published copy has no server to compute on
    return;
  }
  const body = document.getElementById("analysis-body");
  const boot = JSON.parse(document.getElementById("deal-boot").textContent);
  const LONGER_MS = 10000; // the API's most (api/schemas.py AnalysisQuerySchema)
  const answers = new Map(); // "step/limit" → the answer, or {refused} for a refusal
  let ticket = 0;

  function setState(state, step) {
    panel.dataset.state = state;
    panel.dataset.step = String(step);
  }

  function who(seat) {
    const name = boot.names && boot.names[seat];
    return F.seatName(seat, name); // the player's name (升级: with 东南西北), never a seat number
  }

  function cardsOf(action) {
    return action && action.type === "play" ? action.cards || [] : [];
  }

  /* Whether `action` (a move of the answer) is the play made at the table next: the same cards, or in the games
   * where suits never matter to a play, the same ranks. */
  function isPlayed(action, made) {
    if (!made || made.seat !== action.seat || made.type !== action.type) return false;
    const key = boot.suitless ? F.rankOf : (code) => code; // the same ranks in other suits are one play
    const a = cardsOf(action).map(key).sort().join(" ");
    const b = cardsOf(made).map(key).sort().join(" ");
    return a === b;
  }

  function actionHTML(action) {
    if (action.type === "pass") return `<span class="pass">${F.esc(F.t("analysis.pass"))}</span>`;
    return `<span class="cards">${F.cardsHTML(cardsOf(action), "sm")}</span>`;
  }

  function moveHTML(move, made) {
    const action = move.action;
    const points = "points" in move;
    const verdict = points
      ? `<span class="verdict points">${F.esc(F.t("analysis.pointsShort", { points: move.points }))}</span>`
      : `<span class="verdict ${move.wins ? "win" : "lose"}">${F.esc(F.t(move.wins ? "analysis.win" : "analysis.lose"))}</span>`;
    const attrs = points ? `data-points="${move.points}"` : `data-wins="${move.wins}"`;
    const played = isPlayed(action, made) ? `<span class="played">${F.esc(F.t("analysis.played"))}</span>` : "";
    return `<li data-move data-type="${F.esc(action.type)}" data-cards="${F.esc(cardsOf(action).join(" "))}" ${attrs}>` +
      `${verdict}${actionHTML(action)}${played}</li>`;
  }

  function lineHTML(action) {
    return `<li data-line data-seat="${action.seat}" data-cards="${F.esc(cardsOf(action).join(" "))}">` +
      `<span class="who">${F.esc(who(action.seat))}</span>${actionHTML(action)}</li>`;
  }

  function sideName(side) {
    // A partnership game's team (大怪路子: team0 = seats 0·2·4) by its team's name or its players, never 甲队.
    const team = /^team(\d)$/.exec(side);
    if (team) {
      const seats = (boot.names || []).map((_, seat) => seat).filter((seat) => seat % 2 === Number(team[1]));
      return F.sideName(seats, boot.entries, boot.names);
    }
    return F.t(`analysis.side.${side}`);
  }

  function stats(answer) {
    return `<p class="muted small stats">${F.esc(F.t("analysis.stats", { nodes: answer.nodes, ms: answer.ms }))}</p>`;
  }

  function show(step, answer) {
    if (answer.refused) {
      setState("error", step);
      body.innerHTML = `<p class="error">${F.esc(F.t("analysis.refused", { detail: answer.refused[F.lang()] }))}</p>`;
      return;
    }
    if (answer.not_in_play) {
      setState("not-in-play", step);
      body.innerHTML = `<p>${F.esc(F.t("analysis.notInPlay", { phase: F.t(`pad.phase.${answer.phase}`) }))}</p>`;
      return;
    }
    if (answer.too_large) {
      setState("too-large", step);
      const longer = answer.limit < LONGER_MS
        ? `<button type="button" class="button" id="analysis-longer">${F.esc(F.t("analysis.longer"))}</button>` : "";
      body.innerHTML = `<p>${F.esc(F.t("analysis.tooLarge", { ms: Math.round(answer.ms), nodes: answer.nodes }))}</p>${longer}`;
      const button = document.getElementById("analysis-longer");
      if (button) button.addEventListener("click", () => refresh(LONGER_MS));
      return;
    }
    setState("answer", step);
    const frames = viewer.state.data && viewer.state.data.frames;
    const next = frames && frames[step + 1];
    const made = next && next.action;
    const side = sideName(answer.side);
    const verdict = "points" in answer
      ? F.t("analysis.points", { points: answer.points }) + " · " +
        F.t(answer.side_wins ? "analysis.sideWins" : "analysis.sideLoses", { side })
      : F.t(answer.side_wins ? "analysis.sideWins" : "analysis.sideLoses", { side });
    body.innerHTML =
      `<p class="analysis-verdict" data-side="${F.esc(answer.side)}" data-side-wins="${answer.side_wins}">` +
      `${F.esc(F.t("analysis.toAct", { who: who(answer.to_act), side }))}${F.esc(F.t("punct.colon"))}${F.esc(verdict)}</p>` +
      `<h3>${F.esc(F.t("analysis.moves"))}</h3>` +
      `<ol class="analysis-moves">${answer.moves.map((move) => moveHTML(move, made)).join("")}</ol>` +
      // A verdict proven before every play was settled: the plays not settled are named as such, never marked.
      (answer.unproven && answer.unproven.length
        ? `<p class="muted small analysis-unproven" data-unproven="${answer.unproven.length}">` +
          `${F.esc(F.t("analysis.unproven", { count: answer.unproven.length }))}</p>` : "") +
      `<h3>${F.esc(F.t("analysis.line"))}</h3>` +
      `<ol class="analysis-line">${answer.line.map(lineHTML).join("")}</ol>` + stats(answer);
  }

  async function refresh(limit) {
    if (!panel.open || !viewer.state.data) return;
    const step = viewer.state.step;
    const key = `${step}/${limit || ""}`;
    const mine = ++ticket; // an answer for a step no longer on show is kept, not shown
    if (answers.has(key)) {
      show(step, answers.get(key));
      return;
    }
    setState("loading", step);
    body.innerHTML = `<p role="status"><span class="spinner" aria-hidden="true"></span>${F.esc(F.t("analysis.computing"))}</p>`;
    const query = new URLSearchParams({ step: String(step) });
    if (limit) query.set("limit_ms", String(limit));
    let answer;
    try {
      answer = await F.getJSON(`${panel.dataset.url}?${query}`);
      answer.limit = limit || 0;
      answers.set(key, answer);
    } catch (error) {
      const refusal = error.body && error.body.error;
      answer = { refused: { zh: (refusal && refusal.message_zh) || error.message, en: (refusal && refusal.message) || error.message } };
      // A refused token is not kept (viewer.js drops one the frames refuse; the same here).
      if (error.status === 401 && F.token() && refusal && ["invalid_token", "revoked_token"].includes(refusal.code)) {
        F.setToken(null);
      }
    }
    if (mine === ticket) show(step, answer);
  }

  panel.addEventListener("toggle", () => refresh());
  // viewer.js writes the step on show into body[data-step] at every render.
  new MutationObserver(() => refresh()).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
  document.addEventListener("fupan:lang", () => refresh());
})();

/* The board of variations (static/board.js) opens at the step on show: its link follows the viewer's step. */
(function () {
  "use strict";
  const link = document.getElementById("board-link");
  if (!link) return;
  if (window.Fupan.published()) {
    link.hidden = true; // a published copy has no server to play variations on
    return;
  }
  const base = link.getAttribute("href").split("?")[0];
  const follow = () => link.setAttribute("href", `${base}?step=${document.body.dataset.step || 0}`);
  new MutationObserver(follow).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
  follow();
})();
