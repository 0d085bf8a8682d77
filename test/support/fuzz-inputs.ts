import fc from "fast-check";

// Arbitraries for hostile form input. Weighted towards values that have broken web apps
// before (so 200 runs reach them), with plain random unicode in between.

const HUGE_SIZE = 110_000; // over 100 KB in one field
export const HUGE = [
  "A".repeat(HUGE_SIZE),
  "🚗".repeat(HUGE_SIZE / 2), // astral characters: two UTF-16 units each
  `${"<b>".repeat(HUGE_SIZE / 3)}`,
  `HSR Layout ${"x".repeat(HUGE_SIZE)}`,
  " ".repeat(HUGE_SIZE),
  "9".repeat(HUGE_SIZE),
];

/** Characters and strings that trip encoders, databases and renderers. */
export const NASTY = [
  "",
  " ",
  "   \t\n  ",
  "\u00a0\u2003\u3000",
  "\u0000",
  "a\u0000b",
  "\u0000".repeat(20),
  "Priya\u0000Sharma",
  "\u0007\u001b[31mred\u001b[0m",
  "\r\n",
  "line1\r\nSet-Cookie: lr_session=stolen",
  "\uD800", // lone high surrogate
  "\uDFFF", // lone low surrogate
  "ok\uD83D", // a surrogate pair cut in half
  "\uDE97ok",
  "\uFEFFbom",
  "\uFFFD\uFFFE\uFFFF",
  "\u202Eevil.exe\u202Cgnp", // right-to-left override
  "مرحبا بالعالم",
  "שלום עולם",
  "नमस्ते बेंगलुरु",
  "ಬೆಂಗಳೂರು",
  "👩‍👩‍👧‍👦🏳️‍🌈🇮🇳",
  "🚗".repeat(1001), // 2002 UTF-16 units, 1001 characters
  "é".repeat(2001),
  "e\u0301".repeat(300), // combining accents
  "Z̴̡̢̛̗̘̙̜̝̞̟̠̀́̂̃̄̅̆̇̉̊̋̌̍̎̏̐̑̒̓̔̽̾̿̀́͂̓̈́͆͊͋͌ͅ͏͓͔͕͖͙͚͐͑͒͗͛ͣͤͥͦͧͨͩͪͫͬͭͮͯ͘͜͟͢͝͞͠͡",
  "\u200b\u200c\u200d\u2060",
  "' OR '1'='1",
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; DELETE FROM rides",
  "%' --",
  "\\'",
  "' UNION SELECT id, email FROM users --",
  "Robert'); DROP TABLE sessions;--",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "<svg onload=alert(1)>",
  "javascript:alert(1)",
  "{{7*7}}${7*7}<%= 7*7 %>",
  "</textarea><script>window.__xss=1</script>",
  "__proto__",
  "constructor",
  "prototype",
  '{"__proto__":{"admin":true}}',
  "[object Object]",
  "undefined",
  "null",
  "true",
  "false",
  "//evil.example",
  "/\\evil.example",
  "/\t/evil.example", // browsers drop tabs and newlines from a Location: "//evil.example"
  "/\n/evil.example",
  "https://evil.example/",
  "/%2F%2Fevil.example",
  "\\\\evil.example",
  "/dashboard\r\nLocation: https://evil.example",
  "../../../etc/passwd",
  "%00",
  "%zz",
  "%",
  "+",
  "&",
  "=",
  "a=b&c=d",
];

export const NUMBERISH = [
  "0",
  "-0",
  "-1",
  "-999999999999",
  "1",
  "3",
  "6",
  "7",
  "1.5",
  "2.0",
  "1e3",
  "1e309",
  "-1e309",
  "1e-7",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "0b11",
  "010",
  "+2",
  " 2 ",
  "٣", // Arabic-Indic three
  "２", // full-width two
  "9007199254740993",
  "99999999999999999999999999999999",
  "9".repeat(400),
  "1,000",
  "₹250",
  "250.999",
  "2147483648",
  "-2147483649",
];

export const DATEISH = [
  "0000-00-00",
  "0000-01-01",
  "0001-01-01",
  "1900-01-01",
  "1970-01-01",
  "2000-02-29",
  "2023-02-29",
  "2026-02-30",
  "2026-13-01",
  "2026-00-10",
  "2026-1-1",
  "9999-12-31",
  "+275760-09-13",
  "-000001-01-01",
  "2026-12-31T23:59:59Z",
  "31/12/2026",
  "tomorrow",
  "24:00",
  "23:60",
  "99:99",
  "8:30",
  "08:30:00",
  "-01:00",
  "00:00",
  "23:59",
];

const numberLike = fc.oneof(
  fc.constantFrom(...NUMBERISH),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

/** One hostile string. `pool` adds real ids from the scenario (others' rows, wrong kinds). */
export function nastyString(pool: string[] = []): fc.Arbitrary<string> {
  const arbs: Array<fc.WeightedArbitrary<string>> = [
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.constantFrom("\uD800", "\uDC00", "\u0000", "a", "🚗", "<", "'", "\u202E"),
        maxLength: 30,
      }),
    },
    { weight: 5, arbitrary: fc.constantFrom(...NASTY) },
    { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
    { weight: 3, arbitrary: numberLike },
    { weight: 2, arbitrary: fc.constantFrom(...DATEISH) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NASTY), fc.constantFrom(...NASTY)).map(([a, b]) => a + b) },
  ];
  if (pool.length) arbs.push({ weight: 3, arbitrary: fc.constantFrom(...pool) });
  return fc.oneof(...arbs);
}

/** A field's value: `valid` (the realistic value) or something hostile around it. */
export function mutated(valid: fc.Arbitrary<string>, pool: string[]): fc.Arbitrary<string> {
  const nasty = nastyString(pool);
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 5, arbitrary: nasty },
    // The valid value wrapped in hostile text: passes a naive check, breaks a careless one.
    { weight: 2, arbitrary: fc.tuple(valid, nasty, fc.boolean()).map(([v, n, before]) => (before ? n + v : v + n)) },
  );
}

export type FieldValue = string | { file: string };
export type Entry = [name: string, value: FieldValue];
export type BodyKind = "urlencoded" | "multipart" | "json" | "text" | "broken-multipart" | "none";

/**
 * A whole submission: every expected field kept, mutated, dropped or repeated (in either
 * order, or as a file upload), plus unexpected extra fields.
 */
export function formEntries(fields: Record<string, fc.Arbitrary<string>>, pool: string[]): fc.Arbitrary<Entry[]> {
  const perField = Object.entries(fields).map(([name, valid]) => {
    const value = mutated(valid, pool);
    const variants: Array<fc.WeightedArbitrary<Entry[]>> = [
      { weight: 12, arbitrary: value.map((v) => [[name, v]] as Entry[]) },
      { weight: 1, arbitrary: fc.constant([] as Entry[]) },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, value).map(
          ([a, b]) =>
            [
              [name, a],
              [name, b],
            ] as Entry[],
        ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(value, valid).map(
          ([a, b]) =>
            [
              [name, a],
              [name, b],
            ] as Entry[],
        ),
      },
      { weight: 1, arbitrary: value.map((v) => [[name, { file: v }]] as Entry[]) },
    ];
    return fc.oneof(...variants);
  });
  const extra = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          "__proto__",
          "constructor",
          "intent",
          "id",
          "userId",
          "role",
          "status",
          "js",
          "redirectTo",
          "_data",
        ),
        fc.string({ maxLength: 10 }),
      ),
      nastyString(pool),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...perField), extra).map(([fs, ex]) => [...fs.flat(), ...(ex as Entry[])]);
}

export const bodyKind: fc.Arbitrary<BodyKind> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<BodyKind>("urlencoded") },
  { weight: 4, arbitrary: fc.constant<BodyKind>("multipart") },
  { weight: 1, arbitrary: fc.constantFrom<BodyKind>("json", "text", "broken-multipart", "none") },
);

/** Encodes a submission as the request body a (possibly broken) client would send. */
export function encodeBody(entries: Entry[], kind: BodyKind): { body?: BodyInit; contentType?: string } {
  switch (kind) {
    case "urlencoded": {
      const body = new URLSearchParams();
      for (const [k, v] of entries) body.append(k, typeof v === "string" ? v : v.file);
      return { body, contentType: "application/x-www-form-urlencoded" };
    }
    case "multipart": {
      const body = new FormData();
      for (const [rawName, v] of entries) {
        // workerd's multipart encoder refuses a name ending in a backslash (browsers escape it).
        const k = rawName.replace(/\\+$/, "");
        if (typeof v === "string") body.append(k, v);
        else body.append(k, new File([v.file], "upload.txt", { type: "text/plain" }));
      }
      return { body };
    }
    case "json":
      return { body: JSON.stringify(Object.fromEntries(entries)), contentType: "application/json" };
    case "text":
      return {
        body: entries.map(([k, v]) => `${k}=${typeof v === "string" ? v : v.file}`).join("\n"),
        contentType: "text/plain",
      };
    case "broken-multipart":
      return {
        body: `--nope\r\nContent-Disposition: form-data; name="${entries[0]?.[0] ?? "x"}"\r\n\r\nhalf`,
        contentType: "multipart/form-data; boundary=other",
      };
    case "none":
      return { contentType: "application/x-www-form-urlencoded" };
  }
}

// ---------------------------------------------------------------------------------------
// Redirect targets that try to leave the site (issue 19, finding 1). A browser resolves dot
// segments (also percent-encoded ones), treats "\" as "/" and drops tabs and newlines, so
// each of these can turn into "//evil.example" once parsed.

const DOT_SEGMENTS = ["..", ".", "%2e%2e", "%2E%2E", ".%2e", "%2e.", "%2e", "x/..", "a/b/../.."];
const SEPARATORS = ["/", "\\", "/\t", "\t/", "/\n", "\r\n/", "%2f", "%2F", "%5c", "%5C", "//", "/\\"];
const OFF_SITE_TAILS = [
  "/evil.example/phish",
  "\\evil.example",
  "/evil.example",
  "\\/evil.example",
  "%2fevil.example",
  "/\tevil.example",
];

/** "/" + dot segments and separators + an off-site tail, in every mix. */
export const offSiteRedirect: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "/..//evil.example/phish",
    "/.//evil.example",
    "/x/..//evil.example",
    "/%2e%2e//evil.example",
    "/\t/evil.example",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example",
    "/.\\/evil.example",
  ),
  fc
    .tuple(
      fc.array(fc.tuple(fc.constantFrom(...DOT_SEGMENTS), fc.constantFrom(...SEPARATORS)), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.constantFrom(...OFF_SITE_TAILS),
    )
    .map(([parts, tail]) => "/" + parts.map(([seg, sep]) => seg + sep).join("") + tail),
);

// ---------------------------------------------------------------------------------------
// Malformed cookies (finding 5): every cookie the app reads, with values its signed-cookie
// parser cannot decode. Only characters a Cookie header may carry.

export const APP_COOKIE_NAMES = [
  "lr_session",
  "__Host-lr_session",
  "lr_toast",
  "lr_onboarding",
  "lr_oauth",
  "lr_ref",
  "lr_return",
  "lr_google_link",
  "lr_d1",
];
const COOKIE_CHARS = [..."%azAZ09.=+/-_\"!~*'()", "%zz", "%E0%A4%A", "%00", "%ff"];
export const MALFORMED_COOKIE_VALUES = [
  "%",
  "a%zz",
  "%E0%A4%A",
  ".",
  "..",
  "a.b",
  "a.%",
  "eyJ9.",
  "=",
  '""',
  "%ff%fe",
  "x".repeat(4000),
];

export const malformedCookie: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...APP_COOKIE_NAMES),
    fc.oneof(
      fc.constantFrom(...MALFORMED_COOKIE_VALUES),
      fc.array(fc.constantFrom(...COOKIE_CHARS), { maxLength: 40 }).map((xs) => xs.join("")),
    ),
  )
  .map(([name, value]) => `${name}=${value}`);
