// Served late (behind-cursor.html asks for it with ?delay=): runs while the document parses,
// after the content script's cursor has passed #early, and changes that node's text in place.
document.getElementById('early').firstChild.nodeValue = 'blue behind the cursor';
window.changedBehind = true;
