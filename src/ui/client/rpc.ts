/** google.script.run as promises. */
interface ScriptRun {
  withSuccessHandler(fn: (value: unknown) => void): ScriptRun;
  withFailureHandler(fn: (error: Error) => void): ScriptRun;
  [name: string]: unknown;
}
declare const google: { script: { run: ScriptRun } };

export function call<T>(name: string, ...args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const runner = google.script.run.withSuccessHandler((v) => resolve(v as T)).withFailureHandler((e) => reject(e));
    const fn = runner[name];
    if (typeof fn !== 'function') {
      reject(new Error(`Função ${name} indisponível`));
      return;
    }
    (fn as (...a: unknown[]) => void).apply(runner, args);
  });
}
