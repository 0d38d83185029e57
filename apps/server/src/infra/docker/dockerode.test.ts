import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWhenCalled } from './dockerode.js';

const dir = mkdtempSync(path.join(tmpdir(), 'slipway-load-when-called-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const require = createRequire(path.join(dir, 'index.js'));

/** A module that counts its loads in a global, exporting one function. */
function writeModule(name: string) {
  writeFileSync(
    path.join(dir, name),
    `globalThis.loads = (globalThis.loads ?? 0) + 1;\nmodule.exports = function (a, b) { return [this?.tag, a + b]; };\n`,
  );
  return path.join(dir, name);
}
const loads = () => (globalThis as { loads?: number }).loads ?? 0;

describe('loadWhenCalled', () => {
  it('loads the module on the first call only, and calls its export with the same this and arguments', () => {
    const file = writeModule('transport.js');
    const before = loads();
    loadWhenCalled(require, './transport.js');
    const stand = require('./transport.js') as (this: unknown, a: number, b: number) => unknown;
    expect(loads()).toBe(before);
    expect(stand.call({ tag: 'me' }, 2, 3)).toEqual(['me', 5]);
    expect(loads()).toBe(before + 1);
    expect(stand(1, 1)).toEqual([undefined, 2]);
    expect(loads()).toBe(before + 1);
    // The real module took its place: whoever requires it now gets the real export.
    expect(require(file)).not.toBe(stand);
  });

  it('leaves a module that is already loaded, and one that does not exist, alone', () => {
    writeModule('loaded.js');
    const real = require('./loaded.js');
    loadWhenCalled(require, './loaded.js');
    expect(require('./loaded.js')).toBe(real);
    expect(() => loadWhenCalled(require, './missing.js')).not.toThrow();
  });

  it('finds the two dockerode files it defers, each exporting one function', () => {
    const dockerode = createRequire(createRequire(import.meta.url).resolve('dockerode'));
    const exportOf = (request: string) =>
      readFileSync(dockerode.resolve(request), 'utf8').match(/^module\.exports = (function \(|\w+;)/m)?.[1];
    expect(exportOf('docker-modem/lib/ssh.js')).toBe('function (');
    expect(exportOf('./session.js')).toBe('withSession;');
    expect(readFileSync(dockerode.resolve('./session.js'), 'utf8')).toMatch(/^function withSession\(/m);
  });
});
