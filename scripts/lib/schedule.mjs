// The worker's Cron Triggers on a local server (docs/decisions/0040-scheduled-work-locally.md).
// `wrangler dev` never fires them, and its own trigger route (/cdn-cgi/handler/scheduled) fails
// for a worker with static assets in the pinned wrangler, so the local server is started with
// --test-scheduled and the work is run through wrangler's /__scheduled route: by hand, and by
// `npm start` on the crons' own cadence.
import http from "node:http";

/** The crons of wrangler.toml's [triggers], as Cloudflare runs them (in UTC). */
export function readCrons(tomlText) {
  const triggers = /^\[triggers\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(tomlText)?.[1] ?? "";
  const list = /^crons\s*=\s*\[([^\]]*)\]/m.exec(triggers)?.[1];
  if (list === undefined) throw new Error("wrangler.toml has no [triggers] crons");
  return [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

const FIELDS = [
  { name: "minute", min: 0, max: 59, of: (d) => d.getUTCMinutes() },
  { name: "hour", min: 0, max: 23, of: (d) => d.getUTCHours() },
  { name: "day of month", min: 1, max: 31, of: (d) => d.getUTCDate() },
  { name: "month", min: 1, max: 12, of: (d) => d.getUTCMonth() + 1 },
  // 7 is Sunday as well as 0, as in Cloudflare's and Unix's crons.
  { name: "day of week", min: 0, max: 7, of: (d) => d.getUTCDay() },
];

/** The values one field allows: `*`, `n`, `a-b`, each with an optional `/step`, comma-separated. */
function fieldValues(text, { name, min, max }) {
  const values = new Set();
  for (const part of text.split(",")) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`cron ${name} "${text}" is not understood here`);
    const from = m[1] === "*" ? min : Number(m[2]);
    const to = m[1] === "*" ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to || step < 1) throw new Error(`cron ${name} "${text}" is out of range`);
    for (let v = from; v <= to; v += step) values.add(name === "day of week" && v === 7 ? 0 : v);
  }
  return values;
}

/** Whether a five-field cron fires in the UTC minute of `date`. */
export function cronMatches(expr, date) {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`cron "${expr}" does not have five fields`);
  const [minute, hour, dom, month, dow] = parts.map((p, i) => fieldValues(p, FIELDS[i]).has(FIELDS[i].of(date)));
  // As in Unix cron: when both day fields are restricted, either one matching is enough.
  const days = parts[2] !== "*" && parts[4] !== "*" ? dom || dow : dom && dow;
  return minute && hour && month && days;
}

/** wrangler dev's (--test-scheduled) route that runs the worker's scheduled handler for `cron`. */
export function scheduledUrl(origin, cron) {
  return `${origin}/__scheduled?cron=${encodeURIComponent(cron)}`;
}

/**
 * Runs the scheduled work for one cron on the server at `origin`; rejects unless it ran. A
 * connection of its own (no keep-alive): between two runs minutes apart wrangler closes an idle
 * kept-alive connection, and fetch's pool then sends the next run on it ("other side closed").
 */
export function runScheduled(origin, cron) {
  return new Promise((resolve, reject) => {
    const req = http.get(scheduledUrl(origin, cron), { agent: false, timeout: 120_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        if (res.statusCode !== 200)
          reject(new Error(`scheduled "${cron}" answered ${res.statusCode}: ${body.slice(0, 2000)}`));
        else resolve(body);
      });
    });
    req.on("timeout", () => req.destroy(new Error(`scheduled "${cron}" did not answer within 120 s`)));
    req.on("error", reject);
  });
}

/**
 * Runs every cron once now (the daily one first: a machine that was off at its hour still gets
 * its rides before reminders are looked for), then each whenever it is due, checked at the start
 * of every UTC minute. One run at a time; a minute passed while one ran is still checked, so a
 * slow run delays the next ones but loses none. Returns a function that stops it.
 */
export function startSchedule(origin, crons, { log = console.log, warn = console.error } = {}) {
  let timer;
  let stopped = false;
  const MINUTE = 60_000;
  let checked = Math.floor(Date.now() / MINUTE);
  const run = async (due) => {
    for (const cron of due) {
      if (stopped) return;
      try {
        await runScheduled(origin, cron);
        log(`Ran the scheduled work for "${cron}".`);
      } catch (e) {
        warn(`The scheduled work for "${cron}" failed: ${e.message}`);
      }
    }
  };
  const tick = async () => {
    const due = new Set();
    for (const now = Math.floor(Date.now() / MINUTE); checked < now; ) {
      checked++;
      for (const cron of crons) if (cronMatches(cron, new Date(checked * MINUTE))) due.add(cron);
    }
    await run([...due]);
    next();
  };
  const next = () => {
    if (!stopped) timer = setTimeout(tick, MINUTE - (Date.now() % MINUTE) + 500);
  };
  const daily = (cron) => cron.trim().split(/\s+/)[1] !== "*";
  run([...crons.filter(daily), ...crons.filter((c) => !daily(c))]).then(next);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
