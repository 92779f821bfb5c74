// Waits until every address given answers 2xx (a self-signed certificate accepted: the e2e proxy's),
// trying every 100 ms for up to `--seconds` (120); exits 1 naming the first that never did.
//   node scripts/wait-for-urls.mjs [--seconds 120] URL…
import http from "node:http";
import https from "node:https";

const args = process.argv.slice(2);
const at = args.indexOf("--seconds");
const seconds = at === -1 ? 120 : Number(args.splice(at, 2)[1]);
const deadline = Date.now() + seconds * 1000;

function answers(url) {
  return new Promise((resolve) => {
    const get = url.startsWith("https:") ? https.get : http.get;
    const request = get(url, { rejectUnauthorized: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode >= 200 && response.statusCode < 300);
    });
    request.on("error", () => resolve(false));
    request.on("timeout", () => request.destroy());
  });
}

for (const url of args) {
  while (!(await answers(url))) {
    if (Date.now() > deadline) {
      console.error(`${url} did not answer within ${seconds} s`);
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
