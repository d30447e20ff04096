/* A waiting table for friends (templates/live/friends_table.html): its seats are a live
   region (tournaments/live.js); when the region says the game has started, go to the
   game's table. An ES module, as the table's are. */

document.addEventListener("live:update", () => {
  const started = document.querySelector("[data-started-url]");
  if (started) {
    window.location.assign(started.getAttribute("data-started-url"));
  }
});
