import { PreviewList } from './PreviewList';
import { PreviewSettingsCard } from './PreviewSettingsCard';
import { PreviewsExplained } from './PreviewsExplained';
import { PreviewVariablesCard } from './PreviewVariablesCard';

/** Workspace Settings → Previews: a running copy of each pull request, what it may see, and the list of them. */
export function PreviewsTab({ workspace }: { workspace: string }) {
  return (
    <div className="space-y-6">
      <PreviewSettingsCard workspace={workspace} />
      <section aria-labelledby="previews-heading" className="space-y-3">
        <div>
          <h2 id="previews-heading" className="text-lg font-semibold text-zinc-900">
            Pull request previews
          </h2>
          <p className="mt-1 text-sm text-zinc-600">
            Newest pull request first. Deploying → Live; a stranger's pull request awaits approval first.
          </p>
        </div>
        <PreviewList workspace={workspace} />
      </section>
      <PreviewVariablesCard workspace={workspace} />
      <PreviewsExplained workspace={workspace} />
    </div>
  );
}
