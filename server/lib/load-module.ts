// Our modules that load when first needed (a command's own code, the database `--db` names), from
// whichever module system loaded the rest. bin/gatehouse runs the TypeScript as CommonJS, compiled
// by tsx's require hook on the main thread: there, import() of a .ts file would reach node's
// ES-module loader, which reads no TypeScript without tsx's module hooks (a thread and a V8 isolate
// of their own for the life of the process: what the bin does without). The tests import the same
// files as ES modules (`node --import tsx`), where `require` is not defined. Each module is loaded
// once, by the loader that loaded its importer.
import { createRequire } from 'node:module';

/** `load(specifier)` loads a module relative to `parentUrl` (the importer's `import.meta.url`). */
export function moduleLoader(parentUrl: string): <T>(specifier: string) => Promise<T> {
  if (typeof require === 'function') {
    const req = createRequire(parentUrl);
    return <T>(specifier: string) => new Promise<T>((resolve) => resolve(req(specifier) as T));
  }
  return <T>(specifier: string) => import(new URL(specifier, parentUrl).href) as Promise<T>;
}
