import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

describe('the generated Unicode data modules', () => {
  it.each(['generate-confusables.mjs', 'generate-script-names.mjs'])('are what scripts/%s makes of the data packages installed', (script) => {
    expect(() => execFileSync(process.execPath, [`scripts/${script}`, '--check'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  });
});
