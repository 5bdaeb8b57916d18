/* The board of variations (templates/board.html, replay_ui/viewer/board.py; docs/analysis.md "The board of
 * variations"). From a step of a deal: every hand and the play to beat; each play of the seat to act with its
 * verdict under perfect open-hand play, filled in as the analysis API answers (in the background, one question at a
 * time, never blocking the page; a play the answer did not settle is marked 未证, never 胜/负); variations that
 * branch at any node and form a tree, replayed step by step, renamed, deleted, and — in an appeal — attached to it.
 *
 * Where the tree lives: this browser's localStorage, keyed by the deal (or the appeal) and the starting step
 * (`fupan.board/<scope>/<step>`), saved at every change, so nothing is lost when the network drops or the page is
 * reloaded. Only the actions are kept; hands and verdicts are asked again.
 *
 * In an appeal (boot.blind) the board is part of the result-blind review: its routes are the appeal's (the
 * sandbox, its analysis, its lines), it stops at the judged step and shows nothing of the deal after it.
 *
 * For tests and tools: #board[data-state=loading|ready|error][data-node][data-path-length]; each play
 * li[data-play] with data-type, data-cards (codes) and data-verdict (pending|win|lose|unproven|points); the
 * verdict line #board-verdict[data-state]; a card of the hand to act tapped: .board-pick [data-card].selected; each tree node button[data-node] (.current, data-forced, data-solver),
 * each variation .board-line[data-line] with data-label. */
(function () {
  "use strict";
  const F = window.Fupan;
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  if (!board) return;
  const boot = JSON.parse($("board-boot").textContent);
  F.seatMarks = boot.seat_marks;
  const names = boot.names;
  const LONGER_MS = 10000;
  const STORE_KEY = `fupan.board/${boot.scope}/${boot.step}`;

  /* --- the tree ---------------------------------------------------------------------------------------------- */

  function emptyTree() {
    return { version: 1, next: 1, lines: 0, root: { id: 0, children: [] }, current: 0 };
  }

  function loadTree() {
    try {
      const kept = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
      if (kept && kept.version === 1 && kept.root) return kept;
    } catch (e) {
      /* storage refused or unreadable: a new tree */
    }
    return emptyTree();
  }

  const tree = loadTree();
  const parents = new Map(); // node id → parent node
  const byId = new Map();

  function index() {
    parents.clear();
    byId.clear();
    const walk = (node, parent) => {
      byId.set(node.id, node);
      if (parent) parents.set(node.id, parent);
      node.children.forEach((child) => walk(child, node));
    };
    walk(tree.root, null);
    if (!byId.has(tree.current)) tree.current = 0;
  }

  function save() {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(tree));
    } catch (e) {
      /* storage refused: the tree lives in this page only */
    }
  }

  const node = (id) => byId.get(id);
  const current = () => node(tree.current);

  function path(of) {
    const nodes = [];
    for (let at = of; at && at.id !== 0; at = parents.get(at.id)) nodes.unshift(at);
    return nodes;
  }

  const actionsTo = (of) => path(of).map((n) => n.action);

  /* The variation a node belongs to: its head, the first node of the chain that holds it (a child of the start,
   * or a child that is not its parent's first). */
  function headOf(of) {
    let at = of;
    while (at && at.id !== 0) {
      const parent = parents.get(at.id);
      if (parent.id === 0 || parent.children[0] !== at) return at;
      at = parent;
    }
    return null;
  }

  const sameAction = (a, b) => a.seat === b.seat && a.type === b.type &&
    (a.cards || []).join(" ") === (b.cards || []).join(" ") && (a.value === undefined || a.value === b.value);

  /* Add `actions` below `from` (following nodes already there); returns the last node. */
  function grow(from, actions, mark) {
    let at = from;
    actions.forEach((action, i) => {
      let child = at.children.find((c) => sameAction(c.action, action));
      if (!child) {
        child = { id: tree.next++, action, children: [] };
        Object.assign(child, mark ? mark(i) : {});
        if (at.id === 0 || at.children.length) child.line = ++tree.lines; // a new variation
        at.children.push(child);
        byId.set(child.id, child);
        parents.set(child.id, at);
      }
      at = child;
    });
    return at;
  }

  /* --- the server's answers: each node's board (hands, plays) and its analysis --------------------------------- */

  const states = new Map(); // actions key → the board's answer at that node
  const analyses = new Map(); // actions key → the analysis answer
  const keyOf = (actions) => JSON.stringify(actions);
  const body = (actions, extra) => ({ [boot.step_field]: boot.step, actions, ...extra });
  const ask = (actions, forced) => body(actions, { forced, list_plays: true });

  class Refused extends Error {
    constructor(refusal, status) {
      super((F.lang() === "zh" ? refusal.message_zh : refusal.message) || refusal.message || String(status));
      this.code = refusal.code || String(status);
      this.status = status;
    }
  }

  async function post(url, payload, write) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (write) headers["Idempotency-Key"] = `board-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    if (F.token()) headers.Authorization = `Bearer ${F.token()}`;
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(payload) });
    const answer = await response.json().catch(() => null);
    if (!response.ok) throw new Refused((answer && answer.error) || {}, response.status);
    return answer;
  }

  async function stateOf(actions) {
    const key = keyOf(actions);
    if (!states.has(key)) states.set(key, await post(boot.variation_url, ask(actions, false)));
    return states.get(key);
  }

  /* One analysis at a time (the server's cores are the venue's): the node on show first, then the others asked. */
  const queue = [];
  let running = false;

  function analyse(actions, limit) {
    const key = keyOf(actions);
    const known = analyses.get(key);
    if (known && !(limit && known.too_large && (known.limit || 0) < limit)) return;
    const waiting = queue.findIndex((item) => item.key === key);
    if (waiting >= 0) queue.splice(waiting, 1);
    queue.unshift({ key, actions, limit }); // the latest asked is the one on show
    pump();
  }

  async function pump() {
    if (running || !queue.length) return;
    running = true;
    const item = queue.shift();
    board.dataset.analysing = "1";
    try {
      const answer = await post(boot.analysis_url, body(item.actions, item.limit ? { limit_ms: item.limit } : {}));
      answer.limit = item.limit || 0;
      analyses.set(item.key, answer);
    } catch (error) {
      analyses.set(item.key, { refused: error.message });
    } finally {
      running = false;
      board.dataset.analysing = queue.length ? "1" : "0";
      if (keyOf(actionsTo(current())) === item.key) showAnalysis();
      pump();
    }
  }

  /* --- drawing ------------------------------------------------------------------------------------------------ */

  const who = (seat) => F.seatName(seat, names[seat]);
  const cardsOf = (action) => (action && action.type === "play" ? action.cards || [] : []);

  function actionWords(action) {
    if (action.type === "play") return cardsOf(action).map(F.cardShort).join(" ");
    if (action.type === "pass") return F.t("analysis.pass");
    if (action.type === "bid") return F.t("pad.act.bid", { value: action.value });
    return F.t(`pad.act.${action.type}`);
  }

  function actionHTML(action) {
    if (action.type === "play") return `<span class="cards">${F.cardsHTML(cardsOf(action), "sm")}</span>`;
    return `<span class="pass">${F.esc(actionWords(action))}</span>`;
  }

  const namedScores = (scores) => scores.map((score, seat) => `${names[seat]} ${score > 0 ? "+" : ""}${score}`).join(" · ");

  function say(text) {
    $("board-said").textContent = text || "";
  }

  let shown = null; // the board's answer on show

  function showHands(answer) {
    const view = answer.view;
    const toAct = answer.scores ? null : answer.status.to_act;
    $("board-hands").innerHTML = view.seats.map((seat, i) => {
      const hand = seat.hand || [];
      return `<div class="board-seat${i === toAct ? " to-act" : ""}" data-seat="${i}">` +
        `<div class="board-seat-name">${F.esc(F.counted("board.hand", hand.length, { name: who(i), count: hand.length }))}</div>` +
        `<div class="hand${i === toAct ? " board-pick" : ""}">${F.cardsHTML(hand, "sm")}</div></div>`;
    }).join("");
    const plays = (view.round && view.round.plays) || [];
    const beat = [...plays].reverse().find((p) => p.type === "play");
    let round = "";
    if (toAct !== null && toAct !== undefined) {
      round = beat && beat.seat !== toAct
        ? `${F.esc(F.t("board.beat", { name: who(beat.seat) }))} ${actionHTML(beat)} · ${F.esc(F.t("board.toAct", { name: who(toAct) }))}`
        : F.esc(F.t("board.lead", { name: who(toAct) }));
    }
    $("board-round").innerHTML = round;
    picked.clear();
    $("board-hands").querySelectorAll(".board-pick [data-card]").forEach((card, i) => { card.dataset.index = String(i); });
    $("board-pick-note").hidden = toAct === null || toAct === undefined;
  }

  /* Cards tapped in the hand of the seat to act: they narrow a long list of plays to those that hold them (the
   * same ranks, in the games where suits never matter to a play); where the game lists no plays (升级 past the
   * analysis's endgames), they are the play, judged by the rules engine when sent. */
  const picked = new Set();

  function pickedCards() {
    const hand = (shown && shown.view.seats[shown.status.to_act] || {}).hand || [];
    return [...picked].sort((a, b) => a - b).map((i) => hand[i]);
  }

  function holds(play, cards) {
    const key = boot.suitless ? F.rankOf : (code) => code;
    const left = cardsOf(play).map(key);
    return cards.map(key).every((card) => {
      const at = left.indexOf(card);
      if (at < 0) return false;
      left.splice(at, 1);
      return true;
    });
  }

  function verdictOf(play, analysis) {
    if (!analysis || analysis.refused || analysis.not_in_play) return { state: "pending" };
    const move = (analysis.moves || []).find((m) => sameAction(m.action, play));
    if (move && "points" in move) return { state: "points", points: move.points };
    if (move) return { state: move.wins ? "win" : "lose" };
    if (analysis.loading) return { state: "pending" };
    return { state: "unproven" }; // in `unproven`, or an answer that proved nothing of it
  }

  function verdictHTML(verdict) {
    const words = { pending: F.t("board.pending"), win: F.t("analysis.win"), lose: F.t("analysis.lose"),
      unproven: F.t("board.unproven"), points: F.t("analysis.pointsShort", { points: verdict.points }) };
    return `<span class="verdict ${verdict.state}">${F.esc(words[verdict.state])}</span>`;
  }

  function showPlays(answer) {
    const analysis = analyses.get(keyOf(actionsTo(current())));
    const list = $("board-plays");
    const plays = answer.scores ? [] : answer.plays || [];
    let anyUnproven = false;
    const cards = pickedCards();
    list.innerHTML = plays.map((play, i) => {
      if (cards.length && !holds(play, cards)) return "";
      const verdict = verdictOf(play, analysis);
      if (verdict.state === "unproven") anyUnproven = true;
      const chosen = current().children.some((c) => sameAction(c.action, play));
      return `<li data-play="${i}" data-type="${F.esc(play.type)}" data-cards="${F.esc(cardsOf(play).join(" "))}" ` +
        `data-verdict="${verdict.state}"${verdict.state === "points" ? ` data-points="${verdict.points}"` : ""}>` +
        `<button type="button" class="board-play${chosen ? " chosen" : ""}">${verdictHTML(verdict)}${actionHTML(play)}</button></li>`;
    }).join("");
    if (!answer.scores && !plays.length) {
      // Bidding and the like (no analysis): the rules' own choices, those that carry no cards.
      const offered = (answer.choices || []).filter((c) => !c.typed.length && c.action.type !== "timeout");
      list.innerHTML = offered.length ? offered.map((c, i) => `<li data-choice="${i}" data-type="${F.esc(c.action.type)}">` +
        `<button type="button" class="board-play">${F.esc(c.cards !== null ? F.t("board.playPicked")
          : actionWords({ seat: c.seat, ...c.action }))}</button></li>`).join("")
        : `<li class="muted">${F.esc(F.t("board.noPlays"))}</li>`;
    }
    $("board-unproven-note").hidden = !anyUnproven;
    const ended = answer.scores && (tree.current !== 0 || !boot.blind); // the judged step never says how it ended
    $("board-ended").hidden = !ended;
    $("board-ended").textContent = ended ? F.t("board.ended", { scores: namedScores(answer.scores) }) : "";
  }

  function showAnalysis() {
    const verdict = $("board-verdict");
    const analysis = analyses.get(keyOf(actionsTo(current())));
    if (shown) showPlays(shown);
    if (!shown || shown.scores) {
      verdict.dataset.state = "none";
      verdict.textContent = "";
      return;
    }
    if (!analysis || analysis.loading) {
      verdict.dataset.state = "loading";
      verdict.innerHTML = `<span class="spinner" aria-hidden="true"></span>${F.esc(F.t("board.computing"))}`;
      return;
    }
    if (analysis.refused) {
      verdict.dataset.state = "error";
      verdict.textContent = F.t("board.refused", { detail: analysis.refused });
      return;
    }
    if (analysis.not_in_play) {
      verdict.dataset.state = "not-in-play";
      verdict.textContent = F.t("board.notInPlay");
      return;
    }
    if (analysis.too_large) {
      verdict.dataset.state = "too-large";
      verdict.innerHTML = F.esc(F.t("board.tooLarge")) + (analysis.limit < LONGER_MS
        ? ` <button type="button" class="button" id="board-longer">${F.esc(F.t("board.longer"))}</button>` : "");
      return;
    }
    const side = F.t(`analysis.side.${analysis.side}`);
    const words = ("points" in analysis ? `${F.t("analysis.points", { points: analysis.points })} · ` : "") +
      F.t(analysis.side_wins ? "analysis.sideWins" : "analysis.sideLoses", { side });
    verdict.dataset.state = analysis.partial ? "partial" : "answer";
    verdict.dataset.sideWins = String(analysis.side_wins);
    verdict.textContent = `${F.t("analysis.toAct", { who: who(analysis.to_act), side })}${F.t("punct.colon")}${words}`;
  }

  function moveLabel(n) {
    return `${who(n.action.seat)} ${actionWords(n.action)}`;
  }

  function lineName(head) {
    return head.label || F.t("board.lineName", { n: head.line });
  }

  /* The tree as lichess draws it: each variation a block of its moves in order; a variation that branches off
   * another is drawn under it, indented, saying where it branches. */
  function chainHTML(head, depth) {
    const chain = [];
    for (let at = head; at; at = at.children[0]) chain.push(at);
    const moves = chain.map((n) => {
      const cls = ["board-move", n.id === tree.current ? "current" : "", n.forced ? "forced" : "", n.solver ? "solver" : ""];
      const tags = (n.forced ? ` <span class="tag">${F.esc(F.t("board.forced"))}</span>` : "") +
        (n.solver && !(parents.get(n.id) || {}).solver ? ` <span class="tag solver">${F.esc(F.t("board.solverTag"))}</span>` : "");
      return `<button type="button" class="${cls.filter(Boolean).join(" ")}" data-node="${n.id}"` +
        `${n.forced ? " data-forced" : ""}${n.solver ? " data-solver" : ""}>${F.esc(moveLabel(n))}${tags}</button>`;
    }).join("");
    const parent = parents.get(head.id);
    const where = parent && parent.id !== 0 ? ` <span class="muted small">${F.esc(F.t("board.branch", { move: moveLabel(parent) }))}</span>` : "";
    const attached = head.attached ? ` <span class="tag attached" data-attached="${head.attached}">${F.esc(F.t("board.attached", { n: head.attached }))}</span>` : "";
    let html = `<div class="board-line" data-line="${head.line}" data-head="${head.id}" data-label="${F.esc(lineName(head))}" style="--depth:${depth}">` +
      `<div class="board-line-name">${F.esc(lineName(head))}${where}${attached}</div><div class="board-moves">${moves}</div></div>`;
    chain.forEach((n) => n.children.slice(1).forEach((child) => { html += chainHTML(child, depth + 1); }));
    return html;
  }

  function showTree() {
    const start = `<button type="button" class="board-move${tree.current === 0 ? " current" : ""}" data-node="0">` +
      `${F.esc(F.t("board.start"))} · ${F.esc(F.t("board.from", { step: boot.step }))}${boot.blind && boot.step === boot.judged ? ` (${F.esc(F.t("board.judged"))})` : ""}</button>`;
    $("board-tree").innerHTML = `<div class="board-root">${start}</div>` +
      (tree.root.children.length ? tree.root.children.map((head) => chainHTML(head, 0)).join("")
        : `<p class="muted small">${F.esc(F.t("board.empty"))}</p>`);
    const head = headOf(current());
    $("board-line-tools").hidden = !head || !!head.attached;
    if (head && document.activeElement !== $("board-label")) $("board-label").value = lineName(head);
    // The tree's box scrolls to its current move, the page never: on a phone's one column, scrollIntoView would
    // carry the hands and the plays just tapped off screen at every play.
    const box = $("board-tree");
    const here = box.querySelector(".board-move.current");
    if (here) {
      const outer = box.getBoundingClientRect();
      const inner = here.getBoundingClientRect();
      if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top;
      else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
    }
  }

  let ticket = 0;

  /* Show the node `id`: its board (asked of the server once), its analysis (asked in the background). */
  async function go(id) {
    tree.current = id;
    save();
    showTree();
    board.dataset.node = String(id);
    const actions = actionsTo(current());
    board.dataset.pathLength = String(actions.length);
    const mine = ++ticket;
    board.dataset.state = "loading";
    try {
      const answer = await stateOf(actions);
      if (mine !== ticket) return;
      shown = answer;
      showHands(answer);
      if (!answer.scores && answer.plays) analyse(actions);
      showAnalysis();
      board.dataset.state = "ready";
      say("");
    } catch (error) {
      if (mine !== ticket) return;
      board.dataset.state = "error";
      say(error.status === 401 ? F.t("board.token") : F.t("board.refused", { detail: error.message }));
    }
  }

  /* A play chosen at the node on show: a new node (a new variation if the node already had one), then the passes
   * nobody can avoid after it, played by the server. */
  async function play(action) {
    const at = current();
    const known = at.children.find((c) => sameAction(c.action, action));
    if (known) return go(known.id);
    board.dataset.state = "loading";
    try {
      const actions = [...actionsTo(at), action];
      const answer = await post(boot.variation_url, ask(actions, true));
      const added = answer.actions.slice(actionsTo(at).length);
      const forcedFrom = added.length - (answer.forced || 0);
      const last = grow(at, added, (i) => (i >= forcedFrom ? { forced: true } : {}));
      states.set(keyOf(answer.actions), answer);
      save();
      return go(last.id);
    } catch (error) {
      board.dataset.state = "ready";
      say(error.message);
    }
  }

  /* --- controls ----------------------------------------------------------------------------------------------- */

  $("board-plays").addEventListener("click", (event) => {
    const item = event.target.closest("li[data-play], li[data-choice]");
    if (!item || !shown) return;
    if (item.dataset.play !== undefined) {
      play(shown.plays[parseInt(item.dataset.play, 10)]);
    } else {
      const offered = shown.choices.filter((c) => !c.typed.length && c.action.type !== "timeout");
      const choice = offered[parseInt(item.dataset.choice, 10)];
      play({ seat: choice.seat, ...choice.action, ...(choice.cards !== null ? { cards: pickedCards() } : {}) });
    }
  });
  $("board-hands").addEventListener("click", (event) => {
    const card = event.target.closest(".board-pick [data-card]");
    if (!card || !shown) return;
    const i = parseInt(card.dataset.index, 10);
    if (picked.has(i)) picked.delete(i);
    else picked.add(i);
    card.classList.toggle("selected", picked.has(i));
    showPlays(shown);
  });
  $("board-tree").addEventListener("click", (event) => {
    const button = event.target.closest("[data-node]");
    if (button) go(parseInt(button.dataset.node, 10));
  });
  $("board-verdict").addEventListener("click", (event) => {
    if (event.target.id === "board-longer") {
      const actions = actionsTo(current());
      analyses.set(keyOf(actions), { loading: true });
      showAnalysis();
      analyse(actions, LONGER_MS);
    }
  });
  $("board-first").addEventListener("click", () => go(0));
  $("board-prev").addEventListener("click", () => {
    const parent = parents.get(tree.current);
    if (parent) go(parent.id);
  });
  /* Forward along the variation on show: the child last left (so ◀ then ▶ replays the same line), else the first. */
  const nextOf = (n) => n.children.find((c) => c.id === n.via) || n.children[0];
  $("board-next").addEventListener("click", () => {
    const next = nextOf(current());
    if (next) go(next.id);
  });
  $("board-last").addEventListener("click", () => {
    let at = current();
    while (nextOf(at)) at = nextOf(at);
    go(at.id);
  });
  // Remember, at each node, which child the path on show goes through.
  const remember = () => path(current()).forEach((n) => { parents.get(n.id).via = n.id; });
  board.addEventListener("click", remember, true);

  $("board-rename").addEventListener("click", () => {
    const head = headOf(current());
    if (!head || head.attached) return;
    head.label = $("board-label").value.trim() || undefined;
    save();
    showTree();
  });
  $("board-delete").addEventListener("click", () => {
    const head = headOf(current());
    if (!head || head.attached) return;
    const parent = parents.get(head.id);
    parent.children = parent.children.filter((c) => c !== head);
    index();
    save();
    go(parent.id);
  });

  /* The solver's line from the node on show, added to the tree as a variation marked 求解器: shown (and replayed)
   * before anything is kept. Only a proven line to the deal's end is offered. */
  $("board-solve").addEventListener("click", () => {
    const analysis = analyses.get(keyOf(actionsTo(current())));
    if (!analysis || analysis.too_large || analysis.refused || !analysis.line || !analysis.line.length ||
        analysis.line_complete === false) {
      say(F.t("board.solveNone"));
      return;
    }
    say("");
    const last = grow(current(), analysis.line, () => ({ solver: true }));
    save();
    go(last.id);
  });

  /* Attach the variation on show to the appeal (POST …/lines): its moves to its end; a tail played by the solver
   * is sent as the solver's part (`complete`), so the appeal keeps it as the solver's. */
  if ($("board-attach")) {
    $("board-attach").addEventListener("click", async () => {
      say("");
      let leaf = current();
      while (leaf.children[0]) leaf = leaf.children[0];
      const nodes = path(leaf);
      const head = headOf(leaf);
      if (!nodes.length || !head) return say(F.t("board.attachUnfinished"));
      const firstSolver = nodes.findIndex((n) => n.solver);
      const solverTail = firstSolver >= 0 && nodes.slice(firstSolver).every((n) => n.solver);
      const actions = nodes.slice(0, solverTail ? firstSolver : nodes.length).map((n) => n.action);
      try {
        if (!solverTail && !(await stateOf(nodes.map((n) => n.action))).scores) return say(F.t("board.attachUnfinished"));
        const appeal = await post(boot.lines_url, { from_step: boot.step, actions, label: lineName(head),
          ...(solverTail ? { complete: true } : {}) }, true);
        const kept = appeal.lines[appeal.lines.length - 1];
        head.attached = kept.index + 1;
        save();
        showTree();
        const shownLine = nodes.map((n) => n.action);
        const same = kept.actions && kept.actions.length === shownLine.length &&
          kept.actions.every((a, i) => sameAction(a, shownLine[i]));
        say(`${F.t("board.attached", { n: head.attached })}${kept.scores ? ` · ${namedScores(kept.scores)}` : ""}` +
          (same ? "" : ` · ${F.t("board.solverDiffers")}`));
        board.dataset.attached = String(head.attached);
      } catch (error) {
        say(error.message);
      }
    });
  }

  F.stepChooser($("board-step")); // the start step picked by what happened there (fupan.js)
  $("board-start").addEventListener("submit", (event) => {
    event.preventDefault();
    const step = Math.max(0, Math.min(parseInt($("board-step").value, 10) || 0, boot.last_step));
    location.assign(`${location.pathname}?step=${step}`);
  });
  document.addEventListener("fupan:lang", () => {
    showTree();
    if (shown) {
      showHands(shown);
      showAnalysis();
    }
  });

  index();
  go(tree.current);
})();
