import { SHARED_STORAGE_FILES, workersConfig } from "./vitest.config";

// The fuzzer and the WebSocket files without the per-test roll-back: see vitest.config.ts.
export default workersConfig({
  include: SHARED_STORAGE_FILES,
  rollBackEachTest: false,
  cacheDir: "node_modules/.vite/fuzz",
});
