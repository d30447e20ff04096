/* A waiting table for friends (templates/live/friends_table.html): its seats are a live
   region (tournaments/live.js); when the region says the game has started, go to the
   game's table. */
(function () {
  "use strict";

  function follow() {
    var started = document.querySelector("[data-started-url]");
    if (started) {
      window.location.assign(started.getAttribute("data-started-url"));
    }
  }

  document.addEventListener("live:update", follow);
})();
