/* 斗地主's part of the recording pad (replay_ui/static/pad.js): its score slip (docs/record-format.md "Result-only
 * records") — the facts as fields, [name, kind, default, options], and how they are sent. */
(function () {
  "use strict";

  (window.Fupan.padGames = window.Fupan.padGames || {}).doudizhu = {
    slip: [["landlord", "seat"], ["robs", "number", 0], ["bombs", "number", 0], ["rocket", "bool"],
      ["spring", "choice", "none", ["none", "spring", "anti_spring"]], ["winner", "choice", "landlord", ["landlord", "farmers"]],
      ["out", "seat?"], ["reveal_stage", "choice", "", ["", "start", "deal", "after_kitty"]], ["reveal_seat", "seat?"],
      ["reveal_received", "number?"], ["fouls", "items"], ["redeal", "bool"]],
    // Facts that are one object, or one list, on the slip.
    facts(facts) {
      if (facts.reveal_stage) facts.reveal = { seat: facts.reveal_seat, stage: facts.reveal_stage, ...(facts.reveal_stage === "deal" ? { received: facts.reveal_received } : {}) };
      ["reveal_stage", "reveal_seat", "reveal_received"].forEach((k) => delete facts[k]);
      if (facts.redeal) return { redeal: true, fouls: facts.fouls };
      delete facts.redeal;
      return facts;
    },
    // The stored facts as the fields hold them (a correction's form opens with them).
    prefill(facts) {
      if (facts.reveal) Object.assign(facts, { reveal_stage: facts.reveal.stage, reveal_seat: facts.reveal.seat, reveal_received: facts.reveal.received });
      return facts;
    },
  };
})();
