// Served late (first-paint.html asks for it with ?delay=): the parser waits for it, as for a
// slow script on a real page, and the text after it comes once the rules are in the tab.
window.slowScriptRan = true;
