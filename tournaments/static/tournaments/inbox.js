/* A logged-in person's pages are told of new notifications at once: the script opens the
   inbox websocket (its address in the script tag's data-inbox, with the page's language),
   keeps the header's unread count ([data-inbox-count]) and shows each new notice's words
   and link in the status region ([data-inbox-notice]); a table that is ready is shown
   prominently. A dropped connection is opened again, waiting longer each time; a refusal
   (4403: no longer logged in) is final. */
(function () {
  "use strict";

  var script = document.currentScript;
  var address = script && script.getAttribute("data-inbox");
  var count = document.querySelector("[data-inbox-count]");
  var region = document.querySelector("[data-inbox-notice]");
  var wait = 1000;

  function showCount(unread) {
    if (!count) {
      return;
    }
    var label = count.querySelector(".visually-hidden");
    count.textContent = " " + unread;
    if (label) {
      count.insertBefore(label, count.firstChild);
    }
    count.hidden = !unread;
  }

  function showNotice(message) {
    if (!region) {
      return;
    }
    region.textContent = "";
    var words = document.createElement(message.link ? "a" : "span");
    words.textContent = message.text;
    if (message.link) {
      words.href = message.link;
    }
    region.appendChild(words);
    region.classList.toggle("prominent", Boolean(message.prominent));
    region.hidden = false;
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + address);
    socket.onopen = function () {
      wait = 1000;
    };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (typeof message.unread === "number") {
        showCount(message.unread);
      }
      if (message.type === "notice") {
        showNotice(message);
      }
    };
    socket.onclose = function (event) {
      if (event.code === 4403) {
        return;
      }
      window.setTimeout(connect, wait);
      wait = Math.min(wait * 2, 60000);
    };
  }

  if (address && "WebSocket" in window) {
    connect();
  }
}());
