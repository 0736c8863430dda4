import { aisCommands } from '../ais/commands.js';
import { agentCommands } from '../features/agents/commands.js';
import { operatorRequestCommands } from '../features/harbor/operator-requests/commands.js';
import { operatorCommands } from '../features/operator/commands.js';
import { simCommands } from '../sim/commands.js';
import type { Command } from './command.js';
import { coreCommands } from './core-commands.js';

/** Every `bosun` sub-command; a feature adds its list here. */
export const ALL_COMMANDS: Command[] = [...coreCommands, ...operatorCommands, ...agentCommands, ...operatorRequestCommands, ...aisCommands, ...simCommands];
