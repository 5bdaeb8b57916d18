/* fupan viewer — shared helpers: strings and the language toggle, cards, small DOM helpers.
 * Plain browser JavaScript, no build step. Pages load this first; page scripts use window.Fupan. */
(function () {
  "use strict";

  const root = document.documentElement;
  const strings = JSON.parse(document.getElementById("fupan-strings").textContent);
  const LANG_KEY = "fupan.lang";

  const Fupan = (window.Fupan = { games: {} });

  Fupan.lang = function () {
    return root.dataset.lang === "en" ? "en" : "zh";
  };

  /* t("step.of", {k: 3, n: 44}) in the current language. A missing key shows the key itself (and warns):
   * a visible gap is easier to notice than an empty one. */
  Fupan.t = function (key, params) {
    const entry = strings[key];
    if (!entry) {
      console.warn("fupan: no string", key);
      return key;
    }
    let text = entry[Fupan.lang()];
    if (params) {
      text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
    }
    return text;
  };

  /* A count's words: `key.one` where the count is 1 and that string exists ("1 deal", "2 deals"), else `key`. */
  Fupan.countedKey = function (key, count) {
    return Number(count) === 1 && strings[`${key}.one`] ? `${key}.one` : key;
  };
  Fupan.counted = function (key, count, params) {
    return Fupan.t(Fupan.countedKey(key, count), params);
  };

  /* Both languages as spans, as the server renders them; the stylesheet shows the chosen one. */
  Fupan.bilingualHTML = function (key) {
    const entry = strings[key] || { zh: key, en: key };
    return `<span class="zh" lang="zh-CN">${Fupan.esc(entry.zh)}</span><span class="en" lang="en">${Fupan.esc(entry.en)}</span>`;
  };

  const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  Fupan.esc = function (value) {
    return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
  };

  /* Attributes cannot hold the two language spans the server renders, so they are set here. */
  // The page's title holds no language spans: its English is the <title>'s data-en (base.html's title_en block).
  const titleElement = document.querySelector("title[data-en]");
  const titleZh = document.title;

  function translateAttributes() {
    if (titleElement) document.title = Fupan.lang() === "en" ? titleElement.dataset.en : titleZh;
    document.querySelectorAll("[data-i18n-title]").forEach((el) => {
      el.title = Fupan.t(el.dataset.i18nTitle);
    });
    document.querySelectorAll("[data-i18n-aria]").forEach((el) => {
      el.setAttribute("aria-label", Fupan.t(el.dataset.i18nAria));
    });
    // Text that cannot hold the two language spans either (a <select>'s options): one language, set here.
    document.querySelectorAll("[data-i18n-text]").forEach((el) => {
      el.textContent = Fupan.t(el.dataset.i18nText, el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : undefined);
    });
  }

  Fupan.setLang = function (lang) {
    root.dataset.lang = lang;
    root.lang = lang === "en" ? "en" : "zh-CN";
    try {
      localStorage.setItem(LANG_KEY, lang);
    } catch (e) {
      /* private mode: the choice lasts for this page only */
    }
    translateAttributes();
    document.dispatchEvent(new CustomEvent("fupan:lang", { detail: { lang } }));
  };

  document.getElementById("lang-toggle").addEventListener("click", () => {
    Fupan.setLang(Fupan.lang() === "zh" ? "en" : "zh");
  });
  translateAttributes();

  // Print buttons (the text record); a listener, because the Content-Security-Policy forbids inline handlers.
  document.querySelectorAll("[data-print]").forEach((button) => {
    button.addEventListener("click", () => window.print());
  });

  /* --- cards ------------------------------------------------------------------------------------------ */

  const SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
  const SUIT_NAME = {
    zh: { S: "黑桃", H: "红桃", C: "梅花", D: "方块" },
    en: { S: "spades", H: "hearts", C: "clubs", D: "diamonds" },
  };
  const JOKER = { BJ: { zh: "大王", en: "Big Joker" }, LJ: { zh: "小王", en: "Little Joker" } };

  Fupan.cardName = function (code) {
    const lang = Fupan.lang();
    if (JOKER[code]) return JOKER[code][lang];
    return lang === "zh" ? SUIT_NAME.zh[code[0]] + code.slice(1) : code.slice(1) + " of " + SUIT_NAME.en[code[0]];
  };

  /* One card face as HTML. Jokers are drawn unlike any suit card and unlike each other: 大王 red on gold,
   * 小王 black on grey, with 大王/小王 written down the corner index, so even a fanned hand that shows only
   * the left strip of each card tells them apart. */
  Fupan.cardHTML = function (code, extra) {
    const cls = extra ? " " + extra : "";
    const name = Fupan.esc(Fupan.cardName(code));
    if (JOKER[code]) {
      const big = code === "BJ";
      return (
        `<span class="card joker ${big ? "big" : "little"}${cls}" data-card="${code}" title="${name}">` +
        `<span class="jn">${JOKER[code].zh}</span><span class="jk">JOKER</span></span>`
      );
    }
    const suit = SUITS[code[0]];
    const rank = code.slice(1);
    const colour = code[0] === "H" || code[0] === "D" ? "red" : "black";
    return (
      `<span class="card ${colour}${cls}" data-card="${code}" title="${name}">` +
      `<span class="ci"><b>${rank}</b><i>${suit}</i></span><span class="cs">${suit}</span></span>`
    );
  };

  /* A card in a line of text: ♠3, ♥10, 大王 (Big Joker in English). */
  Fupan.cardShort = function (code) {
    return JOKER[code] ? JOKER[code][Fupan.lang()] : SUITS[code[0]] + code.slice(1);
  };

  Fupan.cardsHTML = function (codes, extra) {
    return codes.map((code) => Fupan.cardHTML(code, extra)).join("");
  };

  /* Backs for a hidden hand: only the number of cards, which every seat can count, reaches the page. */
  Fupan.backsHTML = function (count, extra) {
    const cls = extra ? " " + extra : "";
    return `<span class="card back${cls}" aria-hidden="true"></span>`.repeat(count);
  };

  /* --- the table: what every game's renderer (replay_ui/games/<game>/script.js) draws the same way ----------------------- */

  const MANY_BACKS = 4; // what a hand of ">10" cards is drawn as: a stack, never a number of cards

  /* The seats' words by language (the page's boot data: views.seat_mark; viewer.js and pad.js set them here). */
  Fupan.seatMarks = null;
  /* The game's own word for a seat (升级's 东), "" where the game only numbers its seats: a person never reads a
   * seat's number (replay_ui/pages.py seat_mark). A seat shown to a person is Fupan.seatName. */
  Fupan.seatNo = function (seat) {
    const marks = Fupan.seatMarks && Fupan.seatMarks[Fupan.lang()];
    return marks ? marks[seat] || "" : "";
  };

  /* A foul's code as the game's rules name it (说话 for `talking`; the boot data's foul_names), and a referee's
   * note in the chosen language: one written "中文 / English" shows its half (replay_ui/shared/notation.py note_text). */
  Fupan.foulNames = {};
  Fupan.foulName = function (code) {
    const names = Fupan.foulNames[code];
    return names ? names[Fupan.lang()] : code;
  };
  const BOTH_LANGUAGES = /^(.*[\u4e00-\u9fff].*?)\s+\/\s+([^\u4e00-\u9fff]+)$/s;
  Fupan.noteText = function (note) {
    const both = BOTH_LANGUAGES.exec(note || "");
    return both ? both[Fupan.lang() === "zh" ? 1 : 2] : note || "";
  };
  /* What a foul was, as the fouls panels list it: its name, then the note (HTML). */
  Fupan.foulHTML = function (foul) {
    return `<span class="foul-code">${Fupan.esc(Fupan.foulName(foul.code))}</span> ${Fupan.esc(Fupan.noteText(foul.note))}`;
  };

  /* Where each seat sits: `where` names the places from the viewpoint's own seat on, in playing order. */
  Fupan.positions = function (anchor, where) {
    const pos = {};
    where.forEach((place, step) => {
      pos[(anchor + step) % where.length] = place;
    });
    return pos;
  };

  /* A card's rank for grouping a hand; a joker is a rank of its own. */
  Fupan.rankOf = function (code) {
    return code === "BJ" || code === "LJ" ? code : code.slice(1);
  };

  /* The engine sends a hand sorted (by rank, or by effective suit); split it where keyOf(card) changes. */
  Fupan.groupRuns = function (codes, keyOf) {
    const groups = [];
    codes.forEach((code) => {
      const key = keyOf(code);
      if (!groups.length || groups[groups.length - 1].key !== key) groups.push({ key, cards: [] });
      groups[groups.length - 1].cards.push(code);
    });
    return groups;
  };

  /* A hand the viewpoint may not see: its backs, or a stack marked ">10" when the count is announced only
   * at ten or fewer (the string ">10"); labelled "hand hidden" unless `unlabelled`. */
  Fupan.hiddenHandHTML = function (count, unlabelled) {
    const many = typeof count !== "number";
    const label = Fupan.esc(Fupan.t("hand.hidden"));
    return `<div class="hand hidden-hand" title="${label}">${Fupan.backsHTML(many ? MANY_BACKS : count, "sm")}` +
      (many ? '<span class="many">&gt;10</span>' : "") + (unlabelled ? "" : `<span class="hidden-label">${label}</span>`) +
      "</div>";
  };

  /* The round on the table: this round's plays, else the round just closed (faded while play goes on), and
   * its caption; `leader` names the key of "X led", `empty` is the caption before anyone has led. */
  Fupan.currentRound = function (view, names, leader, empty) {
    const plays = view.round.plays;
    if (!plays.length && view.last_round) {
      const faded = view.phase !== "finished";
      return { plays: view.last_round, faded, caption: Fupan.t(faded ? "round.previous" : "round.final") };
    }
    if (!plays.length) return { plays, faded: false, caption: empty };
    const caption = `${Fupan.t("round.number", { n: view.rounds_played + 1 })} · ` +
      Fupan.t(leader, { name: names[view.round.leader] });
    return { plays, faded: false, caption };
  };

  /* One slot per seat in the middle of the table, each with that seat's latest move ({seat, html}); the newest
   * lit unless the moves are `faded`; `tagged` slots say their seat (data-seat). */
  Fupan.slotsHTML = function (moves, pos, seats, faded, tagged) {
    const latest = {};
    moves.forEach((move, index) => {
      latest[move.seat] = { html: move.html, newest: index === moves.length - 1 };
    });
    let html = "";
    for (let seat = 0; seat < seats; seat += 1) {
      const move = latest[seat];
      const cls = `slot pos-${pos[seat]}${move && move.newest && !faded ? " newest" : ""}`;
      html += `<div class="${cls}"${tagged ? ` data-seat="${seat}"` : ""}>${move ? move.html : ""}</div>`;
    }
    return html;
  };

  /* " · To act：name" when someone is to act, with the game's word for it. */
  Fupan.turnText = function (view, names, label) {
    // The colon of the page's language: "To act: 李强", "轮到：李强".
    return view.to_act === null ? "" : ` · ${label}${Fupan.t("punct.colon")}${names[view.to_act]}`;
  };

  /* A deal score as a table cell: signed, coloured up or down. */
  Fupan.scoreCell = function (score) {
    const sign = score > 0 ? "up" : score < 0 ? "down" : "";
    return `<td class="num score ${sign}">${score > 0 ? "+" : ""}${score}</td>`;
  };

  /* The 倍数 breakdown: each factor of `keys` (lit when it multiplies), then the total. */
  Fupan.factorsHTML = function (m, keys) {
    const esc = Fupan.esc;
    const rows = keys
      .map((key) => `<div class="factor${m[key] > 1 ? " on" : ""}"><span>${esc(Fupan.t("mult." + key))}</span><b>×${m[key]}</b></div>`)
      .join("");
    return `<div class="factors">${rows}<div class="factor total"><span>${esc(Fupan.t("mult.total"))}</span><b>×${m.total}</b></div></div>`;
  };

  /* A game's renderer (Fupan.games.<game>) that draws its table the way every game does: the seats (game.seat)
   * around the middle (game.centre) in a <div class=game.cls>, placed by game.where; beside the table the phase
   * (game.status), the game's own panels (game.panels(view, names, boot): [title, body, class], a falsy entry
   * being a panel this step does not show), the fouls (game.fouls, when there are any) and the result
   * (game.result, once there is one). `marks` are its timeline marks (viewer.js). */
  Fupan.tableGame = function (game) {
    const t = Fupan.t;
    function render(ctx) {
      const view = ctx.frame.view;
      const pos = Fupan.positions(ctx.anchor, game.where);
      const seats = view.seats.map((seat) => game.seat(seat, pos[seat.seat], view, ctx.names)).join("");
      ctx.table.innerHTML = `<div class="${game.cls}">${seats}${game.centre(view, pos, ctx.names)}</div>`;
      const panels = [
        [t("phase"), game.status(view, ctx.names), "status"],
        ...game.panels(view, ctx.names, ctx.boot),
        game.fouls && view.fouls.length && [t("fouls"), game.fouls(view, ctx.names), "fouls"],
        view.result && [t("result"), game.result(view, ctx.names, ctx.boot), "result"],
      ];
      ctx.info.innerHTML = panels
        .filter(Boolean)
        .map(([title, body, cls]) => `<section class="panel info ${cls}"><h3>${Fupan.esc(title)}</h3>${body}</section>`)
        .join("");
    }
    return { marks: game.marks, render };
  };

  /* An annotation (domain/records/annotations.py) in the chosen language: its glyph — a PGN-style mark as itself, a
   * mark for an irregularity by its name — then the comment (the Chinese when no English was written). */
  Fupan.noteHTML = function (note) {
    const name = note.glyph ? Fupan.t("glyph." + note.glyph) : "";
    const mark = /^[!?]+$/.test(note.glyph) ? note.glyph : name;
    const glyph = note.glyph
      ? `<span class="glyph" data-glyph="${Fupan.esc(note.glyph)}" title="${Fupan.esc(name)}">${Fupan.esc(mark)}</span>`
      : `<span class="note-mark">${Fupan.esc(Fupan.t("tag.note"))}</span>`;
    const text = Fupan.lang() === "en" && note.text_en ? note.text_en : note.text;
    const author = note.author ? ` <cite>— ${Fupan.esc(note.author)}</cite>` : "";
    return `<div class="annotation" data-step="${note.step}">${glyph}<span class="note-text">${Fupan.esc(text)}</span>${author}</div>`;
  };

  /* --- data ------------------------------------------------------------------------------------------- */

  /* A bearer token the reader pasted into the viewer (a referee's, the appeals committee's): kept in this tab's
   * sessionStorage only, sent only as a header on this page's own requests, never put in a URL. */
  const TOKEN_KEY = "fupan.token";
  Fupan.token = function () {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch (e) {
      return null;
    }
  };
  Fupan.setToken = function (token) {
    try {
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch (e) {
      /* storage refused: the token cannot be kept */
    }
  };

  /* A published copy (`fupan publish`, replay_ui/publishing/publish.py) has no server: each page carries the answers its
   * scripts ask for (window.FUPAN_STATIC, keyed by URL, from the data script beside it) and never fetches. */
  Fupan.published = function () {
    return window.FUPAN_STATIC || null;
  };

  Fupan.getJSON = async function (url) {
    const published = Fupan.published();
    if (published) {
      if (Object.prototype.hasOwnProperty.call(published, url)) return structuredClone(published[url]);
      const error = new Error(Fupan.t("published.missing"));
      error.status = 404;
      error.body = null;
      throw error;
    }
    const headers = { Accept: "application/json" };
    const token = Fupan.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(url, { headers });
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (!response.ok) {
      const error = new Error((body && body.error && body.error.message) || response.statusText);
      error.status = response.status;
      error.body = body;
      throw error;
    }
    return body;
  };

  /* Shared plotly settings: no logo, no "edit in Chart Studio" link — nothing that points off this server. */
  // No mode bar: its tools are titled in English only (plotly ships no Chinese), and a reader needs none of them.
  Fupan.plotlyConfig = { displaylogo: false, showLink: false, showSendToCloud: false, responsive: true,
    displayModeBar: false };
  Fupan.plotlyFont = {
    family: '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", system-ui, sans-serif',
    size: 13,
  };

  /* A seat as a person reads it (replay_ui/pages.py seat_named): the player's name, with the game's word for the
   * seat where it has one ("张伟（东）"), else the name alone — never a number. Plain text: escape it to show it. */
  Fupan.seatName = function (seat, name) {
    const mark = Fupan.seatNo(seat);
    const who = name === undefined || name === null || name === "" ? "" : String(name);
    if (!who) return mark;
    return mark ? Fupan.t("view.seat", { name: who, seat: mark }) : who;
  };

  /* A side of a team game as people know it: its team's name where the players entered as a team (a match's
   * `entries`: [{name, department, seats}]), else its players joined ("张伟·李娜·陈静") — never "1 队". */
  Fupan.sideName = function (seats, entries, names) {
    const wanted = [...seats].sort((a, b) => a - b).join(",");
    const entry = (entries || []).find((e) => [...e.seats].sort((a, b) => a - b).join(",") === wanted);
    if (entry) return entry.name;
    return seats.map((seat) => (names && names[seat]) || "").filter(Boolean).join("·");
  };
})();

/* Live streams (docs/streams.md): server-sent events read with fetch, so the tab's token goes as a header (an
 * EventSource cannot send one, and a token never goes in a URL). `Fupan.stream(url, onEvent)` calls
 * onEvent(name, data, id) for each event and reconnects after a drop with Last-Event-ID, so nothing is missed;
 * `live()` says whether it is connected now — pages poll only while it is not. `?poll=0` in a page's address (or
 * window.FUPAN_NO_POLL = true before its scripts) turns that fallback polling off: the browser tests use it to
 * show that a page follows by push alone. A published copy has no server, so no stream. */
(function () {
  "use strict";
  const Fupan = window.Fupan;

  // Read once, as the page opens: a page that rewrites its address later (the viewer's deep link) keeps it.
  const noPoll = new URLSearchParams(location.search).get("poll") === "0";
  Fupan.pollingOff = function () {
    return noPoll || window.FUPAN_NO_POLL === true;
  };

  Fupan.stream = function (url, onEvent, onState) {
    const handle = { connected: false, closed: false, lastId: null, controller: null };
    let retry = 2000;
    const state = (connected) => {
      handle.connected = connected;
      document.body.dataset.stream = connected ? "live" : "dropped";
      if (onState) onState(connected);
    };
    async function run() {
      while (!handle.closed) {
        const headers = { Accept: "text/event-stream" };
        const token = Fupan.token();
        if (token) headers.Authorization = `Bearer ${token}`;
        if (handle.lastId) headers["Last-Event-ID"] = handle.lastId;
        handle.controller = new AbortController();
        try {
          const response = await fetch(url, { headers, signal: handle.controller.signal, cache: "no-store" });
          if (!response.ok || !response.body) throw new Error(String(response.status));
          state(true);
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
            let end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const fields = {};
              const data = [];
              for (const line of block.split("\n")) {
                if (!line || line[0] === ":") continue;
                const at = line.indexOf(":");
                const name = at < 0 ? line : line.slice(0, at);
                const text = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
                if (name === "data") data.push(text);
                else fields[name] = text;
              }
              if (fields.retry && /^\d+$/.test(fields.retry)) retry = Number(fields.retry);
              if (fields.id !== undefined) handle.lastId = fields.id;
              if (data.length) {
                try {
                  onEvent(fields.event || "message", JSON.parse(data.join("\n")), fields.id);
                } catch (e) {
                  /* one bad event must not end the stream */
                }
              }
            }
          }
        } catch (e) {
          /* dropped, refused or aborted: the page polls meanwhile */
        }
        if (handle.closed) break;
        state(false);
        await new Promise((resume) => setTimeout(resume, retry));
      }
    }
    handle.live = () => handle.connected && !handle.closed;
    handle.close = () => {
      handle.closed = true;
      handle.connected = false;
      if (handle.controller) handle.controller.abort();
    };
    if (Fupan.published()) handle.closed = true;
    else run();
    return handle;
  };
})();


/* A form's own checks (required, min, max, a whole number, a length) speak the page's language, not the browser's:
 * when the browser finds a field invalid, the field's message is set from the page's strings (form.* in
 * shared/strings.toml), and cleared as soon as the field changes, so the browser checks it afresh. */
(function () {
  "use strict";
  const F = window.Fupan;
  const FIELDS = "input, select, textarea";

  function message(field) {
    const v = field.validity;
    if (v.valueMissing) return F.t(field.tagName === "SELECT" || field.type === "checkbox" || field.type === "radio"
      ? "form.pick" : "form.required");
    if (v.badInput || v.stepMismatch) return F.t("form.whole");
    if (v.rangeUnderflow) return F.t("form.min", { min: field.min });
    if (v.rangeOverflow) return F.t("form.max", { max: field.max });
    if (v.tooLong) return F.t("form.tooLong", { max: field.maxLength });
    if (v.tooShort) return F.t("form.tooShort", { min: field.minLength });
    if (v.typeMismatch || v.patternMismatch) return F.t("form.format");
    return "";
  }

  document.addEventListener("invalid", (event) => {
    const field = event.target;
    if (!field.matches || !field.matches(FIELDS)) return;
    field.setCustomValidity("");  // the browser's own verdict first (validity, no event), then the page's words for it
    if (!field.validity.valid) field.setCustomValidity(message(field));
  }, true);
  const clear = (event) => {
    const field = event.target;
    if (field.matches && field.matches(FIELDS)) field.setCustomValidity("");
  };
  document.addEventListener("input", clear, true);
  document.addEventListener("change", clear, true);
  // a value set by a script fires no event: a submit button clears its form's words before the browser checks
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button, input[type=submit]");
    if (button && button.form) [...button.form.elements].forEach((field) => field.setCustomValidity && field.setCustomValidity(""));
  }, true);
})();

/* A step picked by what happened there, never typed as a bare number (the appeal's filing form and evidence, its
 * sandbox, the board of variations): the deal's steps as the reader may see them, read from the first of a list of
 * frames addresses the server answers (the referee's view with the tab's token, else the public's; an undecided
 * appeal's result-blind frames stop at the judged step), each named "第 4 步：王五 出 ♠3 ♣4 …"; the number is what
 * the form sends. `Fupan.stepChooser(input)` puts such a list before a number box carrying `data-steps-from` (the
 * addresses, space separated) and its `max`, keeps the box's value in step with the list, and leaves the box as it
 * was while the steps cannot be read. It reads again on `fupan:token` (the tab's token changed). */
(function () {
  "use strict";
  const F = window.Fupan;

  F.readSteps = async function (urls) {
    for (const url of urls) {
      const answer = await F.getJSON(url).catch(() => null);
      if (answer && answer.frames) return answer.frames;
    }
    return null;
  };

  F.stepOptions = function (frames, upTo) {
    const lang = F.lang();
    return frames.filter((frame) => upTo === undefined || frame.step <= upTo).map((frame) =>
      `<option value="${frame.step}">${F.esc(F.t("steps.stepN",
        { n: frame.step, said: (frame.notation && (frame.notation[lang] || frame.notation.zh)) || "" }))}</option>`)
      .join("");
  };

  F.stepChooser = function (input) {
    const select = document.createElement("select");
    select.className = "step-chooser";
    select.hidden = true;
    if (input.id) select.id = `${input.id}-pick`;
    input.before(select);
    const upTo = input.max === "" ? undefined : parseInt(input.max, 10);
    let frames = null;
    const draw = () => {
      if (!frames) return;
      select.innerHTML = F.stepOptions(frames, upTo);
      const kept = input.value;
      if ([...select.options].some((option) => option.value === kept)) select.value = kept;
      else if (select.options.length) {
        select.value = select.options[select.options.length - 1].value; // past what may be seen: the last seen
        input.value = select.value;
      }
    };
    const read = async () => {
      // the referee's view only for a tab holding a token (as the filing form asks): no refusal asked for
      const urls = (input.dataset.stepsFrom || "").split(" ").filter((url) => url && (F.token() || !url.includes("viewpoint=referee")));
      const got = await F.readSteps(urls);
      frames = got && got.length ? got : null;
      draw();
      select.hidden = !frames;
      input.hidden = !!frames;
      input.dataset.stepsCount = frames ? String(select.options.length) : "0"; // for whoever waits on the list
    };
    select.addEventListener("change", () => {
      input.value = select.value;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    document.addEventListener("fupan:lang", draw);
    document.addEventListener("fupan:token", read);
    read();
  };
})();
