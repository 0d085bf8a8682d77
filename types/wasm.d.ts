// `.wasm` imports are compiled modules in workerd (wrangler's CompiledWasm rule, and the
// same in vitest-pool-workers).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
