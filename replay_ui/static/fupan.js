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
  function translateAttributes() {
    document.querySelectorAll("[data-i18n-title]").forEach((el) => {
      el.title = Fupan.t(el.dataset.i18nTitle);
    });
    document.querySelectorAll("[data-i18n-aria]").forEach((el) => {
      el.setAttribute("aria-label", Fupan.t(el.dataset.i18nAria));
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

  Fupan.cardsHTML = function (codes, extra) {
    return codes.map((code) => Fupan.cardHTML(code, extra)).join("");
  };

  /* Backs for a hidden hand: only the number of cards, which every seat can count, reaches the page. */
  Fupan.backsHTML = function (count, extra) {
    const cls = extra ? " " + extra : "";
    return `<span class="card back${cls}" aria-hidden="true"></span>`.repeat(count);
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

  Fupan.getJSON = async function (url) {
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
  Fupan.plotlyConfig = { displaylogo: false, showLink: false, showSendToCloud: false, responsive: true };
  Fupan.plotlyFont = {
    family: '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", system-ui, sans-serif',
    size: 13,
  };
})();
