// Times in the reader's own time zone: each <time datetime="..." data-local> is written by
// the server in the schedule's zone (what a reader without JavaScript sees); here it is
// shown in the browser's zone and language, the schedule's kept as its title.
"use strict";
(function () {
  // the fields one by one: dateStyle and timeStyle may not be combined with timeZoneName
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short"});
  for (const element of document.querySelectorAll("time[data-local]")) {
    const moment = new Date(element.getAttribute("datetime"));
    if (Number.isNaN(moment.getTime())) continue;
    element.title = element.textContent.trim();
    element.textContent = format.format(moment);
  }
})();
