/**
 * Stands in for `globalThis` inside the bundle (esbuild `define` + `inject`):
 * libraries that park singletons on the global object (zod does) keep them
 * here instead of leaking names into Apps Script's global scope.
 */
export const __bundleGlobal: Record<string, unknown> = {};
