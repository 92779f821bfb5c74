// Loaded with `node --import` before `react-router build` (package.json's build script).
// React Router 7.18.4 (pinned: later 7.x and v8 clash with the rest of the stack, see the README) starts
// its config loader and child compiler with Vite's `envFile: false`, which Vite 8 reports as deprecated
// on every build, four times; the call is the library's, not ours. That one line is dropped so that a
// build's warnings are ours to read; every other line passes unchanged.
const warn = console.warn.bind(console);
console.warn = (...args) => {
  if (typeof args[0] === "string" && args[0].includes("The `envFile` option is deprecated")) return;
  warn(...args);
};
