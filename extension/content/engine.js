// The word-replacement engine. A classic script, not a module: the manifest
// lists it before content.js, and it defines exactly one global,
// `ExtensionBridgeText`, in the content script's isolated world (pages never
// see it). Node tests run this same file as a classic script in a vm context.
//
// Two parts:
//   * strings: compileVocabulary + replaceText (whole words, case kept,
//     longest entry first, Unicode letters);
//   * DOM: createRewriter walks text nodes in bounded slices, skips code and
//     editable regions, remembers each changed node's original text and can
//     undo everything. It only touches nodeValue of text nodes, never markup.

(function defineExtensionBridgeText(root) {
  'use strict';

  const WORD_CLASS = '[\\p{L}\\p{M}\\p{N}]';
  const TEXT_NODE = 3;
  const ELEMENT_NODE = 1;
  const DOCUMENT_FRAGMENT_NODE = 11;

  /** Elements whose text is never changed. */
  const SKIP_TAGS = new Set([
    'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEXTAREA', 'INPUT', 'SELECT', 'OPTION',
    'CODE', 'PRE', 'TEMPLATE', 'KBD', 'SAMP', 'IFRAME', 'OBJECT',
  ]);

  /** Escapes every RegExp syntax character (valid with the `u` flag). */
  function escapeRegExp(text) {
    return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }

  /** Lower case, trimmed, inner whitespace collapsed to one space. */
  function normalizeKey(text) {
    return String(text).trim().replace(/\s+/gu, ' ').toLowerCase();
  }

  /**
   * Compiles a {word: replacement} map. Keys match case-insensitively as whole
   * words; entries with empty keys or non-string values are skipped.
   * @returns {{regex: RegExp, map: Map<string,string>, signature: string, size: number} | null}
   */
  function compileVocabulary(vocabulary) {
    if (!vocabulary || typeof vocabulary !== 'object') return null;
    const map = new Map();
    for (const [key, value] of Object.entries(vocabulary)) {
      if (typeof value !== 'string') continue;
      const normalized = normalizeKey(key);
      if (normalized === '') continue;
      // With two keys that differ only in case, the one already in lower case wins.
      if (map.has(normalized) && key !== normalized) continue;
      map.set(normalized, value);
    }
    if (map.size === 0) return null;
    // Longest first, so "ice cream" wins over "ice" where both match.
    const keys = [...map.keys()].sort((a, b) => [...b].length - [...a].length || (a < b ? -1 : a > b ? 1 : 0));
    const alternatives = keys.map((key) => escapeRegExp(key).replace(/ /g, '\\s+'));
    const regex = new RegExp(`(?<!${WORD_CLASS})(?:${alternatives.join('|')})(?!${WORD_CLASS})`, 'giu');
    const signature = JSON.stringify(keys.map((key) => [key, map.get(key)]));
    return { regex, map, signature, size: map.size };
  }

  function hasCase(text) {
    return text.toUpperCase() !== text.toLowerCase();
  }

  /**
   * Gives `replacement` the case pattern of `matched`:
   * BLUE → BLAUW, Blue → Blauw, blue → blauw (the replacement as written).
   */
  function keepCase(matched, replacement) {
    if (!hasCase(matched)) return replacement;
    const letters = [...matched].filter(hasCase);
    if (letters.length > 1 && matched === matched.toUpperCase()) return replacement.toUpperCase();
    const first = [...matched].find(hasCase);
    if (first !== undefined && first === first.toUpperCase() && first !== first.toLowerCase()) {
      const chars = [...replacement];
      const index = chars.findIndex(hasCase);
      if (index >= 0) chars[index] = chars[index].toUpperCase();
      return chars.join('');
    }
    return replacement;
  }

  /** Replaces every vocabulary word in `text`. Returns `text` itself when nothing matched. */
  function replaceText(text, compiled) {
    if (!compiled || typeof text !== 'string' || text === '') return text;
    compiled.regex.lastIndex = 0;
    let changed = false;
    const result = text.replace(compiled.regex, (matched) => {
      const replacement = compiled.map.get(normalizeKey(matched));
      if (replacement === undefined) return matched;
      const cased = keepCase(matched, replacement);
      if (cased !== matched) changed = true;
      return cased;
    });
    return changed ? result : text;
  }

  function tagOf(element) {
    return String(element.nodeName || element.tagName || '').toUpperCase();
  }

  /** True if this element's own text (and its descendants') must be left alone. */
  function isSkippedElement(element) {
    if (!element || element.nodeType !== ELEMENT_NODE) return false;
    if (SKIP_TAGS.has(tagOf(element))) return true;
    if (element.isContentEditable === true) return true;
    const editable = typeof element.getAttribute === 'function' ? element.getAttribute('contenteditable') : null;
    return editable !== null && editable !== undefined && String(editable).toLowerCase() !== 'false';
  }

  /** True if `node` sits inside a skipped element. */
  function isInsideSkipped(node) {
    for (let current = node && node.parentNode; current; current = current.parentNode) {
      if (isSkippedElement(current)) return true;
    }
    return false;
  }

  /**
   * Creates a DOM rewriter.
   * @param {object} options
   * @param {(run: Function) => void} options.schedule runs `run` later (idle callback / animation frame)
   * @param {number} [options.maxNodesPerSlice] nodes visited per slice
   * @param {number} [options.maxSliceMs] time per slice, with options.now
   * @param {() => number} [options.now]
   * @param {() => void} [options.afterSlice] e.g. drop the observer's records of our own writes
   */
  function createRewriter({ schedule, maxNodesPerSlice = 500, maxSliceMs = 8, now = () => Date.now(), afterSlice = () => {} }) {
    const originals = new Map(); // Text → {original, applied}
    const stack = [];
    let compiled = null;
    let scheduled = false;

    function processText(node) {
      const current = node.nodeValue;
      const record = originals.get(node);
      if (record && current === record.applied) return; // ours already: idempotent
      if (record) originals.delete(node); // the page changed it: its text is the new original
      const next = replaceText(current, compiled);
      if (next !== current) {
        originals.set(node, { original: current, applied: next });
        node.nodeValue = next;
      }
    }

    function runSlice() {
      scheduled = false;
      const start = now();
      let visited = 0;
      while (stack.length > 0 && visited < maxNodesPerSlice) {
        if (visited % 64 === 63 && now() - start > maxSliceMs) break;
        const node = stack.pop();
        visited += 1;
        if (!compiled || node.isConnected === false) continue;
        if (node.nodeType === TEXT_NODE) {
          processText(node);
        } else if ((node.nodeType === ELEMENT_NODE && !isSkippedElement(node)) || node.nodeType === DOCUMENT_FRAGMENT_NODE) {
          const children = node.childNodes || [];
          for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]);
        }
      }
      try {
        afterSlice();
      } finally {
        if (stack.length > 0) ensureScheduled();
      }
      return visited;
    }

    function ensureScheduled() {
      if (scheduled || stack.length === 0) return;
      scheduled = true;
      schedule(runSlice);
    }

    /** Queues `node` (an element, fragment or text node that appeared or changed) for processing. */
    function enqueue(node) {
      if (!compiled || !node) return;
      if (node.nodeType !== TEXT_NODE && node.nodeType !== ELEMENT_NODE && node.nodeType !== DOCUMENT_FRAGMENT_NODE) return;
      if (isInsideSkipped(node)) return;
      stack.push(node);
      ensureScheduled();
    }

    /** Puts back every original text this rewriter changed (unless the page changed it since). */
    function undoAll() {
      stack.length = 0;
      let restored = 0;
      for (const [node, record] of originals) {
        if (node.nodeValue === record.applied) {
          node.nodeValue = record.original;
          restored += 1;
        }
      }
      originals.clear();
      return restored;
    }

    /**
     * Sets the vocabulary (null or {} to switch off). A different vocabulary
     * undoes everything, then re-applies from `rootNode`; the same one again
     * changes nothing. Returns true if a vocabulary is active.
     */
    function setVocabulary(vocabulary, rootNode) {
      const next = compileVocabulary(vocabulary);
      const same = next && compiled && next.signature === compiled.signature;
      if (!same) {
        undoAll();
        compiled = next;
      }
      if (compiled && rootNode && !same) enqueue(rootNode);
      return compiled !== null;
    }

    return {
      setVocabulary,
      enqueue,
      undoAll,
      runSlice,
      get active() {
        return compiled !== null;
      },
      get pending() {
        return stack.length;
      },
      get changedCount() {
        return originals.size;
      },
    };
  }

  root.ExtensionBridgeText = Object.freeze({
    compileVocabulary,
    replaceText,
    keepCase,
    escapeRegExp,
    isSkippedElement,
    isInsideSkipped,
    createRewriter,
    SKIP_TAGS,
  });
})(globalThis);
