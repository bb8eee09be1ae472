/* Card texts: show a card's text (a popover element, see templates/quiz/_board.html)
 * when the pointer rests on the card, when the keyboard reaches it, or when it is tapped.
 *
 * Without this script the buttons in the story and in "the board in words" still open
 * their card text (HTML popovertarget: a tap or Enter opens it; Escape or a tap
 * elsewhere closes it), and screen readers read it as the button's description. This
 * adds hover and keyboard focus, the same for the cards drawn in the board's SVG (which
 * carry data-card-text), and places the text next to the card instead of mid-screen.
 *
 * A text opened by hover or focus closes when the pointer or focus leaves; one opened by
 * a click or a tap stays until Escape, a tap elsewhere, or another click on the card.
 */
(function () {
  "use strict";

  var TRIGGER = "[data-card-text], button.card-ref[popovertarget]";
  var GAP = 8;
  var HIDE_DELAY = 200;
  var current = null; // {trigger, pop, pinned}
  var hideTimer = 0;
  var downWasOpen = false;

  function popoverOf(trigger) {
    var id = trigger.getAttribute("data-card-text") || trigger.getAttribute("popovertarget");
    var pop = id ? document.getElementById(id) : null;
    return pop && typeof pop.showPopover === "function" ? pop : null;
  }

  function isOpen(pop) {
    return pop.matches(":popover-open");
  }

  function place(trigger, pop) {
    var r = trigger.getBoundingClientRect();
    var vw = document.documentElement.clientWidth;
    var vh = document.documentElement.clientHeight;
    pop.classList.add("card-pop--placed");
    var w = pop.offsetWidth;
    var h = pop.offsetHeight;
    var left = Math.min(Math.max(GAP, r.left + r.width / 2 - w / 2), vw - w - GAP);
    var top = r.bottom + GAP;
    if (top + h > vh - GAP && r.top - GAP - h >= GAP) {
      top = r.top - GAP - h;
    }
    pop.style.left = Math.max(GAP, left) + "px";
    pop.style.top = Math.max(GAP, Math.min(top, vh - h - GAP)) + "px";
  }

  function show(trigger, pinned) {
    var pop = popoverOf(trigger);
    if (!pop) {
      return;
    }
    clearTimeout(hideTimer);
    if (current && current.trigger === trigger && isOpen(pop) && !pinned) {
      return;
    }
    if (current && current.pop !== pop) {
      hide();
    }
    if (!isOpen(pop)) {
      pop.showPopover();
    }
    current = {trigger: trigger, pop: pop, pinned: pinned || (current && current.pop === pop &&
                                                               current.pinned)};
    place(trigger, pop);
  }

  function hide() {
    clearTimeout(hideTimer);
    if (current && isOpen(current.pop)) {
      current.pop.hidePopover();
    }
    current = null;
  }

  function hideSoon() {
    if (!current || current.pinned) {
      return;
    }
    clearTimeout(hideTimer);
    hideTimer = setTimeout(function () {
      if (current && !current.pinned && !current.pop.matches(":hover") &&
          !current.trigger.matches(":hover") && !current.trigger.matches(":focus-visible")) {
        hide();
      }
    }, HIDE_DELAY);
  }

  function triggerOf(target) {
    return target instanceof Element ? target.closest(TRIGGER) : null;
  }

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse") {
      return;
    }
    var trigger = triggerOf(event.target);
    if (trigger) {
      show(trigger, false);
    } else if (current && current.pop.contains(event.target)) {
      clearTimeout(hideTimer);
    }
  });

  document.addEventListener("pointerout", function (event) {
    if (event.pointerType === "mouse" && current &&
        (current.trigger.contains(event.target) || current.pop.contains(event.target))) {
      hideSoon();
    }
  });

  document.addEventListener("focusin", function (event) {
    var trigger = triggerOf(event.target);
    if (trigger && trigger.matches(":focus-visible")) {
      show(trigger, false);
    }
  });

  document.addEventListener("focusout", function (event) {
    if (current && current.trigger === event.target) {
      hideSoon();
    }
  });

  // A press outside an open popover closes it before the click (light dismiss): note
  // whether the pressed card's text was open, so that the click closes it, not reopens.
  document.addEventListener("pointerdown", function (event) {
    var trigger = triggerOf(event.target);
    var pop = trigger && popoverOf(trigger);
    downWasOpen = Boolean(pop && isOpen(pop) && current && current.pop === pop &&
                          current.pinned);
  }, true);

  // A click, a tap, Enter or Space: open the text and keep it open, or close it when it
  // was kept open already.
  function toggle(trigger, pop) {
    var wasPinned = downWasOpen || (current && current.pop === pop && current.pinned &&
                                    isOpen(pop));
    downWasOpen = false;
    if (wasPinned) {
      hide();
    } else {
      show(trigger, true);
    }
  }

  document.addEventListener("click", function (event) {
    var trigger = triggerOf(event.target);
    var pop = trigger && popoverOf(trigger);
    if (pop) {
      // The script decides for the popovertarget buttons too (their own toggling is
      // cancelled), so that a click on a text opened by hover keeps it open.
      event.preventDefault();
      toggle(trigger, pop);
    }
  });

  // The cards in the SVG are role="button": Enter and Space press them.
  document.addEventListener("keydown", function (event) {
    var trigger = triggerOf(event.target);
    var pop = trigger && trigger.hasAttribute("data-card-text") && popoverOf(trigger);
    if (pop && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      toggle(trigger, pop);
    }
  });

  document.addEventListener("toggle", function (event) {
    var pop = event.target;
    if (!(pop instanceof Element) || !pop.classList.contains("card-pop")) {
      return;
    }
    var open = event.newState === "open";
    document.querySelectorAll('[data-card-text="' + pop.id + '"]').forEach(function (el) {
      el.setAttribute("aria-expanded", open ? "true" : "false");
    });
    if (!open && current && current.pop === pop) {
      current = null;
    }
  }, true);

  window.addEventListener("resize", function () {
    if (current) {
      place(current.trigger, current.pop);
    }
  });
  window.addEventListener("scroll", function () {
    if (current) {
      place(current.trigger, current.pop);
    }
  }, {passive: true});
})();
