/* The mock exam's clock. The server renders the time left and the deadline (a <time>
 * element); this counts down from that figure each second, measured on this machine's
 * monotonic clock (so a wrong clock on the candidate's computer changes nothing), warns
 * once at five minutes, and at zero goes to the results page, where the server hands the
 * exam in. Without JavaScript the page still shows the deadline, and the server refuses
 * answers after it. */
(function () {
  "use strict";

  var WARN_AT = 5 * 60;

  function format(seconds) {
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function start() {
    var box = document.getElementById("exam-clock-box");
    var countdown = document.getElementById("exam-countdown");
    var deadline = document.getElementById("exam-deadline");
    var notice = document.getElementById("exam-clock-notice");
    if (!box || !countdown || !deadline || box.dataset.running) {
      return;
    }
    box.dataset.running = "1";
    var remaining = parseInt(deadline.dataset.remaining, 10);
    if (isNaN(remaining)) {
      return;
    }
    var endsAt = performance.now() + remaining * 1000;
    var warned = remaining <= WARN_AT;
    // The deadline in the candidate's own time zone (the server wrote it in UTC).
    var when = new Date(deadline.getAttribute("datetime"));
    if (!isNaN(when.getTime())) {
      deadline.textContent = when.toLocaleTimeString(document.documentElement.lang,
        {hour: "2-digit", minute: "2-digit"});
    }

    function tick() {
      var left = Math.max(0, Math.ceil((endsAt - performance.now()) / 1000));
      countdown.textContent = format(left);
      if (!warned && left <= WARN_AT) {
        warned = true;
        box.classList.add("is-warning");
        notice.textContent = notice.dataset.warning;
      }
      if (left <= 0) {
        notice.textContent = notice.dataset.timeout;
        box.classList.add("is-over");
        window.location.assign(box.dataset.resultsUrl);
        return;
      }
      window.setTimeout(tick, 1000 - ((endsAt - performance.now()) % 1000 + 1000) % 1000 || 1000);
    }
    tick();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  // A question card swapped in by htmx keeps the clock running; start() runs once.
  document.addEventListener("htmx:afterSettle", start);
})();
