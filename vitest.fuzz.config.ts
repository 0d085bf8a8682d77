import { FUZZ_FILES, workersConfig } from "./vitest.config";

// The fuzzer without per-test storage roll-back: see vitest.config.ts.
export default workersConfig({ include: FUZZ_FILES, isolatedStorage: false });
