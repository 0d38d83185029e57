import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { stringifyCompose } from './composeYaml.js';

/**
 * The project file round-trips through the readers Compose uses: every string YAML 1.1 would retype comes back a
 * string, read by the `yaml` package in 1.1 mode, by PyYAML itself (Compose v1's reader), and by
 * `docker-compose config`.
 */
const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'slipway-yaml11-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RETYPED = [
  ...['no', 'No', 'NO', 'yes', 'Yes', 'on', 'On', 'ON', 'off', 'Off', 'y', 'Y', 'n', 'N'],
  ...['true', 'False', 'TRUE', '~', 'null', 'Null', 'NULL', ''],
  ...['12:30', '1:2:3', '190:20:30.15', '-12:30'],
  ...['1_000', '0755', '0o17', '0x1F', '0b1010', '+1', '-0', '1e3', '1.5', '.5', '123', '007'],
  ...['.inf', '-.Inf', '+.INF', '.nan', '.NaN'],
  ...['2024-05-01', '2024-5-1', '2001-12-14t21:59:43.10-05:00', '2024-05-01 10:00:00'],
  ...['=', '<<', '-', '- x', '#x', 'a: b', '@x', '`x', '%x', '!x', '&x', '*x', '|x', '>x', '"q"', "'s'"],
  ...['multi\nline', ' leading', 'trailing ', 'tab\tx', 'ünïcödé'],
];

const project = {
  services: {
    app: {
      image: 'busybox:1.36',
      restart: 'no',
      environment: Object.fromEntries(RETYPED.map((value, i) => [`V${i}`, value])),
      labels: Object.fromEntries(RETYPED.filter(Boolean).map((value) => [value.replace(/\s/g, '_'), value])),
      command: RETYPED,
    },
  },
};

describe('the project file in YAML 1.1', () => {
  const text = stringifyCompose(project);
  const file = path.join(dir, 'compose.yml');
  writeFileSync(file, text);

  it('reads back unchanged with a YAML 1.1 reader', () => {
    expect(YAML.parse(text, { version: '1.1' })).toEqual(project);
  });

  it('reads back unchanged with PyYAML, the reader of Compose v1', async () => {
    const { stdout } = await run('python3', [
      '-c',
      'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))',
      file,
    ]);
    expect(JSON.parse(stdout)).toEqual(project);
  });

  it('is read by docker-compose, `restart: "no"` and every variable kept as written', async () => {
    const { stdout } = await run('docker-compose', ['-f', file, '--project-directory', dir, 'config'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
    });
    const config = YAML.parse(stdout, { version: '1.1' }) as typeof project;
    expect(config.services.app.restart).toBe('no');
    for (const value of ['no', 'on', '12:30', '1_000', '0755', '0x1F', '.inf', '~', '2024-05-01', 'y']) {
      const key = `V${RETYPED.indexOf(value)}`;
      expect(
        String(config.services.app.environment[key as keyof typeof config.services.app.environment]),
      ).toBe(value);
    }
  });

  it('escapes every $ so Compose interpolates nothing', async () => {
    const dollars = {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
      services: { app: { image: 'busybox:1.36', environment: { A: '${HOME} $(id) $$ $X' } } },
    };
    const escaped = path.join(dir, 'dollars.yml');
    writeFileSync(escaped, stringifyCompose(dollars));
    const { stdout } = await run(
      'docker-compose',
      ['-f', escaped, '--project-directory', dir, 'config', '--no-interpolate'],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, X: 'leak' } },
    );
    expect(stdout).toContain('A: $${HOME} $$(id) $$$$ $$X');
  });
});
