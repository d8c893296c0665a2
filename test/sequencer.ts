/**
 * The longest test files first, also on a machine that never ran them (CI's clean clone). Vitest orders files by
 * the durations it cached on the machine, and without them in the glob's order, which can leave a long file to start
 * last while the other workers wait: the whole run then takes as long as that file's tail. `test/durations.json`
 * keeps each file's duration as last measured (`npm run durations` writes it again); what this machine has cached
 * comes first, and a file in neither runs first, as vitest runs what it does not know.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const measured: Record<string, number> = JSON.parse(readFileSync(join(import.meta.dirname, 'durations.json'), 'utf8'));

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (f: TestSpecification) => `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    const duration = (f: TestSpecification) => this.ctx.cache.getFileTestResults(key(f))?.duration ?? measured[key(f)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (a.project.name === b.project.name ? 0 : a.project.name < b.project.name ? -1 : 1) ||
        duration(b) - duration(a) ||
        0,
    );
  }
}
