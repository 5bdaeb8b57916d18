/* 挖坑's part of the recording pad (replay_ui/static/pad.js): its score slip (docs/record-format.md "Result-only
 * records") — the facts as fields, [name, kind, default, options], and how they are sent. */
(function () {
  "use strict";

  (window.Fupan.padGames = window.Fupan.padGames || {}).wakeng = {
    slip: [["first", "seat?"], ["digger", "seat"], ["bid", "number", 1], ["lanwa", "bool"], ["shows", "seats"],
      ["doubles", "seats"], ["winner", "seat"], ["fouls", "items"]],
  };
})();
