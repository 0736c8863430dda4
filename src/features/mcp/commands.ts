import type { Readable, Writable } from 'node:stream';
import { err, type Command } from '../../cli-kit/kit.js';
import { cliIo } from '../../cli-kit/io.js';

const USAGE = `bosun mcp --base-url URL [--api-key-env NAME] [--toolsets LIST]

Serves the tools of the Bosun at URL over stdio for desktop MCP clients (Claude Desktop and the like):
the tool list is fetched from URL/v1/webmcp/tools and every call is forwarded to the operation's URL
over HTTP. The API key is read from the environment variable NAME (default BOSUN_API_KEY); without it
only public tools succeed. --toolsets names the toolsets listed at start (comma-separated, "default" or
"all"; default: default); the meta-tool enable_toolset adds others. The OpenAPI document, the harbor
contract and the quickstart of URL are served as resources. Standard output carries the protocol;
messages go to standard error.`;

export const mcpCommands: Command[] = [
  {
    name: 'mcp',
    summary: 'Serve the tools of a remote Bosun over stdio (MCP) for desktop clients.',
    usage: USAGE,
    options: { 'base-url': { type: 'string' }, 'api-key-env': { type: 'string' }, toolsets: { type: 'string' } },
    async run({ values }) {
      const io = cliIo();
      const baseUrl = typeof values['base-url'] === 'string' ? values['base-url'] : '';
      if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) {
        err('bosun mcp: --base-url must be the http(s) URL of a Bosun service (e.g. https://bosun.example)');
        return 2;
      }
      const keyVariable = typeof values['api-key-env'] === 'string' ? values['api-key-env'] : 'BOSUN_API_KEY';
      const apiKey = io.env[keyVariable] || undefined;
      try {
        const [{ loadConfig }, { runStdioBridge }] = await Promise.all([import('../../platform/config.js'), import('./stdio-bridge.js')]);
        await runStdioBridge({
          baseUrl,
          ...(apiKey ? { apiKey } : {}),
          ...(typeof values.toolsets === 'string' ? { toolsets: values.toolsets } : {}),
          version: loadConfig(io.env).version,
          stdin: io.stdin as unknown as Readable,
          stdout: io.stdout as unknown as Writable,
          log: (line) => void io.stderr.write(line + '\n'),
        });
        return 0;
      } catch (e) {
        err(`bosun mcp: ${(e as Error).message}`);
        return 1;
      }
    },
  },
];
