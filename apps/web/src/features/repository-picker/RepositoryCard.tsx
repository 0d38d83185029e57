import { Clock, Lock, Star } from 'lucide-react';
import { Badge } from '../../components/ui';
import { languageColour, type PickerRepository, truncateName, updatedText } from './repositoryListing';

/** One repository in the picker grid; the whole card is the button that chooses it. */
export function RepositoryCard({ repo, onChoose }: { repo: PickerRepository; onChoose: () => void }) {
  return (
    <button
      type="button"
      onClick={onChoose}
      data-testid="repository-card"
      className="group flex h-full flex-col rounded-xl border border-zinc-200 bg-white p-5 text-left shadow-sm transition hover:-translate-y-0.5 hover:border-accent-300 hover:shadow-md focus-visible:border-accent-500"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 font-semibold text-zinc-900 group-hover:text-accent-700" title={repo.name}>
          {truncateName(repo.name)}
        </h3>
        {repo.private && (
          <Badge tone="warning" icon={<Lock className="h-3 w-3" aria-hidden="true" />}>
            Private
          </Badge>
        )}
      </div>
      <p className="mt-1 text-xs text-zinc-500">{repo.owner.login}</p>
      <p className="mt-3 line-clamp-2 flex-1 text-sm text-zinc-600">{repo.description || 'No description'}</p>
      <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-zinc-500">
        {repo.language && (
          <span className="inline-flex items-center gap-1.5">
            <span
              aria-hidden="true"
              data-testid="language-dot"
              className="h-2.5 w-2.5 rounded-full"
              style={{ backgroundColor: languageColour(repo.language) }}
            />
            {repo.language}
          </span>
        )}
        <span className="inline-flex items-center gap-1" title="Stars">
          <Star className="h-3.5 w-3.5" aria-hidden="true" />
          {repo.stargazers_count}
        </span>
        <span className="inline-flex items-center gap-1">
          <Clock className="h-3.5 w-3.5" aria-hidden="true" />
          {updatedText(repo.updated_at)}
        </span>
      </div>
    </button>
  );
}
