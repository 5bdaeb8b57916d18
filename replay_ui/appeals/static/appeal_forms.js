/* The appeal pages' forms (templates/appeal_forms.html, appeals.html, appeal_sandbox.html; docs/appeals.md):
 * filing, evidence, the ruling, the appeal to the committee, withdrawal, closing, and the what-if sandbox.
 *
 * Every step is the API's own route; the server decides who may and why not. A refusal shows the server's reason
 * in the page's language (`message_zh` / `message`) and stores nothing; a success reloads the appeal. The token
 * is kept in this tab's sessionStorage (Fupan.token), sent as a header, never put in a URL. */
(function () {
  "use strict";
  const F = window.Fupan;
  const $ = (id) => document.getElementById(id);

  /* --- the token ------------------------------------------------------------------------------------------ */

  let tokenChanged = () => {}; // the filing form reads its deal's steps again as the new token may see them

  function showToken() {
    tokenChanged();
    document.dispatchEvent(new CustomEvent("fupan:token")); // the step lists read the deal again as the token may see it
    const held = !!F.token();
    if ($("appeal-token-forget")) $("appeal-token-forget").hidden = !held;
    if ($("appeal-token-held")) $("appeal-token-held").hidden = !held;
    showMay();
  }

  /* Only the forms of the steps the tab's token may take (GET …/may: the server's own rules). Without a token
   * none but the committee's decision, which asks for the appeals token itself. */
  async function showMay() {
    const host = document.querySelector("[data-may-url]");
    if (!host) return;
    let may = {};
    if (F.token()) {
      try {
        may = await F.getJSON(host.dataset.mayUrl);
      } catch (error) {
        may = {}; // a token the server refuses may take no step
      }
    }
    document.querySelectorAll("section[data-may]").forEach((node) => {
      const step = node.dataset.may;
      node.hidden = step === "decision" ? !!F.token() && !may.decision : !may[step];
    });
    // The decision form asks for the appeals token only while the tab holds none that may decide.
    const asked = $("decision-token");
    if (asked) asked.closest("label").hidden = !!F.token() && !!may.decision;
    document.body.dataset.mayTake = Object.keys(may).filter((step) => may[step]).join(" ") || "-";
  }

  if ($("appeal-token-form")) {
    $("appeal-token-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("appeal-token-input");
      if (input.value.trim()) F.setToken(input.value.trim());
      input.value = "";
      showToken();
    });
    $("appeal-token-forget").addEventListener("click", () => {
      F.setToken(null);
      showToken();
    });
    showToken();
  }

  /* A refusal as the page's language says it: the server's own reason. */
  class Refused extends Error {
    constructor(refusal, status) {
      super((F.lang() === "zh" ? refusal.message_zh : refusal.message) || refusal.message || String(status));
      this.code = refusal.code || String(status);
    }
  }

  /* POST to the API with the tab's token; a write with an idempotency key (a resend stores nothing twice), a
   * question that stores nothing (the sandbox) without one, as a key is itself kept. */
  async function post(url, payload, asking) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (!asking) headers["Idempotency-Key"] = `page-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    if (F.token()) headers.Authorization = `Bearer ${F.token()}`;
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(payload) });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      if (response.status === 401 && F.token()) {
        F.setToken(null); // a token the server refuses is dropped at once
        showToken();
      }
      throw new Refused((body && body.error) || {}, response.status);
    }
    return body;
  }
  F.appealPost = post;

  /* The outcome a ruling or decision form describes (templates/appeal_outcome.html, fields `prefix`-…). */
  F.appealOutcome = function (prefix) {
    const kind = $(`${prefix}-kind`).value;
    if (kind === "weighted") {
      return { kind, parts: [...document.querySelectorAll(`.${prefix}-part`)].map((part) => ({
        weight: part.querySelector("[name=weight]").value.trim(),
        line: parseInt(part.querySelector("[name=line]").value, 10),
      })) };
    }
    if (kind === "assigned") {
      return { kind, scores: $(`${prefix}-scores`).value.split("/").map((s) => parseInt(s.trim(), 10)) };
    }
    if (kind === "penalty") {
      return { kind, player_ids: [$(`${prefix}-player`).value], points: parseInt($(`${prefix}-points`).value, 10) };
    }
    return { kind };
  };

  /* An outcome form shows the fields of the kind chosen only. */
  F.appealShowKind = function (prefix) {
    const select = $(`${prefix}-kind`);
    if (!select) return;
    const form = select.closest("form");
    const show = () => form.querySelectorAll("[data-for]").forEach((node) => {
      node.hidden = node.dataset.for !== select.value;
    });
    select.addEventListener("change", show);
    show();
  };

  /* --- the steps' forms ------------------------------------------------------------------------------------- */

  const host = document.querySelector(".appeal-forms");
  const appealBase = host ? `/api/appeals/${host.dataset.appeal}` : null;
  const value = (form, name) => (form.elements[name] ? form.elements[name].value.trim() : "");
  const whole = (form, name) => (value(form, name) === "" ? undefined : parseInt(value(form, name), 10));

  const stepsListed = (form) => !!form.querySelector("[data-steps=list]") && form.dataset.stepsRead !== "0";

  const STEPS = {
    file(form) {
      const kind = value(form, "kind");
      const against = { kind };
      if (value(form, "deal")) against.deal_id = value(form, "deal");
      // the step picked from the deal's steps in words, or typed while they cannot be read: its number either way
      const step = stepsListed(form) ? whole(form, "step") : whole(form, "step_number");
      if (["deal", "result"].includes(kind) && step !== undefined) against.step = step;
      if (kind === "ruling") against.version = whole(form, "version");
      if (kind === "penalty") against.adjustment_version = whole(form, "adjustment_version");
      const body = { against, category: value(form, "category"), statement: value(form, "statement"),
        on_behalf_of: [...form.querySelectorAll("[name=on_behalf_of]:checked")].map((box) => box.value) };
      if (value(form, "accept_late")) body.accept_late = value(form, "accept_late");
      return [`/api/matches/${value(form, "match")}/appeals`, body];
    },
    evidence(form) {
      const reference = form.elements.with_reference && form.elements.with_reference.checked
        ? { deal_id: value(form, "deal_id"), step: whole(form, "step"), viewpoint: value(form, "viewpoint") } : null;
      return [`${appealBase}/evidence`, { reference, note: value(form, "note") }];
    },
    response(form) {
      return [`${appealBase}/responses`, { statement: value(form, "statement"),
        on_behalf_of: [...form.querySelectorAll("[name=on_behalf_of]:checked")].map((box) => box.value) }];
    },
    ruling(form) {
      return [`${appealBase}/ruling`, { outcome: F.appealOutcome("ruling"), reason: value(form, "reason") }];
    },
    committee: (form) => [`${appealBase}/committee`, { reason: value(form, "reason") }],
    withdrawal: (form) => [`${appealBase}/withdrawal`, { reason: value(form, "reason") }],
    closing: (form) => [`${appealBase}/closing`, { note: value(form, "note") }],
  };

  document.querySelectorAll("form[data-appeal-form]").forEach((form) => {
    const said = form.querySelector(".appeal-said");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      said.textContent = "";
      delete said.dataset.refused;
      const button = form.querySelector("[type=submit]");
      button.disabled = true;
      try {
        const [url, body] = STEPS[form.dataset.appealForm](form);
        const answer = await post(url, body);
        // Filed: the new appeal's page; any other step: this appeal again, with the step in it.
        if (form.dataset.appealForm === "file") location.assign(`/appeals/${answer.appeal_id}`);
        else location.reload();
      } catch (error) {
        said.textContent = error.message;
        said.dataset.refused = error.code || "error";
        button.disabled = false;
      }
    });
  });
  F.appealShowKind("ruling");

  /* Filing: the deal list follows the table chosen, and the fields follow what is appealed. */
  const filing = $("file-form");
  if (filing) {
    const follow = () => {
      const match = value(filing, "match");
      const kind = value(filing, "kind");
      filing.querySelectorAll("[name=deal] option").forEach((option) => {
        option.hidden = option.dataset.forMatch !== "*" && option.dataset.forMatch !== match;
      });
      const chosen = filing.elements.deal.selectedOptions[0];
      if (chosen && chosen.hidden) filing.elements.deal.value = "";
      filing.querySelectorAll("[data-for-kind]").forEach((node) => {
        node.hidden = !node.dataset.forKind.split(" ").includes(kind)
          || (node.dataset.steps === "list" && !stepsListed(filing))
          || (node.dataset.steps === "number" && stepsListed(filing));
      });
    };

    /* The chosen deal's steps, each named by what happened there (第 4 步：王五 出 ♠3 ♣4 …), as the tab's token may
     * see the deal (the referee's view, else the public's: the server decides, with its broadcast delay). */
    let read = { deal: "", frames: [] };
    const drawSteps = () => {
      const select = filing.elements.step;
      const kept = select.value;
      select.innerHTML = `<option value="">—</option>` + F.stepOptions(read.frames);
      if (read.frames.some((frame) => String(frame.step) === kept)) select.value = kept;
    };
    const readSteps = async () => {
      const deal = value(filing, "deal");
      let answer = null;
      if (deal) {
        const url = (view) => `/ui-api/deals/${encodeURIComponent(deal)}/frames?viewpoint=${view}`;
        answer = await F.readSteps(F.token() ? [url("referee"), url("public")] : [url("public")]);
      }
      if (deal !== value(filing, "deal")) return; // another deal was chosen meanwhile
      read = { deal, frames: answer || [] };
      filing.dataset.stepsRead = !deal || answer ? "1" : "0";
      drawSteps();
      follow();
      if (deal) filing.dataset.stepsCount = String(read.frames.length); // what was read, for whoever waits on it
      else delete filing.dataset.stepsCount;
    };
    filing.elements.match.addEventListener("change", () => { follow(); readSteps(); });
    filing.elements.kind.addEventListener("change", follow);
    filing.elements.deal.addEventListener("change", readSteps);
    document.addEventListener("fupan:lang", drawSteps);
    tokenChanged = readSteps;
    follow();
    readSteps();
  }

  // The evidence's step and the sandbox's first step, picked by what happened there (fupan.js Fupan.stepChooser).
  document.querySelectorAll(".appeal-forms input[data-steps-from]").forEach((input) => F.stepChooser(input));

  /* --- the sandbox: a line built action by action among what the rules offer ------------------------------ */

  const box = $("sandbox");
  if (!box) return;
  const seats = JSON.parse(box.dataset.seats);
  const line = { from: 0, actions: [], answer: null, selected: new Set() };
  const said = $("sandbox-said");

  function actionLabel(choice, view) {
    const a = choice.action;
    if (a.type === "bid") return F.t("pad.act.bid", { value: a.value });
    if (a.type === "pass") return F.t(view.phase === "play" || view.phase === "playing" ? "pad.act.pass.play" : "pad.act.pass.bid");
    if (a.type === "reveal") return F.t(a.stage ? `pad.act.reveal.${a.stage}` : "pad.act.reveal");
    if (a.type === "declare" && a.kind) return F.t(`pad.act.declare.${a.kind}`);
    return F.t(`pad.act.${a.type}`);
  }

  function actionText(action) {
    const cards = (action.cards || []).map((code) => F.cardShort(code)).join(" ");
    const what = action.type === "play" ? cards : action.type === "pass" ? F.t("pad.act.pass.play")
      : action.type === "bid" ? F.t("pad.act.bid", { value: action.value }) : F.t(`pad.act.${action.type}`);
    return F.t("appeals.sandbox.action", { name: seats[action.seat], what });
  }

  /* Scores as people read them: each player's name with the score (张三 +2 · 李四 +2 · 王五 -6). */
  const namedScores = (scores) => scores.map((score, seat) => `${seats[seat]} ${score > 0 ? "+" : ""}${score}`).join(" · ");

  function render() {
    const answer = line.answer;
    $("sandbox-board").hidden = false;
    const toAct = answer.status.to_act;
    $("sandbox-to-act").textContent = answer.scores || toAct === null || toAct === undefined ? ""
      : F.t("appeals.sandbox.toAct", { name: seats[toAct] });
    const hand = answer.scores || toAct === null || toAct === undefined ? [] : answer.view.seats[toAct].hand || [];
    const carded = answer.choices.filter((c) => c.cards !== null && !c.typed.length);
    $("sandbox-hand").innerHTML = carded.length ? F.cardsHTML(hand, "sm pick") : "";
    $("sandbox-hand").querySelectorAll("[data-card]").forEach((card, index) => {
      card.dataset.index = String(index);
      card.classList.toggle("selected", line.selected.has(index));
    });
    $("sandbox-pick").hidden = !carded.length;
    const buttons = answer.choices.filter((c) => !c.typed.length).map((c, index) => {
      const label = c.cards !== null ? F.t("appeals.sandbox.playSelected") : actionLabel(c, answer.view);
      return `<button type="button" class="button" data-choice="${index}" data-type="${F.esc(c.action.type)}">${F.esc(label)}</button>`;
    });
    $("sandbox-choices").innerHTML = buttons.join(" ");
    $("sandbox-line").innerHTML = line.actions.length
      ? line.actions.map((action, index) => `<li data-line-action="${index}">${F.esc(actionText(action))}</li>`).join("")
      : `<li class="muted">${F.esc(F.t("appeals.sandbox.empty"))}</li>`;
    $("sandbox-result").hidden = !answer.scores;
    $("sandbox-result").textContent = answer.scores ? F.t("appeals.sandbox.result", { scores: namedScores(answer.scores) }) : "";
    $("sandbox-keep").disabled = !answer.scores;
    $("sandbox-solve").hidden = !!answer.scores;
    box.dataset.done = answer.scores ? "1" : "0";
    box.dataset.length = String(line.actions.length);
  }

  /* Ask the rules about the line with `actions`: kept only if the engine accepts every one (nothing stored). */
  async function ask(actions) {
    said.textContent = "";
    delete said.dataset.refused;
    box.dataset.busy = "1";
    try {
      const answer = await post(`${appealBase}/sandbox`, { from_step: line.from, actions }, true);
      line.actions = answer.actions;
      line.answer = answer;
      line.selected.clear();
      render();
    } catch (error) {
      said.textContent = error.message;
      said.dataset.refused = error.code || "error";
    } finally {
      box.dataset.busy = "0";
    }
  }

  $("sandbox-start").addEventListener("click", () => {
    line.from = parseInt($("sandbox-from").value, 10) || 0;
    ask([]);
  });
  $("sandbox-hand").addEventListener("click", (event) => {
    const card = event.target.closest("[data-card]");
    if (!card) return;
    const index = parseInt(card.dataset.index, 10);
    if (line.selected.has(index)) line.selected.delete(index);
    else line.selected.add(index);
    card.classList.toggle("selected", line.selected.has(index));
  });
  $("sandbox-choices").addEventListener("click", (event) => {
    const button = event.target.closest("[data-choice]");
    if (!button || !line.answer) return;
    const choice = line.answer.choices.filter((c) => !c.typed.length)[parseInt(button.dataset.choice, 10)];
    const action = { seat: choice.seat, ...choice.action };
    if (choice.cards !== null) {
      const hand = line.answer.view.seats[choice.seat].hand || [];
      action.cards = [...line.selected].sort((a, b) => a - b).map((index) => hand[index]);
    }
    ask([...line.actions, action]);
  });
  $("sandbox-undo").addEventListener("click", () => {
    if (line.answer) ask(line.actions.slice(0, -1));
  });
  /* Keep the line on the appeal: as built, or (`complete`) with the rest played by the solver's best play. */
  async function keep(complete) {
    said.textContent = "";
    delete said.dataset.refused;
    const body = { from_step: line.from, actions: line.actions, label: $("sandbox-label").value.trim() };
    if (complete) body.complete = true;
    try {
      await post(`${appealBase}/lines`, body);
      location.reload();
    } catch (error) {
      said.textContent = error.message;
      said.dataset.refused = error.code || "error";
    }
  }
  $("sandbox-keep").addEventListener("click", () => keep(false));
  $("sandbox-solve").addEventListener("click", () => keep(true));
  document.addEventListener("fupan:lang", () => {
    if (line.answer) render();
  });
})();
