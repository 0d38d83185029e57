import type { Preview } from '@slipway/contract';
import { GitBranch, GitCommitHorizontal } from 'lucide-react';
import { ExternalLink } from '../../components/ExternalLink';
import { ageText, shortSha } from '../../components/previews/previewView';
import { formatDateTime } from '../../lib/dates';

/** Number and title (a link to GitHub when there is one), its branch, short commit, author and age. */
export function PreviewPullRequest({ preview }: { preview: Preview }) {
  const title = (
    <>
      <span className="text-zinc-500">#{preview.number}</span> {preview.title}
    </>
  );
  return (
    <div className="min-w-0 space-y-1">
      <p className="font-medium break-words text-zinc-900">
        {preview.pull_request_url ? (
          <ExternalLink href={preview.pull_request_url}>{title}</ExternalLink>
        ) : (
          title
        )}
      </p>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-zinc-600">
        <span className="inline-flex items-center gap-1 break-all">
          <GitBranch className="h-3 w-3 shrink-0" aria-hidden="true" />
          <span className="sr-only">Branch</span>
          <span className="font-mono" data-testid="preview-branch">
            {preview.branch}
          </span>
        </span>
        <span className="inline-flex items-center gap-1">
          <GitCommitHorizontal className="h-3 w-3 shrink-0" aria-hidden="true" />
          <span className="sr-only">Commit</span>
          <span className="font-mono" title={preview.head_sha} data-testid="preview-commit">
            {shortSha(preview.head_sha)}
          </span>
        </span>
        <span>
          {preview.from_fork ? 'from a fork by ' : 'by '}
          {preview.author}
        </span>
        <time dateTime={preview.created_at} title={formatDateTime(preview.created_at)}>
          opened {ageText(preview.created_at)}
        </time>
      </p>
    </div>
  );
}
