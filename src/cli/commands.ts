import { aisCommands } from '../ais/commands.js';
import { agentCommands } from '../features/agents/commands.js';
import { groupCommands } from '../features/harbor/groups/commands.js';
import { helpCommands } from '../features/harbor/help/commands.js';
import { operatorRequestCommands } from '../features/harbor/operator-requests/commands.js';
import { paymentCommands } from '../features/payments/commands.js';
import { portCommands } from '../features/ports/commands.js';
import { taskCommands } from '../features/harbor/tasks/commands.js';
import { trialCommands } from '../features/harbor/trials/commands.js';
import { operatorCommands } from '../features/operator/commands.js';
import { feedCommands } from '../feeds/commands.js';
import { simCommands } from '../sim/commands.js';
import { eventCommands } from '../features/events/commands.js';
import { exchangeCommands } from '../features/exchange/gate/commands.js';
import { mcpCommands } from '../features/mcp/commands.js';
import { exchangeMessageCommands } from '../features/exchange/messages/commands.js';
import { feedbackCommands } from '../features/feedback/commands.js';
import { vesselServiceCommands } from '../features/vessel-services/commands.js';
import { infraCommands } from '../features/resource-infra/commands.js';
import type { Command } from './command.js';
import { coreCommands } from './core-commands.js';

/** Every `bosun` sub-command; a feature adds its list here. */
export const ALL_COMMANDS: Command[] = [
  ...coreCommands,
  ...operatorCommands,
  ...agentCommands,
  ...operatorRequestCommands,
  ...aisCommands,
  ...paymentCommands,
  ...taskCommands,
  ...groupCommands,
  ...helpCommands,
  ...trialCommands,
  ...feedCommands,
  ...portCommands,
  ...simCommands,
  ...eventCommands,
  ...exchangeCommands,
  ...mcpCommands,
  ...exchangeMessageCommands,
  ...feedbackCommands,
  ...vesselServiceCommands,
  ...infraCommands,
];
