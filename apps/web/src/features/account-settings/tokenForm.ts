import type { ApiToken, CreateApiToken, TokenScope } from '@slipway/contract';
import { formatDate, formatDateTime } from '../../lib/dates';

/**
 * What each scope lets a token do, in the order the form lists them. Typed by the contract's scopes, so a
 * scope added there and not here fails `tsc`; the contract's zod module stays out of the browser.
 */
export const SCOPE_EXPLANATIONS = {
  read: 'View workspaces, deployments and logs',
  deploy: 'Start, cancel and roll back deployments',
  write: 'Change settings and variables, delete workspaces',
  'secrets:read': 'Read environment variable values',
} as const satisfies Record<TokenScope, string>;
export const SCOPES = Object.keys(SCOPE_EXPLANATIONS) as TokenScope[];

/** The expiry choices: days until the token stops working, or none. */
export const EXPIRY_CHOICES = [
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
  { value: 'never', label: 'No expiry', days: null },
] as const satisfies readonly { value: string; label: string; days: number | null }[];
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

export const NAME_MAX_LENGTH = 64;

export interface TokenForm {
  name: string;
  expiry: ExpiryChoice;
  scopes: readonly TokenScope[];
  /** The workspaces picked; none means every workspace. */
  workspaces: readonly string[];
}

export const EMPTY_FORM: TokenForm = { name: '', expiry: '30', scopes: ['read'], workspaces: [] };

/** Adds or removes one item of a list, keeping the order of `all`. */
export function toggled<T>(list: readonly T[], item: T, on: boolean, all: readonly T[]): T[] {
  return all.filter((candidate) => (candidate === item ? on : list.includes(candidate)));
}

/** The request for the form, or what to fix first, in the words the server would use. */
export function tokenRequest(form: TokenForm): { input: CreateApiToken } | { problem: string } {
  const name = form.name.trim();
  if (!name) return { problem: 'Give the token a name' };
  if (name.length > NAME_MAX_LENGTH) {
    return { problem: `A token name is at most ${NAME_MAX_LENGTH} characters` };
  }
  if (form.scopes.length === 0) return { problem: 'Choose at least one scope' };
  const expiry = EXPIRY_CHOICES.find((choice) => choice.value === form.expiry) ?? EXPIRY_CHOICES[0];
  return {
    input: {
      name,
      scopes: [...form.scopes],
      expires_in_days: expiry.days,
      workspaces: form.workspaces.length > 0 ? [...form.workspaces] : null,
    },
  };
}

/** The table's cells: what the server's nulls mean. */
export const workspacesText = (token: ApiToken) =>
  token.workspaces === null ? 'All workspaces' : token.workspaces.join(', ');

export function expiresText(token: ApiToken, now = new Date()): string {
  if (token.expires_at === null) return 'Never';
  const date = formatDate(token.expires_at);
  return Date.parse(token.expires_at) <= now.getTime() ? `Expired ${date}` : date;
}

export const lastUsedText = (token: ApiToken) =>
  token.last_used_at === null ? 'Never' : formatDateTime(token.last_used_at);
