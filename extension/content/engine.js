// The word-replacement engine. A classic script, not a module: the manifest
// lists it before content.js, and it defines exactly one global,
// `ExtensionBridgeText`, in the content script's isolated world (pages never
// see it). Node tests and the node benchmark run this same file as a classic
// script in a vm context.
//
// Two parts:
//   * strings: compileVocabulary + replaceText. Text is cut into tokens — a
//     word is a maximal run of letters, marks and digits (\p{L}\p{M}\p{N}),
//     any other non-space character is a token of its own — by hand, into
//     typed arrays, with a hash of each token's lower-case form (no substring
//     per token). A vocabulary is compiled into a compact form of two
//     strings ("The compiled form", below): a hash table
//     of the keys' first tokens and, per first token, its keys longest first
//     with their replacements. The background compiles once per state and
//     sends the form; a tab reads it as it arrives (compiledFrom), nothing
//     built per tab. Most tokens stop at an empty slot of the table; the
//     cost per token does not depend on the vocabulary's size.
//     Whole words, case kept, longest phrase first.
//   * DOM: createRewriter walks text nodes (and open shadow roots) in bounded
//     slices, skips code and editable regions, remembers each changed node's
//     original text and can undo everything. It only touches nodeValue of
//     text nodes, never markup.

(function defineExtensionBridgeText(root) {
  'use strict';

  const TEXT_NODE = 3;
  const ELEMENT_NODE = 1;
  const DOCUMENT_NODE = 9;
  const DOCUMENT_FRAGMENT_NODE = 11;
  const SHOW_TEXT = 0x4; // NodeFilter.SHOW_TEXT
  // A page that restores its text this many times running, each within FIGHT_MS of our
  // replacing it (RECREATED_MS in an element built anew), or that answers more than
  // MAX_WRITES_PER_SECOND of our writes into one element in a second, keeps it
  // (createRewriter: contested).
  const PAGE_WINS_AFTER = 3;
  const FIGHT_MS = 1000;
  const RECREATED_MS = 50;
  const MAX_WRITES_PER_SECOND = 250;

  // A token: a word (a maximal run of letters, marks and digits) or one other
  // non-space character — /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu, cut by
  // hand below (tokenize).

  /** FNV-1a over UTF-16 code units, then a final mix: the hash of a token's lower-case form. */
  const FNV_SEED = 0x811c9dc5 | 0;
  const FNV_PRIME = 0x01000193;
  const imul = Math.imul;
  function finish(h) {
    h = imul(h ^ (h >>> 16), 0x45d9f3b);
    return h ^ (h >>> 16);
  }
  function hashOf(lower) {
    let h = FNV_SEED;
    for (let i = 0; i < lower.length; i += 1) h = imul(h ^ lower.charCodeAt(i), FNV_PRIME);
    return finish(h);
  }

  /** A text's hash as the rewriter keeps it: hashOf's, in 30 bits (a small integer to V8: no number object). */
  function textHash(text) {
    return hashOf(text) & 0x3fffffff;
  }

  /** Elements whose text is never changed. */
  const SKIP_TAGS = new Set([
    'HEAD', 'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEXTAREA', 'INPUT', 'SELECT', 'OPTION',
    'CODE', 'PRE', 'TEMPLATE', 'KBD', 'SAMP', 'IFRAME', 'OBJECT',
  ]);
  /** The same names as nodeName gives them outside HTML (SVG, XML): no case conversion per element. */
  const SKIP_NAMES = new Set([...SKIP_TAGS, ...[...SKIP_TAGS].map((tag) => tag.toLowerCase())]);
  /**
   * The skipped elements as one selector, for Element.closest: the walk behind the parser asks
   * the browser, not each element (isSkipped's rule: a skipped name, or contenteditable other
   * than "false", case-insensitive). Type selectors match HTML elements whatever their case, and
   * SVG's script and style (lower case); adding the upper-case names of SKIP_NAMES, for XML
   * documents, made each closest cost half again as much, measured.
   */
  const SKIP_SELECTOR = [...SKIP_TAGS].map((tag) => tag.toLowerCase()).concat('[contenteditable]:not([contenteditable="false" i])').join(',');
  // Behind the parser, a text this long is looked at (is it inside a skipped element?) before it
  // is cut into tokens: inline scripts and style sheets are long; a shorter one only when it
  // would be written.
  const LONG_TEXT = 256;

  // A key's tokens, lower-cased, and whether whitespace comes before each
  // (reused from key to key: compiling 20,000 keys leaves little garbage).
  const keyTokens = [];
  const keySpaced = [];

  /**
   * A key as the map holds it: its tokens in lower case, joined with one
   * space where the key has whitespace between them and nothing where it has
   * none ("Ice  Cream" → "ice cream", "C++" → "c++"). Cut by the same
   * tokenizer as the text, into keyTokens / keySpaced; returns the joined
   * key, the token count and the first token's hash.
   */
  function keyOf(text) {
    const source = String(text);
    const count = tokenize(source);
    let key = '';
    for (let i = 0; i < count; i += 1) {
      const token = lowerAt(source, i);
      const spaced = i > 0 && starts[i] > ends[i - 1];
      if (spaced) key += ' ';
      key += token;
      keyTokens[i] = token;
      keySpaced[i] = spaced;
    }
    return { key, count, first: count > 0 ? hashes[0] : 0 };
  }

  function entriesOf(vocabulary) {
    if (!vocabulary || typeof vocabulary !== 'object') return [];
    if (Object.prototype.toString.call(vocabulary) === '[object Map]') return vocabulary.entries();
    if (Array.isArray(vocabulary)) return vocabulary;
    return Object.entries(vocabulary);
  }

  /** The signature of rules identified by the host's rulesVersion; null without one. Private to the engine. */
  function versionSignature(version) {
    return typeof version === 'string' && version !== '' ? `v:${version}` : null;
  }

  // --- The compiled form ----------------------------------------------------
  //
  // Compiled once per state in the background, sent to every tab as it is and
  // read there as it arrives: plain data, three strings and four small
  // fields, that JSON (Chromium's extension messaging) and structured clone
  // (Firefox) carry unchanged. Nothing is built from it in a tab; a lookup
  // reads the strings with charCodeAt / startsWith.
  //
  //   {format: 2, signature, size, slots, width, table, data, wide}
  //
  // Digits: printable ASCII that JSON never escapes (no '"', no '\\', no
  // control character), so V8 keeps `table` and `data` at one byte per
  // character. `data` holds the groups whose every character is Latin-1,
  // `wide` the others: one key like "Łukasz" would otherwise make V8 keep
  // the whole of `data` at two bytes a character, twice the vocabulary's
  // size in every tab.
  //   * a table digit is 0–56, the character 35 + d ('#' … '[');
  //   * a number in `data` is base 32, most significant digit first: every
  //     digit but the last is the character 35 + d ('#' … 'B'), the last one
  //     93 + d (']' … '|'). 0–31 take one character, up to 1023 two.
  //
  // `table`: an open-addressed hash table (linear probing) of the keys' first
  // tokens, `slots` slots of `width + 1` characters each. The first token's
  // hash h is the one the tokenizer computes for every token of a text
  // (FNV-1a of its lower-case form, mixed; see hashOf). Its home slot is
  // floor((h >>> 0) × (slots / 2^32)), the next ones follow (the last wraps
  // to 0). A slot holds one check digit, check = 1 + ((h & 4095) × 56 >>>
  // 12) (0, "#", is an empty slot: the search ends there), then `width`
  // digits of the position of the token's group, plus one (base 57, most
  // significant first): a position p below data.length is in `data`, else
  // at p − data.length in `wide`. The table is about 60 % full: most tokens
  // of a text stop at an empty slot, after 3–4 slots, without cutting out a
  // substring; a check that matches is confirmed against the group's token.
  //
  // `data` and `wide`: one group per distinct first token (its lower-case form), each
  //   <length><first token>            compared with the text's token in lower case
  //   <key count>                      keys that begin with this token, longest (in tokens) first
  //   per key: <tokens after the first>
  //            per further token: <length × 2 + 1 if whitespace comes before it, else + 0><token>
  //            <length><replacement>
  // Tokens in lower case (toLowerCase, which may change a token's length:
  // 'İ' → 'i̇'), cut by the same tokenizer as the text. With two keys that
  // differ only in case, the one written in lower case wins (the first one
  // otherwise). The first key of a group that matches the text there and
  // does not end in a non-word token touching a word is the longest match.
  //
  // A form that did not come from compileVocabulary is read with every
  // length and position checked against the strings: a malformed or hostile
  // one replaces nothing where it is wrong, never throws and never loops
  // (compiledFrom checks its shape first).

  const FORMAT = 2;
  const TABLE_BASE = 57;
  const CHECKS = TABLE_BASE - 1; // check values 1 … 56; 0 marks an empty slot
  const DIGIT = 35; // '#'
  const LAST_DIGIT = 93; // ']'
  const MAX_WIDTH = 6;

  /** The home slot of a first token's hash: its high bits scaled to the table (no division). */
  function homeOf(h, slots) {
    return Math.floor((h >>> 0) * (slots / 4294967296));
  }

  /** The check stored with a first token, 1 … 56: from its hash's low 12 bits (the home slot uses the high ones). */
  function checkOf(h) {
    return 1 + (((h & 4095) * CHECKS) >>> 12);
  }

  const SHORT_NUMBERS = [];
  for (let value = 0; value < 1024; value += 1) {
    SHORT_NUMBERS.push((value >= 32 ? String.fromCharCode(DIGIT + (value >> 5)) : '') + String.fromCharCode(LAST_DIGIT + (value & 31)));
  }

  /** A number in `data`'s notation. */
  function encodeNumber(value) {
    if (value < 1024) return SHORT_NUMBERS[value];
    let out = String.fromCharCode(LAST_DIGIT + (value & 31));
    for (let rest = Math.floor(value / 32); rest > 0; rest = Math.floor(rest / 32)) {
      out = String.fromCharCode(DIGIT + (rest & 31)) + out;
    }
    return out;
  }

  // Where the next number is read from (one lookup at a time, like the token buffers).
  let at = 0;

  /** The number at `at` in `data` (moves `at` past it); -1 if there is none. */
  function readNumber(data) {
    let value = 0;
    for (let digits = 0; digits < 7; digits += 1) {
      const code = data.charCodeAt(at); // NaN past the end: no branch below takes it
      at += 1;
      if (code >= LAST_DIGIT && code < LAST_DIGIT + 32) return value * 32 + (code - LAST_DIGIT);
      if (!(code >= DIGIT && code < DIGIT + 32)) return -1;
      value = value * 32 + (code - DIGIT);
    }
    return -1;
  }

  /**
   * Compiles a vocabulary: a {word: replacement} object, a Map or an array
   * of [word, replacement] pairs. Keys match case-insensitively as whole
   * words; entries with empty keys or non-string values are skipped.
   * `version`, when given, identifies the vocabulary (the host's
   * rulesVersion); otherwise one is computed. Returns the compiled form
   * above (null for no rules).
   * @returns {{format: number, signature: string, size: number, slots: number, width: number, table: string, data: string} | null}
   */
  function compileVocabulary(vocabulary, version) {
    // first token (lower case) → its first key {hash, rest, count, value, more}; `more` holds the
    // group's other keys (an array, then a Map by `rest` once it has many): one object for most groups.
    const groups = new Map();
    let size = 0;
    let hash = FNV_SEED;
    for (const pair of entriesOf(vocabulary)) {
      if (!pair || typeof pair !== 'object') continue;
      const word = pair[0];
      const value = pair[1];
      if (typeof value !== 'string' || typeof word !== 'string') continue;
      const { key, count, first } = keyOf(word);
      if (count === 0) continue;
      // The tokens after the first, as `data` holds them: unambiguous (each with its length).
      let rest = '';
      for (let i = 1; i < count; i += 1) rest += encodeNumber(keyTokens[i].length * 2 + (keySpaced[i] ? 1 : 0)) + keyTokens[i];
      const group = groups.get(keyTokens[0]);
      let existing;
      if (group === undefined) {
        groups.set(keyTokens[0], { hash: first, rest, count, value, more: null });
      } else if (group.rest === rest) {
        existing = group;
      } else if (group.more instanceof Map) {
        existing = group.more.get(rest);
      } else if (group.more !== null) {
        for (const other of group.more) if (other.rest === rest) existing = other;
      }
      if (existing !== undefined) {
        // With two keys that differ only in case, the one already in lower case wins.
        if (word !== key) continue;
        existing.value = value;
      } else if (group !== undefined) {
        const entry = { rest, count, value };
        if (group.more === null) group.more = [entry];
        else if (group.more instanceof Map) group.more.set(rest, entry);
        else if (group.more.push(entry) > 8) group.more = new Map(group.more.map((other) => [other.rest, other]));
      }
      if (existing === undefined) size += 1;
      if (version === undefined) {
        const mixed = `${key}\u0000${value}\u0001`;
        for (let i = 0; i < mixed.length; i += 1) hash = imul(hash ^ mixed.charCodeAt(i), FNV_PRIME);
      }
    }
    if (size === 0) return null;
    const latin = { parts: [], length: 0 };
    const wideGroups = { parts: [], length: 0 };
    const homes = []; // per group: its hash, whether it is wide, its position in its string
    for (const [first, group] of groups) {
      const keys = group.more === null ? [group] : [group, ...group.more.values()];
      if (keys.length > 1) keys.sort((a, b) => b.count - a.count); // stable: equal lengths keep their order
      const parts = [encodeNumber(first.length), first, encodeNumber(keys.length)];
      for (const { rest, count, value } of keys) parts.push(encodeNumber(count - 1), rest, encodeNumber(value.length), value);
      const text = parts.join('');
      const into = /[^\x00-\xff]/.test(text) ? wideGroups : latin;
      homes.push(group.hash, into === wideGroups, into.length);
      into.parts.push(text);
      into.length += text.length;
    }
    // One byte per character: V8 may hand back a two-byte string from toLowerCase of a rope (a
    // key built by concatenation), and the join then takes that width for the whole; JSON.parse
    // makes a fresh string of the narrowest width.
    const data = JSON.parse(JSON.stringify(latin.parts.join('')));
    const wide = wideGroups.parts.join('');
    let width = 1;
    while (TABLE_BASE ** width <= data.length + wide.length) width += 1;
    // About 60 % full: an absent token ends its search after about 2.6 occupied slots on average
    // (a one-byte read each, and 1 in 56 of them a check that matches by chance), in a table a
    // quarter smaller than at 45 % — a tab holds it while it shows the page.
    const slots = Math.ceil(groups.size / 0.6) + 1;
    const stride = width + 1;
    const table = new Uint8Array(slots * stride).fill(DIGIT);
    for (let g = 0; g < homes.length; g += 3) {
      const h = homes[g];
      let slot = homeOf(h, slots);
      while (table[slot * stride] !== DIGIT) slot = slot + 1 === slots ? 0 : slot + 1;
      const check = checkOf(h);
      const base = slot * stride;
      table[base] = DIGIT + check;
      let offset = (homes[g + 1] ? data.length : 0) + homes[g + 2] + 1;
      for (let d = stride - 1; d >= 1; d -= 1) {
        table[base + d] = DIGIT + (offset % TABLE_BASE);
        offset = Math.floor(offset / TABLE_BASE);
      }
    }
    let tableText = '';
    for (let i = 0; i < table.length; i += 8192) tableText += String.fromCharCode.apply(null, table.subarray(i, i + 8192));
    const signature = versionSignature(version) ?? `h:${size}:${(hash >>> 0).toString(16)}`;
    return { format: FORMAT, signature, size, slots, width, table: tableText, data, wide };
  }

  /**
   * The compiled form as a message brought it (compileVocabulary's result
   * after JSON or structured clone), checked for its shape — O(1), nothing
   * is built — or null (no rules) for anything else.
   */
  function compiledFrom(form) {
    if (!form || typeof form !== 'object' || form.format !== FORMAT) return null;
    const { signature, size, slots, width, table, data, wide } = form;
    if (typeof signature !== 'string' || signature === '' || typeof table !== 'string' || typeof data !== 'string') return null;
    if (typeof wide !== 'string') return null;
    if (!Number.isSafeInteger(size) || size < 1 || !Number.isSafeInteger(slots) || slots < 1 || slots > 2 ** 28) return null;
    if (!Number.isSafeInteger(width) || width < 1 || width > MAX_WIDTH || table.length !== slots * (width + 1)) return null;
    return { format: FORMAT, signature, size, slots, width, table, data, wide };
  }

  // The string (compiled.data or compiled.wide) of the group groupAt found.
  let source = '';

  /**
   * The position in its string (`source`) of the keys that begin with token i
   * of `text` (after its group's first token), if the slot at `base` of the
   * table (whose check matched) is that token's; -1 if not.
   */
  function groupAt(compiled, text, i, base) {
    const { table, data } = compiled;
    const end = base + compiled.width + 1;
    let offset = 0;
    for (let d = base + 1; d < end; d += 1) {
      const digit = table.charCodeAt(d) - DIGIT;
      if (!(digit >= 0 && digit < TABLE_BASE)) return -1;
      offset = offset * TABLE_BASE + digit;
    }
    at = offset - 1;
    source = data;
    if (at >= data.length) {
      source = compiled.wide;
      at -= data.length;
    }
    const length = at >= 0 ? readNumber(source) : -1;
    if (length < 0 || at + length > source.length) return -1;
    return isLowerAt(text, i, source, at, length) ? at + length : -1;
  }

  /**
   * True if token i of `text`, in lower case, is `data`'s `length` characters at `at` — compared
   * in place for ASCII (no substring, no lower-cased copy: nearly every token of a page is
   * compared once a vocabulary holds most of its words), cut out and lower-cased otherwise.
   */
  function isLowerAt(text, i, data, at, length) {
    if ((tokenFlags[i] & ASCII_TOKEN) === 0) {
      // Not ASCII (toLowerCase may change the length: 'İ' → 'i̇'): the token as toLowerCase gives it.
      const word = lowerAt(text, i);
      return word.length === length && data.startsWith(word, at);
    }
    const start = starts[i];
    if (ends[i] - start !== length) return false;
    for (let k = 0; k < length; k += 1) {
      let code = text.charCodeAt(start + k);
      if (code >= 65 && code <= 90) code |= 0x20;
      if (code !== data.charCodeAt(at + k)) return false;
    }
    return true;
  }

  function hasCase(text) {
    return text.toUpperCase() !== text.toLowerCase();
  }

  /**
   * Gives `replacement` the case pattern of `matched`:
   * BLUE → BLAUW, Blue → Blauw, blue → blauw (the replacement as written).
   */
  function keepCase(matched, replacement) {
    const ascii = keepCaseAscii(matched, replacement);
    if (ascii !== null) return ascii;
    if (matched === matched.toLowerCase()) return replacement;
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

  /**
   * keepCase for an ASCII match (most of them): one look at each of its characters, nothing built
   * but the result. Null when `matched` is not ASCII, or when the replacement's first letter must
   * be found beyond ASCII (keepCase's general path then).
   */
  function keepCaseAscii(matched, replacement) {
    let letters = 0;
    let upper = 0;
    let firstUpper = false;
    for (let i = 0; i < matched.length; i += 1) {
      const code = matched.charCodeAt(i);
      if (code >= 128) return null;
      if (code >= 65 && code <= 90) {
        if (letters === 0) firstUpper = true;
        letters += 1;
        upper += 1;
      } else if (code >= 97 && code <= 122) {
        letters += 1;
      }
    }
    if (upper === 0) return replacement;
    if (letters > 1 && upper === letters) return replacement.toUpperCase();
    if (!firstUpper) return replacement;
    const first = replacement.charCodeAt(0);
    if (first >= 97 && first <= 122) return String.fromCharCode(first - 32) + replacement.slice(1);
    if (first >= 65 && first <= 90) return replacement;
    return null;
  }

  // --- Tokens without allocating -------------------------------------------
  //
  // replaceText cuts text into the tokens defined above, by hand: a class per
  // UTF-16 code unit (ASCII filled in now, the rest learned on first sight),
  // token boundaries and a hash of each token's lower-case form into typed
  // arrays. No match object, no substring, no lower-cased copy per token: a
  // token is only cut out when the compiled form's table says it may begin a key.

  const WORD = 1;
  const SPACE = 2;
  const OTHER = 3;
  const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;
  const SPACE_CHAR = /^\s$/u;

  /** Class of each BMP code unit that is not a surrogate; 0 while unknown. */
  const unitClass = new Uint8Array(0x10000);
  for (let code = 0; code < 128; code += 1) unitClass[code] = classify(String.fromCharCode(code));
  const astralClass = new Map(); // code point → class, for the first 4,096 seen (a page may hold a million)

  function classify(ch) {
    return WORD_CHAR.test(ch) ? WORD : SPACE_CHAR.test(ch) ? SPACE : OTHER;
  }

  // Token buffers reused across calls (one text at a time; no re-entrancy).
  let capacity = 1024;
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let hashes = new Int32Array(capacity);
  let tokenFlags = new Uint8Array(capacity); // WORD_TOKEN (else one other character), ASCII_TOKEN
  const WORD_TOKEN = 1;
  const ASCII_TOKEN = 2; // every code unit below 128: lower case is | 0x20 of A–Z

  function grow() {
    capacity *= 2;
    const s = new Int32Array(capacity); s.set(starts); starts = s;
    const e = new Int32Array(capacity); e.set(ends); ends = e;
    const h = new Int32Array(capacity); h.set(hashes); hashes = h;
    const w = new Uint8Array(capacity); w.set(tokenFlags); tokenFlags = w;
  }

  /**
   * Fills the token buffers for `text`; returns the token count. The same
   * tokens as the regular expression above (u flag: a surrogate pair is one code point, a
   * lone surrogate a token of its own).
   */
  function tokenize(text) {
    const length = text.length;
    let n = 0;
    let i = 0;
    while (i < length) {
      let code = text.charCodeAt(i);
      let width = 1;
      let cls = unitClass[code];
      if (cls === 0) ({ cls, width } = slowClass(text, i, code));
      if (cls === SPACE) {
        i += width;
        continue;
      }
      if (n === capacity) grow();
      starts[n] = i;
      if (cls === OTHER) {
        i += width;
        ends[n] = i;
        tokenFlags[n] = width === 1 && code < 128 ? ASCII_TOKEN : 0;
        hashes[n] = width === 1 && code < 128 ? finish(imul(FNV_SEED ^ code, FNV_PRIME)) : hashOf(text.slice(starts[n], i).toLowerCase());
        n += 1;
        continue;
      }
      // A word: letters, marks and digits. ASCII is lower-cased and hashed
      // as it goes; a word with anything else is hashed from toLowerCase().
      let h = FNV_SEED;
      let ascii = true;
      for (;;) {
        if (code < 128) {
          h = imul(h ^ (code | 0x20), FNV_PRIME); // letters and digits only: | 0x20 lower-cases A–Z
        } else {
          ascii = false;
        }
        i += width;
        if (i >= length) break;
        code = text.charCodeAt(i);
        width = 1;
        cls = unitClass[code];
        if (cls === 0) ({ cls, width } = slowClass(text, i, code));
        if (cls !== WORD) break;
      }
      ends[n] = i;
      tokenFlags[n] = ascii ? WORD_TOKEN | ASCII_TOKEN : WORD_TOKEN;
      hashes[n] = ascii ? finish(h) : hashOf(text.slice(starts[n], i).toLowerCase());
      n += 1;
    }
    return n;
  }

  /** The class of a code unit seen for the first time, or of a surrogate (pair). */
  function slowClass(text, i, code) {
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        const point = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        let cls = astralClass.get(point);
        if (cls === undefined) {
          cls = classify(String.fromCodePoint(point));
          if (astralClass.size < 4096) astralClass.set(point, cls);
        }
        return { cls, width: 2 };
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) return { cls: OTHER, width: 1 }; // a lone surrogate
    const cls = classify(String.fromCharCode(code));
    unitClass[code] = cls;
    return { cls, width: 1 };
  }

  /** Token i in lower case (cut out only for tokens the table lets through). */
  function lowerAt(text, i) {
    return text.slice(starts[i], ends[i]).toLowerCase();
  }

  /** Replaces every vocabulary word in `text`. Returns `text` itself when nothing matched. */
  function replaceText(text, compiled) {
    if (!compiled || typeof text !== 'string' || text === '') return text;
    const n = tokenize(text);
    const result = scan(text, compiled, n);
    if (capacity > 65_536 && n > 65_536) {
      // a huge text node: do not keep its buffers alive afterwards
      capacity = 1024;
      starts = new Int32Array(capacity);
      ends = new Int32Array(capacity);
      hashes = new Int32Array(capacity);
      tokenFlags = new Uint8Array(capacity);
    }
    return result;
  }

  function scan(text, compiled, n) {
    // Left to right; at each token the longest phrase that is a key wins.
    const { table, slots } = compiled;
    const stride = compiled.width + 1;
    const scale = slots / 4294967296;
    let out = null;
    let copied = 0;
    for (let i = 0; i < n; i += 1) {
      // A phrase that starts with a non-word token may not touch a word before it.
      if (i > 0 && starts[i] === ends[i - 1] && (tokenFlags[i] & WORD_TOKEN) === 0 && (tokenFlags[i - 1] & WORD_TOKEN) !== 0) continue;
      // The table: most tokens stop at an empty slot, passing other tokens' checks on the way.
      const h = hashes[i];
      let slot = Math.floor((h >>> 0) * scale); // homeOf
      let check = 0;
      at = -1;
      for (let probes = 0; probes < slots; probes += 1) {
        const base = slot * stride;
        const found = table.charCodeAt(base) - DIGIT;
        if (found === 0) break;
        if (check === 0) check = checkOf(h);
        if (found === check) {
          at = groupAt(compiled, text, i, base);
          if (at >= 0) break;
        }
        slot = slot + 1 === slots ? 0 : slot + 1;
      }
      if (at < 0) continue; // not the first token of any key
      const data = source; // the found group's string
      const keys = readNumber(data);
      let best = -1;
      let bestReplacement;
      for (let k = 0; k < keys && at >= 0; k += 1) {
        // Longest first: the first key that matches here is the match.
        const more = readNumber(data);
        if (more < 0) break;
        let fits = i + more < n;
        let j = i;
        for (let t = 1; t <= more; t += 1) {
          const code = readNumber(data);
          const length = code >>> 1;
          if (code < 0 || at + length > data.length) {
            at = -1;
            break;
          }
          if (fits) {
            j += 1;
            if ((starts[j] > ends[j - 1] ? 1 : 0) !== (code & 1)) {
              fits = false;
            } else {
              fits = at + length <= data.length && isLowerAt(text, j, data, at, length);
            }
          }
          at += length;
        }
        if (at < 0) break;
        const length = readNumber(data);
        if (length < 0 || at + length > data.length) break;
        if (fits && endsClean(j, n)) {
          best = j;
          bestReplacement = data.slice(at, at + length);
          break;
        }
        at += length;
      }
      if (best < 0) continue;
      const matched = text.slice(starts[i], ends[best]);
      // Most matches are already lower case: the replacement as written.
      const cased = keepCase(matched, bestReplacement);
      if (cased !== matched) {
        if (out === null) out = [];
        out.push(text.slice(copied, starts[i]), cased);
        copied = ends[best];
      }
      i = best;
    }
    if (out === null) return text;
    out.push(text.slice(copied));
    return out.join('');
  }

  /** A phrase that ends with a non-word token may not touch a word after it. */
  function endsClean(j, n) {
    if (j + 1 >= n || starts[j + 1] !== ends[j]) return true;
    return (tokenFlags[j] & WORD_TOKEN) !== 0 || (tokenFlags[j + 1] & WORD_TOKEN) === 0;
  }

  /** True if this element's own text (and its descendants') must be left alone. */
  function isSkippedElement(element) {
    return !!element && element.nodeType === ELEMENT_NODE && isSkipped(element);
  }

  /** isSkippedElement for a node known to be an element. */
  function isSkipped(element) {
    const name = element.nodeName;
    if (SKIP_NAMES.has(name)) return true;
    if (typeof name === 'string' && name !== name.toUpperCase() && name !== name.toLowerCase() && SKIP_TAGS.has(name.toUpperCase())) return true;
    // The attribute, not isContentEditable: that property makes Blink bring
    // style up to date, which costs a style recalculation per element while
    // the parser is still adding them. Descendants of an editable element
    // are skipped with it.
    const editable = typeof element.getAttribute === 'function' ? element.getAttribute('contenteditable') : null;
    return editable !== null && editable !== undefined && String(editable).toLowerCase() !== 'false';
  }

  /**
   * True if `doc` is editable as a whole: `designMode` on (rich-text editors
   * in an iframe). Its text is the user's input, never rewritten.
   */
  function isDesignMode(doc) {
    const mode = doc?.designMode;
    return typeof mode === 'string' && mode.toLowerCase() === 'on';
  }

  /**
   * True if `element` can be edited: the browser says so (`isContentEditable`, which also knows
   * editing hosts made by style), or its own contenteditable attribute says so (the browser's
   * answer lags for an element that is not rendered yet, e.g. one the page shows only in edit mode).
   */
  function isEditableElement(element) {
    if (element.isContentEditable === true) return true;
    const editable = typeof element.getAttribute === 'function' ? element.getAttribute('contenteditable') : null;
    return editable !== null && editable !== undefined && String(editable).toLowerCase() !== 'false';
  }

  /** The editing host around `node` (the outermost editable element of its tree), or null if it is not editable. */
  function editingHostOf(node) {
    let element = node?.nodeType === ELEMENT_NODE ? node : node?.parentElement ?? null;
    if (!element || !isEditableElement(element)) return null;
    for (let parent = element.parentElement; parent && isEditableElement(parent); parent = parent.parentElement) element = parent;
    return element;
  }

  /** The parent in the flat tree: a shadow root's parent is its host. */
  function parentOf(node) {
    return node.parentNode ?? (node.nodeType === DOCUMENT_FRAGMENT_NODE ? node.host ?? null : null);
  }

  /**
   * True if the text node `text` sits inside a skipped element of its own tree: one question to
   * the browser (Element.closest) instead of a look at each ancestor.
   */
  function textIsSkipped(text) {
    const parent = text.parentElement;
    return !!parent && parent.closest(SKIP_SELECTOR) !== null;
  }

  /** True if `node` is `ancestor` or sits inside it (also across shadow roots). */
  function isWithin(node, ancestor) {
    for (let current = node; current; current = parentOf(current)) if (current === ancestor) return true;
    return false;
  }

  /** True if `node` sits inside a skipped element (also across shadow roots). */
  function isInsideSkipped(node) {
    for (let current = node && parentOf(node); current; current = parentOf(current)) {
      if (isSkippedElement(current)) return true;
    }
    return false;
  }

  /**
   * Creates a DOM rewriter.
   * @param {object} options
   * @param {(run: Function) => void} options.schedule runs `run` soon, as a new task
   * @param {number} [options.maxNodesPerSlice] nodes visited per slice
   * @param {number} [options.maxSliceMs] time per slice, with options.now
   * @param {() => number} [options.now]
   * @param {() => void} [options.afterSlice] e.g. drop the observers' records of our own writes
   * @param {(shadowRoot: object) => void} [options.onShadowRoot] an open shadow root was found (observe it)
   * @param {{designMode?: string}} [options.document] the document served: once it is in
   *   `designMode` (checked before every slice and by `editing`), everything is undone and the
   *   rewriter stops for good
   * @param {() => void} [options.onEditable] the rewriter stopped because the document is an editor
   */
  function createRewriter({
    schedule, maxNodesPerSlice = 500, maxSliceMs = 8, now = () => Date.now(),
    afterSlice = () => {}, onShadowRoot = () => {}, document: servedDocument = null, onEditable = () => {},
  }) {
    // Text → {original, length, hash}: the text it had, and the text we wrote known again by its
    // length and textHash, not kept. The page's node holds that text; a second reference kept a
    // string object alive per changed node (about 100 kB of a new tab's heap on a large page).
    // A text the page put there instead that has the same
    // length and, by chance (1 in 2^30), the same hash counts as ours. A copy of our text (below)
    // shares its source's record.
    const originals = new Map();
    // The hash of a text we wrote → the node we wrote it into: a page that re-parses its own
    // markup (`table.outerHTML = …`, as the Python documentation does) makes new
    // text nodes out of our replacements. Such a copy is ours, not the page's
    // text: replacing it again would translate the translation, and undo must
    // give it its original back (the record of the node we wrote it into,
    // in `originals`: one record per text, not a second copy). At
    // most 65,536 texts: when full, the map starts over (a page that keeps
    // replacing its content must not grow this without end).
    let written = new Map();
    // What the page made editable: the user's edits there are what the page saves, so nothing of
    // ours may be in them. A document in designMode (an editor as a whole) stops the rewriter for
    // good; a region (its editing host) gets its texts back and is never written again, also
    // after the page makes it uneditable (an inline editor that leaves edit mode may save what
    // it shows later: a draft, an autosave).
    let editorDocument = false;
    const editors = new WeakSet();
    let editorCount = 0;
    const stack = [];
    let compiled = null;
    let suspended = null; // the signature of the rules whose replacements stay while suspend()ed
    let scheduled = false;
    // The document-order cursor (follow): while the parser adds nodes at the
    // end of the document, this walks behind it, visiting each node once.
    // It is moved on only by catchUp() (content.js: before each frame, and a
    // timer for tabs that draw no frames) and by slices already running: once
    // it has caught up with the parser, no task of ours waits.
    let cursor = null; // {root, walker (on the last text visited), isLoading, onDone, atEnd}
    // A page that puts its own text back whenever it is replaced (a MutationObserver guarding
    // it, a timer re-rendering it) would have it replaced again at once, and so on without end:
    // a tab that burns a core, or one that never answers when the page restores it in its own
    // observer. The page wins, and its text is left alone from then on:
    // - where it puts back in the same parent the very text replaced there less than FIGHT_MS
    //   before, PAGE_WINS_AFTER times running (that parent's text);
    // - where it answers each write into a parent with a change there, more than
    //   MAX_WRITES_PER_SECOND times in a second (that parent's text: a ticker is far slower);
    // - where it builds a new element around the very text replaced less than RECREATED_MS
    //   before, the node written having left the document, PAGE_WINS_AFTER times running (that
    //   text, wherever it comes back: the parent is new each time).
    // Only texts that changed after they were first seen count (the walk behind the parser
    // writes each text once).
    let contested = new WeakMap(); // parent → {node, original, at, restores, since, writes}
    let recreated = new Map(); // original text → {node, at, restores}

    function isOurs(record, text) {
      return text.length === record.length && textHash(text) === record.hash;
    }

    /**
     * Replaces the text of `node` (its text is `current`). `unchecked`: the caller did not look
     * at its ancestors (the walk behind the parser): a long text is looked at first, a shorter
     * one only when there is something to write.
     */
    function processText(node, current = node.nodeValue, unchecked = false) {
      const record = originals.get(node);
      if (record && isOurs(record, current)) return; // ours already: idempotent
      if (record) {
        originals.delete(node); // the page changed it: its text is the new original
      } else if (written.size > 0) {
        const source = written.get(textHash(current));
        const copied = source !== undefined && source !== node && source.isConnected === false ? originals.get(source) : undefined;
        if (copied !== undefined && isOurs(copied, current)) {
          // A copy the page put inside a skipped element (an editor, code) is the page's there:
          // not ours to undo. Copies are rare: this closest costs the walk nothing.
          if (mayWrite(node, unchecked)) originals.set(node, copied); // a copy of ours: the same original, the same text
          return;
        }
      }
      if (unchecked && current.length > LONG_TEXT && textIsSkipped(node)) return;
      const next = replaceText(current, compiled);
      if (next !== current) {
        if (!mayWrite(node, unchecked && current.length <= LONG_TEXT)) return;
        if (!unchecked && pageDefends(node, current)) return;
        const hash = textHash(next);
        originals.set(node, { original: current, length: next.length, hash });
        if (written.size >= 65_536) written = new Map();
        written.set(hash, node);
        node.nodeValue = next;
      }
    }

    /**
     * Whether the page keeps answering our writes (above): in `node`'s parent, the text node
     * last written there was given the same text back, or was taken out for one that has it, or
     * the parent is written into too often; or `original` keeps coming back in new elements.
     */
    function pageDefends(node, original) {
      const parent = node.parentNode;
      if (parent === null) return false;
      const at = now();
      let last = contested.get(parent);
      if (last === undefined) {
        last = { node, original, at, restores: 0, since: at, writes: 0 };
        contested.set(parent, last);
      } else {
        if (last.restores >= PAGE_WINS_AFTER) return true;
        const putBack = last.original === original && at - last.at < FIGHT_MS && (last.node === node || last.node.parentNode !== parent);
        last.restores = putBack ? last.restores + 1 : 0;
        if (at - last.since >= 1000) {
          last.since = at;
          last.writes = 0;
        }
        last.node = node;
        last.original = original;
        last.at = at;
      }
      last.writes += 1;
      if (last.writes > MAX_WRITES_PER_SECOND) last.restores = PAGE_WINS_AFTER;
      return last.restores >= PAGE_WINS_AFTER || rebuiltAround(node, original, at);
    }

    /** Whether `original` keeps coming back in a new node as soon as the one we wrote it into left (above). */
    function rebuiltAround(node, original, at) {
      const last = recreated.get(original);
      if (last === undefined) {
        if (recreated.size >= 65_536) recreated = new Map();
        recreated.set(original, { node, at, restores: 0 });
        return false;
      }
      if (last.restores >= PAGE_WINS_AFTER) return true;
      const putBack = last.node !== node && last.node.isConnected === false && at - last.at < RECREATED_MS;
      last.restores = putBack ? last.restores + 1 : 0;
      last.node = node;
      last.at = at;
      return last.restores >= PAGE_WINS_AFTER;
    }

    /**
     * Whether text may be written into `node`: not inside a region the page made editable, nor
     * (`unchecked`: the caller did not look at its ancestors) inside a skipped element.
     */
    function mayWrite(node, unchecked) {
      if (unchecked && textIsSkipped(node)) return false;
      if (editorCount > 0) {
        for (let current = parentOf(node); current; current = parentOf(current)) if (editors.has(current)) return false;
      }
      return true;
    }

    /** A slice the scheduler runs: the pending one has begun. */
    function runSlice() {
      scheduled = false;
      return slice();
    }

    /**
     * A slice run from outside the scheduler (content.js: in a
     * requestAnimationFrame callback, before the frame's style, layout and
     * paint), with its own time budget (default maxSliceMs). A slice already
     * pending stays the one pending: no second chain of slices.
     */
    function catchUp(budgetMs = maxSliceMs) {
      return slice(budgetMs);
    }

    /** True once the document served is in designMode (an editor for the rest of its life). */
    function isEditorDocument() {
      return editorDocument || (editorDocument = isDesignMode(servedDocument));
    }

    /**
     * The document became an editor (an iframe with designMode on, as webmail and CMS editors
     * make): undo everything, and stop for good (setCompiled refuses rules from now on).
     */
    function stopIfEditorDocument() {
      if (compiled === null || !isEditorDocument()) return false;
      undoAll();
      compiled = null;
      try {
        onEditable();
      } catch {
        // the caller's bookkeeping; the rewriter has stopped either way
      }
      return true;
    }

    /**
     * The page or the user is about to edit at `node`: the target of an event that comes before
     * an edit (mousedown, focus, keydown, beforeinput), or with `again` an element whose
     * contenteditable the page changed. If the document is in designMode, everything is undone
     * and the rewriter stops (onEditable). If `node` is in an editable region, every text we
     * wrote in its editing host gets its original back, and nothing in that host is written
     * again: looked through the first time a host is seen, and again for each change of the
     * attribute (an event inside a host seen before, each keystroke, looks at nothing). True if
     * either was found.
     */
    function editing(node, { again = false } = {}) {
      if (stopIfEditorDocument()) return true;
      const host = editingHostOf(node);
      if (host === null) return false;
      if (!editors.has(host)) {
        editors.add(host);
        editorCount += 1;
      } else if (!again) {
        return true;
      }
      restoreWithin(host);
      return true;
    }

    /** The texts under `root` (`root` itself if it is one) that we changed. */
    function* ourTextsWithin(root) {
      if (originals.size === 0) return;
      if (root.nodeType === TEXT_NODE) {
        if (originals.has(root)) yield root;
        return;
      }
      const walker = (root.ownerDocument ?? root).createTreeWalker(root, SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) if (originals.has(text)) yield text;
    }

    function holdsOurs(root) {
      return !ourTextsWithin(root).next().done;
    }

    /** Gives every text under `root` that holds what we wrote its original back, and forgets it. */
    function restoreWithin(root) {
      for (const text of [...ourTextsWithin(root)]) {
        const record = originals.get(text);
        if (isOurs(record, text.nodeValue)) text.nodeValue = record.original;
        originals.delete(text);
      }
    }

    function slice(budgetMs = maxSliceMs) {
      if (stopIfEditorDocument()) return 0;
      const start = now();
      let visited = 0;
      while (recordBatches.length > 0 && now() - start <= budgetMs) {
        if (!expandBatch(recordBatches[0], budgetMs, start)) break;
        recordBatches.shift();
      }
      while (stack.length > 0 && visited < maxNodesPerSlice) {
        if ((visited & 31) === 31 && now() - start > budgetMs) break;
        const node = stack.pop();
        visited += 1;
        if (!compiled || node.isConnected === false) continue;
        const type = node.nodeType;
        if (type === TEXT_NODE) {
          processText(node);
        } else if ((type === ELEMENT_NODE && !isSkippedElement(node)) || type === DOCUMENT_FRAGMENT_NODE || type === DOCUMENT_NODE) {
          // Sibling links, not childNodes: no NodeList per element.
          for (let child = node.lastChild; child; child = child.previousSibling) stack.push(child);
          const shadow = type === ELEMENT_NODE ? node.shadowRoot : null;
          if (shadow) {
            onShadowRoot(shadow);
            stack.push(shadow);
          }
        }
      }
      let cursorDone = null;
      if (cursor !== null && cursor.walker.currentNode.isConnected === false) {
        // A script took out the node the cursor stood on: hand over to the
        // observer and one pass over the document (a page that keeps doing
        // this must not keep the cursor walking from the top).
        cursorDone = cursor.onDone;
        cursor = null;
      } else if (cursor !== null && stack.length === 0 && visited < maxNodesPerSlice && compiled) {
        visited += advanceCursor(start, maxNodesPerSlice - visited, budgetMs);
        if (cursor.atEnd && !cursor.isLoading()) {
          cursorDone = cursor.onDone;
          cursor = null;
        }
      }
      try {
        afterSlice();
      } finally {
        if (stack.length > 0 || recordBatches.length > 0 || (cursor !== null && !cursor.atEnd)) ensureScheduled();
      }
      if (cursorDone) cursorDone();
      return visited;
    }

    /**
     * Moves the cursor forward in document order, visiting each text node once, until the time
     * budget ends or nothing follows yet. A TreeWalker over text nodes only takes each step in
     * the browser, and no element is looked at: a text is asked about its ancestors (one
     * Element.closest) only when it is long or has something to write (processText). Each look
     * at an element costs most in Firefox, through the content script's Xray wrappers (a walk
     * over elements and text took about four times one text by text: `page_probe.py walk`).
     * The price: text
     * inside a skipped element is read (and, when short, cut into tokens) before it is left
     * alone, and a shadow root the parser attaches (<template shadowrootmode>) is found by the
     * pass over the document after the load, not before the first paint (one attached by a
     * script is announced at once: content/shadow-hook.js). While the document is loading, the
     * very last node is left alone when it is text: the parser may still append to it
     * (silently: no mutation record).
     */
    function advanceCursor(start, maxNodes, budgetMs) {
      const { root, walker } = cursor;
      let tail = null;
      if (cursor.isLoading()) {
        tail = root;
        while (tail.lastChild) tail = tail.lastChild;
      }
      cursor.atEnd = false;
      let at = walker.currentNode; // the last text visited (the root before the first)
      let visited = 0;
      for (;;) {
        if ((visited & 31) === 31 && now() - start > budgetMs) return visited;
        if (visited >= maxNodes) return visited;
        const node = walker.nextNode();
        if (node === null) {
          cursor.atEnd = true;
          return visited;
        }
        if (node === tail) {
          walker.currentNode = at; // the tail waits for the parser
          cursor.atEnd = true;
          return visited;
        }
        visited += 1;
        at = node;
        processText(node, node.nodeValue, true);
      }
    }

    /**
     * Walks `rootNode` (the document, while the parser still adds to it) in
     * document order behind the parser: each node is visited once, as soon
     * as a catchUp runs after it was added; no MutationObserver is needed
     * while it loads. When `isLoading()` turns false and the walk reached
     * the end — or earlier, if a script takes out the node the cursor stands
     * on — `onDone` runs (then observe the document, and enqueue it once to
     * catch anything a script changed behind the cursor meanwhile).
     * The caller moves the cursor on (catchUp); the rewriter starts no slice
     * for it of its own but to finish a walk a catchUp left behind the
     * parser — no look-again timers while it waits for the parser.
     */
    function follow(rootNode, isLoading, onDone) {
      if (!compiled || !rootNode) return;
      const doc = rootNode.nodeType === DOCUMENT_NODE ? rootNode : rootNode.ownerDocument;
      // The walker stands on the last text visited (its currentNode; the root before the first).
      const walker = doc.createTreeWalker(rootNode, SHOW_TEXT);
      cursor = { root: rootNode, walker, isLoading, onDone, atEnd: false };
    }

    function ensureScheduled() {
      if (scheduled || (stack.length === 0 && recordBatches.length === 0 && cursor === null)) return;
      scheduled = true;
      schedule(runSlice);
    }

    /** Queues `node` (a document, element, fragment, shadow root or text node that appeared or changed). */
    function enqueue(node) {
      if (!compiled || !node) return;
      const type = node.nodeType;
      if (type !== TEXT_NODE && type !== ELEMENT_NODE && type !== DOCUMENT_FRAGMENT_NODE && type !== DOCUMENT_NODE) return;
      if (isInsideSkipped(node)) return;
      stack.push(node);
      ensureScheduled();
    }

    const recordBatches = []; // MutationObserver batches not looked at yet

    /**
     * Keeps a batch of MutationObserver records for the next slice: the
     * observer's callback stays O(1) however much the parser added.
     */
    function deferRecords(records) {
      if (!compiled || records.length === 0) return;
      recordBatches.push({ records, index: 0, added: new Set(), parentSkipped: new Map() });
      ensureScheduled();
    }

    /**
     * Queues what a batch of MutationObserver records added or changed. A
     * node whose parent was added in the same batch is left out (walking the
     * parent covers it), and the skipped-ancestor test runs once per parent.
     */
    function enqueueRecords(records) {
      if (!compiled) return;
      expandBatch({ records, index: 0, added: new Set(), parentSkipped: new Map() }, Infinity, 0);
      ensureScheduled();
    }

    /** Works through `batch` until done or `deadline` (checked every 64 records); true when done. */
    function expandBatch(batch, deadline, start) {
      const { records, added, parentSkipped } = batch;
      const insideSkipped = (parent) => {
        let skipped = parentSkipped.get(parent);
        if (skipped === undefined) {
          skipped = isSkippedElement(parent) || isInsideSkipped(parent);
          parentSkipped.set(parent, skipped);
        }
        return skipped;
      };
      while (batch.index < records.length) {
        if ((batch.index & 63) === 63 && now() - start > deadline) return false;
        const record = records[batch.index];
        batch.index += 1;
        if (record.type === 'childList') {
          const parent = record.target;
          const covered = added.has(parent);
          for (const node of record.addedNodes) {
            added.add(node);
            if (covered) continue;
            const type = node.nodeType;
            if (type !== TEXT_NODE && type !== ELEMENT_NODE) continue;
            if (insideSkipped(parent)) {
              // Text we wrote, moved into an editable region, goes back to the page's.
              if (holdsOurs(node) && editing(parent)) restoreWithin(node);
              continue;
            }
            stack.push(node);
          }
        } else if (record.type === 'characterData') {
          const node = record.target;
          if (added.has(node) || (node.parentNode && added.has(node.parentNode))) continue;
          if (node.parentNode && insideSkipped(node.parentNode)) continue;
          stack.push(node);
        }
      }
      return true;
    }

    /** Puts back every original text this rewriter changed (unless the page changed it since). */
    function undoAll() {
      suspended = null;
      dropPendingWork();
      let restored = 0;
      for (const [node, record] of originals) {
        if (isOurs(record, node.nodeValue)) {
          node.nodeValue = record.original;
          restored += 1;
        }
      }
      originals.clear();
      written = new Map();
      // What was just put back is ours, not the page's: new rules rewrite it however soon they come.
      contested = new WeakMap();
      recreated = new Map();
      return restored;
    }

    /**
     * Sets the compiled rules (compileVocabulary's form, or null to switch off): the tab's one
     * "is this the same state?" check. Rules of another signature undo everything first; rules
     * of the signature written (in use, or suspended) keep what is written. A document in
     * designMode takes no rules. Returns 'off' (no rules in use now), 'same' (these rules were in
     * use: nothing to do) or 'new' (rules set or taken up again: the caller walks the document).
     */
    function setCompiled(next) {
      if (next && isEditorDocument()) next = null; // an editor is never rewritten
      const inUse = compiled?.signature ?? null;
      const kept = inUse ?? suspended; // the signature of what is written in the document
      suspended = null;
      const same = next && kept !== null && next.signature === kept;
      if (!same) undoAll();
      compiled = next;
      if (compiled === null) return 'off';
      return inUse !== null && same ? 'same' : 'new';
    }

    /**
     * Lets the rules go and keeps what they wrote (the page goes into the
     * back/forward cache: a cached page holds no copy of the vocabulary).
     * Inactive until setCompiled: rules of the same signature then take over
     * the replacements in the document; other rules first undo them.
     */
    function suspend() {
      if (compiled === null) return;
      suspended = compiled.signature;
      compiled = null;
      dropPendingWork();
    }

    /** Forgets what was queued and the walk behind the parser (a slice already scheduled then finds nothing). */
    function dropPendingWork() {
      stack.length = 0;
      recordBatches.length = 0;
      cursor = null;
    }

    return {
      setCompiled,
      suspend,
      editing,
      enqueue,
      follow,
      enqueueRecords,
      deferRecords,
      undoAll,
      runSlice,
      catchUp,
      get active() {
        return compiled !== null;
      },
      get signature() {
        return compiled?.signature ?? null;
      },
      /** True once the document is in designMode: it is never rewritten again. */
      get editorDocument() {
        return isEditorDocument();
      },
      get pending() {
        return stack.length + recordBatches.length + (cursor === null ? 0 : 1);
      },
      get following() {
        return cursor !== null;
      },
      get changedCount() {
        return originals.size;
      },
    };
  }

  root.ExtensionBridgeText = Object.freeze({
    compileVocabulary,
    compiledFrom,
    replaceText,
    keepCase,
    isSkippedElement,
    isInsideSkipped,
    isDesignMode,
    createRewriter,
    SKIP_TAGS,
  });
})(globalThis);
