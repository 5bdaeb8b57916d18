/* Annotating the step on show (templates/annotate.html): a glyph, the comment in Chinese and optionally English,
 * posted to POST /api/deals/<id>/annotations with the token kept in this tab (static/fupan.js), then the frames
 * are loaded again so the note shows at its step. The server decides who may (a commentator, the organiser,
 * the table's referee: docs/SECURITY.md) and checks the note (domain/records/annotations.py). */
(function () {
  "use strict";

  const F = window.Fupan;
  const viewer = window.fupanViewer;
  const $ = (id) => document.getElementById(id);
  const panel = $("annotate");
  if (!panel || !viewer) return;
  if (F.published()) {
    panel.hidden = true; // a published copy has no server to write to
    return;
  }
  const form = $("annotate-form");
  const said = $("annotate-said");

  function showStep() {
    $("annotate-step").textContent = F.t("annotate.at", { k: viewer.state.step });
    $("annotate-token-row").hidden = !!F.token();
  }

  function say(text, failed) {
    said.textContent = text;
    said.className = failed ? "error" : "muted";
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const pasted = $("annotate-token").value.trim();
    if (pasted) F.setToken(pasted);
    const step = viewer.state.step;
    const note = {
      step, glyph: $("annotate-glyph").value, text: $("annotate-text").value.trim(),
      text_en: $("annotate-text-en").value.trim(), author: $("annotate-author").value.trim(),
    };
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (F.token()) headers.Authorization = `Bearer ${F.token()}`;
    let response;
    let body = null;
    try {
      response = await fetch(form.dataset.url, { method: "POST", headers, body: JSON.stringify(note) });
      body = await response.json();
    } catch (error) {
      say(F.t("error.load", { detail: error.message }), true);
      return;
    }
    if (!response.ok) {
      const refusal = (body && body.error) || {};
      if (response.status === 401) F.setToken(null);
      say((F.lang() === "zh" ? refusal.message_zh : refusal.message) || response.statusText, true);
      showStep();
      return;
    }
    $("annotate-token").value = "";
    $("annotate-text").value = "";
    $("annotate-text-en").value = "";
    say(F.t(viewer.state.finished ? "annotate.saved" : "annotate.savedLive", { k: step }), false);
    await viewer.load(viewer.state.view, step); // the note now shows at its step (once the deal is public)
    showStep();
  });

  panel.addEventListener("toggle", showStep);
  document.addEventListener("fupan:lang", showStep);
  showStep();
})();
