/* 三打一's part of the recording pad (replay_ui/static/pad.js): its score slip (docs/record-format.md "Result-only
 * records") — the facts as fields, [name, kind, default, options], and how they are sent. */
(function () {
  "use strict";

  (window.Fupan.padGames = window.Fupan.padGames || {}).sandayi = {
    slip: [["dealer", "seat"], ["bid", "number", 1], ["tanda", "bool"], ["baodao", "bool"], ["baodao_sets", "number?"],
      ["bombs", "items"], ["spring", "choice", "none", ["none", "spring", "anti_spring"]],
      ["ending", "choice", "out", ["out", "foul", "instant", "void"]], ["winner", "seat?"], ["offender", "seat?"], ["fouls", "items"]],
    // Facts that are one object, or one list, on the slip.
    facts(facts) {
      facts.declared = ["tanda", "baodao"].filter((k) => facts[k]);
      delete facts.tanda;
      delete facts.baodao;
      if (!facts.declared.includes("baodao")) delete facts.baodao_sets;
      if (facts.ending === "void") return { ending: "void", offender: facts.offender, fouls: facts.fouls };
      return facts;
    },
    // The stored facts as the fields hold them (a correction's form opens with them).
    prefill(facts) {
      (facts.declared || []).forEach((k) => { facts[k] = true; });
      return facts;
    },
  };
})();
