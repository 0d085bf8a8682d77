import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

// The bench's peer (ADR 0060) is built as LoopRide is (the repo's vite.config.ts): the same Remix
// and React, future flags, server bundling and minifier, so the two differ only in the app.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [
    remix({
      serverModuleFormat: "esm",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  ssr: {
    noExternal: true,
    external: ["@remix-run/cloudflare"],
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
    target: "webworker",
  },
  build: { minify: "terser" },
});
