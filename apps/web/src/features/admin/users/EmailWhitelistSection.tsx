import type { WhitelistedEmail } from '@slipway/contract';
import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { addWhitelistedEmail, removeWhitelistedEmail } from '../../../api/admin';
import { useWhitelistedEmails } from '../../../api/adminQueries';
import { DataTable } from '../../../components/DataTable';
import { useDialogs } from '../../../components/DialogsProvider';
import { Button, Input } from '../../../components/ui';
import { formatDateTime } from '../../../lib/dates';
import {
  ACTION_FAILURE,
  EMAIL_ADDED,
  EMAIL_REMOVED,
  emailWhitelistInput,
  LOAD_FAILURE,
  NOTICE_MS,
  removeEmailConfirmText,
} from '../adminMessages';
import type { AdminNotifier } from '../adminTabTypes';
import { removeColumn } from '../RemoveColumn';
import { TabBody, TabSection } from '../TabSection';
import { useAdminLoad } from '../useAdminLoad';
import { useBusyAction } from '../useBusyAction';

/** The email whitelist: addresses let in as soon as their owner completes the profile. */
export function EmailWhitelistSection({
  notify,
  onChanged,
}: {
  notify: AdminNotifier;
  onChanged: () => void;
}) {
  const dialogs = useDialogs();
  const {
    data: emails,
    loading,
    reload,
  } = useAdminLoad(useWhitelistedEmails(), LOAD_FAILURE.whitelistedEmails, notify);
  const [email, setEmail] = useState('');
  const [notes, setNotes] = useState('');
  const { busy, run } = useBusyAction(notify);
  const input = emailWhitelistInput(email, notes);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!input || busy) return;
    await run('add', ACTION_FAILURE.addEmail, async () => {
      await addWhitelistedEmail(input);
      setEmail('');
      setNotes('');
      notify.notice(EMAIL_ADDED, NOTICE_MS.email);
      // Adding an email may let a waiting user in at once.
      onChanged();
      await reload();
    });
  }

  async function remove(address: string) {
    if (
      !(await dialogs.confirm(removeEmailConfirmText(address), { confirmLabel: 'Remove', destructive: true }))
    )
      return;
    await run(address, ACTION_FAILURE.removeEmail, async () => {
      await removeWhitelistedEmail(address);
      notify.notice(EMAIL_REMOVED, NOTICE_MS.email);
      await reload();
    });
  }

  return (
    <TabSection
      title="Email Whitelist"
      description="People who sign up with one of these addresses are let in when they complete their profile."
      loading={loading}
      onRefresh={reload}
    >
      <form onSubmit={add} className="mb-6 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <Input
          label="Email"
          type="email"
          placeholder="person@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Input
          label="Notes (optional)"
          placeholder="Why they are let in"
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
        <Button type="submit" icon={Plus} disabled={!input} loading={busy === 'add'}>
          Add
        </Button>
      </form>
      <TabBody
        loading={loading}
        hasData={emails !== undefined}
        empty={emails?.length === 0}
        emptyText="No emails on the whitelist"
      >
        <DataTable
          label="Whitelisted emails"
          rows={emails ?? []}
          rowKey={(entry) => entry.email}
          columns={[
            { header: 'Email', cell: (entry) => entry.email, className: 'font-medium text-zinc-900' },
            { header: 'Notes', cell: (entry) => entry.notes ?? <span className="text-zinc-400">—</span> },
            { header: 'Added by', cell: (entry) => entry.added_by },
            { header: 'Added', cell: (entry) => formatDateTime(entry.added_at) },
            removeColumn((entry: WhitelistedEmail) => ({
              text: 'Remove',
              variant: 'ghost',
              'aria-label': `Remove ${entry.email}`,
              loading: busy === entry.email,
              onClick: () => remove(entry.email),
            })),
          ]}
        />
      </TabBody>
    </TabSection>
  );
}
