/**
 * After `npm run mutate`: one line per mutated file with its mutation score,
 * as a Markdown table. `--survivors` also lists each surviving or uncovered
 * mutant (file:line:column, mutator, the line as mutated), the list to work
 * from when writing the test that kills it. The
 * line is shown with the replacement spliced in at the mutant's own span:
 * several mutants of one line start at the same column (`a && b` → true, and
 * `a` → true), and a bare replacement would not tell which one survived.
 * Several reports (narrow runs of different files) are merged, the later
 * report winning for a file both hold.
 * Usage: tsx dev/mutation/scores.ts [report.json ...] [--survivors]
 */
import { readFileSync } from 'node:fs';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}

const args = process.argv.slice(2);
const paths = args.filter((a) => !a.startsWith('--'));
const report: Report = { files: {} };
for (const path of paths.length > 0 ? paths : ['reports/mutation/mutation.json']) {
  Object.assign(report.files, (JSON.parse(readFileSync(path, 'utf8')) as Report).files);
}
const detected = new Set(['Killed', 'Timeout']);
const undetected = new Set(['Survived', 'NoCoverage']);

const rows = Object.entries(report.files)
  .map(([file, { mutants }]) => {
    const killed = mutants.filter((m) => detected.has(m.status)).length;
    const missed = mutants.filter((m) => undetected.has(m.status)).length;
    const valid = killed + missed;
    return { file, killed, missed, score: valid === 0 ? 100 : (100 * killed) / valid };
  })
  .sort((a, b) => a.file.localeCompare(b.file));

console.log('| file | mutation score | killed | survived + no coverage |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.file} | ${r.score.toFixed(1)} % | ${r.killed} | ${r.missed} |`);
const below = rows.filter((r) => r.score < 80);
console.log(below.length === 0 ? '\nEvery file scores at least 80 %.' : `\nBelow 80 %: ${below.map((r) => r.file).join(', ')}`);

if (args.includes('--survivors')) {
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const lines = source.split('\n');
    for (const m of mutants.filter((x) => undetected.has(x.status))) {
      const { start, end } = m.location;
      const text = lines[start.line - 1] ?? '';
      const mutated =
        start.line === end.line
          ? `${text.slice(0, start.column - 1)}${m.replacement ?? ''}${text.slice(end.column - 1)}`.trim()
          : `${m.replacement ?? ''} (lines ${start.line}–${end.line})`;
      console.log(`\n${file}:${start.line}:${start.column} ${m.status} ${m.mutatorName}\n  ${text.trim()}\n  → ${mutated}`);
    }
  }
}
