import type { CompleteProfileRequest } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { GithubOAuth } from '../infra/github/githubOAuth.js';
import type { Vault } from '../infra/vault/vault.js';
import type { UserRow, UsersRepository } from '../users/usersRepository.js';

export type LocalAccount = 'operator' | 'waiting';

/** Who a person is: GitHub sign-in, local mode's accounts, and completing the profile. */
export function createAuthService(deps: {
  users: UsersRepository;
  vault: Vault;
  github: GithubOAuth | undefined;
  localOperatorLogin: string;
}) {
  return {
    async signInWithGithub(code: string): Promise<UserRow> {
      if (!deps.github) throw new DomainError('not_found', 'GitHub sign-in is not configured');
      const token = await deps.github.exchangeCode(code);
      const profile = await deps.github.fetchProfile(token);
      return deps.users.upsertFromGithub(profile, await deps.vault.encrypt(token));
    },

    /**
     * Local mode (no GitHub credentials) signs in as the machine's operator, who is whitelisted; or, for
     * trying the waiting list, as a second account that is not.
     */
    async signInLocal(account: LocalAccount): Promise<UserRow> {
      if (account === 'operator') {
        return deps.users.upsertLocal({
          login: deps.localOperatorLogin,
          name: 'Local Operator',
          firstName: 'Local',
          lastName: 'Operator',
          email: null,
          whitelisted: true,
          profileCompleted: true,
        });
      }
      return deps.users.upsertLocal({
        login: 'waiting-user',
        name: 'Waiting User',
        firstName: null,
        lastName: null,
        email: null,
        whitelisted: false,
        profileCompleted: false,
      });
    },

    /** Email is required only when GitHub gave none; a whitelisted email lets the user in at once. */
    async completeProfile(user: UserRow, input: CompleteProfileRequest): Promise<UserRow> {
      const email = user.email ?? (input.email ? input.email : null);
      if (!email) throw new DomainError('invalid_request', 'Email is required');
      const whitelisted = user.whitelisted || (await deps.users.isEmailWhitelisted(email));
      return deps.users.completeProfile(user.id, {
        firstName: input.firstName,
        lastName: input.lastName,
        email,
        whitelisted,
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
