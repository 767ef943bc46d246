// Work that holds a thread for milliseconds at a time and so must not run on the event loop (a
// SQLite WAL checkpoint copies pages and waits for fsync), given to a thread the server already
// has rather than to one of its own: a worker thread is a V8 isolate and a node environment, ~9 MiB
// of a server's memory however little it runs (crypto/offload.ts hosts them on the signature thread).

export interface ThreadTasks {
  /** Runs the synchronous function `fn` exported by the plain-JavaScript module `module`
   *  (imported on the thread, once) with `arg`, and resolves with what it returns (a value the
   *  structured clone algorithm copies); rejects with what it throws, or when the thread stops
   *  first. null when no thread is running now (one could not start lately): the caller does the
   *  work another way or later. */
  runTask(module: URL, fn: string, arg: unknown): Promise<unknown> | null;
}
