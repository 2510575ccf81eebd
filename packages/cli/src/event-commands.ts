import { createHookCommand } from './commands/hook';
import { lifecycleCommand } from './commands/working-commands';
import { loadProcessHookDelivery } from './hook-deliveries';

/**
 * The commands of the hook bundle (hook-main.ts) and of the hook server
 * that answers for it: `cairn hook` of the harnesses that start a process
 * per event, and `cairn lifecycle`.
 */
export const EVENT_COMMANDS = [
  createHookCommand({ loadDelivery: loadProcessHookDelivery }),
  lifecycleCommand,
];
