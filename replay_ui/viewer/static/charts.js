/* plotly charts: the standing after each deal (match page: chips, levels …) and the standings with their
 * progression by round (standings page). plotly.js is the copy shipped in the installed `plotly` Python package. */
(function () {
  "use strict";

  const F = window.Fupan;
  const t = F.t;
  const esc = F.esc;
  // Ten distinguishable colours: a standings chart may have a line per entrant.
  const COLOURS = ["#c0392b", "#1f6f8b", "#d68910", "#6c3483", "#1e8449", "#7f8c8d", "#e67e22", "#16a085",
    "#8e44ad", "#2c3e50"];

  function layout(extra) {
    return Object.assign(
      {
        font: F.plotlyFont, margin: { l: 48, r: 16, t: 12, b: 48 }, height: 340,
        paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "#fbfaf7", hovermode: "x unified",
        legend: { orientation: "h", y: -0.2 },
      },
      extra,
    );
  }

  /* --- match: the standing after each deal (chips, levels, running totals: the game says which) ------- */

  function matchChart() {
    const host = document.getElementById("match-chart");
    const data = JSON.parse(document.getElementById("match-chart-data").textContent);
    const labels = data.numbers.map((n) => (n === 0 ? t("chart.start") : t("match.dealN", { n })));
    const traces = data.names.map((name, index) => ({
      x: labels, y: data.series[index], name, type: "scatter", mode: "lines+markers",
      line: { color: COLOURS[index % COLOURS.length], width: 3, shape: data.step ? "hv" : "linear" },
      marker: { size: 7 },
    }));
    const shapes = [];
    const annotations = [];
    if (data.target) {
      const label = data.ticks ? data.ticks.text[data.ticks.vals.indexOf(data.target)] : data.target;
      shapes.push({
        type: "line", xref: "paper", x0: 0, x1: 1, y0: data.target, y1: data.target,
        line: { color: "#b3261e", width: 1.5, dash: "dash" },
      });
      annotations.push({
        xref: "paper", x: 1, xanchor: "right", y: data.target, yanchor: "bottom", showarrow: false,
        text: `${t("chart.target")} ${label}`, font: { color: "#b3261e" },
      });
    }
    if (data.time_called !== null && data.time_called !== undefined) {
      // Time was called during or after this deal (a clock reading the referee recorded).
      const at = t("match.dealN", { n: data.time_called });
      shapes.push({ type: "line", x0: at, x1: at, yref: "paper", y0: 0, y1: 1, line: { color: "#6a6f76", dash: "dot" } });
      annotations.push({ x: at, yref: "paper", y: 1, yanchor: "bottom", showarrow: false, text: t("match.timeUp") });
    }
    const yaxis = { title: { text: t(data.y_title) }, zeroline: !data.ticks, gridcolor: "#e6e2d8" };
    if (data.ticks) Object.assign(yaxis, { tickvals: data.ticks.vals, ticktext: data.ticks.text });
    window.Plotly.react(host, traces, layout({ shapes, annotations, yaxis,
      xaxis: { type: "category", gridcolor: "#eeeae0" } }), F.plotlyConfig);
  }

  /* --- standings ------------------------------------------------------------------------------------- */

  function localized(entry) {
    return F.lang() === "en" ? entry.en || entry.zh || entry.code : entry.zh || entry.en || entry.code;
  }

  /* What "total" counts depends on the format (chips, points, …); the projections may name it. */
  function totalLabel(standings) {
    return standings.total_measure ? localized(standings.total_measure) : t("col.total");
  }

  /* A player's name links to how the standing is made (/tournaments/<id>/standings/<player>); the appeals whose
   * outcomes moved it are linked beside it (docs/appeals.md). */
  function playerCell(standings, row) {
    if (F.published()) return esc(row.name); // a published copy (fupan publish) has neither page
    const explain = `/tournaments/${encodeURIComponent(standings.tournament_id)}/standings/${encodeURIComponent(row.player_id)}`;
    const appeals = (row.appeals || []).map((id) =>
      ` <a class="tag" data-appeal-link="${esc(id)}" href="/appeals/${encodeURIComponent(id)}">${esc(t("standings.appeals"))}</a>`);
    return `<a data-explain href="${explain}">${esc(row.name)}</a>${appeals.join("")}`;
  }

  /* A withdrawn player (or a team with one) is marked wherever it is listed (issue 23). */
  function withdrawnMark(row) {
    return row && row.withdrawn ? ` <span class="badge withdrawn" data-withdrawn-mark>${esc(t("standings.withdrawn"))}</span>` : "";
  }

  /* A team format: a line per team with its department and members (partners share their figures; each member
   * links to how their standing is made). */
  function teamsTable(standings) {
    const tiebreaks = standings.tiebreaks || [];
    const byId = new Map((standings.rows || []).map((row) => [row.player_id, row]));
    const head = `<thead><tr><th class="num">${esc(t("col.rank"))}</th><th>${esc(t("col.team"))}</th>` +
      `<th class="num">${esc(totalLabel(standings))}</th>` +
      tiebreaks.map((tb) => `<th class="num">${esc(localized(tb))}</th>`).join("") +
      `<th class="num">${esc(t("col.matches"))}</th></tr></thead>`;
    const body = standings.teams.map((team) => {
      const members = team.player_ids.map((pid) => {
        const row = byId.get(pid) || { player_id: pid, name: pid };
        return `${playerCell(standings, row)}${withdrawnMark(row)}`;
      });
      const first = byId.get(team.player_ids[0]) || {};
      return `<tr class="rank-${team.rank}" data-team="${esc(team.entry)}"${team.withdrawn ? ' data-withdrawn="true"' : ""}><td class="num rank">${esc(team.rank)}</td>` +
        `<td><b class="team-name">${esc(team.entry)}</b>${team.department ? ` <span class="muted small" data-department>${esc(team.department)}</span>` : ""}` +
        `<br><span class="small team-members">${members.join(F.lang() === "en" ? ", " : "、")}</span></td>` +
        `<td class="num"><b>${esc(team.total)}</b></td>` +
        (team.tiebreak_values || []).map((value) => `<td class="num">${esc(value)}</td>`).join("") +
        `<td class="num">${esc((first.matches || []).length)}</td></tr>`;
    }).join("");
    document.getElementById("standings-table").innerHTML = head + `<tbody>${body}</tbody>`;
  }

  function standingsTable(standings) {
    const tiebreaks = standings.tiebreaks || [];
    if (standings.teams && standings.teams.length) {
      teamsTable(standings);
      standingsMeta(standings);
      return;
    }
    const head = `<thead><tr><th class="num">${esc(t("col.rank"))}</th><th>${esc(t("col.player"))}</th>` +
      `<th class="num">${esc(totalLabel(standings))}</th>` +
      tiebreaks.map((tb) => `<th class="num" data-tiebreak="${esc(tb.code)}">${esc(localized(tb))}</th>`).join("") +
      `<th class="num">${esc(t("col.matches"))}</th></tr></thead>`;
    const body = standings.rows
      .map((row) => `<tr class="rank-${row.rank}" data-player="${esc(row.player_id)}"><td class="num rank">${esc(row.rank)}</td>` +
        `<td>${playerCell(standings, row)}${withdrawnMark(row)}${row.department ? ` <span class="muted small" data-department>${esc(row.department)}</span>` : ""}</td>` +
        `<td class="num"><b>${esc(row.total)}</b></td>` +
        (row.tiebreak_values || []).map((value) => `<td class="num">${esc(value)}</td>`).join("") +
        `<td class="num">${esc((row.matches || []).length)}</td></tr>`)
      .join("");
    document.getElementById("standings-table").innerHTML = head + `<tbody>${body}</tbody>`;
    standingsMeta(standings);
  }

  function standingsMeta(standings) {
    const meta = [];
    // How far the tournament has come, in tables (the event counter `as_of` means nothing to a director: it is
    // kept on the element for programs and links).
    const tables = standings.tables || [];
    if (tables.length) meta.push(t("standings.tablesOver", { over: tables.filter((table) => table.over).length, n: tables.length }));
    document.getElementById("standings-meta").dataset.asOf = String(standings.as_of ?? "");
    // `format` is a code; the projections may also send its names (`format_name`), preferred when present.
    const format = standings.format_name ? localized(standings.format_name) : standings.format;
    if (format) meta.push(t("standings.format", { format }));
    document.getElementById("standings-meta").textContent = meta.join(" · ");
  }

  /* Formats with directions (S004): each direction's pairs ranked among themselves. */
  function directionsTables(standings) {
    const host = document.getElementById("standings-directions");
    const directions = standings.directions || [];
    host.hidden = !directions.length;
    const tiebreaks = standings.tiebreaks || [];
    host.innerHTML = directions.map((direction) => {
      const head = `<thead><tr><th class="num">${esc(t("col.rank"))}</th><th>${esc(t("col.pair"))}</th>` +
        `<th>${esc(t("col.table"))}</th><th class="num">${esc(totalLabel(standings))}</th>` +
        tiebreaks.map((tb) => `<th class="num">${esc(localized(tb))}</th>`).join("") + "</tr></thead>";
      const body = direction.rows.map((pair) => `<tr><td class="num rank">${esc(pair.rank)}</td>` +
        `<td>${esc(pair.names.join("·"))}</td><td>${esc(pair.table)}</td><td class="num"><b>${esc(pair.total)}</b></td>` +
        pair.tiebreak_values.map((value) => `<td class="num">${esc(value)}</td>`).join("") + "</tr>").join("");
      return `<h3>${esc(t("standings.direction", { direction: localized(direction) }))}</h3>` +
        `<div class="scroll-x"><table class="data" data-direction="${esc(direction.code)}">${head}<tbody>${body}</tbody></table></div>`;
    }).join("");
  }

  /* One round only: a line has nowhere to go (it was a column of dots), so each player's total is a bar. */
  function totalsBars(standings, round) {
    const rows = [...(round.teams && round.teams.length ? round.teams.map((team) => ({ ...team, name: team.entry })) : round.rows)].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0)).reverse(); // the leader on top
    window.Plotly.react(document.getElementById("standings-chart"), [{
      type: "bar", orientation: "h", x: rows.map((row) => row.total), y: rows.map((row) => row.name),
      marker: { color: rows.map((_, index) => COLOURS[index % COLOURS.length]) },
      hovertemplate: `%{x} (${esc(t("col.rank"))} %{customdata})<extra>%{y}</extra>`, customdata: rows.map((row) => row.rank),
    }], layout({ xaxis: { title: { text: totalLabel(standings) }, gridcolor: "#e6e2d8" }, yaxis: { type: "category" },
      showlegend: false }), F.plotlyConfig);
    return true;
  }

  function progressionChart(standings) {
    const rounds = standings.progression || [];
    if (!rounds.length) return false;
    if (rounds.length === 1) return totalsBars(standings, rounds[0]);
    // A round's label as typed is Chinese; in English its English half ("中文 / English") or "Round N" (issue 23).
    const labels = rounds.map((round) => {
      const typed = F.noteText ? F.noteText(round.label || "") : round.label || "";
      if (!typed || (F.lang() === "en" && /[\u3400-\u9fff]/.test(typed))) return `${t("chart.round")} ${round.round}`;
      return typed;
    });
    if (standings.teams && standings.teams.length) return teamLines(standings, rounds, labels);
    // The rounds each player played a table in: a player knocked out is not drawn on through rounds never played.
    const played = new Map((standings.rows || []).map((row) =>
      [row.player_id, new Set((row.matches || []).map((match) => match.round))]));
    const players = new Map();
    rounds.forEach((round, index) => {
      round.rows.forEach((row) => {
        if (!players.has(row.player_id)) {
          players.set(row.player_id, { name: row.name, totals: Array(rounds.length).fill(null), ranks: Array(rounds.length).fill(null) });
        }
        const rounds_of = played.get(row.player_id);
        if (index > 0 && rounds_of && !rounds_of.has(round.round)) return;
        const player = players.get(row.player_id);
        player.totals[index] = row.total;
        player.ranks[index] = row.rank;
      });
    });
    const traces = Array.from(players.values()).map((player, index) => ({
      x: labels, y: player.totals, customdata: player.ranks, name: player.name, type: "scatter",
      mode: "lines+markers", line: { color: COLOURS[index % COLOURS.length], width: 3 },
      hovertemplate: `%{y} (${esc(t("col.rank"))} %{customdata})<extra>${esc(player.name)}</extra>`,
    }));
    window.Plotly.react(document.getElementById("standings-chart"), traces, layout({
      yaxis: { title: { text: totalLabel(standings) }, gridcolor: "#e6e2d8" }, xaxis: { type: "category" },
    }), F.plotlyConfig);
    return true;
  }

  /* A team format: one line per team (its members share their figures), drawn through the rounds it played. */
  function teamLines(standings, rounds, labels) {
    const played = new Map();
    (standings.rows || []).forEach((row) => {
      if (!row.entry) return;
      const set = played.get(row.entry) || new Set();
      (row.matches || []).forEach((match) => set.add(match.round));
      played.set(row.entry, set);
    });
    const teams = new Map();
    rounds.forEach((round, index) => {
      (round.teams || []).forEach((team) => {
        if (!teams.has(team.entry)) teams.set(team.entry, { totals: Array(rounds.length).fill(null), ranks: Array(rounds.length).fill(null) });
        const rounds_of = played.get(team.entry);
        if (index > 0 && rounds_of && !rounds_of.has(round.round)) return;
        teams.get(team.entry).totals[index] = team.total;
        teams.get(team.entry).ranks[index] = team.rank;
      });
    });
    const traces = Array.from(teams.entries()).map(([entry, team], index) => ({
      x: labels, y: team.totals, customdata: team.ranks, name: entry, type: "scatter",
      mode: "lines+markers", line: { color: COLOURS[index % COLOURS.length], width: 3 },
      hovertemplate: `%{y} (${esc(t("col.rank"))} %{customdata})<extra>${esc(entry)}</extra>`,
    }));
    window.Plotly.react(document.getElementById("standings-chart"), traces, layout({
      yaxis: { title: { text: totalLabel(standings) }, gridcolor: "#e6e2d8" }, xaxis: { type: "category" },
    }), F.plotlyConfig);
    return true;
  }

  async function standingsPage(host) {
    const status = document.getElementById("standings-status");
    let standings;
    try {
      standings = await F.getJSON(host.dataset.url);
    } catch (error) {
      // 404 until the projections serve standings for this tournament: say so, never invent a table.
      const missing = error.status === 404;
      const paint = () => {
        status.textContent = missing ? t("standings.unavailable") : t("error.load", { detail: error.message });
      };
      status.className = missing ? "empty-state" : "error";
      status.dataset.state = missing ? "unavailable" : "error";
      paint();
      document.addEventListener("fupan:lang", paint);
      return null;
    }
    status.hidden = true;
    document.getElementById("standings-table-panel").hidden = false;
    standingsTable(standings);
    directionsTables(standings);
    // Shown before drawing: plotly sizes the chart to its container, which has no width while hidden.
    const chartPanel = document.getElementById("standings-chart-panel");
    chartPanel.hidden = false;
    chartPanel.hidden = !progressionChart(standings);
    return standings;
  }

  if (document.getElementById("match-chart")) {
    matchChart();
    document.addEventListener("fupan:lang", matchChart);
  }
  const standingsHost = document.getElementById("standings");
  if (standingsHost) {
    let latest = null;
    const remember = (standings) => {
      if (standings) latest = standings;
    };
    standingsPage(standingsHost).then((standings) => {
      if (!standings) return;
      latest = standings;
      document.addEventListener("fupan:lang", () => {
        standingsTable(latest);
        directionsTables(latest);
        progressionChart(latest);
      });
    });
    // Read again when the tournament's stream says the standings moved (static/live.js, docs/streams.md).
    F.refreshStandings = () => standingsPage(standingsHost).then(remember);
  }
})();
