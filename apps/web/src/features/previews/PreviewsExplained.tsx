import { PREVIEW_APPROVAL_COMMAND, previewWorkspaceName } from '@slipway/contract';
import { Github, type LucideIcon, ShieldCheck, Terminal } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardBody } from '../../components/ui';

/** What a preview is, what it can see, and how pull requests reach Slipway (GitHub, or local branches). */
export function PreviewsExplained({ workspace }: { workspace: string }) {
  return (
    <Card>
      <CardBody className="grid gap-6 text-sm text-zinc-700 md:grid-cols-3">
        <Part icon={ShieldCheck} title="What a preview can see">
          <p>
            A preview runs the pull request's own compose file in a workspace of its own (
            <code className="font-mono text-xs">{previewWorkspaceName(workspace, 5)}</code> for #5), with URLs
            of its own. It gets <strong>no variable</strong> of this workspace unless you mark one "also for
            previews" below, and you can give it a value for previews only, so a preview never talks to
            production's database unless you say so.
          </p>
          <p>
            A pull request from a fork, or from someone without write access, runs only after someone with
            write access approves its commit.
          </p>
        </Part>
        <Part icon={Github} title="With GitHub">
          <p>
            Turn previews on and subscribe the GitHub App to{' '}
            <code className="font-mono text-xs">pull_request</code> events. Opening or pushing to a pull
            request deploys its head commit; closing it removes the preview and everything it made. Slipway
            comments on the pull request with the links and keeps that one comment up to date.
          </p>
          <p>
            To approve a stranger's pull request, press Approve on its row or comment{' '}
            <code className="font-mono text-xs">{PREVIEW_APPROVAL_COMMAND}</code>.
          </p>
        </Part>
        <Part icon={Terminal} title="In local mode">
          <p>
            A branch named <code className="font-mono text-xs">pr/5</code> in the local repository stands for
            pull request #5 (so does any ref under <code className="font-mono text-xs">refs/pull/</code>):
            creating it opens the pull request, moving it pushes to it, deleting it closes it.
          </p>
        </Part>
      </CardBody>
    </Card>
  );
}

function Part({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="flex items-center gap-2 font-semibold text-zinc-900">
        <Icon className="h-4 w-4 text-accent-600" aria-hidden="true" />
        {title}
      </h3>
      {children}
    </section>
  );
}
