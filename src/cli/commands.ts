import type { Command } from '../cli-kit/kit.js';

/**
 * A module of `bosun` commands and the first words of their names. The command line loads only the
 * modules its first word can name (every module for help or an unknown command), so `bosun decode`
 * never loads the service; a feature adds its module here.
 */
export interface CommandModule {
  words: readonly string[];
  load(): Promise<Command[]>;
}

export const COMMAND_MODULES: readonly CommandModule[] = [
  { words: ['serve', 'migrate', 'catalog'], load: async () => (await import('./core-commands.js')).coreCommands },
  { words: ['operator'], load: async () => (await import('../features/operator/commands.js')).operatorCommands },
  { words: ['agents'], load: async () => (await import('../features/agents/commands.js')).agentCommands },
  { words: ['harbor'], load: async () => (await import('../features/harbor/operator-requests/commands.js')).operatorRequestCommands },
  { words: ['decode'], load: async () => (await import('../ais/commands.js')).aisCommands },
  { words: ['payments'], load: async () => (await import('../features/payments/commands.js')).paymentCommands },
  { words: ['harbor'], load: async () => (await import('../features/harbor/tasks/commands.js')).taskCommands },
  { words: ['harbor'], load: async () => (await import('../features/harbor/groups/commands.js')).groupCommands },
  { words: ['harbor'], load: async () => (await import('../features/harbor/help/commands.js')).helpCommands },
  { words: ['harbor'], load: async () => (await import('../features/harbor/trials/commands.js')).trialCommands },
  { words: ['ingest', 'import'], load: async () => (await import('../feeds/commands.js')).feedCommands },
  { words: ['import'], load: async () => (await import('../features/ports/commands.js')).portCommands },
  { words: ['demo'], load: async () => (await import('../sim/commands.js')).simCommands },
  { words: ['events'], load: async () => (await import('../features/events/commands.js')).eventCommands },
  { words: ['exchange'], load: async () => (await import('../features/exchange/gate/commands.js')).exchangeCommands },
  { words: ['mcp'], load: async () => (await import('../features/mcp/commands.js')).mcpCommands },
  { words: ['exchange'], load: async () => (await import('../features/exchange/messages/commands.js')).exchangeMessageCommands },
  { words: ['feedback'], load: async () => (await import('../features/feedback/commands.js')).feedbackCommands },
  { words: ['services'], load: async () => (await import('../features/vessel-services/commands.js')).vesselServiceCommands },
  { words: ['layers'], load: async () => (await import('../features/resource-infra/commands.js')).infraCommands },
];

/** The commands a command line starting with `firstWord` can name; every command when none matches. */
export async function loadCommands(firstWord: string | undefined): Promise<Command[]> {
  const named = COMMAND_MODULES.filter((m) => firstWord !== undefined && m.words.includes(firstWord));
  const modules = named.length ? named : COMMAND_MODULES;
  return (await Promise.all(modules.map((m) => m.load()))).flat();
}
