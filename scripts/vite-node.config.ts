import { defineConfig } from "vite";

// The config the Node-side TypeScript scripts (the demo and bench seeds) run under, through
// `vite-node --config scripts/vite-node.config.ts`. Without it vite-node loads vite.config.ts,
// whose Remix and Tailwind plugins it never uses: a seed took 34 s of CPU instead of 9 s, most of
// it before the first row was written (issue 17: the e2e server's start-up runs one).
export default defineConfig({
  resolve: { alias: { "~": new URL("../app", import.meta.url).pathname } },
});
