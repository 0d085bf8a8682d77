import { SHARED_STORAGE_FILES, workersConfig } from "./vitest.config";

// The fuzzer and the WebSocket files without per-test storage roll-back: see vitest.config.ts.
export default workersConfig({
  include: SHARED_STORAGE_FILES,
  isolatedStorage: false,
  cacheDir: "node_modules/.vite/fuzz",
});
