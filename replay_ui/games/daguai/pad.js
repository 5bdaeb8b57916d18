/* 大怪路子's part of the recording pad (replay_ui/static/pad.js): its score slip (docs/record-format.md "Result-only
 * records") — the facts as fields, [name, kind, default, options], and how they are sent. */
(function () {
  "use strict";

  (window.Fupan.padGames = window.Fupan.padGames || {}).daguai = {
    slip: [["finish_order", "order"], ["fouls", "items"]],
  };
})();
