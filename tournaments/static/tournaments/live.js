/* Live regions: while a round is played, ask the server for the region's fragment every
   few seconds and swap it in when it changed (no page reload).

   <div data-live-url="/…/live/" data-live-poll="5000" data-live-etag="&quot;…&quot;">
     <div class="live-body" data-live="on">…</div>
   </div>

   The server answers 304 while nothing changed (the ETag); a fragment whose root says
   data-live="off" is the last one. After a swap the region fires "live:update", which the
   sortable tables and the replay listen to. Polling pauses while the tab is hidden. */
(function () {
  "use strict";

  var MAX_DELAY = 60000;

  function formatTime(date) {
    try {
      return date.toLocaleTimeString(document.documentElement.lang || undefined);
    } catch (e) {
      return date.toTimeString().slice(0, 8);
    }
  }

  function startRegion(region) {
    var url = region.getAttribute("data-live-url");
    var every = parseInt(region.getAttribute("data-live-poll"), 10) || 5000;
    var etag = region.getAttribute("data-live-etag") || "";
    var status = region.parentNode.querySelector("[data-live-status]");
    var delay = every;
    var timer = null;

    function schedule() {
      timer = window.setTimeout(poll, delay);
    }

    function stopped() {
      var body = region.querySelector("[data-live]");
      return body !== null && body.getAttribute("data-live") === "off";
    }

    function swap(html) {
      region.innerHTML = html;
      region.classList.remove("live-flash");
      void region.offsetWidth; // restart the highlight animation
      region.classList.add("live-flash");
      region.dispatchEvent(new CustomEvent("live:update", { bubbles: true }));
      if (status) {
        var text = stopped() ? status.getAttribute("data-finished")
          : status.getAttribute("data-updated").replace("{time}", formatTime(new Date()));
        status.textContent = text;
      }
    }

    function poll() {
      timer = null;
      if (document.hidden) {
        return; // resumed by visibilitychange
      }
      var headers = { "X-Requested-With": "fetch" };
      if (etag) {
        headers["If-None-Match"] = etag;
      }
      window.fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 304) {
            return null;
          }
          if (!response.ok) {
            throw new Error("HTTP " + response.status);
          }
          etag = response.headers.get("ETag") || "";
          return response.text();
        })
        .then(function (html) {
          delay = every;
          if (html !== null) {
            swap(html);
          }
          if (!stopped()) {
            schedule();
          }
        })
        .catch(function () {
          delay = Math.min(delay * 2, MAX_DELAY); // the server is busy or away: back off
          schedule();
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && timer === null && !stopped()) {
        poll();
      }
    });
    if (!stopped()) {
      schedule();
    }
  }

  function init() {
    if (!window.fetch) {
      return;
    }
    var regions = document.querySelectorAll("[data-live-url]");
    for (var i = 0; i < regions.length; i++) {
      startRegion(regions[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
