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

  function showKind() {
    const kind = $("decision-kind").value;
    form.querySelectorAll("[data-for]").forEach((node) => {
      node.hidden = node.dataset.for !== kind;
    });
  }

  function outcome() {
    const kind = $("decision-kind").value;
    if (kind === "weighted") {
      return { kind, parts: [...form.querySelectorAll(".decision-part")].map((part) => ({
        weight: part.querySelector("[name=weight]").value.trim(),
        line: parseInt(part.querySelector("[name=line]").value, 10),
      })) };
    }
    if (kind === "assigned") {
      return { kind, scores: $("decision-scores").value.split("/").map((s) => parseInt(s.trim(), 10)) };
    }
    if (kind === "penalty") {
      return { kind, player_ids: [$("decision-player").value], points: parseInt($("decision-points").value, 10) };
    }
    return { kind };
  }

  function say(text) {
    $("decision-said").textContent = text;
  }

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
      if (response.status === 401) F.setToken(null);
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
      const moved = answer.after.rows.filter((row) => {
        const was = before[row.player_id];
        return !was || was.total !== row.total || was.rank !== row.rank;
      });
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

  $("decision-kind").addEventListener("change", showKind);
  showKind();
})();
