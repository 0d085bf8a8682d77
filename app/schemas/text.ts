// Text people type is stored and shown to others. Control characters (NUL, escape codes,
// backspace...) and unpaired UTF-16 surrogates are never typed on purpose; they cannot be
// stored faithfully (UTF-8 has no lone surrogates), SQLite's length() stops at a NUL (the
// length CHECKs then disagree with zod), and they garble the pages that show the text.
// The fuzzer found names and community names stored with them. Every free-text field
// refuses them with this message.
// Tab, newline and carriage return stay allowed (multi-line notes, bios and messages).
export const TEXT_INVALID = "Please remove invisible control characters from this text";

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCleanText(v: string | undefined | null): boolean {
  return !v || (!CONTROL.test(v) && !LONE_SURROGATE.test(v));
}

// Single-line fields (names, areas, community names...) end up in one-line formats: an
// iCalendar property, an e-mail greeting, a header. A bare CR in a driver's name started a
// new property in riders' calendar feeds (issue 34, finding 11), so these refuse tab and
// every line break too (CR, LF, NEL and the Unicode line and paragraph separators).
export const LINE_INVALID = "Please use one line of plain text";
// eslint-disable-next-line no-control-regex
const NOT_ONE_LINE = /[\u0000-\u001F\u007F\u0085\u2028\u2029]/;

export function isCleanLine(v: string | undefined | null): boolean {
  return !v || (!NOT_ONE_LINE.test(v) && !LONE_SURROGATE.test(v));
}
