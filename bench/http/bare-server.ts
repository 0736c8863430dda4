/**
 * The baseline of the HTTP benchmark: a bare Fastify server answering each benchmarked path with the
 * exact bytes Bosun answered it with (read from BENCH_BODIES, a JSON map path → body).
 */
import Fastify from 'fastify';

const bodies = JSON.parse(process.env.BENCH_BODIES ?? '{}') as Record<string, string>;
const app = Fastify({ logger: false });
for (const [path, body] of Object.entries(bodies)) {
  app.get(path, async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
}
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${address}\n`);
