import type { Output } from '../output.js';
import type { StoredLoginRead, Target } from '../settings.js';
import type { SlipwayClient } from '../slipwayClient.js';

/** What every command runs with. */
export interface CommandContext {
  target: Target;
  client: SlipwayClient;
  output: Output;
  /** Where `login` keeps the server and token. */
  configFile: string;
  /** What the config file held when the command started. */
  stored: StoredLoginRead;
  /** Asks a question on the terminal; undefined when stdin is not one. */
  ask: ((question: string, options?: { secret?: boolean }) => Promise<string>) | undefined;
}
