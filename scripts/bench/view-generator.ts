/**
 * bench:views' load of views, in a process of its own: `rate` views a second for `seconds` to `target`
 * (the site, or its views process), from pages of the site at `site`, each a new browser (its own id)
 * from its own address (X-Forwarded-For, the server trusting loopback), spread over the story ids
 * given, browsers numbered from `first` on. Prints one JSON line: sent, answered 200, other answers, errors.
 */
import http from "node:http";

const [targetText, siteText, rateText, secondsText, idsText, firstText] = process.argv.slice(2);
/** The first browser's number: runs against one site start where the last ended, so no browser repeats. */
const first = Number(firstText ?? 0);
const rate = Number(rateText);
const seconds = Number(secondsText);
const ids = (idsText ?? "").split(",");
const target = new URL(targetText!);
const site = new URL(siteText!);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

let sent = 0;
let ok = 0;
let other = 0;
let errors = 0;
let inFlight = 0;

function send(i: number): void {
  const body = JSON.stringify({
    reader: `bench-reader-${String(i).padStart(10, "0")}`,
    referrer: i % 3 === 0 ? "https://www.facebook.com/" : "",
    utm: i % 5 === 0 ? "whatsapp" : "",
  });
  const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  inFlight++;
  const request = http.request(
    {
      host: target.hostname,
      port: target.port,
      path: `/api/news/${ids[i % ids.length]}/visit`,
      method: "POST",
      agent,
      headers: {
        host: site.host,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "x-forwarded-for": address,
        "user-agent": UA,
        origin: site.origin,
      },
    },
    (response) => {
      response.resume();
      response.on("end", () => {
        inFlight--;
        if (response.statusCode === 200) ok++;
        else other++;
      });
    },
  );
  request.on("error", () => {
    inFlight--;
    errors++;
  });
  request.end(body);
}

const total = rate * seconds;
const started = performance.now();
// View i is due at i/rate seconds and sent then, as readers' views arrive one by one, not in bursts.
const due = (i: number) => started + (i * 1000) / rate;
await new Promise<void>((resolve) => {
  const tick = () => {
    const now = performance.now();
    while (sent < total && due(sent) <= now) send(first + sent++);
    if (sent < total) setTimeout(tick, Math.max(0, due(sent) - performance.now()));
    else resolve();
  };
  tick();
});
while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
console.log(JSON.stringify({ sent, ok, other, errors, seconds: (performance.now() - started) / 1000 }));
agent.destroy();
