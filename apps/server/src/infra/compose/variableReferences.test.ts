import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { interpolateTree } from './composeInterpolation.js';
import { stringifyCompose } from './composeYaml.js';
import { variableReferences, writeWithReferences } from './variableReferences.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'slipway-references-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('variable references in the project file', () => {
  it('writes each value as its reference and every other $ as a literal', () => {
    const refs = variableReferences([
      { key: 'SHORT', value: 'abc' },
      { key: 'LONG', value: 'abc$def' },
      { key: 'EMPTY', value: '' },
      { key: 'SAME', value: 'abc' },
    ]);
    expect(refs.environment).toEqual({ SLIPWAY_VAR_SHORT: 'abc', SLIPWAY_VAR_LONG: 'abc$def' });
    // The longer value wins where both start; an empty value refers to nothing.
    expect(writeWithReferences('x=abc$def;y=abc;$HOME', refs)).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the references are the point
      'x=${SLIPWAY_VAR_LONG};y=${SLIPWAY_VAR_SHORT};$$HOME',
    );
  });

  it('reads back as the very model when Compose interpolates it with the environment given', () => {
    // Values that overlap, hold `$`, braces, quotes, newlines and YAML 1.1 look-alikes, at every place.
    for (let round = 0; round < 200; round++) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${X} in a value is the point
      const alphabet = ['a', 'b', '$', '{', '}', '"', "'", '\n', ':', ' ', '0', 'no', '${X}', '$$'];
      const word = (length: number) =>
        Array.from({ length }, () => alphabet[randomBytes(1)[0]! % alphabet.length]).join('');
      const env = Array.from({ length: 4 }, (_, i) => ({ key: `K${i}`, value: word(1 + (round % 7)) }));
      const texts = Array.from({ length: 6 }, () =>
        [word(3), env[randomBytes(1)[0]! % env.length]!.value, word(2)].join(''),
      );
      const model = {
        services: {
          app: { image: 'busybox:1.36', environment: { A: texts[0], B: texts[1] }, command: texts.slice(2) },
        },
      };
      const refs = variableReferences(env);
      const read = YAML.parse(stringifyCompose(model, refs), { version: '1.1' });
      expect(interpolateTree(read, refs.environment)).toEqual(model);
    }
  });

  it('is read by docker-compose with every value put back byte for byte, and holds none of them', async () => {
    const values = {
      TOKEN: `tok-${randomBytes(12).toString('hex')}`,
      PEM: `-----BEGIN KEY-----\n${randomBytes(24).toString('base64')}\n-----END KEY-----\n`,
      DOLLARS: `p$ss\${HOME}$$-${randomBytes(6).toString('hex')}`,
      QUOTES: `it's "quoted" ${randomBytes(6).toString('hex')}`,
      OCTAL: '0755',
    };
    const env = Object.entries(values).map(([key, value]) => ({ key, value }));
    const refs = variableReferences(env);
    const model = {
      services: {
        app: {
          image: 'busybox:1.36',
          environment: { ...values, URL: `postgres://app:${values.TOKEN}@db/app` },
          labels: { 'app.token': values.TOKEN },
          command: ['sh', '-c', `echo ${values.QUOTES}`],
          build: { context: '.', args: { BUILD_TOKEN: values.TOKEN } },
        },
      },
    };
    const text = stringifyCompose(model, refs);
    for (const value of Object.values(values).filter((v) => v.length > 4)) {
      for (const line of value.split('\n').filter(Boolean)) expect(text).not.toContain(line);
    }
    const file = path.join(dir, 'compose.yml');
    writeFileSync(file, text);
    const { stdout } = await run('docker-compose', ['-f', file, '--project-directory', dir, 'config'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...refs.environment },
    });
    const app = (YAML.parse(stdout, { version: '1.1' }) as typeof model).services.app;
    // `config` prints what it read with every literal `$` doubled again.
    const printed = (value: string) => value.replaceAll('$', () => '$$');
    for (const [key, value] of Object.entries(values)) {
      expect(String(app.environment[key as keyof typeof values])).toBe(printed(value));
    }
    expect(app.environment.URL).toBe(printed(model.services.app.environment.URL));
    expect(app.labels['app.token']).toBe(values.TOKEN);
    expect(app.command).toEqual(model.services.app.command.map(printed));
    expect(app.build.args.BUILD_TOKEN).toBe(values.TOKEN);
  });
});
