/** A dependency did not answer within its deadline. */
export class DeadlineExceededError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'DeadlineExceededError';
  }
}

/**
 * `promise`, or a DeadlineExceededError once `ms` have passed without its answer — judged only after the
 * I/O that has already arrived is read. A plain timer fails an answer that is waiting in the socket whenever
 * one turn of the event loop outlasts the deadline (this process busy, not the dependency slow), because
 * timers run before the loop reads its sockets; judging one `setImmediate` later lets that read come first.
 */
export function withinDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new DeadlineExceededError(what, ms));
      });
    }, ms);
    promise.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(err as Error);
      },
    );
  });
}
