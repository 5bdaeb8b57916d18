/* The committee's decision form on an appeal's page (templates/appeal_decide.html; docs/appeals.md): builds the
 * outcome from the form, previews its effect on the standings (stores nothing) and records the decision. The
 * appeals token is kept in this tab's sessionStorage (Fupan.token), sent as a header, never put in a URL. */
(function () {
  "use strict";
  const F = window.Fupan;
  const form = document.getElementById("decision-form");
  if (!form) return;
  const $ = (id) => document.getElementById(id);
  const base = `/api/appeals/${form.dataset.appeal}`;
  const seats = JSON.parse(form.dataset.seats || "[]");

  // The outcome's fields are those of the ruling's form too (templates/appeal_outcome.html, appeal_forms.js).
  const outcome = () => F.appealOutcome("decision");

  function say(text) {
    $("decision-said").textContent = text;
  }

  // The token field only while the tab holds none (the form is shown with a held token only when it may decide).
  function askToken() {
    $("decision-token").closest("label").hidden = !!F.token();
  }
  askToken();

  async function post(path, payload) {
    const pasted = $("decision-token").value.trim();
    if (pasted) F.setToken(pasted);
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (F.token()) headers.Authorization = `Bearer ${F.token()}`;
    if (path.endsWith("/decision")) headers["Idempotency-Key"] = `decision-${form.dataset.appeal}-${Date.now()}`;
    const response = await fetch(base + path, { method: "POST", headers, body: JSON.stringify(payload) });
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const refusal = (body && body.error) || {};
      if (response.status === 401) {
        F.setToken(null);
        askToken();
      }
      throw new Error((F.lang() === "zh" ? refusal.message_zh : refusal.message) || response.statusText);
    }
    return body;
  }

  $("decision-preview").addEventListener("click", async () => {
    say("");
    const list = $("decision-changes");
    list.textContent = "";
    try {
      const answer = await post("/preview", { outcome: outcome() });
      const before = Object.fromEntries(answer.before.rows.map((row) => [row.player_id, row]));
      // Every player the outcome touches: the disputed deal's seats and each one it adjusts, whether or not the
      // total or rank moves, and anyone else whose total or rank moves with them.
      const touched = new Set([...seats, ...answer.adjustments.map((a) => a.player_id)]);
      const moved = answer.after.rows.filter((row) => {
        const was = before[row.player_id];
        return touched.has(row.player_id) || !was || was.total !== row.total || was.rank !== row.rank;
      });
      const end = answer.table_end;
      $("decision-end").hidden = !end;
      $("decision-end").textContent = end ? (F.lang() === "zh" ? end.message_zh : end.message) : "";
      if (!moved.length) list.innerHTML = `<li>${F.esc(F.t("appeals.form.unchanged"))}</li>`;
      for (const row of moved) {
        const was = before[row.player_id] || row;
        const item = document.createElement("li");
        item.dataset.player = row.player_id;
        item.textContent = F.t("appeals.form.change", { name: row.name, before: was.total, after: row.total,
          rank_before: was.rank, rank_after: row.rank });
        list.appendChild(item);
      }
    } catch (error) {
      say(error.message);
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const members = $("decision-members").value.split("\n").map((m) => m.trim()).filter(Boolean);
    const vote = { for: +$("vote-for").value, against: +$("vote-against").value, abstain: +$("vote-abstain").value };
    try {
      await post("/decision", { outcome: outcome(), reason: $("decision-reason").value.trim(), members, vote });
      $("decision-token").value = "";
      location.reload(); // the page now shows the decision and its score changes
    } catch (error) {
      say(error.message);
    }
  });

  F.appealShowKind("decision");
})();
