/* The result-blind review page (templates/appeal_review.html): 揭晓结果 opens the whole deal in the viewer at the
 * judged step from the viewpoint being looked at (viewer.js keeps it in the URL as ?view=). */
(function () {
  "use strict";
  const reveal = document.getElementById("reveal");
  if (!reveal) return;
  reveal.addEventListener("click", () => {
    const view = new URLSearchParams(location.search).get("view") || "public";
    const url = new URL(reveal.href, location.href);
    url.searchParams.set("view", view);
    reveal.href = url.pathname + `?step=${url.searchParams.get("step")}&view=${view}`;
  });
})();
