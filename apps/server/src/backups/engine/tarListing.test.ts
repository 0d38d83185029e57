import { describe, expect, it } from 'vitest';
import { type TarEntry, volumeEntryGuard } from './tarListing.js';

const entry = (path: string, type = '0', linkTarget = ''): TarEntry => ({ path, type, size: 0, linkTarget });

function refusal(entries: TarEntry[]): string | undefined {
  const guard = volumeEntryGuard('/srv/uploads');
  try {
    for (const member of entries) guard(member);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("keeping an archive's members inside their volume", () => {
  it('lets files, directories and links that stay inside through', () => {
    expect(
      refusal([
        entry('./', '5'),
        entry('./a/', '5'),
        entry('./a/b.txt'),
        entry('./a/link', '2', '../a/b.txt'),
        entry('./abs', '2', '/srv/uploads/a/b.txt'),
        entry('./hard', '1', './a/b.txt'),
        entry('./..dots'),
      ]),
    ).toBeUndefined();
  });

  it.each([
    [[entry('../evil')], 'goes up with ..'],
    [[entry('./a/../../evil')], 'goes up with ..'],
    [[entry('/etc/passwd')], 'is an absolute path'],
    [[entry('./up', '2', '../../etc')], 'links to'],
    [[entry('./root', '2', '/etc')], 'links to'],
    [[entry('./dir', '2', 'a'), entry('./dir/x')], 'is written through a link'],
    [[entry('./hard', '1', '../outside')], 'is a hard link'],
    [[entry('./dev', '3')], 'is of tar type 3'],
  ])('refuses %j', (entries, why) => {
    expect(refusal(entries)).toMatch(/^The archive holds a path outside its volume, so nothing was restored/);
    expect(refusal(entries)).toContain(why);
  });
});
