// Reads the CPU profiles (*.cpuprofile, from `node --cpu-prof`) in a folder and prints where the
// time went: self time by package (node_modules/<name>, the app's build, Node itself, garbage
// collection, idle) and the top functions. Used by `npm run profile` (scripts/load.mjs --profile).
//
//   node scripts/profile-summary.mjs <folder>
import fs from "node:fs";
import path from "node:path";

function packageOf(url) {
  if (!url) return "(native, V8)";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return "node (built-in)";
  if (url.includes("/build/server/")) return "the app (build/server)";
  return path.basename(url);
}

export function summariseProfiles(dir, { top = 20 } = {}) {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")) : [];
  if (files.length === 0) {
    console.log(`[profile] no CPU profiles in ${dir}`);
    return;
  }
  const byPackage = new Map();
  const byFunction = new Map();
  let total = 0;
  let idle = 0;
  for (const file of files) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map();
    for (let i = 0; i < profile.samples.length; i++) {
      const dt = profile.timeDeltas[i] ?? 0;
      self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
    }
    for (const [id, us] of self) {
      const { callFrame } = nodes.get(id);
      const name = callFrame.functionName || "(anonymous)";
      if (name === "(idle)") {
        idle += us;
        continue;
      }
      if (name === "(program)") continue;
      total += us;
      const pkg = name === "(garbage collector)" ? "(garbage collection)" : packageOf(callFrame.url);
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
      const where = callFrame.url
        ? `${packageOf(callFrame.url)} ${path.basename(callFrame.url)}:${callFrame.lineNumber + 1}`
        : "";
      const key = `${name} ${where}`.trim();
      byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    }
  }
  const share = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  console.log(
    `[profile] ${files.length} process profile(s) in ${dir}: ${(total / 1e6).toFixed(1)} s on the CPU, ${(idle / 1e6).toFixed(1)} s idle`,
  );
  console.log("  self time by package:");
  for (const [pkg, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${share(us)}  ${pkg}`);
  console.log("  top functions (self time):");
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${share(us)}  ${fn}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  summariseProfiles(path.resolve(process.argv[2] ?? "test-results/profile"), { top: Number(process.argv[3] ?? 20) });
}
