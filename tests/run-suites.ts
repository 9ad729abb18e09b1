// `npm test`'s last step: the unit + API suite (vitest), then the end-to-end suite (Playwright), one
// after the other. Run side by side on two cores they took longer than in turn (measured on this
// machine, idle: 877 s side by side; 223 s + 545 s in turn), because vitest fills both cores and the
// browser tests' timed waits stretch under that load. Vitest's report is held and printed when it
// ends: whole when it failed, its summary and slowest files when it passed. Playwright's output
// streams live and its failures are printed again last, where a reader of the end of a long CI log
// finds them. The end-to-end suite runs even when vitest failed, so one CI run reports both; the exit
// code fails when either suite fails.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Outcome {
  name: string;
  code: number;
  seconds: number;
}

/** Runs a command with its output written to `log`, and also to this process's when `live`. */
function run(name: string, command: string, args: string[], log: string, live: boolean): Promise<Outcome> {
  const started = Date.now();
  const out = fs.openSync(log, 'w');
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const take = (chunk: Buffer) => {
    fs.writeSync(out, chunk);
    if (live) process.stdout.write(chunk);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      fs.closeSync(out);
      resolve({ name, code: code ?? (signal ? 1 : 0), seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

/** Vitest's slowest test files, from its report's per-file lines ("✓ tests/x.test.ts (4 tests) 7357ms"). */
function slowestFiles(log: string, count: number): string {
  // Colour codes out first: ESC, then "[...m".
  const plain = fs
    .readFileSync(log, 'utf8')
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  const files = [...plain.matchAll(/^ *[✓❯×] (tests\/\S+) \([^)]*\) (\d+)ms/gm)]
    .map((m) => ({ file: m[1], ms: Number(m[2]) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  return files.map((f) => `${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}\n`).join('');
}

/** The log's last `count` lines. */
function lastLines(log: string, count: number): string {
  const lines = fs.readFileSync(log, 'utf8').trimEnd().split('\n');
  return `${lines.slice(-count).join('\n')}\n`;
}

const bin = (name: string) => path.join('node_modules', '.bin', name);
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-suites-'));
const vitestLog = path.join(logs, 'vitest.log');
const e2eLog = path.join(logs, 'playwright.log');

console.log('Running the unit + API tests (vitest, output below when they end)');
const vitest = await run('unit + API (vitest)', bin('vitest'), ['run'], vitestLog, false);
{
  const shown =
    vitest.code === 0
      ? `The slowest files:\n${slowestFiles(vitestLog, 15)}${lastLines(vitestLog, 8)}`
      : fs.readFileSync(vitestLog, 'utf8');
  const whole = vitest.code === 0 ? ` (its summary; the whole report is in ${vitestLog})` : '';
  process.stdout.write(`\n----- vitest${whole} -----\n${shown}----- end of vitest -----\n\n`);
}
console.log('Running the end-to-end tests (Playwright)');
const e2e = await run('end to end (Playwright)', bin('playwright'), ['test'], e2eLog, true);

const outcomes = [vitest, e2e];
if (e2e.code !== 0)
  process.stdout.write(
    `\n----- the end of the end-to-end report, again -----\n${lastLines(e2eLog, 150)}----- end -----\n\n`,
  );
for (const o of outcomes)
  console.log(`${o.name}: ${o.code === 0 ? 'passed' : `FAILED (exit ${o.code})`} in ${o.seconds} s`);
process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
