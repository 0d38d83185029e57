import type { Config } from '../config/config.js';

/**
 * What a workspace's repo_url starts with, before `/{owner}/{repo}`: the code host's web address, or in
 * local mode the repositories directory itself, so the URL shown is the repository's real location.
 */
export function repositoryLocationBase(config: Config): string {
  return config.authMode === 'local' ? config.localReposDir : config.github.webUrl;
}
