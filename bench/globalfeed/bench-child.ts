import { fork, type ChildProcess } from 'node:child_process';

/**
 * A forked helper process of the global-day benchmark (reader-process.ts, detector-process.ts): requests sent
 * by `send`, replies awaited by kind (`next`), in the order they arrive; a child that exits fails the wait.
 */
export async function forkBenchChild<Request, Reply extends { kind: string }>(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcess = fork(script, args, { env });
  const replies: Reply[] = [];
  const waiting: Array<() => void> = [];
  child.on('message', (reply: Reply) => {
    replies.push(reply);
    waiting.splice(0).forEach((wake) => wake());
  });
  const next = async <K extends Reply['kind']>(kind: K): Promise<Extract<Reply, { kind: K }>> => {
    for (;;) {
      const i = replies.findIndex((r) => r.kind === kind);
      if (i >= 0) return replies.splice(i, 1)[0] as Extract<Reply, { kind: K }>;
      await new Promise<void>((wake, fail) => {
        waiting.push(wake);
        child.once('exit', (code) => fail(new Error(`${script} exited (${code}) before answering ${kind}`)));
      });
    }
  };
  await next('ready' as Reply['kind']);
  return { send: (request: Request) => child.send(request as object), next };
}
