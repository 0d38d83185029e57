import { expect, it } from 'vitest';
import { inotifyWarning } from './inotifyLimit.js';

it('says to raise fs.inotify.max_user_instances when the followed logs come near it, and nothing before', () => {
  expect(inotifyWarning(100, () => '128\n')).toBeUndefined();
  expect(inotifyWarning(112, () => '128\n')).toBe(
    "112 container logs are followed on this engine and fs.inotify.max_user_instances is 128: past it Docker polls each further log every 200 ms, so log lines reach viewers late. Raise it on the engine's machine: sysctl -w fs.inotify.max_user_instances=8192 (and in /etc/sysctl.d to keep it).",
  );
  expect(inotifyWarning(200, () => '8192\n')).toBeUndefined();
  expect(
    inotifyWarning(500, () => {
      throw new Error('ENOENT');
    }),
  ).toBeUndefined();
});
