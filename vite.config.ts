import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

// Only `vite build` is used: the dev loop serves the built worker with `wrangler dev`
// (remix vite:dev cannot run Durable Objects defined in the same worker).
export default defineConfig({
  plugins: [
    tailwindcss(),
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
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  ssr: {
    // Bundle everything so there is one copy of react-router; server.ts imports
    // @remix-run/cloudflare itself, so that one stays external.
    noExternal: true,
    external: ["@remix-run/cloudflare"],
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
    target: "webworker",
  },
  build: {
    // terser: the browser's initial JS is about 3 % (4 KB) smaller gzipped than with esbuild's
    // minifier, which had the largest pages at the 130 KB budget (scripts/check-bundle.mjs).
    // The server build is minified by it too, as it was by esbuild.
    minify: "terser",
    // WebAssembly (the photo codecs) stays an import of the .wasm file: wrangler bundles it
    // as a compiled module, and vitest-pool-workers loads it the same way.
    rollupOptions: { external: [/\.wasm$/] },
  },
});
