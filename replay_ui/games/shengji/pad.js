/* 升级's part of the recording pad (replay_ui/static/pad.js): its score slip (docs/record-format.md "Result-only
 * records") — the facts as fields, [name, kind, default, options], and how they are sent. */
(function () {
  "use strict";

  (window.Fupan.padGames = window.Fupan.padGames || {}).shengji = {
    slip: [["dealer", "seat"], ["points", "number", 0], ["kitty_points", "number?"], ["kitty_pairs", "number?"],
      ["throws", "items"], ["trump", "choice", "", ["", "S", "H", "C", "D", "NT"]], ["declarer", "seat?"], ["fouls", "items"]],
    // Facts that are one object, or one list, on the slip.
    facts(facts) {
      if (facts.kitty_points !== undefined) facts.kitty = { points: facts.kitty_points, pairs: facts.kitty_pairs || 0 };
      delete facts.kitty_points;
      delete facts.kitty_pairs;
      return facts;
    },
    // The stored facts as the fields hold them (a correction's form opens with them).
    prefill(facts) {
      if (facts.kitty) Object.assign(facts, { kitty_points: facts.kitty.points, kitty_pairs: facts.kitty.pairs });
      return facts;
    },
  };
})();
