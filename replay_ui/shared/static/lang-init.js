/* Loaded in <head>, before the first paint, so a reader who chose English never sees the Chinese page flash
 * by. (A file rather than an inline script: the pages' Content-Security-Policy allows scripts from this
 * server only.) */
try {
  if (localStorage.getItem("fupan.lang") === "en") {
    document.documentElement.dataset.lang = "en";
    document.documentElement.lang = "en";
  }
} catch (e) {
  /* storage blocked: Chinese, the default */
}
